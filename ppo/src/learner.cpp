#include "hydra/ppo/learner.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cmath>
#include <numeric>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/encoder/privileged.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/ppo/batch.hpp"
#include "hydra/ppo/gae.hpp"
#include "hydra/ppo/loss.hpp"
#include "hydra/common/index.hpp"

namespace hydra::ppo {
namespace {

std::uint64_t network_seed(game::MasterSeed master) {
  return game::u64(game::stream_key(master, game::labels::network_init).bytes());
}

model::WarmupCosine make_schedule(const LearnerConfig& cfg) {
  model::WarmupCosine s;
  s.peak = cfg.ppo.lr;
  s.floor = cfg.ppo.lr_floor;
  s.total = cfg.max_updates;
  s.warmup = std::llround(cfg.ppo.warmup * static_cast<double>(cfg.max_updates));
  return s;
}

// Loads a "hydra_net" checkpoint's weights into `net` (optimizer, RNG and state untouched).
void load_weights(const std::string& file, model::HydraNetImpl& net, const char* what) {
  model::LoadOptions options;
  options.restore_rng = false;
  const auto data = model::load_checkpoint(file, &net, nullptr, options);
  if (data.kind != "hydra_net")
    throw Error("ppo." + std::string(what) + ": checkpoint '" + file + "' holds a '" + data.kind +
                "' network, not a hydra_net");
}

// The learner-side policy evaluation shared by update() and log_probs().
model::Outputs forward(model::HydraNetImpl& net, const RolloutTensors& b, torch::DeviceType device, bool autocast) {
  model::Outputs out;
  {
    model::AutocastGuard guard(device, autocast);
    out = net.forward(b.obs, b.context);
  }
  return out.to_float();
}

// A Fisher-Yates permutation of 0..n-1 from xoshiro256** keyed by stream_key(master, label,
// {update, epoch}), as an int64 tensor on `device`: the visiting order of one epoch.
torch::Tensor epoch_order(game::MasterSeed master, std::string_view label, std::int64_t update, std::int64_t epoch,
                          std::int64_t n, const torch::Device& device) {
  std::vector<std::int64_t> order(ix(n));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  game::Xoshiro256ss rng(
      game::stream_key(master, label, {static_cast<std::uint64_t>(update), static_cast<std::uint64_t>(epoch)}));
  game::shuffle(std::span<std::int64_t>(order), rng);
  // clone(): from_blob does not own `order`, and to() onto the CPU would not copy it.
  return torch::from_blob(order.data(), {n}, torch::kLong).clone().to(device);
}

double linear(double start, double end, std::int64_t u, std::int64_t total) {
  const double frac = total > 0 ? std::min(1.0, static_cast<double>(u) / static_cast<double>(total)) : 1.0;
  return start + (end - start) * frac;
}

// The loss inputs of a minibatch: the network's outputs on it and the stored targets.
LossInput loss_input(model::HydraNetImpl& net, const RolloutTensors& b, torch::DeviceType device, bool autocast) {
  LossInput in;
  in.out = forward(net, b, device, autocast);
  in.legal = b.legal;
  in.action = b.action;
  in.old_logp = b.logp;
  in.advantage = b.advantage;
  in.returns = b.returns;
  in.tenpai = b.tenpai;
  in.danger = b.danger;
  in.action_advantage = b.action_advantage;
  in.old_probs = b.old_probs;
  return in;
}

}  // namespace

LearnerConfig learner_config(const config::Config& cfg) {
  return LearnerConfig{cfg.model, cfg.ppo, cfg.selfplay.temperature, cfg.train.max_updates};
}

Learner::Learner(const LearnerConfig& cfg, torch::Device device, game::MasterSeed master)
    : cfg_(cfg), device_(device), master_(master), schedule_(make_schedule(cfg)), reward_norm_(cfg.ppo.gamma) {
  model::apply_device_settings(cfg_.model, device_.type());
  net_ = model::HydraNet(cfg_.model);
  if (cfg_.ppo.init.empty()) {
    net_->init_weights(network_seed(master_));
  } else {
    load_weights(cfg_.ppo.init, *net_, "init");
    log::info("ppo: initial weights from {}", cfg_.ppo.init);
  }
  net_->to(device_);
  net_->train();
  if (cfg_.ppo.entropy_target < 0 && cfg_.ppo.entropy_target != -1.0)
    throw Error("config: ppo.entropy_target " + std::to_string(cfg_.ppo.entropy_target) +
                ": expected -1 (the anchor's entropy), 0 (none) or a positive entropy in nats");
  const std::string anchor = anchor_file(cfg_.ppo);
  if (!anchor.empty()) {
    anchor_ = model::HydraNet(cfg_.model);
    load_weights(anchor, *anchor_, "anchor");
    anchor_->to(device_);
    anchor_->eval();
    for (auto& p : anchor_->parameters()) p.set_requires_grad(false);
    log::info("ppo: KL anchor from {}", anchor);
  }
  if (value_warmup_updates() > 0)
    log::info("ppo: the first {} updates train only the value head", value_warmup_updates());
  model::AdamWSettings adamw;
  adamw.lr = cfg_.ppo.lr;
  adamw.weight_decay = cfg_.ppo.weight_decay;
  optimizer_ = model::make_adamw(*net_, adamw);
  if (cfg_.ppo.critic != "value_head") {
    model::CriticConfig cc;
    cc.blocks = cfg_.ppo.critic_blocks;
    cc.channels = cfg_.ppo.critic_channels;
    cc.privileged = cfg_.ppo.critic == "privileged";
    cc.action_values = expected_gradient() && cfg_.ppo.advantage != "rollout";  // play-outs give D otherwise
    critic_ = model::CriticNet(cc);
    critic_->init_weights(game::u64(game::stream_key(master_, game::labels::critic_init).bytes()));
    critic_->to(device_);
    critic_->train();
    model::AdamWSettings critic_adamw;
    critic_adamw.lr = cfg_.ppo.critic_lr;
    critic_adamw.weight_decay = cfg_.ppo.weight_decay;
    critic_optimizer_ = model::make_adamw(*critic_, critic_adamw);
    log::info("ppo: {} critic{}, {} blocks x {} channels, {} parameters", cfg_.ppo.critic,
              cc.action_values ? " with action values (expected policy gradient)" : "", cc.blocks, cc.channels,
              model::count_parameters(*critic_));
  }
}

Learner::~Learner() = default;

std::string anchor_file(const config::PpoConfig& ppo) {
  if (ppo.anchor == "none") return "";
  return ppo.anchor.empty() ? ppo.init : ppo.anchor;
}

std::int64_t Learner::value_warmup_updates() const { return cfg_.ppo.init.empty() ? 0 : cfg_.ppo.value_warmup; }

double Learner::entropy_coef(std::int64_t u) const {
  return linear(cfg_.ppo.entropy_start, cfg_.ppo.entropy_end, u, schedule_.total);
}

double Learner::kl_anchor_coef(std::int64_t u) const {
  return linear(cfg_.ppo.kl_anchor_start, cfg_.ppo.kl_anchor_end, u, schedule_.total);
}

RolloutTensors Learner::prepare(const selfplay::Rollout& rollout, bool observe, UpdateStats& stats) {
  const auto& ppo = cfg_.ppo;
  auto host = rollout_tensors(rollout);
  const std::int64_t n = host.size();
  HYDRA_CHECK(n > 0, "ppo update on an empty rollout");
  HYDRA_CHECK(n <= std::int64_t{0xffffffff}, "ppo update: rollout too large to shuffle");
  stats.samples = n;
  const auto un = ix(n);

  // Rewards -> (normalised) -> GAE, on the host in double.
  std::vector<float> reward(rollout.reward.begin(), rollout.reward.end());
  if (ppo.reward_norm) {
    if (observe && sharded()) {
      // The moments of every rank's returns, observed in rank order: those of the concatenation.
      std::string mine(reinterpret_cast<const char*>(reward.data()), reward.size() * sizeof(float));
      mine.append(reinterpret_cast<const char*>(rollout.done.data()), rollout.done.size());
      for (const std::string& part : group_->all_gather_bytes(mine)) {
        const std::size_t k = part.size() / (sizeof(float) + 1);
        std::vector<float> r(k);
        std::memcpy(r.data(), part.data(), k * sizeof(float));
        const auto* d = reinterpret_cast<const std::uint8_t*>(part.data() + k * sizeof(float));
        reward_norm_.observe(r, std::span<const std::uint8_t>(d, k));
      }
    } else if (observe) {
      reward_norm_.observe(reward, rollout.done);
    }
    reward_norm_.normalize(reward);
    stats.reward_std = reward_norm_.stddev();
  }
  // The baseline: V_old of the acting snapshot, or the privileged critic's V now (it sees the
  // hidden state; any baseline that does not depend on the action leaves the gradient unbiased).
  std::vector<float> baseline = rollout.value;
  torch::Tensor critic_out;  // [N,1] V or [N,47] [V | D] of the critic
  if (has_critic()) {
    if (critic_->config().privileged && !host.priv.defined())
      throw Error("ppo.critic = privileged, but the rollout carries no privileged planes (the actors must be "
                  "configured with the same ppo.critic)");
    critic_out = critic_forward(host, model::autocast_enabled(cfg_.model, device_.type())).cpu();
    const auto v = critic_out.select(1, 0).contiguous();
    baseline.assign(v.data_ptr<float>(), v.data_ptr<float>() + n);
  }
  std::vector<float> advantage(un), returns(un);
  compute_gae(reward, baseline, rollout.done, ppo.gamma, ppo.lambda, advantage, returns);
  // Value targets: the lambda-returns of the advantages, or those of ppo.value_lambda (1: Monte
  // Carlo returns, which do not lean on the value being learned).
  const double value_lambda = ppo.value_lambda < 0 ? ppo.lambda : ppo.value_lambda;
  if (value_lambda != ppo.lambda) {
    std::vector<float> unused(un);
    compute_gae(reward, baseline, rollout.done, ppo.gamma, value_lambda, unused, returns);
  }
  stats.explained_variance = explained_variance(baseline, returns);
  {
    std::vector<float> mc_adv(un), mc_returns(un);
    compute_gae(reward, baseline, rollout.done, ppo.gamma, 1.0, mc_adv, mc_returns);
    stats.explained_variance_mc = explained_variance(baseline, mc_returns);
  }
  // Paired branches and greedy play-outs: the policy's advantage of a paired decision is R(a) - R(b)
  // or Q(a) - Q(g) (on the scale of the normalised rewards); a decision without a pair carries none.
  // The value targets stay.
  if (ppo.advantage == "paired" || ppo.advantage == "rollout") {
    if (rollout.paired.size() != un)
      throw Error("ppo.advantage = " + ppo.advantage + ", but the rollout carries no " +
                  (ppo.advantage == "paired" ? "paired branches" : "greedy play-outs") +
                  " (the actors must be configured with the same ppo.advantage)");
    const double scale = ppo.reward_norm ? 1.0 / reward_norm_.stddev() : 1.0;
    std::int64_t pairs = 0;
    for (std::size_t i = 0; i < un; ++i) {
      advantage[i] = rollout.paired[i] ? static_cast<float>(rollout.paired_advantage[i] * scale) : 0.0f;
      pairs += rollout.paired[i];
    }
    stats.paired_share = static_cast<double>(pairs) / static_cast<double>(n);
  }
  {
    double sum = 0, sq = 0;
    for (const float a : advantage) sum += a;
    stats.adv_mean = sum / static_cast<double>(n);
    for (const float a : advantage) sq += (a - stats.adv_mean) * (a - stats.adv_mean);
    stats.adv_std = std::sqrt(sq / static_cast<double>(n));
  }
  host.advantage = torch::from_blob(advantage.data(), {n}, torch::kFloat).clone();
  host.returns = torch::from_blob(returns.data(), {n}, torch::kFloat).clone();
  if (expected_gradient()) {
    // The expected policy gradient: action advantages D(s, a) - sum_b pi(b) D(s, b) under the
    // policy as it stands (on-policy in expectation over the action, so no behaviour
    // probabilities are needed), scaled so that their pi-weighted second moment over the rollout
    // is 1 (the sampled form's normalised advantages have variance 1) and clipped. D is the
    // critic's, over every legal action, or the greedy play-outs', over the actions played out
    // (centred with pi renormalised over them; the others carry 0, no push either way).
    host.old_probs = policy_probs(host);
    torch::Tensor d, over;
    if (ppo.advantage == "rollout") {
      if (rollout.played_out.size() != un)
        throw Error("ppo.policy_gradient = expected with ppo.advantage = rollout, but the rollout carries no play-outs "
                    "of every likely action (the actors must be configured with the same ppo.policy_gradient)");
      const double scale = ppo.reward_norm ? 1.0 / reward_norm_.stddev() : 1.0;
      d = torch::from_blob(const_cast<float*>(rollout.action_value.data()), {n, model::kActions}, torch::kFloat)
              .mul(scale);
      over = action_masks(rollout.played_out).logical_and(host.legal);
    } else {
      d = critic_out.slice(1, 1);
      over = host.legal;
    }
    const auto pi = torch::where(over, host.old_probs, torch::zeros_like(host.old_probs));
    const auto mass = pi.sum(1, /*keepdim=*/true);
    const auto mean = (pi * d).sum(1, /*keepdim=*/true) / mass.clamp_min(1e-12);
    auto centred = torch::where(over, d - mean, torch::zeros_like(d));
    const double scale = std::sqrt((host.old_probs * centred.pow(2)).sum(1).mean().item<double>());
    stats.action_adv_std = scale;
    host.action_advantage = (centred / (scale + 1e-8)).clamp(-ppo.adv_clip, ppo.adv_clip);
  }
  return host.to(device_);
}

LossSettings Learner::settings_for(std::int64_t u) const {
  auto settings = LossSettings::from_config(cfg_.model, cfg_.ppo, cfg_.temperature);
  settings.entropy_coef = entropy_coef(u);
  settings.kl_anchor_coef = has_anchor() ? kl_anchor_coef(u) : 0.0;
  settings.value_only = u < value_warmup_updates();
  return settings;
}

void Learner::set_group(model::ProcessGroup* group) {
  group_ = group;
  if (!sharded()) return;
  if (has_critic() || cfg_.ppo.advantage != "gae" || cfg_.ppo.noise_batch > 0)
    throw Error("data-parallel training does not support ppo.critic, ppo.advantage = paired or rollout, or "
                "ppo.noise_batch yet");
  // The data order of every update is drawn from the master seed: the replicas must share it.
  for (const std::int64_t seed : group_->all_gather_int(static_cast<std::int64_t>(master_.value)))
    if (static_cast<std::uint64_t>(seed) != master_.value)
      throw Error("data-parallel training: the ranks have different master seeds (" +
                  std::to_string(static_cast<std::uint64_t>(seed)) + " and " + std::to_string(master_.value) +
                  "): give every rank the same run.seed");
  model::broadcast_module(*group_, *net_);
  buckets_ = std::make_unique<model::GradientBuckets>(*group_, net_->parameters());
}

UpdateStats Learner::update(const selfplay::Rollout& rollout) {
  const auto start = std::chrono::steady_clock::now();
  const auto& ppo = cfg_.ppo;
  UpdateStats stats;
  stats.update = updates_;
  const auto data = prepare(rollout, /*observe=*/true, stats);
  const std::int64_t n = stats.samples;
  // Data-parallel: the union of the ranks' rollouts is shuffled and cut into minibatches as one
  // rollout would be; this rank's samples are the union's [offset, offset + n).
  std::int64_t total = n, offset = 0;
  if (sharded()) {
    const auto counts = group_->all_gather(torch::tensor({n}, torch::kLong));
    total = 0;
    for (int r = 0; r < group_->size(); ++r) {
      const std::int64_t c = counts[ix(r)].item<std::int64_t>();
      if (r < group_->rank()) offset += c;
      total += c;
    }
    stats.samples = total;  // the update's: every rank's rollout
  }
  const auto reduce = [this](std::vector<torch::Tensor>& t) {
    for (auto& x : t) x = x.detach().contiguous();
    group_->all_reduce_sum(t);  // through the backend's device (the host for Gloo) and back
  };

  stats.lr = schedule_.lr(updates_);
  model::set_lr(*optimizer_, stats.lr);
  auto settings = settings_for(updates_);
  stats.entropy_coef = settings.entropy_coef;
  stats.kl_anchor_coef = settings.kl_anchor_coef;
  const bool autocast = model::autocast_enabled(cfg_.model, device_.type());
  const auto params = net_->parameters();
  // Value warm-up: only the value head has requires_grad, so the trunk and the policy (what
  // the actors play) stay exactly as loaded while V learns the scale of PPO's returns.
  stats.value_warmup = settings.value_only;
  std::vector<torch::Tensor> frozen;
  if (stats.value_warmup) {
    const auto value_params = net_->value->parameters();
    for (auto& p : params) {
      const bool in_value = std::any_of(value_params.begin(), value_params.end(),
                                        [&](const torch::Tensor& v) { return v.is_same(p); });
      if (!in_value && p.requires_grad()) {
        p.set_requires_grad(false);
        frozen.push_back(p);
      }
    }
  }
  struct Unfreeze {
    std::vector<torch::Tensor>& list;
    ~Unfreeze() {
      for (auto& p : list) p.set_requires_grad(true);
    }
  } unfreeze{frozen};

  if (ppo.noise_batch > 0 && !settings.value_only) measure_gradient_noise(data, rollout.game, autocast, stats);

  // Minibatches of equal size (within one): every sample is used each epoch, and no tiny
  // remainder batch gets a degenerate advantage normalisation.
  const std::int64_t batches = std::max<std::int64_t>(1, total / ppo.minibatch);
  const auto zero = torch::zeros({}, torch::TensorOptions().device(device_));
  auto sum_policy = zero.clone(), sum_value = zero.clone(), sum_entropy = zero.clone();
  auto sum_kl = zero.clone(), sum_clip = zero.clone(), sum_tenpai = zero.clone();
  auto sum_danger = zero.clone(), sum_anchor = zero.clone(), sum_grad = zero.clone();
  auto sum_target = zero.clone();
  std::int64_t planned = ppo.epochs;
  std::int64_t steps = 0;
  bool stop = false;
  for (std::int64_t epoch = 0; epoch < planned && !stop; ++epoch) {
    const auto order_t = epoch_order(master_, game::labels::data_order, updates_, epoch, total, device_);
    for (std::int64_t k = 0; k < batches; ++k) {
      auto idx = order_t.slice(0, k * total / batches, (k + 1) * total / batches);
      const std::int64_t global_count = idx.size(0);
      if (sharded()) idx = idx.masked_select(idx.ge(offset).logical_and(idx.lt(offset + n))) - offset;
      const auto b = data.select(idx);
      LossInput in = loss_input(*net_, b, device_.type(), autocast);
      if (sharded()) {
        in.reduce = reduce;
        in.global_count = global_count;
      }
      if (has_anchor() && !settings.value_only) {
        torch::NoGradGuard no_grad;
        in.anchor_logits = forward(*anchor_, b, device_.type(), autocast).policy;
      }
      const auto terms = ppo_loss(in, settings);
      if (epoch == 0 && k == 0) stats.approx_kl_start = terms.approx_kl.item<double>();
      // The policy after the first epoch, seen by the second epoch's first minibatch before it
      // steps, decides how many epochs this update gets (spec: 3, or 2 when approx-KL > 0.03).
      if (epoch == 1 && k == 0) {
        stats.approx_kl_first = terms.approx_kl.item<double>();
        if (stats.approx_kl_first > ppo.kl_high) planned = std::min<std::int64_t>(planned, ppo.epochs_high_kl);
        if (epoch >= planned) break;
      }
      if (ppo.kl_stop > 0 && terms.approx_kl.item<double>() > ppo.kl_stop) {
        stats.kl_stopped = stop = true;
        break;
      }
      if (k == 0) ++stats.epochs;
      optimizer_->zero_grad();
      // The ranks' shares of the minibatch's mean loss: their gradients summed are its gradient,
      // summed in buckets while the backward pass runs.
      if (sharded()) buckets_->arm();
      terms.total.backward();
      if (sharded()) buckets_->finish();
      sum_grad += model::clip_gradients(params, ppo.grad_clip).to(device_);
      model::adamw_step(*optimizer_);
      ++steps;
      sum_policy += terms.policy.detach();
      sum_value += terms.value.detach();
      sum_entropy += terms.entropy.detach();
      if (terms.entropy_target.defined()) sum_target += terms.entropy_target.detach();
      sum_kl += terms.approx_kl;
      sum_clip += terms.clip_fraction;
      if (terms.tenpai.defined()) sum_tenpai += terms.tenpai.detach();
      if (terms.danger.defined()) sum_danger += terms.danger.detach();
      if (terms.kl_anchor.defined()) sum_anchor += terms.kl_anchor.detach();
    }
  }
  stats.minibatches = steps;
  if (steps > 0) {
    const auto mean = [&](const torch::Tensor& s) { return s.item<double>() / static_cast<double>(steps); };
    stats.policy_loss = mean(sum_policy);
    stats.value_loss = mean(sum_value);
    stats.entropy = mean(sum_entropy);
    stats.approx_kl = mean(sum_kl);
    stats.clip_fraction = mean(sum_clip);
    stats.tenpai_loss = mean(sum_tenpai);
    stats.danger_loss = mean(sum_danger);
    stats.kl_anchor = mean(sum_anchor);
    stats.grad_norm = mean(sum_grad);
    stats.entropy_target = mean(sum_target);
  }
  if (has_critic()) stats.critic_loss = train_critic(data, autocast);
  ++updates_;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

// McCandlish et al., "An Empirical Model of Large-Batch Training" (2018), appendix A: with
// per-decision gradients x_i of mean G and covariance Sigma, a mean over b decisions has
// E|g_b|^2 = |G|^2 + tr(Sigma) / b. Chunk means g_k (K chunks of b = N / K) and the whole
// rollout's mean g_N give the unbiased estimates
//   |G|^2     = (N |g_N|^2 - b mean_k |g_k|^2) / (N - b)
//   tr(Sigma) = (mean_k |g_k|^2 - |g_N|^2) / (1 / b - 1 / N).
// Both need independent chunks. The four seats of a self-play game are zero-sum and share one
// wall, so a chunk holds whole games (cut at the first game boundary after ppo.noise_batch
// decisions; consecutive decisions when the rollout does not name its games). Cross-check: the
// chunks split alternately into two halves of different games, whose mean gradients g_A and g_B
// are independent, so <g_A, g_B> is another unbiased estimate of |G|^2 (ppo/grad_signal_halves)
// and their cosine says directly how much two halves of one rollout agree.
void Learner::measure_gradient_noise(const RolloutTensors& data, const std::vector<std::int64_t>& games, bool autocast,
                                     UpdateStats& stats) {
  const std::int64_t n = data.size();
  std::vector<std::int64_t> cuts{0};
  const bool by_game = static_cast<std::int64_t>(games.size()) == n;
  for (std::int64_t i = 1; i < n; ++i)
    if (i - cuts.back() >= cfg_.ppo.noise_batch &&
        (!by_game || games[ix(i)] != games[static_cast<std::size_t>(i - 1)]))
      cuts.push_back(i);
  // A short tail joins the chunk before it.
  if (cuts.size() > 1 && n - cuts.back() < cfg_.ppo.noise_batch / 2) cuts.pop_back();
  cuts.push_back(n);
  const auto chunks = static_cast<std::int64_t>(cuts.size()) - 1;
  if (chunks < 2) return;
  std::vector<torch::Tensor> params;
  for (const auto& p : net_->parameters())
    if (p.requires_grad()) params.push_back(p);
  const auto adv = data.action_advantage.defined() ? data.action_advantage
                                                  : normalize_advantages(data.advantage, cfg_.ppo.adv_clip);
  std::vector<torch::Tensor> sum(params.size()), half_a(params.size()), half_b(params.size());
  std::int64_t size_a = 0;
  for (std::int64_t k = 0; k < chunks; k += 2) size_a += cuts[static_cast<std::size_t>(k + 1)] - cuts[ix(k)];
  const std::int64_t size_b = n - size_a;
  // Sums stay on the device (float64): one host sync for the whole measurement.
  auto chunk_sq = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(device_));
  double inv_b = 0;  // mean over chunks of 1 / chunk size
  const auto add = [](torch::Tensor& acc, const torch::Tensor& g) { acc = acc.defined() ? acc + g : g; };
  for (std::int64_t k = 0; k < chunks; ++k) {
    const std::int64_t lo = cuts[ix(k)], hi = cuts[static_cast<std::size_t>(k + 1)];
    const auto idx = torch::arange(lo, hi, torch::TensorOptions().dtype(torch::kLong).device(device_));
    const auto b = data.select(idx);
    const auto logits = tempered(forward(*net_, b, device_.type(), autocast).policy.to(torch::kFloat),
                                 cfg_.temperature);
    const auto logp_all = model::masked_log_softmax(logits, b.legal);
    // The policy term at ratio 1: -A log pi(a) of the sampled action, or the loss's own expected
    // surrogate (pi_old is the network as it stands, so every ratio is 1 and nothing is clipped).
    const auto loss =
        data.action_advantage.defined()
            ? -expected_surrogate(logp_all, b.legal, adv.slice(0, lo, hi), b.old_probs, cfg_.ppo.clip).mean()
            : -(adv.slice(0, lo, hi) * logp_all.gather(1, b.action.unsqueeze(1)).squeeze(1)).mean();
    const auto grads = torch::autograd::grad({loss}, params, {}, /*retain_graph=*/false, /*create_graph=*/false,
                                             /*allow_unused=*/true);
    const auto rows = static_cast<double>(hi - lo);
    inv_b += 1.0 / rows / static_cast<double>(chunks);
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (!grads[i].defined()) continue;
      const auto g = grads[i].detach().to(torch::kDouble);
      chunk_sq += g.pow(2).sum() / static_cast<double>(chunks);
      add(sum[i], (rows / static_cast<double>(n)) * g);
      if (k % 2 == 0) add(half_a[i], (rows / static_cast<double>(size_a)) * g);
      else add(half_b[i], (rows / static_cast<double>(size_b)) * g);
    }
  }
  auto mean_sq = torch::zeros_like(chunk_sq), dot = torch::zeros_like(chunk_sq);
  auto sq_a = torch::zeros_like(chunk_sq), sq_b = torch::zeros_like(chunk_sq);
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (sum[i].defined()) mean_sq += sum[i].pow(2).sum();
    if (half_a[i].defined() && half_b[i].defined()) {
      dot += (half_a[i] * half_b[i]).sum();
      sq_a += half_a[i].pow(2).sum();
      sq_b += half_b[i].pow(2).sum();
    }
  }
  const auto sums = torch::stack({chunk_sq, mean_sq, dot, sq_a, sq_b}).cpu();
  const double small_sq = sums[0].item<double>(), big = sums[1].item<double>();
  // Chunks of unequal size b_k: E mean_k |g_k|^2 = |G|^2 + tr(Sigma) h with h = mean_k 1 / b_k
  // (h = 1 / b for equal chunks gives the formulas above).
  const double inv_n = 1.0 / static_cast<double>(n);
  stats.grad_noise = (small_sq - big) / (inv_b - inv_n);
  stats.grad_signal = (inv_b * big - inv_n * small_sq) / (inv_b - inv_n);
  stats.grad_signal_halves = sums[2].item<double>();
  const double norms = std::sqrt(sums[3].item<double>() * sums[4].item<double>());
  stats.grad_cos_halves = norms > 0 ? sums[2].item<double>() / norms : 0.0;
  stats.noise_chunks = chunks;
  stats.noise_measured = true;
}

// ppo.critic_epochs passes of shuffled minibatches (its own data-order stream) of the MSE to the
// returns the policy's update used. Returns the mean loss.
double Learner::train_critic(const RolloutTensors& data, bool autocast) {
  const std::int64_t n = data.size();
  const std::int64_t batches = std::max<std::int64_t>(1, n / cfg_.ppo.minibatch);
  auto sum = torch::zeros({}, torch::TensorOptions().device(device_));
  std::int64_t steps = 0;
  for (std::int64_t epoch = 0; epoch < cfg_.ppo.critic_epochs; ++epoch) {
    const auto order_t = epoch_order(master_, game::labels::critic_order, updates_, epoch, n, device_);
    for (std::int64_t k = 0; k < batches; ++k) {
      const auto b = data.select(order_t.slice(0, k * n / batches, (k + 1) * n / batches));
      torch::Tensor out;
      {
        model::AutocastGuard guard(device_.type(), autocast);
        out = critic_->forward(b.obs, b.priv, b.context).to(torch::kFloat);
      }
      const auto v = out.select(1, 0);
      auto loss = (v - b.returns).pow(2).mean();
      // Action values: D(a) of the action played learns the rollout's GAE advantage of that
      // decision (ppo.lambda, before normalisation), the estimate the sampled form would have
      // used; D is the regression of those samples on the decision, their mean over similar ones.
      if (out.size(1) > 1) {
        const auto d = out.slice(1, 1).gather(1, b.action.unsqueeze(1)).squeeze(1);
        loss = loss + (d - b.advantage).pow(2).mean();
      }
      critic_optimizer_->zero_grad();
      loss.backward();
      model::clip_gradients(critic_->parameters(), cfg_.ppo.grad_clip);
      model::adamw_step(*critic_optimizer_);
      sum += loss.detach();
      ++steps;
    }
  }
  return steps > 0 ? sum.item<double>() / static_cast<double>(steps) : 0.0;
}

torch::Tensor Learner::critic_forward(const RolloutTensors& data, bool autocast) {
  torch::NoGradGuard no_grad;
  const std::int64_t n = data.size();
  std::vector<torch::Tensor> parts;
  for (std::int64_t lo = 0; lo < n; lo += cfg_.ppo.minibatch) {
    const std::int64_t hi = std::min<std::int64_t>(n, lo + cfg_.ppo.minibatch);
    model::AutocastGuard guard(device_.type(), autocast);
    const auto priv = data.priv.defined() ? data.priv.slice(0, lo, hi).to(device_) : torch::Tensor();
    parts.push_back(
        critic_->forward(data.obs.slice(0, lo, hi).to(device_), priv, data.context.slice(0, lo, hi).to(device_))
            .to(torch::kFloat));
  }
  if (parts.empty()) return torch::zeros({0, 1}, torch::TensorOptions().device(device_));
  return torch::cat(parts);
}

torch::Tensor Learner::policy_probs(const RolloutTensors& data) {
  torch::NoGradGuard no_grad;
  const std::int64_t n = data.size();
  const bool autocast = model::autocast_enabled(cfg_.model, device_.type());
  std::vector<torch::Tensor> parts;
  for (std::int64_t lo = 0; lo < n; lo += cfg_.ppo.minibatch) {
    const std::int64_t hi = std::min<std::int64_t>(n, lo + cfg_.ppo.minibatch);
    const auto b = data.select(torch::arange(lo, hi, torch::kLong)).to(device_);
    const auto logits = tempered(forward(*net_, b, device_.type(), autocast).policy.to(torch::kFloat), cfg_.temperature);
    parts.push_back(torch::where(b.legal, model::masked_log_softmax(logits, b.legal).exp(), torch::zeros_like(logits))
                        .cpu());
  }
  if (parts.empty()) return torch::zeros({0, model::kActions});
  return torch::cat(parts);
}

torch::Tensor Learner::critic_values(const selfplay::Rollout& rollout) {
  if (!has_critic()) throw Error("ppo: no critic network (ppo.critic is value_head)");
  auto data = rollout_tensors(rollout);
  if (critic_->config().privileged && !data.priv.defined())
    throw Error("ppo: the rollout carries no privileged planes");
  return critic_forward(data, model::autocast_enabled(cfg_.model, device_.type())).cpu();
}

torch::Tensor Learner::log_probs(const selfplay::Rollout& rollout) {
  torch::NoGradGuard no_grad;
  const auto data = rollout_tensors(rollout).to(device_);
  const std::int64_t n = data.size();
  const bool autocast = model::autocast_enabled(cfg_.model, device_.type());
  std::vector<torch::Tensor> parts;
  for (std::int64_t lo = 0; lo < n; lo += cfg_.ppo.minibatch) {
    const auto idx = torch::arange(lo, std::min<std::int64_t>(n, lo + cfg_.ppo.minibatch),
                                   torch::TensorOptions().dtype(torch::kLong).device(device_));
    const auto b = data.select(idx);
    const auto out = forward(*net_, b, device_.type(), autocast);
    parts.push_back(model::masked_log_softmax(tempered(out.policy, cfg_.temperature), b.legal).gather(1, b.action.unsqueeze(1)).squeeze(1));
  }
  if (parts.empty()) return torch::zeros({0});
  return torch::cat(parts).cpu();
}

double Learner::loss(const selfplay::Rollout& rollout, std::int64_t coef_update) {
  torch::NoGradGuard no_grad;
  UpdateStats unused;
  const auto data = prepare(rollout, /*observe=*/false, unused);
  const std::int64_t n = data.size();
  const auto settings = settings_for(coef_update);
  const bool autocast = model::autocast_enabled(cfg_.model, device_.type());
  // The same minibatch sizes as update() (equal within one), in rollout order.
  const std::int64_t batches = std::max<std::int64_t>(1, n / cfg_.ppo.minibatch);
  double sum = 0;
  for (std::int64_t k = 0; k < batches; ++k) {
    const auto idx = torch::arange(k * n / batches, (k + 1) * n / batches,
                                   torch::TensorOptions().dtype(torch::kLong).device(device_));
    const auto b = data.select(idx);
    LossInput in = loss_input(*net_, b, device_.type(), autocast);
    if (has_anchor() && !settings.value_only) in.anchor_logits = forward(*anchor_, b, device_.type(), autocast).policy;
    sum += ppo_loss(in, settings).total.item<double>();
  }
  return sum / static_cast<double>(batches);
}

void Learner::save_state(model::CheckpointData& out) const {
  out.step = updates_;
  out.scheduler = schedule_.to_json();
  out.extra["ppo"] = {{"updates", updates_}, {"reward_norm", reward_norm_.to_json()}};
  if (has_critic()) {
    out.extra["ppo"]["critic"] = {{"inputs", cfg_.ppo.critic}, {"action_values", critic_->config().action_values}};
    if (critic_->config().privileged) out.extra["ppo"]["critic"]["privileged_layout"] = encoder::kPrivilegedVersion;
    model::save_prefixed(*critic_, "critic.", out);
    // Its AdamW moments, serialised as torch writes an optimizer, in one byte tensor.
    torch::serialize::OutputArchive archive;
    critic_optimizer_->save(archive);
    std::ostringstream bytes;
    archive.save_to(bytes);
    const std::string s = std::move(bytes).str();
    out.tensors["critic_optimizer"] =
        torch::from_blob(const_cast<char*>(s.data()), {static_cast<std::int64_t>(s.size())}, torch::kUInt8).clone();
  }
}

void Learner::restore_state(const model::CheckpointData& in) {
  if (!in.extra.contains("ppo") || !in.extra.at("ppo").is_object())
    throw Error("checkpoint has no PPO learner state (extra.ppo)");
  const auto& ppo = in.extra.at("ppo");
  if (!ppo.contains("updates") || !ppo.at("updates").is_number_integer())
    throw Error("checkpoint PPO state: missing or non-integer field 'extra.ppo.updates'");
  if (!ppo.contains("reward_norm")) throw Error("checkpoint PPO state: missing field 'extra.ppo.reward_norm'");
  const auto updates = ppo.at("updates").get<std::int64_t>();
  auto norm = RewardNormalizer::from_json(ppo.at("reward_norm"));
  if (has_critic()) {
    // Checkpoints from before the observed critic name no inputs: they hold a privileged one.
    const bool ok = ppo.contains("critic") && ppo.at("critic").is_object() &&
                    ppo.at("critic").value("inputs", std::string("privileged")) == cfg_.ppo.critic &&
                    ppo.at("critic").value("action_values", false) == critic_->config().action_values &&
                    (!critic_->config().privileged ||
                     ppo.at("critic").value("privileged_layout", -1) == encoder::kPrivilegedVersion);
    if (!ok)
      throw Error("checkpoint PPO state: no " + cfg_.ppo.critic + " critic" +
                  (critic_->config().action_values ? " with action values" : "") +
                  (critic_->config().privileged
                       ? " of privileged layout version " + std::to_string(encoder::kPrivilegedVersion)
                       : std::string()) +
                  " (field 'extra.ppo.critic'): it was written with another ppo.critic or ppo.policy_gradient; "
                  "resume with those settings");
    model::load_prefixed(*critic_, "critic.", in, "the checkpoint");
    const auto it = in.tensors.find("critic_optimizer");
    if (it == in.tensors.end()) throw Error("checkpoint PPO state: missing tensor 'critic_optimizer'");
    const auto raw = it->second.to(torch::kCPU).contiguous();
    torch::serialize::InputArchive archive;
    archive.load_from(reinterpret_cast<const char*>(raw.data_ptr<std::uint8_t>()), ix(raw.numel()),
                      device_);
    critic_optimizer_->load(archive);
  }
  schedule_ = model::WarmupCosine::from_json(in.scheduler);
  reward_norm_ = norm;
  updates_ = updates;
}

metrics::Scalars UpdateStats::scalars() const {
  const double rate = seconds > 0 ? static_cast<double>(samples) / seconds : 0.0;
  metrics::Scalars out{
      {"loss/policy", policy_loss},
      {"loss/value", value_loss},
      {"loss/entropy", entropy},
      {"loss/tenpai", tenpai_loss},
      {"loss/danger", danger_loss},
      {"loss/kl_anchor", kl_anchor},
      {"ppo/approx_kl", approx_kl},
      {"ppo/approx_kl_first", approx_kl_first},
      {"ppo/approx_kl_start", approx_kl_start},
      {"ppo/clip_fraction", clip_fraction},
      {"ppo/explained_variance", explained_variance},
      {"ppo/explained_variance_mc", explained_variance_mc},
      {"ppo/grad_norm", grad_norm},
      {"ppo/lr", lr},
      {"ppo/entropy_coef", entropy_coef},
      {"ppo/kl_anchor_coef", kl_anchor_coef},
      {"ppo/entropy_target", entropy_target},
      {"ppo/value_warmup", value_warmup ? 1.0 : 0.0},
      {"ppo/reward_std", reward_std},
      {"ppo/adv_mean", adv_mean},
      {"ppo/adv_std", adv_std},
      {"ppo/paired_share", paired_share},
      {"ppo/epochs", static_cast<double>(epochs)},
      {"ppo/minibatches", static_cast<double>(minibatches)},
      {"ppo/samples", static_cast<double>(samples)},
      {"ppo/kl_stopped", kl_stopped ? 1.0 : 0.0},
      {"perf/update_seconds", seconds},
      {"perf/learner_samples_per_s", rate},
  };
  if (critic_loss > 0) out.emplace_back("loss/critic", critic_loss);
  if (action_adv_std > 0) out.emplace_back("ppo/action_adv_std", action_adv_std);
  if (noise_measured) {
    out.emplace_back("ppo/grad_signal", grad_signal);
    out.emplace_back("ppo/grad_noise", grad_noise);
    out.emplace_back("ppo/grad_signal_halves", grad_signal_halves);
    out.emplace_back("ppo/grad_cos_halves", grad_cos_halves);
    out.emplace_back("ppo/noise_chunks", static_cast<double>(noise_chunks));
  }
  return out;
}

}  // namespace hydra::ppo
