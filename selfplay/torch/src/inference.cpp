// Inference snapshots (inference.hpp).

#include "hydra/selfplay/torch/inference.hpp"
#include "hydra/model/runtime.hpp"

#include <algorithm>
#include <cstring>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/precision.hpp"
#include "cuda_graphs.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

constexpr std::int64_t kObs = encoder::kObsSize;

}  // namespace

InferenceModel::InferenceModel(const model::HydraNetImpl& net, torch::Device device, std::int64_t version)
    : device_(device), config_(net.config()), snapshot_(copy_of(net, version)) {
  model::apply_device_settings(config_, device_.type());  // before the first forward (graphs capture lazily)
}

std::shared_ptr<const InferenceModel::Weights> InferenceModel::copy_of(const model::HydraNetImpl& net,
                                                                         std::int64_t version) const {
  auto s = std::make_shared<Weights>();
  {
    // The copy is a plain tensor copy: no autograd history, whatever mode the caller is in.
    torch::NoGradGuard no_grad;
    s->net = model::HydraNet(std::dynamic_pointer_cast<model::HydraNetImpl>(net.clone(device_)));
    for (auto& p : s->net->parameters()) p.set_requires_grad(false);
  }
  s->net->eval();
  s->version = version;
  if (device_.is_cpu() && config_.cpu_bf16_inference) s->bf16 = std::make_shared<const model::CpuBf16Net>(*s->net);
  if (device_.is_cuda() && config_.cuda_graphs && detail::cuda_graphs_built())
    s->graphs = std::make_shared<detail::GraphedForward>(s->net, device_, model::autocast_enabled(config_, device_.type()));
  return s;
}

std::shared_ptr<const InferenceModel::Weights> InferenceModel::current() const {
  const std::lock_guard lock(mu_);
  return snapshot_;
}

std::int64_t InferenceModel::version() const { return current()->version; }

bool InferenceModel::cuda_graphs() const { return graphs_on_.load() && current()->graphs != nullptr; }

void InferenceModel::publish(const model::HydraNetImpl& learner, std::int64_t version) {
  // Copied outside the lock: forwards keep running on the old snapshot meanwhile.
  auto next = copy_of(learner, version);
  const std::lock_guard lock(mu_);
  snapshot_ = std::move(next);
}

model::Outputs InferenceModel::forward(const torch::Tensor& obs, const torch::Tensor& context) {
  return forward(obs, context, model::autocast_enabled(config_, device_.type()));
}

model::Outputs InferenceModel::forward(const torch::Tensor& obs, const torch::Tensor& context, bool autocast) {
  const auto snap = current();
  torch::InferenceMode guard;
  model::Outputs out;
  {
    model::AutocastGuard guard_autocast(device_.type(), autocast);
    out = snap->net->forward(obs.to(device_), context.to(device_));
  }
  out = out.to_float();
  out.policy = out.policy.cpu();
  out.value = out.value.cpu();
  out.grp = out.grp.cpu();
  out.tenpai = out.tenpai.cpu();
  out.danger = out.danger.cpu();
  return out;
}

void InferenceModel::evaluate(const PolicyBatch& in, PolicyOutput out) {
  if (in.n <= 0) return;
  const auto snap = current();
  torch::InferenceMode guard;
  const std::int64_t n = in.n;
  // The masked softmax runs on the host (46 values per row) in fp32 whatever the autocast dtype,
  // from one host tensor of logits and values [n, 47].
  const auto finish = [&](const torch::Tensor& host) {
    const float* h = host.data_ptr<float>();
    for (std::int64_t i = 0; i < n; ++i) {
      const float* row = h + i * (kActions + 1);
      masked_softmax(row, in.legal[i], out.probs + i * kActions);
      out.value[i] = row[kActions];
    }
  };
  torch::Tensor obs, ctx;
  if (device_.is_cpu()) {
    // No copy at all: the network reads the caller's buffers.
    obs = torch::from_blob(const_cast<float*>(in.obs), {n, encoder::kChannels, encoder::kTiles});
    ctx = torch::from_blob(const_cast<float*>(in.context), {n, kContext});
    if (snap->bf16) {
      finish(snap->bf16->logits_and_values(obs, ctx));
      return;
    }
  } else {
    // One host->device copy: observations and contexts packed row by row into a pinned buffer
    // (torch's caching host allocator reuses it), then split on the device.
    auto staging = torch::empty({n, kObs + kContext}, torch::TensorOptions().dtype(torch::kFloat).pinned_memory(true));
    float* dst = staging.data_ptr<float>();
    for (std::int64_t i = 0; i < n; ++i) {
      std::memcpy(dst + i * (kObs + kContext), in.obs + i * kObs, sizeof(float) * ix(kObs));
      std::memcpy(dst + i * (kObs + kContext) + kObs, in.context + i * kContext, sizeof(float) * kContext);
    }
    if (snap->graphs && graphs_on_.load()) {
      // Undefined when this snapshot's graphs failed to capture: the eager forward below.
      if (const auto host = snap->graphs->run(staging); host.defined()) {
        finish(host);
        return;
      }
    }
    const auto dev = staging.to(device_, /*non_blocking=*/true);
    obs = dev.narrow(1, 0, kObs).view({n, encoder::kChannels, encoder::kTiles});
    ctx = dev.narrow(1, kObs, kContext);
  }
  // One device->host copy of the logits and values together.
  finish(detail::logits_and_values(*snap->net, obs, ctx, device_.type(), model::autocast_enabled(config_, device_.type()))
             .cpu()
             .contiguous());
}

std::shared_ptr<InferenceModel> load_policy(const std::filesystem::path& path, torch::Device device, bool cpu_bf16) {
  model::LoadOptions options;
  options.restore_rng = false;
  const auto data = model::load_checkpoint(path, nullptr, nullptr, options);
  if (data.kind != "hydra_net")
    throw Error("checkpoint '" + path.string() + "' holds a '" + data.kind + "' network, not a hydra_net policy");
  config::Config cfg = model::stored_config(path, data);
  if (cpu_bf16) cfg.model.cpu_bf16_inference = true;
  model::HydraNet net(cfg.model);
  model::load_checkpoint(path, net.ptr().get(), nullptr, options);
  return std::make_shared<InferenceModel>(*net, device, data.step);
}

namespace {
// The network a play-out player's name loads (config::loads_checkpoint): ppo.init for start, else
// the path it names; null for bot:greedy, the snapshot and agent.
std::shared_ptr<InferenceModel> load_player(const config::Config& cfg, const std::string& player, torch::Device device) {
  const config::PlayOutPlayer who = config::play_out_player(player);
  if (!config::loads_checkpoint(who)) return nullptr;
  return load_policy(who == config::PlayOutPlayer::start ? cfg.ppo.init : player, device, cfg.model.cpu_bf16_inference);
}
}  // namespace

std::shared_ptr<InferenceModel> play_out_policy(const config::Config& cfg, torch::Device device) {
  return load_player(cfg, cfg.selfplay.play_out_agent, device);
}

std::shared_ptr<InferenceModel> play_out_others_policy(const config::Config& cfg, torch::Device device) {
  return load_player(cfg, cfg.selfplay.play_out_others, device);
}

std::shared_ptr<BatchPolicy> checkpoint_policy(const std::string& path, const std::string& device, bool cpu_bf16) {
  return load_policy(path, torch::Device(model::resolve_device(device)), cpu_bf16);
}

}  // namespace hydra::selfplay
