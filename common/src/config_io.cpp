#include "hydra/common/config_io.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>
#include <type_traits>

#include "config_validate.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/read_file.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"

namespace hydra::config {
namespace {

using Json = nlohmann::json;

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};

// Where each value came from, so messages can name the file or the --set flag.
struct Origins {
  std::string file;                                  // file name or "<defaults>"
  Json file_root;                                    // the file's JSON, before any --set
  std::map<std::string, std::string> set_flags;      // key path -> "--set a.b=c"
  std::map<std::string, std::string> set_sections;   // a section no file named -> the --set that made it

  std::string of(const std::string& path) const {
    for (const auto& [key, flag] : set_flags)
      if (path == key || path.starts_with(key + ".")) return "'" + flag + "'";
    if (const auto it = set_sections.find(path); it != set_sections.end()) return "'" + it->second + "'";
    return in_file(path) ? "'" + file + "'" : "'<defaults>'";
  }

  // Whether the file names `path` ("a.b", "a.b[2]"): a value it does not name is a default.
  bool in_file(const std::string& path) const {
    const Json* node = &file_root;
    std::size_t start = 0;
    while (start <= path.size()) {
      const auto dot = path.find('.', start);
      std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (const auto bracket = key.find('['); bracket != std::string::npos) key.resize(bracket);
      if (!node->is_object() || !node->contains(key)) return false;
      node = &(*node)[key];
      if (dot == std::string::npos) return true;
      start = dot + 1;
    }
    return true;
  }
};

[[noreturn]] void fail(const Origins& origins, const std::string& path, const std::string& what) {
  throw Error("config error in " + origins.of(path) + ": " + path + ": " + what);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string type_name(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    case Json::value_t::number_float: return "a number";
    default: return "an integer";
  }
}

// Converts one JSON value to T, or explains why not.
template <class T>
T convert(const Json& j, const Origins& origins, const std::string& path) {
  auto wrong = [&](const char* expected) {
    fail(origins, path, std::string("expected ") + expected + ", got " + type_name(j) + " " + json::excerpt(j));
  };
  if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) wrong("true or false");
    return j.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!j.is_number_integer()) wrong("an integer");
    if (j.is_number_unsigned()) {
      const auto u = j.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
        fail(origins, path, json::excerpt(j) + " does not fit the field's integer type");
      return static_cast<T>(u);
    }
    const auto s = j.get<std::int64_t>();
    if constexpr (std::is_unsigned_v<T>) {
      if (s < 0) fail(origins, path, json::excerpt(j) + " must not be negative");
    } else {
      if (s < std::numeric_limits<T>::min() || s > std::numeric_limits<T>::max())
        fail(origins, path, json::excerpt(j) + " does not fit the field's integer type");
    }
    return static_cast<T>(s);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.is_number()) wrong("a number");
    return j.get<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string()) wrong("a string");
    // Only a --set value can carry bytes that are not UTF-8 (a JSON file cannot); the config is
    // saved and printed as JSON, so such a value is refused here rather than mangled there.
    if (!text::valid_utf8(j.get_ref<const std::string&>()))
      fail(origins, path, "'" + json::excerpt(j) + "' is not valid UTF-8 text");
    return j.get<std::string>();
  } else {
    static_assert(sizeof(T) == 0, "unsupported config field type");
  }
}

template <class T>
std::string show(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    // Built piecewise: GCC 12 reports a false -Wrestrict on `"'" + std::string(...) + "'"`.
    std::string out = "'";
    out += text::excerpt(v);
    out += "'";
    return out;
  } else {
    std::ostringstream s;
    s << v;
    return s.str();
  }
}

template <class T, class Check>
void check_value(const T& v, const Check& check, const Origins& origins, const std::string& path) {
  if constexpr (std::is_same_v<Check, OneOf>) {
    if (std::find(check.choices.begin(), check.choices.end(), std::string_view(v)) == check.choices.end()) {
      std::string list;
      for (auto c : check.choices) list += (list.empty() ? "" : ", ") + std::string(c);
      for (const Retired& r : check.retired) {
        if (r.value != std::string_view(v)) continue;
        // Built piecewise: GCC 12 reports a false -Wrestrict on a chain of string additions.
        std::string what = show(v);
        what += " was retired (";
        what += r.note;
        what += "); one of: ";
        what += list;
        fail(origins, path, what);
      }
      fail(origins, path, show(v) + " is not one of: " + list);
    }
  } else if constexpr (!std::is_same_v<Check, NoCheck>) {
    if (v < check.lo || v > check.hi)
      fail(origins, path, show(v) + " is out of range [" + show(check.lo) + ", " + show(check.hi) + "]");
  }
}

// Reads a JSON object into a section struct, strictly.
class Reader {
 public:
  Reader(const Json& object, std::string prefix, const Origins& origins)
      : object_(object), prefix_(std::move(prefix)), origins_(origins) {}

  template <class T, class Check = NoCheck>
  void operator()(std::string_view key, T& value, std::string_view /*help*/, Check check = {}) {
    known_.emplace_back(key);
    const auto it = object_.find(std::string(key));
    if (it == object_.end()) return;
    const std::string path = prefix_ + std::string(key);
    if constexpr (IsOptional<T>::value) {
      if (it->is_null()) { value.reset(); return; }
      value = convert<typename T::value_type>(*it, origins_, path);
      check_value(*value, check, origins_, path);
    } else if constexpr (IsVector<T>::value) {
      if (!it->is_array()) fail(origins_, path, "expected an array, got " + type_name(*it) + " " + json::excerpt(*it));
      T out;
      for (std::size_t i = 0; i < it->size(); ++i) {
        const std::string ipath = path + "[" + std::to_string(i) + "]";
        out.push_back(convert<typename T::value_type>((*it)[i], origins_, ipath));
        check_value(out.back(), check, origins_, ipath);
      }
      value = std::move(out);
    } else {
      value = convert<T>(*it, origins_, path);
      check_value(value, check, origins_, path);
    }
  }

  template <class Section>
  void section(std::string_view key, Section& s) {
    known_.emplace_back(key);
    const auto it = object_.find(std::string(key));
    if (it == object_.end()) return;
    const std::string path = prefix_ + std::string(key);
    if (!it->is_object()) fail(origins_, path, "expected an object (a config section), got " + type_name(*it));
    Reader inner(*it, path + ".", origins_);
    s.visit(inner);
    inner.reject_unknown();
  }

  void reject_unknown() const {
    for (const auto& item : object_.items()) {
      if (std::find(known_.begin(), known_.end(), item.key()) != known_.end()) continue;
      std::string best;
      std::size_t best_d = 3;  // suggest only close matches
      for (const auto& k : known_) {
        const auto d = edit_distance(item.key(), k);
        if (d < best_d) { best_d = d; best = k; }
      }
      const std::string path = prefix_ + item.key();
      std::string msg = "unknown key '" + text::excerpt(path) + "'";
      if (!best.empty()) msg += " (did you mean '" + prefix_ + best + "'?)";
      throw Error("config error in " + origins_.of(path) + ": " + msg);
    }
  }

 private:
  const Json& object_;
  std::string prefix_;
  const Origins& origins_;
  std::vector<std::string> known_;
};

class Writer {
 public:
  explicit Writer(nlohmann::ordered_json& out) : out_(out) {}

  template <class T, class Check = NoCheck>
  void operator()(std::string_view key, const T& value, std::string_view /*help*/, Check = {}) {
    if constexpr (IsOptional<T>::value) {
      out_[std::string(key)] = value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
    } else {
      out_[std::string(key)] = value;
    }
  }

  template <class Section>
  void section(std::string_view key, const Section& s) {
    nlohmann::ordered_json inner = nlohmann::ordered_json::object();
    Writer w(inner);
    const_cast<Section&>(s).visit(w);  // visit() only reads through a Writer
    out_[std::string(key)] = std::move(inner);
  }

 private:
  nlohmann::ordered_json& out_;
};

Json parse_json(std::string_view text, const std::string& origin) {
  try {
    return json::parse(text, {.comments = true});
  } catch (const json::ParseError& e) {
    throw Error("config error in '" + origin + "': " + e.what());
  }
}

void apply_override(Json& root, const std::string& flag, Origins& origins) {
  const auto eq = flag.find('=');
  const std::string shown = text::excerpt(flag);
  if (eq == std::string::npos || eq == 0)
    throw Error("bad --set '" + shown + "': expected key.path=value, e.g. model.blocks=8");
  const std::string path = flag.substr(0, eq);
  const std::string text = flag.substr(eq + 1);
  Json value;
  try {
    value = json::parse(text);
  } catch (const json::ParseError& e) {
    // Bare words are strings (--set run.device=cpu); JSON that is too deep or holds a number
    // out of range is not a bare word.
    if (e.kind() != json::ParseError::Kind::syntax) throw Error("bad --set '" + shown + "': " + e.reason());
    value = text;
  }
  Json* node = &root;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (key.empty()) throw Error("bad --set '" + shown + "': empty key in '" + text::excerpt(path) + "'");
    if (!node->is_object())
      throw Error("bad --set '" + shown + "': '" + text::excerpt(path.substr(0, start - 1)) + "' is not a section");
    if (dot == std::string::npos) {
      (*node)[key] = value;
      break;
    }
    node = &(*node)[key];
    if (node->is_null()) {
      // A section no file named: an error about it (an unknown section) is this flag's.
      *node = Json::object();
      origins.set_sections.emplace(path.substr(0, dot), "--set " + shown);
    }
    start = dot + 1;
  }
  origins.set_flags[path] = "--set " + shown;
}

Config build(Json root, const std::string& origin, const std::vector<std::string>& overrides) {
  if (!root.is_object()) throw Error("config error in '" + origin + "': the top level must be a JSON object");
  Origins origins{origin, root, {}, {}};
  for (const auto& flag : overrides) apply_override(root, flag, origins);
  Config config;
  Reader reader(root, "", origins);
  config.visit(reader);
  reader.reject_unknown();
  detail::validate(config, [&](const std::string& key) { return origins.of(key); });
  return config;
}

}  // namespace

Config parse(std::string_view text, std::string_view origin, const std::vector<std::string>& overrides) {
  const std::string name(origin);
  return build(parse_json(text, name), name, overrides);
}

Config load(const std::optional<std::filesystem::path>& file, const std::vector<std::string>& overrides) {
  if (!file) return build(Json::object(), "<defaults>", overrides);
  std::error_code ec;
  if (std::filesystem::is_directory(*file, ec))
    throw Error("config file '" + file->string() + "' is a directory (--config takes a JSON file)");
  return parse(read_file(*file, "config file"), file->string(), overrides);
}

nlohmann::ordered_json to_json(const Config& config) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  Writer writer(out);
  const_cast<Config&>(config).visit(writer);
  return out;
}

}  // namespace hydra::config
