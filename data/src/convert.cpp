#include "hydra/data/convert.hpp"

#include <algorithm>

#include "hydra/data/log_rules.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/data/tenhou.hpp"
#include "hydra/data/text_file.hpp"

namespace hydra::data {
namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

constexpr std::string_view kLogExtensions[] = {".json.gz", ".mjson.gz", ".xml.gz", ".mjlog", ".json", ".mjson", ".xml"};

}  // namespace

std::string_view to_string(LogFormat f) {
  switch (f) {
    case LogFormat::mjai: return "mjai";
    case LogFormat::tenhou_xml: return "tenhou-xml";
    case LogFormat::tenhou6: return "tenhou6";
  }
  return "?";
}

LogFormat detect_format(const std::filesystem::path& path) {
  LineReader reader(path);
  std::string_view line;
  std::string head;
  while (head.size() < 4096 && reader.next(line)) head.append(line).append("\n");
  const auto first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first == std::string::npos) throw Error(path.string() + ": empty file");
  if (head[first] == '<') return LogFormat::tenhou_xml;
  if (head[first] == '{') {
    const auto log = head.find("\"log\"");
    const auto type = head.find("\"type\"");
    if (log != std::string::npos && (type == std::string::npos || log < type)) return LogFormat::tenhou6;
    if (type != std::string::npos) return LogFormat::mjai;
  }
  throw Error(path.string() + ": not a log Hydra reads (mjai JSON lines, Tenhou mjlog XML or tenhou.net/6 JSON)");
}

GameLog read_log(const std::filesystem::path& path) {
  switch (detect_format(path)) {
    case LogFormat::tenhou_xml: return read_tenhou_xml(path);
    case LogFormat::tenhou6: return read_tenhou6(path);
    case LogFormat::mjai: break;
  }
  return read_mjai(path);
}

std::vector<std::filesystem::path> collect_log_files(const std::vector<std::filesystem::path>& inputs) {
  std::vector<std::filesystem::path> files;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (std::filesystem::is_directory(in, ec)) {
      std::vector<std::filesystem::path> found;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(in)) {
        if (!entry.is_regular_file()) continue;
        const std::string name = entry.path().filename().string();
        if (std::any_of(std::begin(kLogExtensions), std::end(kLogExtensions), [&](std::string_view e) { return ends_with(name, e); }))
          found.push_back(entry.path());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(in, ec)) {
      files.push_back(in);
    } else {
      throw Error(in.string() + ": no such file or folder");
    }
  }
  return files;
}

std::filesystem::path converted_name(const std::filesystem::path& input) {
  std::string name = input.filename().string();
  for (std::string_view e : kLogExtensions)
    if (ends_with(name, e)) {
      name.resize(name.size() - e.size());
      break;
    }
  return name + ".json.gz";
}

std::optional<FileFault> guard_file(const std::filesystem::path& file, const std::function<void()>& work) {
  try {
    work();
  } catch (const UnsupportedRule& e) {
    return FileFault{true, e.what()};
  } catch (const Error& e) {
    return FileFault{false, e.what()};
  } catch (const std::exception& e) {  // a bug, but one bad file must not stop a batch
    return FileFault{false, file.string() + ": internal error: " + e.what()};
  }
  return std::nullopt;
}

ConvertResult convert_file(const std::filesystem::path& input, const std::filesystem::path& out_dir, bool write) {
  ConvertResult r;
  r.input = input;
  r.output = out_dir / converted_name(input);
  const auto fault = guard_file(input, [&] {
    const GameLog log = read_log(input);
    // The rules the log names (a Tenhou lobby and date), else Hydra's default.
    const game::TableRules& rules = RulesChoice::per_log(game::rules_preset("tenhou")).of(log);
    r.rules = rules.name;
    require_supported(log, rules, input.string());
    if (write) write_mjai(r.output, log);
    r.status = ConvertResult::Status::ok;
    r.events = log.events.size();
    r.kyoku = static_cast<int>(std::count_if(log.events.begin(), log.events.end(),
                                             [](const game::Event& e) { return e.type == game::EventType::start_kyoku; }));
  });
  if (fault) {
    r.status = fault->unsupported ? ConvertResult::Status::unsupported : ConvertResult::Status::failed;
    r.message = fault->message;
  }
  return r;
}

}  // namespace hydra::data
