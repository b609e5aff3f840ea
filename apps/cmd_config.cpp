// hydra config show: print the effective config (defaults <- file <- --set overrides).

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/config_io.hpp"

namespace hydra::apps {

void register_config(CLI::App& app) {
  auto* config = app.add_subcommand("config", "Inspect configuration files");
  config->require_subcommand(1);
  auto* show = config->add_subcommand("show", "Print the effective config as JSON: defaults, then FILE, then --set");
  struct Opts {
    std::string file;
    std::vector<std::string> sets;
  };
  auto opts = std::make_shared<Opts>();
  show->add_option("--config,-c", opts->file, "JSON config file (comments allowed); defaults when absent");
  show->add_option("--set", opts->sets, "override a key: --set model.blocks=8 (repeatable)");
  show->callback([opts] {
    std::optional<std::filesystem::path> file;
    if (!opts->file.empty()) file = opts->file;
    const auto cfg = load_run_config(file, opts->sets);  // also checks rules.preset
    std::cout << json::dump(config::to_json(cfg), 2) << "\n";
  });
}

}  // namespace hydra::apps
