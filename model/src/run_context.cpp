#include "hydra/model/run_context.hpp"

#include <algorithm>
#include <system_error>
#include <thread>

#include <ATen/Parallel.h>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/model/runtime.hpp"

namespace hydra::model {

void limit_torch_threads(int threads) {
  if (threads > 0) at::set_num_threads(threads);
}

RunContext::RunContext(int threads, const std::string& device) : tbb_(threads), device_(resolve_device(device)) {
  limit_torch_threads(threads);
}

namespace {

// run.threads 0 (all hardware threads) shared out among the ranks of this machine, so N local
// ranks do not each spin up every core.
int rank_threads(int threads, const DistEnv& env) {
  if (threads > 0 || env.local_world_size <= 1) return threads;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / env.local_world_size);
}

}  // namespace

RunContext::RunContext(int threads, const std::string& device, const DistEnv& env, const Ranks& ranks)
    : RunContext(rank_threads(threads, env), device) {
  env_ = env;
  if (!env.distributed()) return;
  if (device_.is_cuda() && !device_.has_index())
    device_ = c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(local_gpu(env)));
  const std::string backend = ranks.backend == "auto" ? (device_.is_cuda() ? "nccl" : "gloo") : ranks.backend;
  group_ = std::make_unique<ProcessGroup>(
      env, backend, std::chrono::milliseconds(static_cast<std::int64_t>(ranks.timeout_s * 1000.0)));
}

RunContext::~RunContext() = default;

void RunContext::agree_on_config(config::Config& cfg, std::string_view command, std::string_view alike) const {
  if (!group_) return;
  cfg.run.seed = static_cast<std::uint64_t>(group_->all_gather_int(static_cast<std::int64_t>(cfg.run.seed.value_or(0)))[0]);
  const auto configs = group_->all_gather_bytes(config::to_json(cfg).dump());
  for (std::size_t r = 1; r < configs.size(); ++r)
    if (configs[r] != configs[0])
      throw Error(std::string(command) + ": rank " + std::to_string(r) + " was started with another config than rank 0 (" +
                  "every rank needs the same " + std::string(alike) + ")");
}

void RunContext::agree_on_given_seed(std::optional<std::uint64_t> given, std::string_view command) const {
  if (!group_) return;
  const auto has = group_->all_gather_int(given ? 1 : 0);
  const auto value = group_->all_gather_int(static_cast<std::int64_t>(given.value_or(0)));
  const auto describe = [&](std::size_t r) {
    return has[r] != 0 ? "seed " + std::to_string(static_cast<std::uint64_t>(value[r])) : std::string("no seed");
  };
  for (std::size_t r = 1; r < has.size(); ++r)
    if (has[r] != has[0] || value[r] != value[0])
      throw Error(std::string(command) + ": rank " + std::to_string(r) + " was started with " + describe(r) + ", rank 0 with " +
                  describe(0) + " (every rank of a run needs the same --seed, or none)");
}

std::string RunContext::agree_on_stop(const std::string& mine) const {
  if (!group_) return mine;
  for (const std::string& reason : group_->all_gather_bytes(mine))
    if (!reason.empty()) return reason;
  return {};
}

void RunContext::own_run_dir(const std::filesystem::path& root, std::string_view command) {
  if (!run_dir_lock_ || run_dir_lock_->dir() != root) run_dir_lock_ = std::make_unique<DirLock>(root, command);
  std::error_code ec;
  std::filesystem::create_directories(root / "checkpoints", ec);
  if (ec) throw Error(root.string() + ": cannot create the run directory: " + ec.message());
  remove_stale_temp_files(root);
  remove_stale_temp_files(root / "checkpoints");
  remove_orphan_sidecars(root / "checkpoints");
}

}  // namespace hydra::model
