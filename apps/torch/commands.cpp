// The LibTorch half of the commands (torch_impl.hpp) and, in hydra-torch, the table that
// torch_side::load() returns (torch_side.hpp).

#include <algorithm>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "torch_impl.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/stop.hpp"
#include "hydra/model/cpu_bf16.hpp"
#include "hydra/model/distributed.hpp"
#include "hydra/model/run_context.hpp"
#include "hydra/model/runtime.hpp"
#include "hydra/model/summary.hpp"
#include "hydra/ppo/trainer.hpp"
#include "hydra/pretrain/run.hpp"
#include "hydra/selfplay/torch/grp_rewards.hpp"
#include "hydra/selfplay/torch/inference.hpp"

namespace hydra::apps::torch_impl {

namespace {

// The rank variables torchrun and srun set (docs/DISTRIBUTED.md), read and checked before any
// work. The GRP model (a small MLP that trains in minutes) and --eval-only run in one process:
// a world of several is refused rather than run as that many copies writing into one directory.
model::DistEnv one_process(const char* command) {
  const auto env = model::DistEnv::from_environment();
  if (env.distributed())
    throw Error(std::string(command) + ": WORLD_SIZE=" + std::to_string(env.world_size) + " (rank " +
                std::to_string(env.rank) + "): " + command + " runs in one process (docs/DISTRIBUTED.md)");
  return env;
}

}  // namespace

void train(const TrainFlags& f) {
  const auto ranks = model::DistEnv::from_environment();  // checked before any work
  config::Config cfg = f.run.load();
  StopSignal stop;
  ppo::TrainOptions opt;
  opt.resume = f.run.resume;
  opt.run_dir = f.run.run_dir;
  opt.stop = &stop;
  opt.write_game_logs = f.game_logs;
  opt.stop_at = f.stop_at;
  opt.ranks = ranks;
  ppo::Trainer trainer(std::move(cfg), std::move(opt));
  const ppo::TrainResult r = trainer.run();
  if (ranks.rank != 0) return;  // rank 0 reports the run
  std::cout << "train: " << r.run_dir.string() << ": update " << r.step << " of "
            << trainer.config().train.max_updates << " (" << r.stop_reason << ")";
  if (!r.last_checkpoint.empty()) std::cout << ", checkpoint " << r.last_checkpoint.string();
  std::cout << "\n";
  if (r.stop_reason == "signal")
    std::cout << "train: stopped by a signal; continue with: hydra train --config ... --resume\n";
}

namespace {

void print_summary(const char* what, const pretrain::RunSummary& s, bool json) {
  if (json) {
    std::cout << json::dump(s.report, 2) << "\n";
    return;
  }
  std::cout << what << ": step " << s.steps << (s.stopped ? " (stopped)" : "") << ", checkpoint "
            << s.checkpoint.string() << "\n";
  if (s.stopped) std::cout << what << ": continue with the same flags and --resume\n";
}

}  // namespace

void pretrain(const PretrainFlags& f) {
  const auto ranks = model::DistEnv::from_environment();  // checked before any work
  if (f.eval_only) {
    one_process("pretrain --eval-only");
    if (f.model.empty()) throw Error("pretrain --eval-only needs --model CKPT");
    if (f.data.empty()) throw Error("pretrain --eval-only needs --data DIR");
    pretrain::EvalOptions o;
    o.model = f.model;
    o.data = f.data;
    o.max_samples = f.max_samples;
    o.batch = f.batch;
    o.device = f.run.device.empty() ? "auto" : f.run.device;
    o.greedy = !f.no_greedy;
    o.against = f.against;
    const auto report = pretrain::eval_pretrain(o);
    if (f.json) std::cout << json::dump(report, 2) << "\n";
    return;
  }
  config::Config cfg = f.run.load();
  if (!f.data.empty()) cfg.pretrain.data = f.data;
  if (!f.run.run_dir.empty()) cfg.run.dir = f.run.run_dir;
  pretrain::RunOptions o;
  o.resume = f.run.resume;
  o.init = f.init;
  o.ranks = ranks;
  const auto summary = pretrain::run_pretrain(cfg, o);
  if (ranks.rank == 0) print_summary("pretrain", summary, f.json);  // rank 0 reports the run
}

void grp(const GrpFlags& f) {
  one_process("grp");
  config::Config cfg = f.run.load();
  if (!f.data.empty()) cfg.pretrain.data = f.data;
  if (!f.run.run_dir.empty()) cfg.run.dir = f.run.run_dir;
  pretrain::RunOptions o;
  o.resume = f.run.resume;
  const auto s = pretrain::run_grp(cfg, o);
  if (f.json) {
    std::cout << json::dump(s.report, 2) << "\n";
    return;
  }
  std::cout << "grp: step " << s.steps << (s.stopped ? " (stopped)" : "") << ", checkpoint " << s.checkpoint.string() << "\n";
}

void export_weights(const std::string& checkpoint, const std::string& out) {
  const auto r = model::export_weights(checkpoint, out);
  std::cout << "exported " << r.kind << " step " << r.step << " from " << r.source.string() << ": " << r.tensors
            << " tensors, " << r.parameters << " parameters -> " << out << "\n";
}

void merge_weights(const MergeFlags& f) {
  model::MergeOptions o;
  for (const auto& i : f.inputs) o.inputs.emplace_back(i);
  o.base = f.base;
  o.scale = f.scale;
  o.out = f.out;
  const auto r = model::merge_weights(o);
  if (f.json) {
    nlohmann::ordered_json j = {{"out", f.out},         {"kind", r.kind},          {"inputs", f.inputs},
                                {"base", f.base},       {"scale", f.scale},        {"tensors", r.tensors},
                                {"parameters", r.parameters}, {"distance", r.distance}};
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  std::cout << "merged " << f.inputs.size() << " " << r.kind << " checkpoint(s)"
            << (f.base.empty() ? std::string(" (their mean)") : " (base + " + std::to_string(f.scale) + " x (mean - base))")
            << ": " << r.tensors << " tensors, " << r.parameters << " parameters, " << r.distance
            << (f.base.empty() ? " from the first" : " from the base") << " -> " << f.out << "\n";
}

void info_model(const std::string& config_file, bool json) {
  const auto config = config::load(config_file);
  const auto s = model::summarize(config.model);
  nlohmann::ordered_json j;
  j["config"] = config_file;
  j["blocks"] = config.model.blocks;
  j["channels"] = config.model.channels;
  for (const auto& c : s.components) j["components"][c.name] = c.parameters;
  j["per_block"] = s.per_block;
  j["total"] = s.total;
  j["grp_model"] = s.grp_model;
  if (json) {
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  std::cout << "SE-ResNet " << config.model.blocks << " blocks x " << config.model.channels << " channels ("
            << config_file << ")\n";
  for (const auto& c : s.components)
    std::cout << "  " << c.name << std::string(14 - std::min<std::size_t>(13, c.name.size()), ' ') << c.parameters
              << (c.name == "blocks" ? " (" + std::to_string(s.per_block) + " per block)" : "") << "\n";
  std::cout << "  total         " << s.total << "\n";
  std::cout << "GRP model (GRU " << config.model.grp_rnn_layers << " x " << config.model.grp_rnn_hidden << ")  "
            << s.grp_model << "\n";
}

std::shared_ptr<selfplay::KyokuRewardModel> grp_reward_model(const std::string& path) {
  return std::make_shared<selfplay::GrpRewardModel>(path);
}

void runtime_info(nlohmann::ordered_json& j) {
  const auto rt = model::runtime_info();
  j["libtorch"] = rt.torch_version;
  j["libtorch_cuda_build"] = rt.cuda_build;
  j["libtorch_cudnn_build"] = rt.cudnn_build;
  j["cuda_available"] = rt.cuda_available;
  j["cuda_devices"] = rt.cuda_devices;
  j["cudnn_available"] = rt.cudnn_available;
  j["torch_cpu_threads"] = rt.intraop_threads;
  j["distributed_gloo"] = model::gloo_available();  // torch.distributed on CPUs (docs/DISTRIBUTED.md)
  j["distributed_nccl"] = model::nccl_available();  // torch.distributed on CUDA GPUs
  j["cpu_bf16_inference"] = model::CpuBf16Net::supported();  // model.cpu_bf16_inference runs here (docs/MODEL.md)
}

}  // namespace hydra::apps::torch_impl

namespace hydra::apps::torch_side {

const Commands* linked_commands() {
  static constexpr Commands kCommands{
      .train = torch_impl::train,
      .pretrain = torch_impl::pretrain,
      .grp = torch_impl::grp,
      .export_weights = torch_impl::export_weights,
      .merge_weights = torch_impl::merge_weights,
      .info_model = torch_impl::info_model,
      .runtime_info = torch_impl::runtime_info,
      .policy_loader = selfplay::checkpoint_policy,
      .reward_loader = torch_impl::grp_reward_model,
      .limit_torch_threads = model::limit_torch_threads,
      .check = torch_impl::check,
      .bench_model = torch_impl::bench_model,
      .bench_learner = torch_impl::bench_learner,
      .bench_selfplay = torch_impl::bench_selfplay,
      .bench_pretrain = torch_impl::bench_pretrain,
  };
  return &kCommands;
}

}  // namespace hydra::apps::torch_side
