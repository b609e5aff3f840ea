#include "run_common.hpp"

#include <string>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/data/text_file.hpp"

namespace hydra::pretrain::detail {

namespace fs = std::filesystem;

game::MasterSeed resolve_seed(config::Config& cfg, std::string_view what) {
  if (!cfg.run.seed) {
    cfg.run.seed = game::random_master_seed().value;
    log::info("{}: no run.seed given, using {}", what, *cfg.run.seed);
  }
  return game::MasterSeed{*cfg.run.seed};
}

void open_run_dir(const config::Config& cfg, std::string_view log_name, bool resume, bool writes) {
  const fs::path dir(cfg.run.dir);
  if (!resume && fs::is_directory(dir / "checkpoints")) {
    for (const auto& entry : fs::directory_iterator(dir / "checkpoints")) {
      if (entry.path().extension() == ".ckpt")
        throw Error(dir.string() + " already holds checkpoints: pass --resume to continue that run, or choose another --run-dir");
    }
  }
  if (!writes) return;
  write_file_atomic(dir / "config.json", config::to_json(cfg).dump(2) + "\n");
  log::add_file(dir / std::string(log_name));
}

void check_same_model(const nlohmann::ordered_json& stored, const config::Config& cfg, const fs::path& where) {
  const auto now = config::to_json(cfg)["model"];
  if (!stored.contains("model") || stored["model"] != now)
    throw Error(where.string() + ": the checkpoint's model config differs from this run's (model.*): resume with the config it was trained with");
}

nlohmann::ordered_json bad_files_json(const std::vector<data::BadFile>& bad) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& b : bad) out.push_back({{"file", b.file}, {"reason", b.reason}});
  return out;
}

void log_bad_files(std::string_view what, const std::vector<data::BadFile>& bad) {
  if (bad.empty()) return;
  log::warn("{}: {} bad file(s) skipped:", what, bad.size());
  for (const auto& b : bad) log::warn("{}: bad file {}: {}", what, b.file, b.reason);
}

}  // namespace hydra::pretrain::detail
