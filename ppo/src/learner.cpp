// The PPO learner (learner.hpp; docs/PPO.md "One update, step by step"): the network, AdamW, the
// schedules, and one update per rollout through the run's advantage estimator (estimator.hpp).

#include "hydra/ppo/learner.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/log.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/ppo/gae.hpp"
#include "hydra/ppo/loss.hpp"
#include "noise_scale.hpp"
#include "passes.hpp"

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
  // The kind first: another kind's tensors would be refused as a different architecture.
  if (const auto kind = model::load_checkpoint(file, nullptr, nullptr, options).kind; kind != "hydra_net")
    throw Error("ppo." + std::string(what) + ": checkpoint '" + file + "' holds a '" + kind + "' network, not a hydra_net");
  model::load_checkpoint(file, &net, nullptr, options);
}

double linear(double start, double end, std::int64_t u, std::int64_t total) {
  const double frac = total > 0 ? std::min(1.0, static_cast<double>(u) / static_cast<double>(total)) : 1.0;
  return start + (end - start) * frac;
}

// Running sums of an update's minibatch terms on the device (one host sync at the end).
class TermSums {
 public:
  explicit TermSums(const torch::Device& device) {
    const auto zero = torch::zeros({}, torch::TensorOptions().device(device));
    for (auto* t : {&policy_, &value_, &entropy_, &kl_, &clip_, &tenpai_, &danger_, &anchor_, &grad_, &target_})
      *t = zero.clone();
  }
  void add(const LossTerms& terms, const torch::Tensor& grad_norm) {
    ++steps_;
    grad_ += grad_norm;
    policy_ += terms.policy.detach();
    value_ += terms.value.detach();
    entropy_ += terms.entropy.detach();
    if (terms.entropy_target.defined()) target_ += terms.entropy_target.detach();
    kl_ += terms.approx_kl;
    clip_ += terms.clip_fraction;
    if (terms.tenpai.defined()) tenpai_ += terms.tenpai.detach();
    if (terms.danger.defined()) danger_ += terms.danger.detach();
    if (terms.kl_anchor.defined()) anchor_ += terms.kl_anchor.detach();
  }
  // Their means over the steps taken.
  void write(UpdateStats& stats) const {
    stats.minibatches = steps_;
    if (steps_ == 0) return;
    const auto mean = [&](const torch::Tensor& s) { return s.item<double>() / static_cast<double>(steps_); };
    stats.policy_loss = mean(policy_);
    stats.value_loss = mean(value_);
    stats.entropy = mean(entropy_);
    stats.approx_kl = mean(kl_);
    stats.clip_fraction = mean(clip_);
    stats.tenpai_loss = mean(tenpai_);
    stats.danger_loss = mean(danger_);
    stats.kl_anchor = mean(anchor_);
    stats.grad_norm = mean(grad_);
    stats.entropy_target = mean(target_);
  }

 private:
  torch::Tensor policy_, value_, entropy_, kl_, clip_, tenpai_, danger_, anchor_, grad_, target_;
  std::int64_t steps_ = 0;
};

// While it lives (when `active`), every parameter of `net` outside the value head is frozen.
class FrozenBeyondValue {
 public:
  FrozenBeyondValue(model::HydraNetImpl& net, bool active) {
    if (!active) return;
    const auto value_params = net.value->parameters();
    for (auto& p : net.parameters()) {
      const bool in_value = std::any_of(value_params.begin(), value_params.end(),
                                        [&](const torch::Tensor& v) { return v.is_same(p); });
      if (!in_value && p.requires_grad()) {
        p.set_requires_grad(false);
        frozen_.push_back(p);
      }
    }
  }
  ~FrozenBeyondValue() {
    for (auto& p : frozen_) p.set_requires_grad(true);
  }
  FrozenBeyondValue(const FrozenBeyondValue&) = delete;
  FrozenBeyondValue& operator=(const FrozenBeyondValue&) = delete;

 private:
  std::vector<torch::Tensor> frozen_;
};

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
  EstimatorContext ctx{cfg_.model, cfg_.ppo, device_, master_,
                       [this](const RolloutTensors& host) { return policy_probs(host); }};
  estimator_ = make_estimator(ctx);
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
  // The baseline: V_old of the acting snapshot, or a critic's V now (one that sees the hidden
  // state; any baseline that does not depend on the action leaves the gradient unbiased).
  const std::vector<float> baseline = estimator_->baseline(rollout, host);
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
  // The policy's targets: GAE's advantages as they stand, or the estimator's in their place.
  estimator_->policy_targets(rollout, ppo.reward_norm ? 1.0 / reward_norm_.stddev() : 1.0, advantage, host, stats);
  {
    double sum = 0, sq = 0;
    for (const float a : advantage) sum += a;
    stats.adv_mean = sum / static_cast<double>(n);
    for (const float a : advantage) sq += (a - stats.adv_mean) * (a - stats.adv_mean);
    stats.adv_std = std::sqrt(sq / static_cast<double>(n));
  }
  host.advantage = torch::from_blob(advantage.data(), {n}, torch::kFloat).clone();
  host.returns = torch::from_blob(returns.data(), {n}, torch::kFloat).clone();
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
  if (!estimator_->data_parallel() || cfg_.ppo.noise_batch > 0)
    throw Error(std::string("data-parallel training supports the gae estimator (ppo.critic = value_head, ppo.advantage = "
                            "gae) without ppo.noise_batch, not ") + config::estimator_name(estimator_->kind()) +
                (cfg_.ppo.noise_batch > 0 ? " with ppo.noise_batch" : "") + " yet");
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
  UpdateStats stats;
  stats.update = updates_;
  auto data = prepare(rollout, /*observe=*/true, stats);
  const bool thinned = cfg_.ppo.unplayed_share < 1.0;
  const std::vector<std::int64_t> kept_games = thinned ? thin_unplayed(data, rollout.game, stats) : std::vector<std::int64_t>{};
  const std::vector<std::int64_t>& games = thinned ? kept_games : rollout.game;  // each row's game
  const Shard shard = shard_of(data.size());
  if (sharded()) stats.samples = shard.total;  // the update's: every rank's rollout when data-parallel
  stats.lr = schedule_.lr(updates_);
  model::set_lr(*optimizer_, stats.lr);
  const auto settings = settings_for(updates_);
  stats.entropy_coef = settings.entropy_coef;
  stats.kl_anchor_coef = settings.kl_anchor_coef;
  const bool autocast = model::autocast_enabled(cfg_.model, device_.type());
  // Value warm-up: only the value head has requires_grad, so the trunk and the policy (what
  // the actors play) stay exactly as loaded while V learns the scale of PPO's returns.
  stats.value_warmup = settings.value_only;
  const FrozenBeyondValue frozen(*net_, settings.value_only);
  const auto& ppo = cfg_.ppo;
  if (ppo.noise_batch > 0 && !settings.value_only)
    measure_gradient_noise(*net_, data, games,
                           NoiseSettings{ppo.noise_batch, ppo.adv_clip, ppo.clip, cfg_.temperature, autocast, device_},
                           stats);
  run_epochs(data, shard, stats.samples, settings, autocast, stats);
  stats.critic_loss = estimator_->after_update(data, updates_);
  ++updates_;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

std::vector<std::int64_t> Learner::thin_unplayed(RolloutTensors& data, const std::vector<std::int64_t>& games,
                                                 UpdateStats& stats) const {
  HYDRA_CHECK(data.action_advantage.defined(), "ppo.unplayed_share: the rollout has no action advantages");
  const double share = cfg_.ppo.unplayed_share;
  const auto carries = data.action_advantage.ne(0).any(1).cpu().contiguous();
  const bool* c = carries.data_ptr<bool>();
  const std::int64_t n = data.size();
  game::Xoshiro256ss rng(game::stream_key(master_, game::labels::learn_rows, {static_cast<std::uint64_t>(updates_)}));
  std::vector<std::int64_t> keep;
  std::vector<float> weight;
  for (std::int64_t i = 0; i < n; ++i) {
    const double u = rng.uniform01();  // drawn for every row, so a row's draw is a function of its index
    if (!c[i] && u >= share) continue;
    keep.push_back(i);
    weight.push_back(c[i] ? 1.0f : static_cast<float>(1.0 / share));
  }
  std::vector<std::int64_t> kept;
  if (static_cast<std::int64_t>(games.size()) == n)
    for (const std::int64_t k : keep) kept.push_back(games[ix(k)]);
  const auto rows = static_cast<std::int64_t>(keep.size());
  stats.learned_rows = rows;
  data = data.select(torch::from_blob(keep.data(), {rows}, torch::kLong).clone().to(device_));
  data.weight = torch::from_blob(weight.data(), {rows}, torch::kFloat).clone().to(device_);
  return kept;
}

// Data-parallel: the union of the ranks' rollouts is shuffled and cut into minibatches as one
// rollout would be; this rank's samples are the union's [offset, offset + n).
Learner::Shard Learner::shard_of(std::int64_t n) const {
  Shard shard{n, n, 0};
  if (!sharded()) return shard;
  const auto counts = group_->all_gather(torch::tensor({n}, torch::kLong));
  shard.total = 0;
  for (int r = 0; r < group_->size(); ++r) {
    const std::int64_t c = counts[ix(r)].item<std::int64_t>();
    if (r < group_->rank()) shard.offset += c;
    shard.total += c;
  }
  return shard;
}

// The PPO epochs: minibatches of equal size (within one), so every sample is used each epoch and
// no tiny remainder batch gets a degenerate advantage normalisation; AdamW steps with gradient
// clipping; approx-KL after the first epoch chooses the epochs (spec: 3, or 2 when > 0.03).
void Learner::run_epochs(const RolloutTensors& data, const Shard& shard, std::int64_t decisions,
                         const LossSettings& settings, bool autocast, UpdateStats& stats) {
  const auto& ppo = cfg_.ppo;
  const std::int64_t total = shard.total;
  // A minibatch counts the decisions its rows stand for (all of them: the rollout's, when
  // ppo.unplayed_share thinned its rows), so a thinned update takes the steps of the whole one.
  const std::int64_t batches = std::clamp<std::int64_t>(decisions / ppo.minibatch, 1, std::max<std::int64_t>(1, total));
  const auto params = net_->parameters();
  TermSums sums(device_);
  std::int64_t planned = ppo.epochs;
  bool stop = false;
  for (std::int64_t epoch = 0; epoch < planned && !stop; ++epoch) {
    const auto order_t = epoch_order(master_, game::labels::data_order, updates_, epoch, total, device_);
    for (std::int64_t k = 0; k < batches; ++k) {
      auto idx = order_t.slice(0, k * total / batches, (k + 1) * total / batches);
      const std::int64_t global_count = idx.size(0);
      if (sharded())
        idx = idx.masked_select(idx.ge(shard.offset).logical_and(idx.lt(shard.offset + shard.n))) - shard.offset;
      const auto terms = minibatch_terms(data.select(idx), settings, autocast, global_count);
      if (epoch == 0 && k == 0) stats.approx_kl_start = terms.approx_kl.item<double>();
      // The policy after the first epoch, seen by the second epoch's first minibatch before it
      // steps, decides how many epochs this update gets.
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
      const auto grad_norm = model::clip_gradients(params, ppo.grad_clip).to(device_);
      model::adamw_step(*optimizer_);
      sums.add(terms, grad_norm);
    }
  }
  sums.write(stats);
}

// The loss terms of one minibatch (this rank's rows of it when data-parallel).
LossTerms Learner::minibatch_terms(const RolloutTensors& b, const LossSettings& settings, bool autocast,
                                   std::int64_t global_count) {
  LossInput in = loss_input(*net_, b, device_.type(), autocast);
  if (sharded()) {
    in.reduce = [this](std::vector<torch::Tensor>& t) {
      for (auto& x : t) x = x.detach().contiguous();
      group_->all_reduce_sum(t);  // through the backend's device (the host for Gloo) and back
    };
    in.global_count = global_count;
  }
  if (has_anchor() && !settings.value_only) {
    torch::NoGradGuard no_grad;
    in.anchor_logits = forward(*anchor_, b, device_.type(), autocast).policy;
  }
  return ppo_loss(in, settings);
}

void Learner::save_state(model::CheckpointData& out) const {
  out.step = updates_;
  out.scheduler = schedule_.to_json();
  out.extra["ppo"] = {{"updates", updates_}, {"reward_norm", reward_norm_.to_json()}};
  estimator_->save(out);
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
  estimator_->restore(in);
  schedule_ = model::WarmupCosine::from_json(in.scheduler);
  reward_norm_ = norm;
  updates_ = updates;
}

}  // namespace hydra::ppo
