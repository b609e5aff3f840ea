#include "hydra/game/rules.hpp"

#include <fstream>
#include <sstream>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "hydra/common/error.hpp"

namespace hydra::game {
namespace detail {
extern const std::pair<std::string_view, std::string_view> kRulesPresetTexts[];
extern const int kNumRulesPresets;
}  // namespace detail

namespace {

using Json = nlohmann::json;

[[noreturn]] void fail(std::string_view origin, const std::string& path, const std::string& what) {
  throw Error("rules error in '" + std::string(origin) + "': " + path + ": " + what);
}

// Reads every field a struct's visit() lists: all required, types checked, unknown keys rejected.
class StrictReader {
 public:
  StrictReader(const Json& object, std::string prefix, std::string_view origin)
      : object_(object), prefix_(std::move(prefix)), origin_(origin) {}

  template <class T>
  void operator()(const char* key, T& value) {
    const std::string path = prefix_ + key;
    seen_.emplace_back(key);
    const auto it = object_.find(key);
    if (it == object_.end()) fail(origin_, path, "missing (every rules key is required)");
    if constexpr (std::is_same_v<T, bool>) {
      if (!it->is_boolean()) fail(origin_, path, "expected true or false, got " + it->dump());
      value = it->template get<bool>();
    } else {
      if (!it->is_number_integer()) fail(origin_, path, "expected an integer, got " + it->dump());
      value = it->template get<T>();
    }
  }

  void reject_unknown() const {
    for (const auto& item : object_.items()) {
      bool known = false;
      for (const auto& k : seen_) known = known || k == item.key();
      if (!known) fail(origin_, prefix_ + item.key(), "unknown key");
    }
  }

 private:
  const Json& object_;
  std::string prefix_;
  std::string_view origin_;
  std::vector<std::string> seen_;
};

void validate(const Rules& rules, std::string_view origin) {
  const int f = rules.scoring.double_wind_pair_fu;
  if (f != 2 && f != 4) fail(origin, "scoring.double_wind_pair_fu", std::to_string(f) + " must be 2 or 4");
}

}  // namespace

Rules parse_rules(std::string_view json_text, std::string_view origin) {
  Json root;
  try {
    root = Json::parse(json_text.begin(), json_text.end(), nullptr, true, /*ignore_comments=*/true);
  } catch (const Json::parse_error& e) {
    throw Error("rules error in '" + std::string(origin) + "': " + e.what());
  }
  if (!root.is_object()) fail(origin, "<top>", "expected a JSON object");
  Rules rules;
  const auto name = root.find("name");
  if (name == root.end() || !name->is_string()) fail(origin, "name", "missing or not a string");
  rules.name = name->get<std::string>();
  const auto scoring = root.find("scoring");
  if (scoring == root.end() || !scoring->is_object()) fail(origin, "scoring", "missing or not an object");
  StrictReader reader(*scoring, "scoring.", origin);
  rules.scoring.visit(reader);
  reader.reject_unknown();
  for (const auto& item : root.items())
    if (item.key() != "name" && item.key() != "scoring") fail(origin, item.key(), "unknown key");
  validate(rules, origin);
  return rules;
}

Rules load_rules(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot open rules file '" + file.string() + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_rules(text.str(), file.string());
}

std::vector<std::string> rules_preset_names() {
  std::vector<std::string> names;
  for (int i = 0; i < detail::kNumRulesPresets; ++i) names.emplace_back(detail::kRulesPresetTexts[i].first);
  return names;
}

const Rules& rules_preset(std::string_view name) {
  // Parsed once, on first use; the presets never change while the program runs.
  static const std::vector<Rules> presets = [] {
    std::vector<Rules> out;
    for (int i = 0; i < detail::kNumRulesPresets; ++i) {
      const auto& [file_name, text] = detail::kRulesPresetTexts[i];
      const std::string origin = "configs/rules/" + std::string(file_name) + ".json";
      out.push_back(parse_rules(text, origin));
      if (out.back().name != file_name) fail(origin, "name", "must equal the file name '" + std::string(file_name) + "'");
    }
    return out;
  }();
  for (const Rules& r : presets)
    if (r.name == name) return r;
  std::string list;
  for (const auto& n : rules_preset_names()) {
    if (!list.empty()) list += ", ";
    list += n;
  }
  throw Error("unknown rules preset '" + std::string(name) + "' (presets: " + list + ")");
}

Rules rules_from_name_or_file(std::string_view name_or_path) {
  for (const auto& n : rules_preset_names())
    if (n == name_or_path) return rules_preset(name_or_path);
  if (std::filesystem::exists(std::filesystem::path(name_or_path))) return load_rules(std::filesystem::path(name_or_path));
  return rules_preset(name_or_path);  // throws, listing the presets
}

}  // namespace hydra::game
