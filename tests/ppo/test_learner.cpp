// The Learner on synthetic rollouts: the first epoch's ratio is exactly 1, a rewarded action
// gains probability, the epoch rules, the schedules, seeding, and the checkpoint state round trip.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "hydra/common/error.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/distributed.hpp"
#include "ranks.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/ppo/batch.hpp"
#include "hydra/ppo/learner.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/common/index.hpp"

using hydra::ix;

namespace {

namespace fs = std::filesystem;
using hydra::config::Config;
using hydra::game::MasterSeed;
using hydra::ppo::Learner;
using hydra::ppo::learner_config;
using hydra::ppo::UpdateStats;
using hydra::selfplay::Rollout;

Config small_config() {
  Config c;
  c.model.blocks = 1;
  c.model.channels = 32;
  c.ppo.minibatch = 32;
  c.train.max_updates = 100;
  return c;
}

using ActionRule = std::function<int(int)>;
using RewardRule = std::function<float(int, int)>;  // (decision, action) -> reward at episode end

// n decisions in episodes of `episode` decisions. Observations are uniform in [0, 1) rounded to
// binary16 as the actors store them; legal = actions 0..4 plus a few random others; logp and
// value come from `net` on the rounded observations, as the actors compute them.
Rollout make_rollout(hydra::model::HydraNetImpl& net, int n, int episode, std::uint64_t seed,
                     const ActionRule& action_of, const RewardRule& reward_of) {
  torch::NoGradGuard no_grad;
  auto gen = at::detail::createCPUGenerator(seed);
  const auto obs = torch::rand({n, 85, 34}, gen);
  const auto half = obs.to(torch::kHalf).contiguous();
  const auto ctx = torch::rand({n, 16}, gen);
  const auto extra = torch::rand({n, 46}, gen) < 0.2;
  Rollout r;
  const auto un = ix(n);
  r.obs.resize(un * 85 * 34);
  std::memcpy(r.obs.data(), half.data_ptr(), r.obs.size() * sizeof(std::uint16_t));
  r.context.assign(ctx.data_ptr<float>(), ctx.data_ptr<float>() + n * 16);
  auto legal = extra.clone();
  legal.slice(1, 0, 5).fill_(true);
  const auto acc = legal.accessor<bool, 2>();
  for (int i = 0; i < n; ++i) {
    std::uint64_t bits = 0;
    for (int a = 0; a < 46; ++a)
      if (acc[i][a]) bits |= std::uint64_t{1} << a;
    r.legal.push_back(bits);
    const int a = action_of(i);
    r.action.push_back(static_cast<std::int16_t>(a));
    const bool last = (i + 1) % episode == 0 || i + 1 == n;
    r.done.push_back(last ? 1 : 0);
    r.reward.push_back(last ? reward_of(i, a) : 0.0f);
    for (int o = 0; o < 3; ++o)
      r.opp_waits.push_back((i + o) % 4 == 0 ? (std::uint64_t{1} << ((i * 7 + o) % 34)) : 0);
    r.version.push_back(0);
  }
  const auto out = net.forward(half.to(torch::kFloat).to(net.stem->weight.device()),
                               ctx.to(net.stem->weight.device()));
  const auto action = torch::tensor(std::vector<std::int64_t>(r.action.begin(), r.action.end()));
  const auto logp = hydra::model::masked_log_softmax(out.policy.cpu(), legal).gather(1, action.unsqueeze(1)).squeeze(1);
  r.logp.assign(logp.data_ptr<float>(), logp.data_ptr<float>() + n);
  const auto value = out.value.cpu().reshape({n}).contiguous();
  r.value.assign(value.data_ptr<float>(), value.data_ptr<float>() + n);
  r.all_decisions = n;
  return r;
}

Rollout plain_rollout(Learner& learner, int n, std::uint64_t seed) {
  return make_rollout(
      learner.net(), n, 4, seed, [](int i) { return i % 5; },
      [](int i, int a) { return static_cast<float>((i % 3) - 1) + 0.25f * static_cast<float>(a); });
}

TEST(RolloutTensors, MatchTheRolloutFieldByField) {
  const auto cfg = small_config();
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{2});
  const auto r = plain_rollout(learner, 12, 3);
  const auto t = hydra::ppo::rollout_tensors(r);
  // Observations: the selfplay binary16 decoder, element by element.
  const auto obs = t.obs.reshape({-1});
  for (std::size_t k = 0; k < r.obs.size(); k += 97)
    EXPECT_EQ(obs[static_cast<std::int64_t>(k)].item<float>(), hydra::selfplay::from_half(r.obs[k])) << k;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const auto row = static_cast<std::int64_t>(i);
    for (int a = 0; a < 46; ++a)
      EXPECT_EQ(t.legal[row][a].item<bool>(), ((r.legal[i] >> a) & 1U) != 0) << i << " " << a;
    EXPECT_EQ(t.action[row].item<std::int64_t>(), r.action[i]);
    for (int o = 0; o < 3; ++o) {
      const auto w = r.opp_waits[i * 3 + ix(o)];
      EXPECT_EQ(t.tenpai[row][o].item<float>(), w != 0 ? 1.0f : 0.0f);
      for (int tile = 0; tile < 34; ++tile)
        EXPECT_EQ(t.danger[row][o][tile].item<float>(), ((w >> tile) & 1U) != 0 ? 1.0f : 0.0f);
    }
  }
}

TEST(Learner, FirstEpochRatioIsExactlyOne) {
  auto cfg = small_config();
  cfg.ppo.epochs = 1;
  cfg.ppo.minibatch = 64;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{7});
  const auto rollout = plain_rollout(learner, 64, 11);
  // The learner's view of the rollout (binary16 -> float, same weights) reproduces the actors'
  // log-probabilities bit for bit ...
  const auto logp = learner.log_probs(rollout);
  EXPECT_TRUE(torch::equal(logp, torch::tensor(rollout.logp))) << (logp - torch::tensor(rollout.logp)).abs().max();
  // ... so the one minibatch of the first epoch (a shuffled order of the same rows) sees ratio 1.
  const auto stats = learner.update(rollout);
  EXPECT_EQ(stats.minibatches, 1);
  EXPECT_EQ(stats.approx_kl, 0.0);
  EXPECT_EQ(stats.clip_fraction, 0.0);
  EXPECT_EQ(learner.updates(), 1);
}

// At selfplay.temperature T the actors sample p^(1/T) renormalised over the legal actions and
// store that log-probability (selfplay::sampled_log_prob); the learner trains the same policy, so
// its log-probabilities of the taken actions equal the actors' and the first epoch's ratio is 1.
TEST(Learner, TrainsThePolicyTheActorsSampleAtTheirTemperature) {
  auto cfg = small_config();
  cfg.ppo.epochs = 1;
  cfg.ppo.minibatch = 64;
  cfg.selfplay.temperature = 0.5;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{7});
  auto rollout = plain_rollout(learner, 64, 11);
  {
    torch::NoGradGuard no_grad;
    const auto obs = torch::from_blob(rollout.obs.data(), {64, 85, 34}, torch::kHalf).to(torch::kFloat);
    const auto ctx = torch::from_blob(rollout.context.data(), {64, 16}, torch::kFloat);
    const auto probs = torch::softmax(learner.net().forward(obs, ctx).policy, -1).contiguous();
    for (std::size_t i = 0; i < rollout.size(); ++i)
      rollout.logp[i] = static_cast<float>(hydra::selfplay::sampled_log_prob(
          probs[static_cast<std::int64_t>(i)].data_ptr<float>(), hydra::game::ActionMask(rollout.legal[i]), 2.0, rollout.action[i]));
  }
  const auto logp = learner.log_probs(rollout);
  const auto want = torch::tensor(rollout.logp);
  EXPECT_TRUE(torch::allclose(logp, want, 1e-5, 1e-5)) << (logp - want).abs().max();
  // Not the untempered policy's: at T = 1 the same (freshly initialised, near-uniform) network
  // gives other numbers, far outside the tolerance above.
  auto cold = cfg;
  cold.selfplay.temperature = 1.0;
  Learner plain(learner_config(cold), torch::kCPU, MasterSeed{7});
  EXPECT_GT((plain.log_probs(rollout) - want).abs().max().item<float>(), 1e-3f);
  const auto stats = learner.update(rollout);
  EXPECT_LT(std::abs(stats.approx_kl), 1e-6);
  EXPECT_EQ(stats.clip_fraction, 0.0);
}

// loss() is the objective update() steps on: with one minibatch and one epoch, the terms the
// update reports for its only step (taken before it) add up to loss() before the update, and
// the same objective is lower afterwards. Reward normalisation is off: update() would observe
// the rewards first and so normalise them differently from a loss() before it.
TEST(Learner, LossIsTheObjectiveTheUpdateLowers) {
  auto cfg = small_config();
  cfg.ppo.epochs = 1;
  cfg.ppo.minibatch = 48;
  cfg.ppo.reward_norm = false;
  cfg.ppo.entropy_target = 0;  // a plain bonus: total = policy + c_v V - c_e H + aux
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{5});
  const auto rollout = plain_rollout(learner, 48, 13);
  const double before = learner.loss(rollout, 0);
  const auto s = learner.update(rollout);
  ASSERT_EQ(s.minibatches, 1);
  const double total = s.policy_loss + cfg.ppo.value_coef * s.value_loss - s.entropy_coef * s.entropy +
                       cfg.model.w_tenpai * cfg.ppo.aux_coef * s.tenpai_loss +
                       cfg.model.w_danger * cfg.ppo.aux_coef * s.danger_loss;
  EXPECT_NEAR(before, total, 1e-5 * std::max(1.0, std::abs(total)));
  EXPECT_LT(learner.loss(rollout, 0), before);
}

// Mean probability of `action` over the rollout's observations under the learner's network.
double mean_prob(Learner& learner, const Rollout& r, int action) {
  const auto logp = learner.log_probs(r);  // of the taken actions
  double sum = 0;
  int count = 0;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (r.action[i] == action) {
      sum += std::exp(logp[static_cast<std::int64_t>(i)].item<double>());
      ++count;
    }
  return sum / count;
}

TEST(Learner, RewardedActionGainsProbability) {
  auto cfg = small_config();
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{3});
  // One-decision episodes; action 2 always earns +1, the others 0.
  const auto rollout = make_rollout(
      learner.net(), 160, 1, 5, [](int i) { return i % 5; }, [](int, int a) { return a == 2 ? 1.0f : 0.0f; });
  const double before = mean_prob(learner, rollout, 2);
  const auto stats = learner.update(rollout);
  const double after = mean_prob(learner, rollout, 2);
  EXPECT_EQ(stats.epochs, 3);
  EXPECT_EQ(stats.minibatches, 15);  // 160 / 32 per epoch
  EXPECT_GT(after, before + 0.01) << "before " << before << " after " << after;
  // Every other action lost probability on average.
  for (int a : {0, 1, 3, 4}) EXPECT_LT(mean_prob(learner, rollout, a), mean_prob(learner, rollout, 2));
}

TEST(Learner, HighKlAfterTheFirstEpochCutsTheEpochs) {
  auto cfg = small_config();
  cfg.ppo.kl_high = 0.0;  // any drift after epoch 1 counts as high
  Learner cut(learner_config(cfg), torch::kCPU, MasterSeed{1});
  const auto rollout = plain_rollout(cut, 96, 2);
  const auto s = cut.update(rollout);
  EXPECT_GT(s.approx_kl_first, 0.0);
  EXPECT_EQ(s.epochs, 2);
  EXPECT_EQ(s.minibatches, 6);

  cfg.ppo.kl_high = 100.0;
  Learner full(learner_config(cfg), torch::kCPU, MasterSeed{1});
  const auto f = full.update(rollout);
  EXPECT_EQ(f.epochs, 3);
  EXPECT_EQ(f.minibatches, 9);
  EXPECT_DOUBLE_EQ(f.approx_kl_first, s.approx_kl_first);  // same seed, same first epoch
}

TEST(Learner, KlStopEndsTheUpdate) {
  auto cfg = small_config();
  cfg.ppo.kl_stop = 1e-12;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{1});
  const auto s = learner.update(plain_rollout(learner, 96, 2));
  // The first minibatch sees ratio 1 (KL 0) and steps; the second sees the change and stops.
  EXPECT_TRUE(s.kl_stopped);
  EXPECT_EQ(s.minibatches, 1);
  EXPECT_EQ(s.epochs, 1);
}

TEST(Learner, SchedulesAndScalars) {
  auto cfg = small_config();
  cfg.ppo.warmup = 0.1;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{1});
  EXPECT_DOUBLE_EQ(learner.entropy_coef(0), 0.01);
  EXPECT_DOUBLE_EQ(learner.entropy_coef(50), 0.0075);
  EXPECT_DOUBLE_EQ(learner.entropy_coef(100), 0.005);
  EXPECT_DOUBLE_EQ(learner.entropy_coef(1000), 0.005);
  EXPECT_DOUBLE_EQ(learner.kl_anchor_coef(0), 0.1);
  EXPECT_DOUBLE_EQ(learner.kl_anchor_coef(100), 0.05);
  EXPECT_EQ(learner.schedule().warmup, 10);
  EXPECT_DOUBLE_EQ(learner.schedule().lr(10), 1e-4);
  const auto s = learner.update(plain_rollout(learner, 32, 4));
  EXPECT_DOUBLE_EQ(s.lr, learner.schedule().lr(0));
  EXPECT_LT(s.lr, 1e-4);  // warming up
  EXPECT_DOUBLE_EQ(s.kl_anchor_coef, 0.0);  // no anchor configured
  EXPECT_GT(s.grad_norm, 0.0);
  const auto scalars = s.scalars();
  const auto find = [&](const std::string& tag) {
    for (const auto& [k, v] : scalars)
      if (k == tag) return v;
    ADD_FAILURE() << "missing " << tag;
    return 0.0;
  };
  EXPECT_DOUBLE_EQ(find("loss/policy"), s.policy_loss);
  EXPECT_DOUBLE_EQ(find("ppo/approx_kl"), s.approx_kl);
  EXPECT_DOUBLE_EQ(find("ppo/explained_variance"), s.explained_variance);
}

TEST(Learner, InitialWeightsComeFromTheMasterSeed) {
  const auto cfg = small_config();
  Learner a(learner_config(cfg), torch::kCPU, MasterSeed{5}), b(learner_config(cfg), torch::kCPU, MasterSeed{5}), c(learner_config(cfg), torch::kCPU, MasterSeed{6});
  const auto pa = a.net().parameters(), pb = b.net().parameters(), pc = c.net().parameters();
  bool all_same = true, any_diff = false;
  for (std::size_t i = 0; i < pa.size(); ++i) {
    all_same = all_same && torch::equal(pa[i], pb[i]);
    any_diff = any_diff || !torch::equal(pa[i], pc[i]);
  }
  EXPECT_TRUE(all_same);
  EXPECT_TRUE(any_diff);
}

void expect_same(const UpdateStats& a, const UpdateStats& b) {
  EXPECT_EQ(a.update, b.update);
  EXPECT_EQ(a.minibatches, b.minibatches);
  EXPECT_EQ(a.policy_loss, b.policy_loss);
  EXPECT_EQ(a.value_loss, b.value_loss);
  EXPECT_EQ(a.entropy, b.entropy);
  EXPECT_EQ(a.approx_kl, b.approx_kl);
  EXPECT_EQ(a.clip_fraction, b.clip_fraction);
  EXPECT_EQ(a.tenpai_loss, b.tenpai_loss);
  EXPECT_EQ(a.danger_loss, b.danger_loss);
  EXPECT_EQ(a.grad_norm, b.grad_norm);
  EXPECT_EQ(a.lr, b.lr);
  EXPECT_EQ(a.entropy_coef, b.entropy_coef);
  EXPECT_EQ(a.reward_std, b.reward_std);
}

TEST(Learner, SaveRestoreGivesAnIdenticalNextUpdate) {
  const auto cfg = small_config();
  const fs::path file = fs::temp_directory_path() / ("hydra-ppo-state-" + std::to_string(::getpid()) + ".ckpt");
  Learner a(learner_config(cfg), torch::kCPU, MasterSeed{9});
  const auto r1 = plain_rollout(a, 64, 21);
  a.update(r1);
  hydra::model::CheckpointData data;
  a.save_state(data);
  hydra::model::save_checkpoint(file, data, a.net(), &a.optimizer());
  const auto r2 = plain_rollout(a, 64, 22);
  const auto next_a = a.update(r2);

  Learner b(learner_config(cfg), torch::kCPU, MasterSeed{9});
  hydra::model::LoadOptions options;
  options.restore_rng = false;
  const auto loaded = hydra::model::load_checkpoint(file, &b.net(), &b.optimizer(), options);
  b.restore_state(loaded);
  EXPECT_EQ(b.updates(), 1);
  EXPECT_EQ(b.reward_normalizer().count(), a.reward_normalizer().count() - 64);
  const auto next_b = b.update(r2);
  expect_same(next_a, next_b);
  const auto pa = a.net().parameters(), pb = b.net().parameters();
  for (std::size_t i = 0; i < pa.size(); ++i) EXPECT_TRUE(torch::equal(pa[i], pb[i])) << i;
  fs::remove(file);
  fs::remove(file.string() + ".sha256");

  hydra::model::CheckpointData empty;
  EXPECT_ANY_THROW(b.restore_state(empty));
}

TEST(Learner, InitAndAnchorFromACheckpoint) {
  auto cfg = small_config();
  const fs::path file = fs::temp_directory_path() / ("hydra-ppo-bc-" + std::to_string(::getpid()) + ".ckpt");
  Learner bc(learner_config(cfg), torch::kCPU, MasterSeed{31});  // stands in for a pretrained BC model
  hydra::model::CheckpointData data;
  hydra::model::save_checkpoint(file, data, bc.net());
  cfg.ppo.init = file.string();
  cfg.ppo.anchor = file.string();
  cfg.ppo.value_warmup = 0;  // the policy moves from the first update
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{32});
  ASSERT_TRUE(learner.has_anchor());
  const auto pa = bc.net().parameters(), pb = learner.net().parameters();
  for (std::size_t i = 0; i < pa.size(); ++i) EXPECT_TRUE(torch::equal(pa[i], pb[i])) << i;
  const auto s = learner.update(plain_rollout(learner, 64, 4));
  EXPECT_DOUBLE_EQ(s.kl_anchor_coef, 0.1);
  // The first minibatch starts at the anchor (KL 0); later ones have moved away from it.
  EXPECT_GT(s.kl_anchor, 0.0);
  EXPECT_LT(s.kl_anchor, 0.01);
  cfg.ppo.init = (fs::temp_directory_path() / "hydra-ppo-no-such.ckpt").string();
  EXPECT_THROW(Learner(learner_config(cfg), torch::kCPU, MasterSeed{1}), hydra::Error);
  fs::remove(file);
  fs::remove(file.string() + ".sha256");
}

TEST(Learner, RejectsAnIllegalAction) {
  const auto cfg = small_config();
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{1});
  auto r = plain_rollout(learner, 8, 4);
  r.legal[3] = 1;  // only action 0 legal; decision 3 took action 3
  EXPECT_ANY_THROW(learner.update(r));
  r = plain_rollout(learner, 8, 4);
  r.value.pop_back();
  EXPECT_ANY_THROW(learner.update(r));
}

// The gradient noise scale against a case solved by hand. Every decision sees the same
// observation with actions 0 and 1 legal; 3/4 of them take action 0 (reward +1), 1/4 action 1
// (reward -1), each its own episode, so A = r - V and the advantages normalised over the rollout
// are +1/sqrt(3) and -sqrt(3). With p = pi(. | s) and u = e1 - e0 on the two logits, the
// per-decision gradient of -A log pi(a) is c J^T u (J the logits' Jacobian) with c = p1 / sqrt(3)
// for action 0 and sqrt(3) p0 for action 1. So |G|^2 = E[c]^2 |J^T u|^2 with E[c] = sqrt(3) / 4
// (since p0 + p1 = 1), and tr(Sigma) = Var(c) |J^T u|^2 with E[c^2] = (p1^2 + 3 p0^2) / 4.
TEST(Learner, GradientNoiseScaleMatchesAHandSolvedCase) {
  auto cfg = small_config();
  cfg.ppo.reward_norm = false;
  cfg.ppo.noise_batch = 8;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{4});
  auto& net = learner.net();
  constexpr int n = 4096;
  auto gen = at::detail::createCPUGenerator(17);
  const auto half = torch::rand({1, 85, 34}, gen).to(torch::kHalf).contiguous();
  const auto obs = half.to(torch::kFloat);
  const auto ctx = torch::rand({1, 16}, gen);
  // p and |J^T u|^2 on the one observation, directly.
  const auto logits = net.forward(obs, ctx).policy;
  const double p0 = torch::softmax(logits.slice(1, 0, 2), 1)[0][0].item<double>(), p1 = 1.0 - p0;
  std::vector<torch::Tensor> params;
  for (const auto& p : net.parameters())
    if (p.requires_grad()) params.push_back(p);
  const auto ju = torch::autograd::grad({logits[0][1] - logits[0][0]}, params, {}, false, false, true);
  double ju2 = 0;
  for (const auto& g : ju)
    if (g.defined()) ju2 += g.to(torch::kDouble).pow(2).sum().item<double>();
  const double value = net.forward(obs, ctx).value.reshape({-1})[0].item<double>();

  Rollout r;
  std::vector<int> actions(n, 0);
  std::fill(actions.begin() + 3 * n / 4, actions.end(), 1);
  std::mt19937_64 rng(5);
  std::shuffle(actions.begin(), actions.end(), rng);
  const std::vector<std::uint16_t> obs_row(static_cast<const std::uint16_t*>(half.data_ptr()),
                                           static_cast<const std::uint16_t*>(half.data_ptr()) + 85 * 34);
  const double logp0 = std::log(p0), logp1 = std::log(p1);
  for (const int a : actions) {
    r.obs.insert(r.obs.end(), obs_row.begin(), obs_row.end());
    r.context.insert(r.context.end(), ctx.data_ptr<float>(), ctx.data_ptr<float>() + 16);
    r.legal.push_back(0b11);
    r.action.push_back(static_cast<std::int16_t>(a));
    r.done.push_back(1);
    r.reward.push_back(a == 0 ? 1.0f : -1.0f);
    r.logp.push_back(static_cast<float>(a == 0 ? logp0 : logp1));
    r.value.push_back(static_cast<float>(value));
    for (int o = 0; o < 3; ++o) r.opp_waits.push_back(0);
    r.version.push_back(0);
  }
  r.all_decisions = n;
  const auto s = learner.update(r);
  ASSERT_TRUE(s.noise_measured);
  const double mean_c = std::sqrt(3.0) / 4.0, mean_c2 = (p1 * p1 + 3.0 * p0 * p0) / 4.0;
  const double signal = mean_c * mean_c * ju2, noise = (mean_c2 - mean_c * mean_c) * ju2;
  // The whole rollout's mean gradient is exact, so |G|^2 is off only by chunk noise scaled by
  // b / N; tr(Sigma) from 512 chunks has a relative standard error of about sqrt(2 / 512).
  EXPECT_NEAR(s.grad_signal, signal, 0.02 * signal);
  EXPECT_NEAR(s.grad_noise, noise, 0.15 * noise);
  EXPECT_NEAR(s.grad_noise / s.grad_signal, 4.0 / 3.0 * (p1 * p1 + 3.0 * p0 * p0) - 1.0, 0.15);
  bool tagged = false;
  for (const auto& [tag, v] : s.scalars()) tagged |= tag == "ppo/grad_noise" && v == s.grad_noise;
  EXPECT_TRUE(tagged);

  // Off (the default): not measured and not among the metrics.
  auto off_cfg = small_config();
  Learner off(learner_config(off_cfg), torch::kCPU, MasterSeed{4});
  const auto t = off.update(plain_rollout(off, 32, 4));
  EXPECT_FALSE(t.noise_measured);
  for (const auto& [tag, v] : t.scalars()) EXPECT_NE(tag, "ppo/grad_signal");
}

}  // namespace

// ppo.value_lambda 1: the value targets are the Monte Carlo returns whatever ppo.lambda the
// advantages use, so the explained variance against the targets is the Monte Carlo one.
TEST(Learner, ValueLambdaOneTrainsTheValueOnMonteCarloReturns) {
  auto cfg = small_config();
  cfg.ppo.lambda = 0.0;
  cfg.ppo.reward_norm = false;
  Learner same(learner_config(cfg), torch::kCPU, MasterSeed{3});
  const auto r = plain_rollout(same, 64, 5);
  const UpdateStats a = same.update(r);
  EXPECT_GT(std::abs(a.explained_variance - a.explained_variance_mc), 1e-3) << "lambda-0 targets are not Monte Carlo";
  cfg.ppo.value_lambda = 1.0;
  Learner mc(learner_config(cfg), torch::kCPU, MasterSeed{3});
  const UpdateStats b = mc.update(r);
  EXPECT_DOUBLE_EQ(b.explained_variance, b.explained_variance_mc);
  EXPECT_DOUBLE_EQ(b.adv_mean, a.adv_mean) << "the advantages still use ppo.lambda";
}

// ppo.advantage = rollout: the policy's advantage is the rollout's play-out Q(a) - Q(g) where a
// decision has one and 0 where it has none, whatever the rewards say (the value still learns
// from them), not GAE's; a rollout without play-outs is refused.
class PairedAdvantages : public ::testing::TestWithParam<const char*> {};

TEST_P(PairedAdvantages, ReplaceGaeForThePolicy) {
  auto cfg = small_config();
  cfg.ppo.advantage = GetParam();
  cfg.ppo.reward_norm = false;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{3});
  // The rewards favour action 2; the pairs say action 3 is better than the second action drawn.
  auto rollout = make_rollout(
      learner.net(), 160, 1, 5, [](int i) { return i % 5; }, [](int, int a) { return a == 2 ? 1.0f : 0.0f; });
  EXPECT_THROW(learner.update(rollout), hydra::Error);
  rollout.paired.assign(160, 0);
  rollout.paired_advantage.assign(160, 0.0f);
  double sum = 0;
  int pairs = 0;
  for (std::size_t i = 0; i < 160; ++i) {
    if (i % 4 == 0) continue;
    rollout.paired[i] = 1;
    rollout.paired_advantage[i] = rollout.action[i] == 3 ? 1.0f : -0.25f;
    sum += rollout.paired_advantage[i];
    ++pairs;
  }
  const double before2 = mean_prob(learner, rollout, 2), before3 = mean_prob(learner, rollout, 3);
  const auto stats = learner.update(rollout);
  EXPECT_DOUBLE_EQ(stats.paired_share, pairs / 160.0);
  EXPECT_NEAR(stats.adv_mean, sum / 160.0, 1e-7);
  const double gain2 = mean_prob(learner, rollout, 2) - before2, gain3 = mean_prob(learner, rollout, 3) - before3;
  EXPECT_GT(gain3, 0.01);
  EXPECT_LT(gain2, gain3);
}

INSTANTIATE_TEST_SUITE_P(Learner, PairedAdvantages, ::testing::Values("rollout"),
                         [](const ::testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

// ppo.advantage = rollout with ppo.policy_gradient = expected: the policy learns from the
// play-outs' action values of every action played out, centred with pi renormalised over them
// and scaled to a pi-weighted second moment of 1 (checked by hand against the policy's own
// probabilities), whatever the rewards say; the other actions get no push of their own.
TEST(Learner, PlayOutsOfEveryLikelyActionGiveTheExpectedGradient) {
  auto cfg = small_config();
  cfg.ppo.advantage = "rollout";
  cfg.ppo.policy_gradient = "expected";
  cfg.ppo.reward_norm = false;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{3});
  const int n = 160;
  // The rewards favour action 2; the play-outs say 3 beats the greedy choice 1, and 0 loses to it.
  auto rollout = make_rollout(
      learner.net(), n, 1, 5, [](int i) { return i % 5; }, [](int, int a) { return a == 2 ? 1.0f : 0.0f; });
  rollout.paired.assign(n, 0);
  rollout.paired_advantage.assign(n, 0.0f);
  EXPECT_THROW(learner.update(rollout), hydra::Error);  // no action values
  rollout.played_out.assign(n, 0);
  rollout.action_value.assign(static_cast<std::size_t>(n) * 46, 0.0f);
  const std::array<float, 5> value{-0.5f, 0.0f, 0.0f, 1.0f, 0.0f};
  for (int i = 0; i < n; ++i) {
    if (i % 4 == 0) continue;  // a decision without play-outs (two seats could claim a discard)
    rollout.paired[ix(i)] = 1;
    rollout.played_out[ix(i)] = 0b1011;  // actions 0, 1 (greedy) and 3
    for (int a : {0, 3}) rollout.action_value[ix(i) * 46 + ix(a)] = value[ix(a)];
  }
  // pi(a) of every decision, from the learner's log-probabilities of each action in turn.
  std::array<std::vector<double>, 5> pi;
  for (int a = 0; a < 5; ++a) {
    Rollout r = rollout;
    r.action.assign(n, static_cast<std::int16_t>(a));
    const auto logp = learner.log_probs(r);
    for (int i = 0; i < n; ++i) pi[ix(a)].push_back(std::exp(logp[i].item<double>()));
  }
  double second = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 4 == 0) continue;
    const double mass = pi[0][ix(i)] + pi[1][ix(i)] + pi[3][ix(i)];
    const double mean = (pi[0][ix(i)] * value[0] + pi[3][ix(i)] * value[3]) / mass;
    for (int a : {0, 1, 3}) second += pi[ix(a)][ix(i)] * std::pow(value[ix(a)] - mean, 2);
  }
  const double before0 = mean_prob(learner, rollout, 0), before2 = mean_prob(learner, rollout, 2),
               before3 = mean_prob(learner, rollout, 3);
  const auto stats = learner.update(rollout);
  EXPECT_NEAR(stats.action_adv_std, std::sqrt(second / n), 1e-5 * std::sqrt(second / n));
  const double gain0 = mean_prob(learner, rollout, 0) - before0, gain2 = mean_prob(learner, rollout, 2) - before2,
               gain3 = mean_prob(learner, rollout, 3) - before3;
  EXPECT_GT(gain3, 0.01);
  EXPECT_LT(gain0, 0.0);
  EXPECT_LT(gain2, gain3);
}

namespace {

// A rollout of the expected form: decisions with i % 2 == 1 (and every one when `all`) have
// actions 0, 1 and 2 played out, valued +1, 0 and -1 plus noise; the others none.
Rollout expected_rollout(Learner& learner, int n, std::uint64_t seed, bool all) {
  auto r = make_rollout(
      learner.net(), n, 4, seed, [](int i) { return i % 3; }, [](int, int) { return 0.0f; });
  r.paired.assign(ix(n), 0);
  r.paired_advantage.assign(ix(n), 0.0f);
  r.played_out.assign(ix(n), 0);
  r.action_value.assign(ix(n) * 46, 0.0f);
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> noise(0.0f, 0.5f);
  for (int i = 0; i < n; ++i) {
    if (!all && i % 2 == 0) continue;
    r.paired[ix(i)] = 1;
    r.played_out[ix(i)] = 0b111;
    for (int a = 0; a < 3; ++a) r.action_value[ix(i) * 46 + ix(a)] = 1.0f - static_cast<float>(a) + noise(rng);
  }
  return r;
}

Config expected_config(double unplayed_share) {
  auto cfg = small_config();
  cfg.ppo.advantage = "rollout";
  cfg.ppo.policy_gradient = "expected";
  cfg.ppo.epochs = 1;
  cfg.ppo.reward_norm = false;
  cfg.ppo.unplayed_share = unplayed_share;
  return cfg;
}

}  // namespace

// ppo.unplayed_share: the learner keeps every decision with action advantages and a drawn share
// of the others, weighted by 1 / share. The gradient noise measured on the kept rows is the whole
// rollout's (each kept row counts as the decisions it stands for; counting rows instead would put
// tr(Sigma) off by the kept share, 0.625 here); the draw is a function of the seed; where every
// decision carries advantages nothing is thinned and the update is the plain one.
TEST(Learner, UnplayedShareLearnsFromTheDecisionsPlayedOutAndAWeightedShareOfTheRest) {
  constexpr int n = 4096;
  auto full_cfg = expected_config(1.0);
  full_cfg.ppo.noise_batch = 16;
  auto thin_cfg = expected_config(0.25);
  thin_cfg.ppo.noise_batch = 16;
  Learner full(learner_config(full_cfg), torch::kCPU, MasterSeed{21});
  Learner thin(learner_config(thin_cfg), torch::kCPU, MasterSeed{21});
  const auto rollout = expected_rollout(full, n, 8, /*all=*/false);
  const auto a = full.update(rollout);
  const auto b = thin.update(rollout);
  EXPECT_EQ(a.learned_rows, 0);
  for (const auto& [tag, v] : a.scalars()) EXPECT_NE(tag, "ppo/learned_rows");
  EXPECT_EQ(b.samples, n);
  // Half the decisions are played out; of the other 2,048 about a quarter are kept (sd 20).
  EXPECT_GE(b.learned_rows, n / 2 + 512 - 80);
  EXPECT_LE(b.learned_rows, n / 2 + 512 + 80);
  ASSERT_TRUE(a.noise_measured && b.noise_measured);
  EXPECT_NEAR(b.grad_signal, a.grad_signal, 0.1 * a.grad_signal);
  EXPECT_NEAR(b.grad_noise, a.grad_noise, 0.25 * a.grad_noise);
  EXPECT_EQ(a.minibatches, n / 32);
  EXPECT_EQ(b.minibatches, n / 32) << "a minibatch counts the decisions its rows stand for";

  // The same seed, the same rows and the same update.
  Learner again(learner_config(thin_cfg), torch::kCPU, MasterSeed{21});
  const auto c = again.update(rollout);
  EXPECT_EQ(c.learned_rows, b.learned_rows);
  EXPECT_EQ(c.grad_noise, b.grad_noise);
  const auto pa = thin.net().parameters(), pc = again.net().parameters();
  for (std::size_t i = 0; i < pa.size(); ++i) EXPECT_TRUE(torch::equal(pa[i], pc[i])) << "parameter " << i;

  // Every decision played out: nothing to thin, the plain update (the weights, all 1, change
  // only the rounding of the means).
  auto plain_cfg = expected_config(1.0), all_cfg = expected_config(0.25);
  Learner plain(learner_config(plain_cfg), torch::kCPU, MasterSeed{22});
  Learner kept(learner_config(all_cfg), torch::kCPU, MasterSeed{22});
  const auto every = expected_rollout(plain, 512, 9, /*all=*/true);
  (void)plain.update(every);
  EXPECT_EQ(kept.update(every).learned_rows, 512);
  const auto pp = plain.net().parameters(), pk = kept.net().parameters();
  for (std::size_t i = 0; i < pp.size(); ++i)
    EXPECT_LT((pp[i] - pk[i]).abs().max().item<double>(), 1e-5) << "parameter " << i;
}

namespace {

// small_config with a one-block critic of 32 channels (ppo.critic = `critic`).
Config small_critic_config(const std::string& critic) {
  auto cfg = small_config();
  cfg.ppo.critic = critic;
  cfg.ppo.critic_blocks = 1;
  cfg.ppo.critic_channels = 32;
  return cfg;
}

hydra::model::LoadOptions without_rng() {
  hydra::model::LoadOptions options;
  options.restore_rng = false;
  return options;
}

// A learner of `cfg` (master seed 9) resumed from the checkpoint `file`: network, optimizer and
// PPO state.
std::unique_ptr<Learner> resumed(const Config& cfg, const fs::path& file) {
  auto b = std::make_unique<Learner>(learner_config(cfg), torch::kCPU, MasterSeed{9});
  b->restore_state(hydra::model::load_checkpoint(file, &b->net(), &b->optimizer(), without_rng()));
  return b;
}

}  // namespace

// With the privileged critic, a checkpoint holds the critic and its optimizer: the next update
// after a restore is identical, critic included.
TEST(Learner, PrivilegedCriticSaveRestoreGivesAnIdenticalNextUpdate) {
  const auto cfg = small_critic_config("privileged");
  const auto with_priv = [](Rollout r, std::uint64_t seed) {
    auto gen = at::detail::createCPUGenerator(seed);
    const auto planes = (torch::rand({static_cast<std::int64_t>(r.size()), hydra::encoder::kPrivilegedSize}, gen) < 0.1)
                            .to(torch::kHalf)
                            .contiguous();
    r.priv.resize(r.size() * hydra::encoder::kPrivilegedSize);
    std::memcpy(r.priv.data(), planes.data_ptr(), r.priv.size() * sizeof(std::uint16_t));
    return r;
  };
  const fs::path file = fs::temp_directory_path() / ("hydra-ppo-critic-" + std::to_string(::getpid()) + ".ckpt");
  Learner a(learner_config(cfg), torch::kCPU, MasterSeed{9});
  ASSERT_TRUE(a.has_critic());
  a.update(with_priv(plain_rollout(a, 64, 21), 1));
  hydra::model::CheckpointData data;
  a.save_state(data);
  hydra::model::save_checkpoint(file, data, a.net(), &a.optimizer());
  const auto r2 = with_priv(plain_rollout(a, 64, 22), 2);
  const auto next_a = a.update(r2);

  const auto b = resumed(cfg, file);
  const auto next_b = b->update(r2);
  expect_same(next_a, next_b);
  EXPECT_EQ(next_a.critic_loss, next_b.critic_loss);
  EXPECT_TRUE(torch::equal(a.critic_values(r2), b->critic_values(r2)));
  // A run that turned the critic off resumes without it; one that turned it on cannot resume a
  // checkpoint without a critic; a rollout without the planes is refused.
  auto plain = small_config();
  Learner c(learner_config(plain), torch::kCPU, MasterSeed{9});
  EXPECT_NO_THROW(c.restore_state(hydra::model::load_checkpoint(file, nullptr, nullptr, without_rng())));
  hydra::model::CheckpointData no_critic;
  c.save_state(no_critic);
  EXPECT_THROW(b->restore_state(no_critic), hydra::Error);
  EXPECT_THROW(b->update(plain_rollout(*b, 64, 23)), hydra::Error);
  fs::remove(file);
  fs::remove(file.string() + ".sha256");
}

// Data-parallel replicas (docs/DISTRIBUTED.md): two ranks on localhost (threads, each with its
// own Gloo group, as two processes would hold them), each with its own rollout, against one
// learner on the two rollouts concatenated in rank order.
namespace {

std::vector<torch::Tensor> weights_of(Learner& l) {
  std::vector<torch::Tensor> w;
  for (const auto& p : l.net().parameters()) w.push_back(p.detach().clone());
  return w;
}

// |a - b| / |b| over all the network's weights (Euclidean norms).
double relative_gap(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (a[i] - b[i]).to(torch::kDouble).pow(2).sum().item<double>();
    norm += b[i].to(torch::kDouble).pow(2).sum().item<double>();
  }
  return std::sqrt(diff / norm);
}

TEST(DataParallel, TwoRanksUpdateAsOneLearnerOnTheConcatenatedRollouts) {
  if (!hydra::model::gloo_available()) GTEST_SKIP() << "built without Gloo's headers (libgloo-dev)";
  auto cfg = small_config();
  cfg.ppo.epochs = 1;
  cfg.ppo.minibatch = 24;       // 68 samples: 2 minibatches of 34, each straddling both ranks
  cfg.ppo.entropy_target = 2.0;  // the bonus's min() decided on the whole minibatch's entropy
  cfg.ppo.kl_high = 1e9;
  constexpr int kUpdates = 3;
  Learner one(learner_config(cfg), torch::kCPU, MasterSeed{5});
  const Rollout part0 = plain_rollout(one, 40, 31);  // whole episodes of 4 decisions
  const Rollout part1 = plain_rollout(one, 28, 32);
  Rollout both = part0;
  both.append(part1);
  std::vector<std::vector<torch::Tensor>> single;
  std::vector<UpdateStats> single_stats;
  for (int u = 0; u < kUpdates; ++u) {
    single_stats.push_back(one.update(both));
    single.push_back(weights_of(one));
  }

  std::vector<std::vector<std::vector<torch::Tensor>>> ranks(2);
  std::vector<std::vector<UpdateStats>> rank_stats(2);
  hydra::testing::on_ranks(2, std::chrono::seconds(60), [&](int r, hydra::model::ProcessGroup& group) {
    Learner replica(learner_config(cfg), torch::kCPU, MasterSeed{5});
    if (r == 1) {  // other weights on rank 1: set_group gives it rank 0's
      torch::NoGradGuard no_grad;
      for (auto& p : replica.net().parameters()) p.add_(0.01);
    }
    replica.set_group(&group);
    for (int u = 0; u < kUpdates; ++u) {
      rank_stats[ix(r)].push_back(replica.update(r == 0 ? part0 : part1));
      ranks[ix(r)].push_back(weights_of(replica));
    }
  });

  // One update of two ranks is one update of one learner on the concatenation.
  EXPECT_LT(relative_gap(ranks[0][0], single[0]), 1e-6);
  const auto& s1 = single_stats[0];
  for (int r = 0; r < 2; ++r) {
    const auto& s = rank_stats[ix(r)][0];
    EXPECT_NEAR(s.policy_loss, s1.policy_loss, 1e-6);
    EXPECT_NEAR(s.value_loss, s1.value_loss, 1e-5);
    EXPECT_NEAR(s.entropy, s1.entropy, 1e-6);
    EXPECT_NEAR(s.approx_kl, s1.approx_kl, 1e-7);
    EXPECT_NEAR(s.clip_fraction, s1.clip_fraction, 1e-7);
    EXPECT_NEAR(s.tenpai_loss, s1.tenpai_loss, 1e-6);
    EXPECT_NEAR(s.danger_loss, s1.danger_loss, 1e-6);
    EXPECT_EQ(s.minibatches, s1.minibatches);
  }
  // The replicas stay bit-identical, and follow the single learner over several updates.
  for (int u = 0; u < kUpdates; ++u)
    for (std::size_t i = 0; i < ranks[0][ix(u)].size(); ++i)
      EXPECT_TRUE(torch::equal(ranks[0][ix(u)][i], ranks[1][ix(u)][i])) << "update " << u << " tensor " << i;
  EXPECT_LT(relative_gap(ranks[0][kUpdates - 1], single[kUpdates - 1]), 1e-4);
  // Ranks with different master seeds would shuffle differently: refused.
  std::vector<std::string> errors(2);
  hydra::testing::on_ranks(2, std::chrono::seconds(60), [&](int r, hydra::model::ProcessGroup& group) {
    Learner replica(learner_config(cfg), torch::kCPU, MasterSeed{5u + static_cast<unsigned>(r)});
    try {
      replica.set_group(&group);
    } catch (const hydra::Error& e) {
      errors[ix(r)] = e.what();
    }
  });
  for (const auto& e : errors) EXPECT_NE(e.find("different master seeds"), std::string::npos) << e;
  std::printf("data-parallel vs one learner: relative gap %.3g after 1 update, %.3g after %d\n",
              relative_gap(ranks[0][0], single[0]), relative_gap(ranks[0][kUpdates - 1], single[kUpdates - 1]),
              kUpdates);
}

}  // namespace
