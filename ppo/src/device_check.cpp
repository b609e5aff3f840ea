#include "hydra/ppo/device_check.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <exception>
#include <memory>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include <ATen/Context.h>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/log.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/cpu_bf16.hpp"
#include "hydra/model/distributed.hpp"
#include "hydra/model/fused_norm.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/ppo/learner.hpp"
#include "hydra/selfplay/torch/inference.hpp"

namespace hydra::ppo {
namespace {

namespace fs = std::filesystem;

// Positions as the network's inputs, on the CPU: obs [N,85,34], context [N,16] float; legal
// [N,46] bool.
struct PositionTensors {
  torch::Tensor obs, context, legal;
  std::int64_t size() const { return obs.size(0); }
};

PositionTensors position_tensors(const data::SampleBatch& s) {
  const auto n = static_cast<std::int64_t>(s.size());
  PositionTensors t;
  t.obs = torch::from_blob(const_cast<float*>(s.obs.data()), {n, encoder::kChannels, encoder::kTiles}, torch::kFloat).clone();
  t.context = torch::from_blob(const_cast<float*>(s.context.data()), {n, data::kSampleContext}, torch::kFloat).clone();
  t.legal = torch::from_blob(const_cast<std::uint8_t*>(s.legal.data()), {n, data::kSampleActions}, torch::kUInt8)
                .to(torch::kBool);
  return t;
}

// Thresholds. bf16 keeps 8 significant bits (relative rounding 2^-9 per operation); through a
// residual trunk the errors of the layers add up, and a 40-block trunk stays near 1e-2 in
// probability on real positions (docs/GPU.md has the measured numbers). 0.05 is five times that:
// beyond it bf16 inference plays visibly different moves. fp32 paths that should agree up to the
// rounding of different kernels (batch size, device) get 1e-4.
constexpr double kBf16Probability = 0.05;
constexpr double kBf16Value = 0.05;
constexpr double kFp32Agreement = 1e-4;
// model.cpu_bf16_inference's forward may change the argmax only where the fp32 policy's two best
// actions are within bf16's rounding of each other: a few positions in a hundred at most for a
// trained policy. A layout or kernel fault changes most of them.
constexpr double kBf16ArgmaxShare = 0.05;
// The same bf16 network through a CUDA graph at a padded batch (96 rows in the graph of 128)
// may run other kernels than the eager pass: bf16 rounding differences of about 1e-3. A real
// fault (stale weights, rows mixed or shifted, a lost copy) is off by 0.1 or more.
constexpr double kGraphAgreement = 0.01;
// Hydra's fused norm kernels against LibTorch's GroupNorm + Mish (output and gradients, over the
// reference's largest magnitude): fp32 agrees to rounding; bf16 tensors keep 8 significant bits
// (relative rounding 0.4%) on the output and the input gradient.
constexpr double kFusedFp32 = 1e-4;
constexpr double kFusedBf16 = 0.02;
// A minibatch's gradient through a one-rank group sums its terms in another order than one
// process does; the two differ by rounding, far below 1%. A lost or doubled share of the
// minibatch, or gradients not written back, changes it by a sizeable part (a share counted twice
// halves it).
constexpr double kGroupAgreement = 0.01;

struct HeadErrors {
  double policy = 0, value = 0, grp = 0, tenpai = 0, danger = 0;
  double max() const { return std::max({policy, value, grp, tenpai, danger}); }
};

double max_abs_diff(const torch::Tensor& a, const torch::Tensor& b) {
  if (a.numel() == 0) return 0.0;
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

// Errors of `got` against the reference `ref` (both fp32 host outputs of the same positions).
HeadErrors head_errors(const model::Outputs& got, const model::Outputs& ref, const torch::Tensor& legal) {
  HeadErrors e;
  e.policy = max_abs_diff(model::masked_softmax(got.policy, legal), model::masked_softmax(ref.policy, legal));
  const double rms = ref.value.to(torch::kDouble).pow(2).mean().sqrt().item<double>();
  e.value = max_abs_diff(got.value, ref.value) / std::max(1.0, rms);
  e.grp = max_abs_diff(torch::softmax(got.grp, 1), torch::softmax(ref.grp, 1));
  e.tenpai = max_abs_diff(torch::sigmoid(got.tenpai), torch::sigmoid(ref.tenpai));
  e.danger = max_abs_diff(torch::sigmoid(got.danger), torch::sigmoid(ref.danger));
  return e;
}

// (a) bf16 autocast against fp32 (`ref`), one forward of every position each.
void check_bf16(selfplay::InferenceModel& net, const PositionTensors& pos, const model::Outputs& ref,
                std::vector<DeviceCheck>& out) {
  const auto bf16 = net.forward(pos.obs, pos.context, /*autocast=*/true);
  const HeadErrors e = head_errors(bf16, ref, pos.legal);
  out.push_back({"bf16_policy", "bf16 vs fp32: policy, max |probability difference|", e.policy, kBf16Probability});
  out.push_back({"bf16_value", "bf16 vs fp32: value, max |difference| / max(1, RMS)", e.value, kBf16Value});
  out.push_back({"bf16_grp", "bf16 vs fp32: GRP, max |probability difference|", e.grp, kBf16Probability});
  out.push_back({"bf16_tenpai", "bf16 vs fp32: tenpai, max |probability difference|", e.tenpai, kBf16Probability});
  out.push_back({"bf16_danger", "bf16 vs fp32: danger, max |probability difference|", e.danger, kBf16Probability});
}

// (a2) On a CPU with the bf16 kernels: model.cpu_bf16_inference's forward (model::CpuBf16Net,
// what self-play, eval and bots run with the option) against fp32 on the same weights: the
// policy's probabilities and the value, and the share of positions whose argmax over the legal
// actions differs.
void check_cpu_bf16(const model::HydraNetImpl& weights, const torch::Device& device, const PositionTensors& pos,
                    const model::Outputs& ref, std::vector<DeviceCheck>& out) {
  if (!device.is_cpu() || !model::CpuBf16Net::supported()) return;
  const model::CpuBf16Net low(weights);
  const auto lv = low.logits_and_values(pos.obs, pos.context);
  model::Outputs got = ref;
  got.policy = lv.narrow(1, 0, selfplay::kActions);
  got.value = lv.narrow(1, selfplay::kActions, 1);
  const HeadErrors e = head_errors(got, ref, pos.legal);
  const auto argmax = [&](const torch::Tensor& logits) {
    return logits.masked_fill(pos.legal.logical_not(), -1e30).argmax(1);
  };
  const double differ =
      (argmax(got.policy) != argmax(ref.policy)).to(torch::kDouble).mean().item<double>();
  out.push_back({"cpu_bf16_policy", "bf16 CPU inference vs fp32: policy, max |probability difference|", e.policy,
                 kBf16Probability});
  out.push_back({"cpu_bf16_value", "bf16 CPU inference vs fp32: value, max |difference| / max(1, RMS)", e.value,
                 kBf16Value});
  out.push_back({"cpu_bf16_argmax", "bf16 CPU inference vs fp32: share of positions whose argmax differs", differ,
                 kBf16ArgmaxShare});
}

// (b) One batch against one position at a time, fp32: catches anything that mixes the rows of
// a batch (a norm over the batch, a padding or stride bug in a kernel).
void check_batched(selfplay::InferenceModel& net, const PositionTensors& pos, std::vector<DeviceCheck>& out) {
  const auto batched = net.forward(pos.obs, pos.context, false);
  std::vector<model::Outputs> rows;
  rows.reserve(ix(pos.size()));
  for (std::int64_t i = 0; i < pos.size(); ++i)
    rows.push_back(net.forward(pos.obs.slice(0, i, i + 1), pos.context.slice(0, i, i + 1), false));
  const auto cat = [&](auto field) {
    std::vector<torch::Tensor> parts;
    for (const auto& r : rows) parts.push_back(r.*field);
    return torch::cat(parts, 0);
  };
  const model::Outputs single{cat(&model::Outputs::policy), cat(&model::Outputs::value), cat(&model::Outputs::grp),
                              cat(&model::Outputs::tenpai), cat(&model::Outputs::danger)};
  out.push_back({"batched_vs_single", "batch of all vs one at a time, fp32: max error over the heads",
                 head_errors(batched, single, pos.legal).max(), kFp32Agreement});
}

// (b2) CUDA graphs: InferenceModel::evaluate (what self-play, eval and bots call) replaying the
// captured graphs against the same call with eager forwards, on batches of all positions, one,
// three quarters (a padded bucket) and five: probabilities and values.
void check_graphs(selfplay::InferenceModel& net, const data::SampleBatch& s, const PositionTensors& pos,
                  std::vector<DeviceCheck>& out) {
  if (!net.cuda_graphs()) return;
  const std::int64_t n = pos.size();
  std::vector<game::ActionMask> legal;
  for (std::size_t i = 0; i < s.size(); ++i) legal.push_back(s.legal_mask(i));
  const auto obs = pos.obs.contiguous();
  const auto ctx = pos.context.contiguous();
  const auto run = [&](bool graphs, std::int64_t count, std::vector<float>& probs, std::vector<float>& value) {
    net.use_cuda_graphs(graphs);
    probs.assign(static_cast<std::size_t>(count * selfplay::kActions), 0.0f);
    value.assign(ix(count), 0.0f);
    const selfplay::PolicyBatch in{obs.data_ptr<float>(), ctx.data_ptr<float>(), legal.data(), static_cast<int>(count)};
    net.evaluate(in, {probs.data(), value.data()});
  };
  double err = 0;
  for (const std::int64_t count : {n, std::int64_t{1}, std::max<std::int64_t>(1, n * 3 / 4), std::min<std::int64_t>(n, 5)}) {
    std::vector<float> pg, vg, pe, ve;
    run(true, count, pg, vg);
    run(false, count, pe, ve);
    double rms = 0;
    for (const float v : ve) rms += static_cast<double>(v) * v;
    rms = std::sqrt(rms / static_cast<double>(ve.size()));
    for (std::size_t i = 0; i < pg.size(); ++i) err = std::max(err, std::abs(static_cast<double>(pg[i]) - pe[i]));
    for (std::size_t i = 0; i < vg.size(); ++i)
      err = std::max(err, std::abs(static_cast<double>(vg[i]) - ve[i]) / std::max(1.0, rms));
  }
  net.use_cuda_graphs(true);
  out.push_back({"cuda_graphs", "CUDA graph replay vs eager, self-play's evaluate: max error, policy and value", err,
                 kGraphAgreement});
}

// (b3) model.fused_norm's CUDA kernels (Hydra's own) against LibTorch's GroupNorm + Mish on the
// device, at the config's width: forward and backward, fp32 and bf16. Run whenever the build has
// the kernels, whether or not the config uses them.
void check_fused_norm(const config::Config& cfg, const torch::Device& device, std::uint64_t seed,
                      std::vector<DeviceCheck>& out) {
  if (!device.is_cuda() || !model::fused_norm_kernels()) return;
  const int channels = cfg.model.channels;
  out.push_back({"fused_norm", "fused GroupNorm + Mish kernels vs LibTorch's, fp32: max error of output and gradients",
                 model::fused_norm_error(device, torch::kFloat, 256, channels, seed), kFusedFp32});
  out.push_back({"fused_norm_bf16", "the same kernels on bf16 tensors vs LibTorch's in fp32: max error",
                 model::fused_norm_error(device, torch::kBFloat16, 256, channels, seed), kFusedBf16});
}

// The positions as a rollout of one-decision episodes: the logged action, V_old from the network,
// the final placement points as the reward, the opponents' waits as the aux labels, and
// log pi_old from the learner itself (so the first epoch's probability ratio is 1, as with actors).
selfplay::Rollout fixed_rollout(const data::SampleBatch& s, Learner& learner, selfplay::InferenceModel& net,
                                const PositionTensors& pos) {
  selfplay::Rollout r;
  const std::size_t n = s.size();
  r.obs.resize(n * encoder::kObsSize);
  selfplay::to_half(s.obs.data(), r.obs.data(), r.obs.size());
  r.context = s.context;
  const auto values = net.forward(pos.obs, pos.context, false).value.reshape({-1});
  for (std::size_t i = 0; i < n; ++i) {
    r.legal.push_back(s.legal_mask(i).bits());
    r.action.push_back(static_cast<std::int16_t>(s.action[i]));
    r.value.push_back(values[static_cast<std::int64_t>(i)].item<float>());
    r.reward.push_back(s.value[i]);
    r.done.push_back(1);
    r.version.push_back(0);
    for (int o = 0; o < selfplay::kOpponents; ++o) {
      std::uint64_t waits = 0;
      for (int t = 0; t < encoder::kTiles; ++t)
        if (s.danger[(i * selfplay::kOpponents + ix(o)) * encoder::kTiles + ix(t)] > 0.5f)
          waits |= std::uint64_t{1} << t;
      r.opp_waits.push_back(waits);
    }
  }
  r.logp.assign(n, 0.0f);
  const auto logp = learner.log_probs(r);
  r.logp.assign(logp.data_ptr<float>(), logp.data_ptr<float>() + logp.numel());
  return r;
}

std::int64_t non_finite(const torch::nn::Module& net) {
  std::int64_t bad = 0;
  for (const auto& p : net.parameters()) bad += (~torch::isfinite(p.detach())).sum().item<std::int64_t>();
  return bad;
}

// (c) One learner update on the fixed rollout.
void check_update(Learner& learner, const selfplay::Rollout& rollout, std::vector<DeviceCheck>& out) {
  const double before = learner.loss(rollout, 0);
  const UpdateStats s = learner.update(rollout);
  const double after = learner.loss(rollout, 0);
  std::int64_t bad = non_finite(learner.net());
  for (const auto& [tag, v] : s.scalars()) bad += std::isfinite(v) ? 0 : 1;
  bad += std::isfinite(before) && std::isfinite(after) ? 0 : 1;
  out.push_back({"update_finite", "one PPO update: non-finite parameters and statistics", static_cast<double>(bad), 0.0});
  char note[160];
  std::snprintf(note, sizeof note, "loss %.6f -> %.6f over %lld samples, %lld optimizer steps", before, after,
                static_cast<long long>(s.samples), static_cast<long long>(s.minibatches));
  out.push_back({"update_lowers_loss", "one PPO update: loss after - loss before on the same rollout", after - before,
                 0.0, /*strict=*/true, note});
}

// (d) The updated network written as the trainer writes it, read back on the CPU.
void check_checkpoint(Learner& learner, const config::Config& cfg, const PositionTensors& pos,
                      std::vector<DeviceCheck>& out) {
  const fs::path dir = fs::temp_directory_path() / ("hydra-check-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  struct Cleanup {
    fs::path dir;
    // File by file: the torch wheel's libtorch.so exports its own std::filesystem::remove_all,
    // which crashes when called from a binary built against the system's libstdc++.
    ~Cleanup() {
      std::error_code ec;
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(dir, ec)) files.push_back(e.path());
      for (const auto& file : files) fs::remove(file, ec);
      fs::remove(dir, ec);
    }
  } cleanup{dir};
  const fs::path file = dir / "check.ckpt";
  model::CheckpointData data;
  learner.save_state(data);
  data.config = config::to_json(cfg);
  model::save_checkpoint(file, data, learner.net(), &learner.optimizer());

  model::HydraNet cpu(cfg.model);
  model::LoadOptions options;
  options.restore_rng = false;
  model::load_checkpoint(file, cpu.ptr().get(), nullptr, options);
  double weights = 0;
  {
    torch::NoGradGuard no_grad;
    const auto mine = learner.net().named_parameters();
    for (const auto& p : cpu->named_parameters()) weights = std::max(weights, max_abs_diff(mine[p.key()].cpu(), p.value()));
    const auto buffers = learner.net().named_buffers();
    for (const auto& b : cpu->named_buffers()) weights = std::max(weights, max_abs_diff(buffers[b.key()].cpu(), b.value()));
  }
  out.push_back({"checkpoint_weights", "checkpoint from the device loaded on the CPU: max |weight difference|", weights, 0.0});

  selfplay::InferenceModel on_device(learner.net(), learner.device(), learner.updates());
  const auto loaded = selfplay::load_policy(file, torch::kCPU);  // how eval and bot read checkpoints
  const auto a = on_device.forward(pos.obs, pos.context, false);
  const auto b = loaded->forward(pos.obs, pos.context, false);
  out.push_back({"checkpoint_outputs", "fp32 outputs: device vs the checkpoint on the CPU, max error over the heads",
                 head_errors(b, a, pos.legal).max(), kFp32Agreement});
}

// (e) torch.distributed: two ranks on localhost (threads, each with its own TCPStore client and
// Gloo group, as two processes would hold them) all-reduce the updated network's parameters;
// the sum of two equal floats is exact, so each rank must hold exactly twice them.
void check_distributed(Learner& learner, std::vector<DeviceCheck>& out) {
  if (!model::gloo_available()) {
    log::info("check: this build has no Gloo (libgloo-dev): the distributed check is skipped");
    return;
  }
  std::vector<torch::Tensor> params;
  for (const auto& p : learner.net().parameters()) params.push_back(p.detach().to(torch::kCPU).clone());
  model::DistEnv env;
  env.world_size = 2;
  env.master_port = model::free_local_port();
  std::vector<double> err(2, 0.0);
  std::vector<std::exception_ptr> failed(2);
  std::vector<std::thread> ranks;
  for (int r = 0; r < 2; ++r)
    ranks.emplace_back([&, r] {
      try {
        model::DistEnv mine = env;
        mine.rank = r;
        model::ProcessGroup group(mine, "gloo", std::chrono::seconds(60));
        std::vector<torch::Tensor> sum;
        for (const auto& p : params) sum.push_back(p.clone());
        group.all_reduce_sum(sum);
        for (std::size_t i = 0; i < sum.size(); ++i) err[ix(r)] = std::max(err[ix(r)], max_abs_diff(sum[i], 2 * params[i]));
      } catch (...) {
        failed[ix(r)] = std::current_exception();
      }
    });
  for (auto& t : ranks) t.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
  out.push_back({"gloo_all_reduce", "2 ranks on localhost (Gloo): all-reduce of the parameters vs 2x, max |difference|",
                 std::max(err[0], err[1]), 0.0});
}

// (f) The same update through torch.distributed with a group of one rank (NCCL on CUDA, Gloo on
// the CPU): gathered sample counts, the loss's moments and the gradients all go through the
// backend's collectives, and the result must be the update of one process. Both learners take
// the update at learning rate 0 and without gradient clipping, so their parameters stay where
// they start and each ends holding the gradient of the update's last minibatch, which must agree
// to rounding: |g_group - g_plain| / |g_plain| (L2 over all parameters). Gradients, not the
// parameters after the steps: AdamW divides each step by the gradient's running scale, so the
// sample count doubled (every gradient halved) moved the quickstart model's parameters by only
// 5.9% of its step, while rounding in near-zero gradients grew over nine steps of the Houou clone
// to 1.2%; on the gradients the same fault gives 0.33, rounding 4e-8 (1.7e-3 on the clone).
void check_group_update(const config::Config& cfg, const torch::Device& device, std::uint64_t seed,
                        const selfplay::Rollout& rollout, std::vector<DeviceCheck>& out) {
  const std::string backend = device.is_cuda() ? "nccl" : "gloo";
  if (!(device.is_cuda() ? model::nccl_available() : model::gloo_available())) {
    log::info("check: this build has no {}: the one-rank update check is skipped", backend);
    return;
  }
  LearnerConfig still = learner_config(cfg);
  still.ppo.lr = still.ppo.lr_floor = still.ppo.critic_lr = 0.0;
  still.ppo.grad_clip = 0.0;
  model::DistEnv env;
  env.master_port = model::free_local_port();
  model::ProcessGroup group(env, backend, std::chrono::seconds(120));
  Learner plain(still, device, game::MasterSeed{seed});
  Learner ranked(still, device, game::MasterSeed{seed});
  ranked.set_group(&group);
  (void)plain.update(rollout);
  (void)ranked.update(rollout);
  // A parameter no loss term reaches has no gradient in one process and a zero one from the
  // group's buckets: both count as zero.
  const auto grad = [](const torch::Tensor& p) { return p.grad().defined() ? p.grad() : torch::zeros_like(p); };
  double diff = 0, norm = 0;
  {
    torch::NoGradGuard no_grad;
    const auto mine = plain.net().parameters();
    const auto theirs = ranked.net().parameters();
    for (std::size_t i = 0; i < mine.size(); ++i) {
      const auto a = grad(mine[i]).to(torch::kDouble);
      diff += (a - grad(theirs[i]).to(torch::kDouble)).square().sum().item<double>();
      norm += a.square().sum().item<double>();
    }
  }
  diff = std::sqrt(diff);
  norm = std::sqrt(norm);
  const double value = norm > 0 ? diff / norm : (diff > 0 ? 1.0 : 0.0);
  out.push_back({backend + "_update",
                 "one PPO update at learning rate 0 in a one-rank " + backend +
                     " group vs in one process: |gradient difference| / |gradient| (L2, the last minibatch's)",
                 value, kGroupAgreement});
}

}  // namespace

bool DeviceCheck::pass() const {
  return std::isfinite(value) && (strict ? value < threshold : value <= threshold);
}

config::Config device_check_config(config::Config cfg, const std::string& checkpoint) {
  if (!checkpoint.empty()) {
    model::LoadOptions options;
    options.restore_rng = false;
    const auto data = model::load_checkpoint(checkpoint, nullptr, nullptr, options);
    if (data.kind != "hydra_net")
      throw Error("--model: checkpoint '" + checkpoint + "' holds a '" + data.kind + "' network, not a hydra_net");
    cfg.model = model::stored_config(checkpoint, data).model;
    cfg.ppo.init = checkpoint;
  }
  cfg.ppo.reward_norm = false;
  cfg.ppo.value_warmup = 0;
  return cfg;
}

std::vector<DeviceCheck> run_device_check(const config::Config& cfg, const torch::Device& device,
                                          const data::SampleBatch& positions, std::uint64_t seed) {
  if (device.is_cuda()) {
    // fp32 means fp32 here: TF32 convolutions and matmuls (cuDNN's default) would put a 10-bit
    // mantissa into the references the bf16 and device-vs-CPU checks are measured against.
    at::globalContext().setAllowTF32CuDNN(false);
    at::globalContext().setAllowTF32CuBLAS(false);
  }
  const PositionTensors pos = position_tensors(positions);
  Learner learner(learner_config(cfg), device, game::MasterSeed{seed});
  selfplay::InferenceModel net(learner.net(), device, 0);
  std::vector<DeviceCheck> checks;
  auto t0 = std::chrono::steady_clock::now();
  const auto phase = [&](const char* name) {
    const auto now = std::chrono::steady_clock::now();
    log::info("check: {} done in {:.1f} s", name, std::chrono::duration<double>(now - t0).count());
    t0 = now;
  };
  const model::Outputs fp32 = net.forward(pos.obs, pos.context, /*autocast=*/false);
  check_bf16(net, pos, fp32, checks);
  phase("bf16 vs fp32");
  check_cpu_bf16(learner.net(), device, pos, fp32, checks);
  if (device.is_cpu() && model::CpuBf16Net::supported()) phase("bf16 CPU inference vs fp32");
  check_batched(net, pos, checks);
  phase("batched vs single");
  check_graphs(net, positions, pos, checks);
  if (net.cuda_graphs()) phase("CUDA graphs vs eager");
  check_fused_norm(cfg, device, seed, checks);
  if (device.is_cuda() && model::fused_norm_kernels()) phase("fused norm kernels");
  const auto rollout = fixed_rollout(positions, learner, net, pos);
  check_update(learner, rollout, checks);
  phase("learner update");
  check_checkpoint(learner, cfg, pos, checks);
  phase("checkpoint");
  check_group_update(cfg, device, seed, rollout, checks);
  phase("one-rank group update");
  check_distributed(learner, checks);
  if (model::gloo_available()) phase("distributed all-reduce");
  return checks;
}

}  // namespace hydra::ppo
