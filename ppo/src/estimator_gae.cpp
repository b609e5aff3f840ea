// GAE's estimators (docs/PPO.md "One update, step by step", "Privileged critic"): the baseline is
// the policy's own value head (V_old of the snapshot that acted), or a separate critic network
// that also sees the privileged planes, trained beside the policy and never read by it. Any
// baseline that does not depend on the action leaves the policy gradient unbiased.

#include <algorithm>
#include <sstream>
#include <string>

#include "estimators.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/log.hpp"
#include "hydra/encoder/privileged.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/model/critic.hpp"
#include "hydra/model/optim.hpp"
#include "hydra/model/precision.hpp"
#include "passes.hpp"

namespace hydra::ppo {
namespace {

// GAE on the value head: everything is the learner's default; the ranks of a data-parallel run
// each prepare their own rollout.
class GaeEstimator final : public AdvantageEstimator {
 public:
  GaeEstimator() : AdvantageEstimator(config::Estimator::gae) {}
  bool data_parallel() const override { return true; }
};

// GAE on the privileged critic's V (ppo.critic = privileged).
class PrivilegedGaeEstimator final : public AdvantageEstimator {
 public:
  explicit PrivilegedGaeEstimator(const EstimatorContext& ctx);

  std::vector<float> baseline(const selfplay::Rollout& rollout, const RolloutTensors& host) override;
  double after_update(const RolloutTensors& data, std::int64_t update) override;
  void save(model::CheckpointData& out) const override;
  void restore(const model::CheckpointData& in) override;
  bool has_critic() const override { return true; }
  torch::Tensor critic_values(const RolloutTensors& host) override;

 private:
  // [N,1] V of the rows of `data` (host or device) in batches of ppo.minibatch, no autograd.
  torch::Tensor forward_all(const RolloutTensors& data);

  config::PpoConfig ppo_;
  torch::Device device_;
  game::MasterSeed master_;
  bool autocast_;
  model::CriticNet critic_{nullptr};
  std::unique_ptr<torch::optim::AdamW> optimizer_;
};

PrivilegedGaeEstimator::PrivilegedGaeEstimator(const EstimatorContext& ctx)
    : AdvantageEstimator(config::Estimator::privileged_gae),
      ppo_(ctx.ppo),
      device_(ctx.device),
      master_(ctx.master),
      autocast_(model::autocast_enabled(ctx.model, ctx.device.type())) {
  model::CriticConfig cc;
  cc.blocks = ppo_.critic_blocks;
  cc.channels = ppo_.critic_channels;
  critic_ = model::CriticNet(cc);
  critic_->init_weights(game::u64(game::stream_key(master_, game::labels::critic_init).bytes()));
  critic_->to(device_);
  critic_->train();
  model::AdamWSettings adamw;
  adamw.lr = ppo_.critic_lr;
  adamw.weight_decay = ppo_.weight_decay;
  optimizer_ = model::make_adamw(*critic_, adamw);
  log::info("ppo: privileged critic, {} blocks x {} channels, {} parameters", cc.blocks, cc.channels,
            model::count_parameters(*critic_));
}

std::vector<float> PrivilegedGaeEstimator::baseline(const selfplay::Rollout& /*rollout*/, const RolloutTensors& host) {
  if (!host.priv.defined())
    throw Error("ppo.critic = privileged, but the rollout carries no privileged planes (the actors must be "
                "configured with the same ppo.critic)");
  const auto v = forward_all(host).cpu().select(1, 0).contiguous();
  return {v.data_ptr<float>(), v.data_ptr<float>() + v.numel()};
}

torch::Tensor PrivilegedGaeEstimator::critic_values(const RolloutTensors& host) {
  if (!host.priv.defined()) throw Error("ppo: the rollout carries no privileged planes");
  return forward_all(host).cpu();
}

torch::Tensor PrivilegedGaeEstimator::forward_all(const RolloutTensors& data) {
  torch::NoGradGuard no_grad;
  const std::int64_t n = data.size();
  std::vector<torch::Tensor> parts;
  for (std::int64_t lo = 0; lo < n; lo += ppo_.minibatch) {
    const std::int64_t hi = std::min<std::int64_t>(n, lo + ppo_.minibatch);
    model::AutocastGuard guard(device_.type(), autocast_);
    const auto priv = data.priv.defined() ? data.priv.slice(0, lo, hi).to(device_) : torch::Tensor();
    parts.push_back(
        critic_->forward(data.obs.slice(0, lo, hi).to(device_), priv, data.context.slice(0, lo, hi).to(device_))
            .to(torch::kFloat));
  }
  if (parts.empty()) return torch::zeros({0, 1}, torch::TensorOptions().device(device_));
  return torch::cat(parts);
}

// ppo.critic_epochs passes of shuffled minibatches (its own data-order stream) of the MSE to the
// returns the policy's update used. Returns the mean loss.
double PrivilegedGaeEstimator::after_update(const RolloutTensors& data, std::int64_t update) {
  const std::int64_t n = data.size();
  const std::int64_t batches = std::max<std::int64_t>(1, n / ppo_.minibatch);
  auto sum = torch::zeros({}, torch::TensorOptions().device(device_));
  std::int64_t steps = 0;
  for (std::int64_t epoch = 0; epoch < ppo_.critic_epochs; ++epoch) {
    const auto order_t = epoch_order(master_, game::labels::critic_order, update, epoch, n, device_);
    for (std::int64_t k = 0; k < batches; ++k) {
      const auto b = data.select(order_t.slice(0, k * n / batches, (k + 1) * n / batches));
      torch::Tensor out;
      {
        model::AutocastGuard guard(device_.type(), autocast_);
        out = critic_->forward(b.obs, b.priv, b.context).to(torch::kFloat);
      }
      auto loss = (out.select(1, 0) - b.returns).pow(2).mean();
      optimizer_->zero_grad();
      loss.backward();
      model::clip_gradients(critic_->parameters(), ppo_.grad_clip);
      model::adamw_step(*optimizer_);
      sum += loss.detach();
      ++steps;
    }
  }
  return steps > 0 ? sum.item<double>() / static_cast<double>(steps) : 0.0;
}

// The critic's weights as `critic.*` tensors, its AdamW moments serialised as torch writes an
// optimizer in one byte tensor `critic_optimizer`, and extra.ppo.critic naming what it is
// ("action_values": false, as every reader since the observed critic expects).
void PrivilegedGaeEstimator::save(model::CheckpointData& out) const {
  out.extra["ppo"]["critic"] = {{"inputs", "privileged"}, {"action_values", false}};
  out.extra["ppo"]["critic"]["privileged_layout"] = encoder::kPrivilegedVersion;
  model::save_prefixed(*critic_, "critic.", out);
  torch::serialize::OutputArchive archive;
  optimizer_->save(archive);
  std::ostringstream bytes;
  archive.save_to(bytes);
  const std::string s = std::move(bytes).str();
  out.tensors["critic_optimizer"] =
      torch::from_blob(const_cast<char*>(s.data()), {static_cast<std::int64_t>(s.size())}, torch::kUInt8).clone();
}

void PrivilegedGaeEstimator::restore(const model::CheckpointData& in) {
  const auto& ppo = in.extra.at("ppo");
  // Checkpoints from before the critic named its inputs hold a privileged one.
  const bool ok = ppo.contains("critic") && ppo.at("critic").is_object() &&
                  ppo.at("critic").value("inputs", std::string("privileged")) == "privileged" &&
                  !ppo.at("critic").value("action_values", false) &&
                  ppo.at("critic").value("privileged_layout", -1) == encoder::kPrivilegedVersion;
  if (!ok)
    throw Error("checkpoint PPO state: no privileged critic of privileged layout version " +
                std::to_string(encoder::kPrivilegedVersion) +
                " (field 'extra.ppo.critic'): it was written with another ppo.critic or ppo.policy_gradient; "
                "resume with those settings");
  model::load_prefixed(*critic_, "critic.", in, "the checkpoint");
  const auto it = in.tensors.find("critic_optimizer");
  if (it == in.tensors.end()) throw Error("checkpoint PPO state: missing tensor 'critic_optimizer'");
  const auto raw = it->second.to(torch::kCPU).contiguous();
  torch::serialize::InputArchive archive;
  archive.load_from(reinterpret_cast<const char*>(raw.data_ptr<std::uint8_t>()), ix(raw.numel()), device_);
  optimizer_->load(archive);
}

}  // namespace

std::unique_ptr<AdvantageEstimator> make_gae_estimator() { return std::make_unique<GaeEstimator>(); }

std::unique_ptr<AdvantageEstimator> make_privileged_gae_estimator(const EstimatorContext& ctx) {
  return std::make_unique<PrivilegedGaeEstimator>(ctx);
}

}  // namespace hydra::ppo
