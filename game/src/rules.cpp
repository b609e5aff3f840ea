#include "hydra/game/rules.hpp"

#include <algorithm>
#include <deque>
#include <mutex>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "hydra/common/error.hpp"
#include "hydra/common/read_file.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"
#include "hydra/common/index.hpp"

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
      if (!it->is_boolean()) fail(origin_, path, "expected true or false, got " + json::excerpt(*it));
      value = it->template get<bool>();
    } else if constexpr (std::is_same_v<T, GameLength>) {
      const auto length = parse_game_length(it->is_string() ? it->template get<std::string>() : std::string());
      if (!length) fail(origin_, path, "expected \"hanchan\", \"tonpuusen\" or \"kyoku\", got " + json::excerpt(*it));
      value = *length;
    } else if constexpr (std::is_same_v<T, std::array<int, 4>>) {
      if (!it->is_array() || it->size() != 4) fail(origin_, path, "expected 4 integers (1st to 4th), got " + json::excerpt(*it));
      for (std::size_t i = 0; i < 4; ++i) {
        if (!(*it)[i].is_number_integer()) fail(origin_, path, "expected 4 integers (1st to 4th), got " + json::excerpt(*it));
        value[i] = fit<int>((*it)[i], path);
      }
    } else {
      if (!it->is_number_integer()) fail(origin_, path, "expected an integer, got " + json::excerpt(*it));
      value = fit<T>(*it, path);
    }
  }

  void reject_unknown() const {
    for (const auto& item : object_.items()) {
      bool known = false;
      for (const auto& k : seen_) known = known || k == item.key();
      if (!known) fail(origin_, prefix_ + text::excerpt(item.key()), "unknown key");
    }
  }

 private:
  // An integer JSON value as T, refused when it does not fit (get<T> would wrap it).
  template <class T>
  T fit(const Json& v, const std::string& path) const {
    if (v.is_number_unsigned() ? !std::in_range<T>(v.template get<std::uint64_t>())
                               : !std::in_range<T>(v.template get<std::int64_t>()))
      fail(origin_, path, json::excerpt(v) + " is out of range");
    return v.template get<T>();
  }

  const Json& object_;
  std::string prefix_;
  std::string_view origin_;
  std::vector<std::string> seen_;
};

void validate(const TableRules& rules, std::string_view origin) {
  const int f = rules.scoring.double_wind_pair_fu;
  if (f != 2 && f != 4) fail(origin, "scoring.double_wind_pair_fu", std::to_string(f) + " must be 2 or 4");
  if (rules.start_score < 100 || rules.start_score > 1000000 || rules.start_score % 100 != 0)
    fail(origin, "table.start_score", std::to_string(rules.start_score) + " must be a multiple of 100 in [100, 1000000]");
  if (rules.target_score < rules.start_score || rules.target_score > 1000000 || rules.target_score % 100 != 0)
    fail(origin, "table.target_score",
         std::to_string(rules.target_score) + " must be a multiple of 100 in [start_score, 1000000]");
  if (rules.extension_rounds < 0 || rules.extension_rounds > 3)
    fail(origin, "table.extension_rounds", std::to_string(rules.extension_rounds) + " must be in [0, 3]");
  if (rules.oka < 0 || rules.oka > 1000000) fail(origin, "table.oka", std::to_string(rules.oka) + " must be in [0, 1000000]");
  for (const auto& [key, uma] : {std::pair{"table.uma_train", rules.uma_train}, std::pair{"table.uma_eval", rules.uma_eval}})
    for (int i = 1; i < 4; ++i)
      if (uma[ix(i)] > uma[static_cast<std::size_t>(i - 1)])
        fail(origin, key, "must not increase from 1st to 4th place");
}

// Reads one required object block with the strict reader.
template <class Visit>
void read_block(const Json& root, const char* key, std::string_view origin, Visit&& visit) {
  const auto block = root.find(key);
  if (block == root.end() || !block->is_object()) fail(origin, key, "missing or not an object");
  StrictReader reader(*block, std::string(key) + ".", origin);
  visit(reader);
  reader.reject_unknown();
}

}  // namespace

TableRules parse_rules(std::string_view json_text, std::string_view origin) {
  Json root;
  try {
    root = json::parse(json_text, {.comments = true});
  } catch (const json::ParseError& e) {
    throw Error("rules error in '" + std::string(origin) + "': " + e.what());
  }
  if (!root.is_object()) fail(origin, "<top>", "expected a JSON object");
  TableRules rules;
  const auto name = root.find("name");
  if (name == root.end() || !name->is_string()) fail(origin, "name", "missing or not a string");
  rules.name = name->get<std::string>();
  read_block(root, "scoring", origin, [&](StrictReader& r) { rules.scoring.visit(r); });
  read_block(root, "table", origin, [&](StrictReader& r) { rules.visit_table(r); });
  for (const auto& item : root.items())
    if (item.key() != "name" && item.key() != "scoring" && item.key() != "table") fail(origin, text::excerpt(item.key()), "unknown key");
  validate(rules, origin);
  return rules;
}

TableRules load_rules(const std::filesystem::path& file) {
  return parse_rules(read_file(file, "rules file"), file.string());
}

std::optional<GameLength> parse_game_length(std::string_view text) {
  if (text == "hanchan") return GameLength::hanchan;
  if (text == "tonpuusen") return GameLength::tonpuusen;
  if (text == "kyoku") return GameLength::one_kyoku;
  return std::nullopt;
}

namespace {

// The presets, parsed once on first use and sorted by name; they never change while the program
// runs.
const std::vector<TableRules>& presets() {
  static const std::vector<TableRules> all = [] {
    std::vector<TableRules> out;
    for (int i = 0; i < detail::kNumRulesPresets; ++i) {
      const auto& [file_name, text] = detail::kRulesPresetTexts[i];
      const std::string origin = "configs/rules/" + std::string(file_name) + ".json";
      out.push_back(parse_rules(text, origin));
      if (out.back().name != file_name) fail(origin, "name", "must equal the file name '" + std::string(file_name) + "'");
    }
    std::sort(out.begin(), out.end(), [](const TableRules& x, const TableRules& y) { return x.name < y.name; });
    return out;
  }();
  return all;
}

const TableRules* find_preset(std::string_view name) {
  for (const TableRules& r : presets())
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace

std::vector<std::string> rules_preset_names() {
  std::vector<std::string> names;
  for (const TableRules& r : presets()) names.push_back(r.name);
  return names;
}

const TableRules& rules_preset(std::string_view name) {
  if (const TableRules* r = find_preset(name)) return *r;
  std::string list;
  for (const TableRules& r : presets()) {
    if (!list.empty()) list += ", ";
    list += r.name;
  }
  throw Error("unknown rules preset '" + text::excerpt(name) + "' (presets: " + list +
              "; or a rules JSON file; either may end in +no-red and/or +no-kuitan)");
}

namespace {

constexpr std::string_view kNoRed = "+no-red", kNoKuitan = "+no-kuitan";

// Rules made on first use (files read, variants), by the name as given; a deque keeps every
// element where it is, so references stay valid.
template <class Make>
const TableRules& made_once(std::string_view name, Make&& make) {
  static std::mutex mu;
  static std::deque<std::pair<std::string, TableRules>> made;
  {
    const std::lock_guard lock(mu);
    for (const auto& [n, rules] : made)
      if (n == name) return rules;
  }
  TableRules rules = make();  // outside the lock: a variant resolves its base through here
  const std::lock_guard lock(mu);
  for (const auto& [n, r] : made)
    if (n == name) return r;
  made.emplace_back(std::string(name), std::move(rules));
  return made.back().second;
}

bool strip_suffix(std::string_view& s, std::string_view suffix) {
  if (s.size() <= suffix.size() || s.substr(s.size() - suffix.size()) != suffix) return false;
  s.remove_suffix(suffix.size());
  return true;
}

}  // namespace

std::string rules_variant_name(const TableRules& base, bool red_fives, bool kuitan) {
  // The options in one order (+no-red before +no-kuitan), whatever order `base` was named in.
  std::string_view root = base.name;
  bool no_red = false, no_kuitan = false;
  for (bool more = true; more;) {
    more = false;
    if (strip_suffix(root, kNoRed)) more = no_red = true;
    if (strip_suffix(root, kNoKuitan)) more = no_kuitan = true;
  }
  no_red = no_red || (!red_fives && base.red_fives);
  no_kuitan = no_kuitan || (!kuitan && base.scoring.kuitan);
  return std::string(root) + (no_red ? std::string(kNoRed) : "") + (no_kuitan ? std::string(kNoKuitan) : "");
}

const TableRules& table_rules(std::string_view name_or_path) {
  if (const TableRules* r = find_preset(name_or_path)) return *r;
  const std::filesystem::path file{std::string(name_or_path)};
  if (std::filesystem::exists(file)) return made_once(name_or_path, [&] { return load_rules(file); });
  // NAME+OPTION: the rules NAME names (a preset, a file or a variant itself) with the option.
  std::string_view base = name_or_path;
  const bool no_red = strip_suffix(base, kNoRed), no_kuitan = !no_red && strip_suffix(base, kNoKuitan);
  if (!no_red && !no_kuitan) return rules_preset(name_or_path);  // throws, listing the presets
  const TableRules& of = table_rules(base);
  return made_once(name_or_path, [&] {
    TableRules r = of;
    if (no_red) r.red_fives = false;
    if (no_kuitan) r.scoring.kuitan = false;
    r.name = rules_variant_name(of, r.red_fives, r.scoring.kuitan);
    return r;
  });
}

}  // namespace hydra::game
