// hydra: the Riichi Mahjong AI trainer in one binary.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "hydra/common/build_info.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/text.hpp"
#include "hydra/game/rules.hpp"
#include "torch_locate.hpp"
#include "torch_side.hpp"

namespace {
bool g_log_level_flag = false;  // --log-level given on the command line
// Exit statuses: 0 done, 1 hydra::Error (bad input: a file, the config, a value), 2 the command
// line itself (unknown flag, missing or out-of-range value), 3 a bug (internal error).
constexpr int kUsageError = 2;
}  // namespace

hydra::config::Config hydra::apps::load_run_config(const std::optional<std::filesystem::path>& file,
                                                   const std::vector<std::string>& sets) {
  hydra::config::Config cfg = hydra::config::load(file, sets);
  try {
    (void)hydra::game::table_rules(cfg.rules.preset);
  } catch (const hydra::Error& e) {
    throw hydra::Error("config: rules.preset: " + std::string(e.what()));
  }
  if (!g_log_level_flag) hydra::log::set_level(cfg.run.log_level);
  return cfg;
}

namespace {

int run(int argc, char** argv) {
  CLI::App app{"hydra: Riichi Mahjong engine, encoder, self-play and PPO trainer in one binary", "hydra"};
  app.set_version_flag("--version", std::string("hydra ") + hydra::build::version() + " (" +
                                        hydra::build::git_revision() + ")");
  app.require_subcommand(1);
  std::string log_level = "info";
  std::string log_file;
  auto* log_level_option =
      app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off (default: the run config's run.log_level, else info)")
          ->capture_default_str();
  app.add_option("--log-file", log_file, "also append the log to this file (runs add one in their run directory)");

  hydra::apps::register_info(app);
  hydra::apps::register_train(app);
  hydra::apps::register_pretrain(app);
  hydra::apps::register_grp(app);
  hydra::apps::register_config(app);
  hydra::apps::register_replay(app);
  hydra::apps::register_selfplay(app);
  hydra::apps::register_hand(app);
  hydra::apps::register_bench(app);
  hydra::apps::register_check(app);
  hydra::apps::register_export(app);
  hydra::apps::register_merge(app);
  hydra::apps::register_eval(app);
  hydra::apps::register_bot(app);
  hydra::apps::register_convert(app);
  hydra::apps::register_review(app);

  try {
    app.parse_complete_callback([&] {
      g_log_level_flag = log_level_option->count() > 0;
      hydra::log::set_level(log_level);
      if (!log_file.empty()) hydra::log::add_file(log_file);
    });
    hydra::log::init("info");
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here too (status 0). Every other parser refusal is a usage error:
    // status 2, whatever CLI11's own code for the kind of refusal (docs/ARCHITECTURE.md).
    const int rc = app.exit(e);
    return rc == 0 ? 0 : kUsageError;
  } catch (const hydra::Error& e) {
    std::fprintf(stderr, "hydra: error: %s\n", hydra::text::to_utf8(e.what()).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hydra: internal error: %s\n", hydra::text::to_utf8(e.what()).c_str());
    return 3;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  hydra::apps::set_command_line(argc, argv);
  const int rc = run(argc, argv);
  // Tests read whether a command ran without LibTorch (docs/ARCHITECTURE.md "LibTorch on demand").
  if (const char* debug = std::getenv("HYDRA_DEBUG_LOADED"); debug && *debug) {
    const std::string lib = hydra::apps::mapped_libtorch();
    std::fprintf(stderr, "hydra: libtorch loaded: %s\n", lib.empty() ? "no" : lib.c_str());
  }
  return rc;
}
