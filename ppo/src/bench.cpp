#include "hydra/ppo/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <vector>

#include "hydra/common/index.hpp"
#include "hydra/common/log.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/ppo/learner.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/torch/grp_rewards.hpp"
#include "hydra/selfplay/torch/inference.hpp"

namespace hydra::ppo {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A rollout of `n` one-decision episodes cycling over real positions, old log-probabilities
// from the learner's own network (as actors give them), and the fields the configuration's
// estimator reads besides (so that every estimator's whole update is measured): the play-outs'
// advantages, the action values of every legal action (the expected form) and privileged planes
// (all zero) for the privileged critic.
selfplay::Rollout bench_rollout(const config::Config& cfg, const data::SampleBatch& s, std::int64_t n,
                                Learner& learner, double played_share) {
  selfplay::Rollout r;
  const auto un = ix(n);
  r.obs.resize(un * encoder::kObsSize);
  for (std::size_t i = 0; i < un; ++i) {
    const std::size_t j = i % s.size();
    selfplay::to_half(s.obs.data() + j * encoder::kObsSize, r.obs.data() + i * encoder::kObsSize, encoder::kObsSize);
    r.context.insert(r.context.end(), s.context.begin() + static_cast<std::ptrdiff_t>(j * data::kSampleContext),
                     s.context.begin() + static_cast<std::ptrdiff_t>((j + 1) * data::kSampleContext));
    r.legal.push_back(s.legal_mask(j).bits());
    r.action.push_back(static_cast<std::int16_t>(s.action[j]));
    r.value.push_back(0.0f);
    r.reward.push_back(s.value[j]);
    r.done.push_back(1);
    r.version.push_back(0);
    for (int o = 0; o < selfplay::kOpponents; ++o) r.opp_waits.push_back(o == static_cast<int>(i % 3) ? 0b1001U : 0U);
  }
  const config::Estimator e = config::estimator(cfg.ppo);
  if (e == config::Estimator::play_outs || e == config::Estimator::play_outs_expected) {
    r.paired.assign(un, 1);
    r.paired_advantage.assign(r.reward.begin(), r.reward.end());
  }
  if (e == config::Estimator::play_outs_expected) {
    r.played_out = r.legal;
    r.action_value.assign(un * selfplay::kActions, 0.0f);
    // Decision i is played out when (i + 1) x share passes an integer: the share, evenly spread.
    const auto at = [&](std::size_t k) { return std::floor(static_cast<double>(k) * played_share); };
    for (std::size_t i = 0; i < un; ++i) {
      if (at(i + 1) > at(i)) {
        r.action_value[i * selfplay::kActions + ix(r.action[i])] = r.reward[i];
      } else {
        r.played_out[i] = 0;
        r.paired[i] = 0;
        r.paired_advantage[i] = 0.0f;
      }
    }
  }
  if (e == config::Estimator::privileged_gae) r.priv.assign(un * encoder::kPrivilegedSize, 0);
  r.logp.assign(un, 0.0f);
  const auto logp = learner.log_probs(r);
  r.logp.assign(logp.data_ptr<float>(), logp.data_ptr<float>() + logp.numel());
  return r;
}

}  // namespace

ForwardRate bench_forward(selfplay::InferenceModel& net, const data::SampleBatch& pos, int batch, double seconds) {
  const auto ub = ix(batch);
  std::vector<float> obs(ub * encoder::kObsSize), ctx(ub * data::kSampleContext), probs(ub * data::kSampleActions), value(ub);
  std::vector<game::ActionMask> legal(ub);
  for (std::size_t i = 0; i < ub; ++i) {
    const std::size_t j = i % pos.size();
    std::copy_n(pos.obs.data() + j * encoder::kObsSize, encoder::kObsSize, obs.data() + i * encoder::kObsSize);
    std::copy_n(pos.context.data() + j * data::kSampleContext, data::kSampleContext, ctx.data() + i * data::kSampleContext);
    legal[i] = pos.legal_mask(j);
  }
  const selfplay::PolicyBatch in{obs.data(), ctx.data(), legal.data(), batch};
  const selfplay::PolicyOutput out{probs.data(), value.data()};
  net.evaluate(in, out);  // warm-up: allocator, kernel choice
  ForwardRate r{batch};
  const auto t0 = Clock::now();
  do {
    net.evaluate(in, out);  // returns after the device->host copy: the work is done
    ++r.passes;
    r.seconds = since(t0);
  } while (r.seconds < seconds);
  return r;
}

LearnerRate bench_learner(config::Config cfg, const torch::Device& device, const data::SampleBatch& positions,
                          std::int64_t samples, std::uint64_t seed, double seconds, bool profile,
                          const std::string& trace_file, double played_share) {
  // A fixed amount of work per update: every planned epoch runs.
  cfg.ppo.kl_high = 1e9;
  cfg.ppo.kl_stop = 0;
  const std::int64_t n =
      samples > 0 ? samples : std::min<std::int64_t>(cfg.ppo.rollout_samples, 2 * std::int64_t{cfg.ppo.minibatch});
  Learner learner(learner_config(cfg), device, game::MasterSeed{seed});
  const auto rollout = bench_rollout(cfg, positions, n, learner, played_share);
  log::info("bench learner: warm-up update of {} samples", n);
  learner.update(rollout);  // allocator, kernel choice, AdamW state
  LearnerRate rate;
  rate.rollout_samples = n;
  rate.anchor = learner.has_anchor();
  const auto t0 = Clock::now();
  do {
    const auto s = learner.update(rollout);
    ++rate.updates;
    // Minibatches are equal within one: steps x (n / batches) samples went forward and backward.
    const std::int64_t batches = std::max<std::int64_t>(1, n / cfg.ppo.minibatch);
    const std::int64_t rows = s.learned_rows > 0 ? s.learned_rows : n;  // thinned by ppo.unplayed_share
    rate.trained += s.minibatches * rows / batches;
    rate.learned_rows = s.learned_rows;
    rate.seconds += s.seconds;
    log::info("bench learner: update {} in {:.2f} s", rate.updates, s.seconds);
  } while (since(t0) < seconds);
  if (profile) {
    log::info("bench learner: one more update under the profiler");
    try {
      rate.profile = model::profile_device([&] { learner.update(rollout); }, device, trace_file);
    } catch (const std::exception& e) {  // the rate stands without the profile
      log::warn("bench learner: the profiled update failed: {}", e.what());
    }
  }
  return rate;
}

SelfplayRate bench_selfplay(const config::Config& cfg, const torch::Device& device, std::uint64_t seed, double seconds) {
  const game::MasterSeed master{seed};
  Learner learner(learner_config(cfg), device, master);
  auto current = std::make_shared<selfplay::InferenceModel>(learner.net(), device, 0);
  std::shared_ptr<selfplay::BatchPolicy> baseline;
  if (!selfplay::is_bot_name(cfg.selfplay.baseline)) baseline = selfplay::load_policy(cfg.selfplay.baseline, device);
  selfplay::Actors actors(selfplay::actors_config(cfg), master, current, baseline);
  if (auto play_out = selfplay::play_out_policy(cfg, device)) actors.set_play_out_policy(play_out);
  if (auto others = selfplay::play_out_others_policy(cfg, device)) actors.set_play_out_others_policy(others);
  actors.set_pool({std::make_shared<selfplay::InferenceModel>(learner.net(), device, 0)});
  if (!cfg.selfplay.grp.empty()) actors.set_reward_model(std::make_shared<selfplay::GrpRewardModel>(cfg.selfplay.grp));

  const auto t0 = Clock::now();
  std::int64_t finished = 0;
  actors.progress_seconds = 5;
  actors.progress = [&](const selfplay::Actors::Progress& p) {
    log::info("bench selfplay: {} games in {:.0f} s", finished + p.games, since(t0));
  };
  SelfplayRate rate;
  do {
    actors.collect(cfg.ppo.rollout_samples);
    const auto s = actors.take_stats();
    finished += s.games;
    rate.total += s;
    ++rate.collects;
  } while (since(t0) < seconds);
  return rate;
}

}  // namespace hydra::ppo
