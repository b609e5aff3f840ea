// hydra convert IN... --out DIR: Tenhou mjlog XML, tenhou.net/6 JSON and mjai (either dialect)
// -> gzipped Mortal-dialect mjai, one file per game, with one report line per input (with the
// rules the log names: a Tenhou log's lobby and date, hydra/data/log_rules.hpp) and a summary
// with the number of games per rules.

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <oneapi/tbb/parallel_for.h>

#include "commands.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/text.hpp"
#include "hydra/data/convert.hpp"

namespace hydra::apps {

void register_convert(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "convert", "Convert Tenhou XML, tenhou.net/6 JSON or mjai logs into gzipped Mortal-dialect mjai");
  struct Opts {
    std::vector<std::string> inputs;
    std::string out;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("inputs", opts->inputs, "log files or folders (searched recursively)")->required();
  cmd->add_option("--out,-o", opts->out, "output folder (created if missing)")->required();
  cmd->callback([opts] {
    const std::vector<std::filesystem::path> inputs(opts->inputs.begin(), opts->inputs.end());
    const auto files = data::collect_log_files(inputs);
    const std::filesystem::path out_dir = opts->out;
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) throw Error(out_dir.string() + ": cannot create the output folder: " + ec.message());

    // Inputs that share an output name (the same game as XML and as JSON) are converted in input
    // order: the first that converts claims the name, a later one that would convert too is
    // reported as a duplicate rather than overwriting it. Groups run in parallel.
    std::map<std::filesystem::path, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < files.size(); ++i) groups[data::converted_name(files[i])].push_back(i);
    std::vector<const std::vector<std::size_t>*> group_list;
    for (const auto& [name, members] : groups) group_list.push_back(&members);
    std::vector<data::ConvertResult> results(files.size());
    tbb::parallel_for(std::size_t{0}, group_list.size(), [&](std::size_t g) {
      bool claimed = false;
      for (std::size_t i : *group_list[g]) {
        if (!claimed) {
          results[i] = data::convert_file(files[i], out_dir);
          claimed = results[i].status == data::ConvertResult::Status::ok;
          continue;
        }
        results[i] = data::convert_file(files[i], out_dir, /*write=*/false);
        if (results[i].status == data::ConvertResult::Status::ok) {
          results[i].status = data::ConvertResult::Status::duplicate;
          results[i].message = files[i].string() + ": not written, another input already converted to " + results[i].output.string();
        }
      }
    });

    int ok = 0, unsupported = 0, failed = 0, duplicates = 0;
    std::map<std::string, int> per_rules;  // converted games by the rules they name
    for (const auto& r : results) {
      switch (r.status) {
        case data::ConvertResult::Status::ok:
          ++ok;
          ++per_rules[r.rules];
          std::printf("ok           %s -> %s (%d kyoku, %zu events; rules %s)\n", text::to_utf8(r.input.string()).c_str(),
                      text::to_utf8(r.output.string()).c_str(), r.kyoku, r.events, r.rules.c_str());
          break;
        case data::ConvertResult::Status::unsupported:
          ++unsupported;
          std::printf("unsupported  %s\n", text::to_utf8(r.message).c_str());
          break;
        case data::ConvertResult::Status::failed:
          ++failed;
          std::printf("failed       %s\n", text::to_utf8(r.message).c_str());
          break;
        case data::ConvertResult::Status::duplicate:
          ++duplicates;
          std::printf("duplicate    %s\n", text::to_utf8(r.message).c_str());
          break;
      }
    }
    std::string per_rules_text;
    for (const auto& [name, n] : per_rules) per_rules_text += (per_rules_text.empty() ? "" : ", ") + name + " " + std::to_string(n);
    std::printf("converted %d of %zu files into %s: %d ok, %d unsupported, %d duplicate, %d failed; games per rules: %s\n",
                ok, files.size(), out_dir.c_str(), ok, unsupported, duplicates, failed,
                per_rules_text.empty() ? "none" : per_rules_text.c_str());
    std::fflush(stdout);
    if (failed > 0) throw Error(std::to_string(failed) + " of " + std::to_string(files.size()) + " files failed to convert");
  });
}

}  // namespace hydra::apps
