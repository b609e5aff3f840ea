#include "hydra/ppo/trainer_run.hpp"

#include <array>
#include <string_view>
#include <system_error>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/game/seed.hpp"

namespace hydra::ppo {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Bounds and reporting change nothing an update computes; run.device and run.threads do change
// the numerics (CUDA kernels, reduction order) but refusing them would strand a run on one
// machine, so they are allowed with a warning. pretrain.* is not read by `hydra train`.
constexpr std::array<std::string_view, 10> kMayDiffer = {
    "run.name",         "run.dir",          "run.log_level", "run.device", "run.threads", "run.dist_backend",
    "run.dist_timeout", "checkpoint.",      "train.",        "pretrain."};

void flatten(const Json& j, const std::string& prefix, std::vector<std::pair<std::string, const Json*>>& out) {
  if (j.is_object() && !j.empty()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    return;
  }
  out.emplace_back(prefix, &j);
}

const Json* find(const std::vector<std::pair<std::string, const Json*>>& leaves, const std::string& key) {
  for (const auto& [k, v] : leaves)
    if (k == key) return v;
  return nullptr;
}

Json read_json(const fs::path& file) {
  try {
    return json::parse(data::read_text_file(file));
  } catch (const json::ParseError& e) {
    throw Error(file.string() + ": not valid JSON: " + e.what());
  }
}

}  // namespace

bool resume_may_differ(const std::string& key) {
  for (std::string_view allowed : kMayDiffer) {
    if (allowed.back() == '.' ? key.starts_with(allowed) : key == allowed) return true;
  }
  return false;
}

std::vector<ConfigChange> config_changes(const Json& saved, const Json& now) {
  std::vector<std::pair<std::string, const Json*>> a, b;
  flatten(saved, "", a);
  flatten(now, "", b);
  std::vector<ConfigChange> out;
  for (const auto& [key, value] : b) {
    const Json* old = find(a, key);
    if (old == nullptr) out.push_back({key, "(absent)", value->dump()});
    else if (*old != *value) out.push_back({key, old->dump(), value->dump()});
  }
  for (const auto& [key, value] : a)
    if (find(b, key) == nullptr) out.push_back({key, value->dump(), "(absent)"});
  return out;
}

nlohmann::ordered_json seeds_json(std::uint64_t seed, bool drawn) {
  nlohmann::ordered_json j;
  j["master_seed"] = seed;
  j["drawn"] = drawn;
  nlohmann::ordered_json streams = nlohmann::ordered_json::object();
  for (std::string_view label : game::labels::all)
    streams[std::string(label)] = game::to_hex(game::stream_key(game::MasterSeed{seed}, label).bytes());
  j["streams"] = streams;
  return j;
}

PreparedRun prepare_run(config::Config config, const fs::path& run_dir, bool resume, bool has_checkpoint,
                        bool writes) {
  PreparedRun run;
  run.paths.root = run_dir;
  config.run.dir = run_dir.string();
  const std::string where = "run directory '" + run_dir.string() + "'";

  if (resume) {
    if (!has_checkpoint)
      throw Error("--resume: " + where + " holds no checkpoint (" + run.paths.checkpoints().string() +
                  " is empty or missing); start the run without --resume");
    if (!fs::exists(run.paths.config()))
      throw Error("--resume: " + run.paths.config().string() + " is missing; cannot tell which config the run used");
    const Json saved = read_json(run.paths.config());
    const Json* saved_seed = saved.contains("run") ? &saved["run"]["seed"] : nullptr;
    if (saved_seed == nullptr || !saved_seed->is_number_unsigned())
      throw Error(run.paths.config().string() + ": run.seed is missing or not a seed");
    if (!config.run.seed) config.run.seed = saved_seed->get<std::uint64_t>();
    std::string refused;
    for (ConfigChange& c : config_changes(saved, Json(config::to_json(config)))) {
      if (resume_may_differ(c.key)) run.resume_changes.push_back(std::move(c));
      else refused += "\n  " + c.key + ": " + c.saved + " in the run, " + c.now + " now";
    }
    if (!refused.empty())
      throw Error("--resume: the config differs from " + run.paths.config().string() +
                  " in keys that change the training (start a new run directory instead):" + refused);
    for (const ConfigChange& c : run.resume_changes) {
      if (c.key == "run.device" || c.key == "run.threads")
        log::warn("resume: {} changes from {} to {}: losses will not match the uninterrupted run bit for bit",
                  c.key, c.saved, c.now);
      else if (c.key != "run.dir")
        log::info("resume: {} changes from {} to {}", c.key, c.saved, c.now);
    }
    run.seed = *config.run.seed;
  } else {
    if (has_checkpoint)
      throw Error(where + " already holds checkpoints: pass --resume to continue that run, or choose "
                  "another directory (--run-dir)");
    if (config.run.seed) {
      run.seed = *config.run.seed;
    } else {
      run.seed = game::random_master_seed().value;
      run.seed_drawn = true;
      config.run.seed = run.seed;
      log::info("train: no run.seed given, drew master seed {} (saved in {})", run.seed, run.paths.seeds().string());
    }
  }
  if (!writes) {
    run.config = std::move(config);
    return run;
  }

  std::error_code ec;
  fs::create_directories(run.paths.checkpoints(), ec);
  if (ec) throw Error("cannot create " + where + ": " + ec.message());
  write_file_atomic(run.paths.config(), config::to_json(config).dump(2) + "\n");
  if (!resume) write_file_atomic(run.paths.seeds(), seeds_json(run.seed, run.seed_drawn).dump(2) + "\n");
  run.config = std::move(config);
  return run;
}

}  // namespace hydra::ppo
