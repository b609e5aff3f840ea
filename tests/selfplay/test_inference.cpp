// InferenceModel: batched evaluation equals one-at-a-time evaluation from several threads at
// once (KataGo's batching test), snapshots are stale until the next publish, the actors stamp
// every decision with the published version, checkpoints load into the same policy, and the
// torch-free score context equals the model's.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <memory>
#include <thread>
#include <vector>

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/model/runtime.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/network.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/rewards.hpp"
#include "hydra/selfplay/torch/grp_rewards.hpp"
#include "hydra/selfplay/torch/inference.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

config::Config tiny_config() {
  config::Config c;
  c.model.blocks = 2;
  c.model.channels = 32;
  c.model.se_ratio = 8;
  c.model.policy_channels = 8;
  c.model.value_hidden = 16;
  c.model.grp_hidden = 16;
  c.model.tenpai_hidden = 8;
  c.rules.length = "kyoku";
  c.selfplay.games = 4;
  c.selfplay.opp_self = 1.0;
  c.selfplay.opp_pool = 0.0;
  c.selfplay.opp_baseline = 0.0;
  return c;
}

// Real observations: the decisions of a few seeded self-play kyoku (test policy).
struct Observations {
  std::vector<float> obs, context;
  std::vector<game::ActionMask> legal;
  int n = 0;
};

Observations real_observations(int max) {
  Actors actors(actors_config(tiny_config()), game::MasterSeed{17}, std::make_shared<LinearTestPolicy>(3), nullptr);
  const Rollout r = actors.collect(max);
  Observations o;
  o.n = std::min(max, static_cast<int>(r.size()));
  const auto n = ix(o.n);
  o.obs.resize(n * encoder::kObsSize);
  from_half(r.obs.data(), o.obs.data(), o.obs.size());
  o.context.assign(r.context.begin(), r.context.begin() + static_cast<std::ptrdiff_t>(n * kContext));
  const auto legal = r.legal_masks();
  o.legal.assign(legal.begin(), legal.begin() + o.n);
  return o;
}

model::HydraNet make_net(std::uint64_t seed) {
  model::HydraNet net(tiny_config().model);
  net->init_weights(seed);
  return net;
}

struct Result {
  std::vector<float> probs, value;
};

Result eval_rows(BatchPolicy& p, const Observations& o, int begin, int n) {
  Result r;
  r.probs.resize(ix(n) * kActions);
  r.value.resize(ix(n));
  PolicyBatch in{o.obs.data() + ix(begin) * encoder::kObsSize,
                 o.context.data() + ix(begin) * kContext, o.legal.data() + begin, n};
  p.evaluate(in, PolicyOutput{r.probs.data(), r.value.data()});
  return r;
}

TEST(InferenceModel, BatchedEqualsOneAtATimeFromSeveralThreads) {
  const Observations o = real_observations(48);
  ASSERT_GE(o.n, 32);
  auto net = make_net(5);
  InferenceModel model(*net, torch::kCPU, 1);
  const Result batched = eval_rows(model, o, 0, o.n);

  std::vector<Result> single(ix(o.n));
  std::vector<std::thread> threads;
  constexpr int kThreads = 4;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = t; i < o.n; i += kThreads) single[ix(i)] = eval_rows(model, o, i, 1);
    });
  for (auto& th : threads) th.join();

  for (int i = 0; i < o.n; ++i) {
    const auto ui = ix(i);
    double sum = 0;
    for (int a = 0; a < kActions; ++a) {
      const float b = batched.probs[ui * kActions + ix(a)];
      EXPECT_NEAR(b, single[ui].probs[ix(a)], 1e-5) << "row " << i << " action " << a;
      if (!o.legal[ui].test(game::Action(a))) {
        EXPECT_EQ(b, 0.0f);
      }
      sum += b;
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    EXPECT_NEAR(batched.value[ui], single[ui].value[0], 1e-5);
  }
}

TEST(InferenceModel, EqualsTheLearnerNetworksMaskedSoftmax) {
  const Observations o = real_observations(8);
  auto net = make_net(6);
  net->eval();
  InferenceModel model(*net, torch::kCPU, 1);
  const Result r = eval_rows(model, o, 0, o.n);
  torch::NoGradGuard no_grad;
  const auto obs = torch::from_blob(const_cast<float*>(o.obs.data()), {o.n, encoder::kChannels, encoder::kTiles});
  const auto ctx = torch::from_blob(const_cast<float*>(o.context.data()), {o.n, kContext});
  const auto out = net->forward(obs, ctx);
  for (int i = 0; i < o.n; ++i) {
    const auto logits = out.policy[i];
    double max = -1e30;
    for (int a = 0; a < kActions; ++a)
      if (o.legal[ix(i)].test(game::Action(a))) max = std::max(max, static_cast<double>(logits[a].item<float>()));
    double z = 0;
    for (int a = 0; a < kActions; ++a)
      if (o.legal[ix(i)].test(game::Action(a))) z += std::exp(logits[a].item<float>() - max);
    for (int a = 0; a < kActions; ++a) {
      const double want = (o.legal[ix(i)].test(game::Action(a))) ? std::exp(logits[a].item<float>() - max) / z : 0.0;
      EXPECT_NEAR(r.probs[static_cast<std::size_t>(i * kActions + a)], want, 1e-6);
    }
    EXPECT_NEAR(r.value[ix(i)], out.value[i][0].item<float>(), 1e-6);
  }
}

void perturb(model::HydraNetImpl& net) {
  torch::NoGradGuard no_grad;
  for (auto& p : net.parameters()) p.add_(0.05);
}

TEST(InferenceModel, SnapshotIsStaleUntilTheNextPublish) {
  const Observations o = real_observations(16);
  auto learner = make_net(7);
  InferenceModel model(*learner, torch::kCPU, 1);
  const Result before = eval_rows(model, o, 0, o.n);
  perturb(*learner);  // training steps on the learner
  const Result stale = eval_rows(model, o, 0, o.n);
  EXPECT_EQ(stale.probs, before.probs);
  EXPECT_EQ(stale.value, before.value);
  EXPECT_EQ(model.version(), 1);
  model.publish(*learner, 2);
  EXPECT_EQ(model.version(), 2);
  const Result fresh = eval_rows(model, o, 0, o.n);
  EXPECT_NE(fresh.value, before.value);
  // The new snapshot is the learner's weights exactly.
  InferenceModel direct(*learner, torch::kCPU, 2);
  const Result want = eval_rows(direct, o, 0, o.n);
  EXPECT_EQ(fresh.probs, want.probs);
  EXPECT_EQ(fresh.value, want.value);
}

TEST(InferenceModel, EveryDecisionOfTheNextCollectCarriesThePublishedVersion) {
  auto learner = make_net(8);
  auto model = std::make_shared<InferenceModel>(*learner, torch::kCPU, 0);
  Actors actors(actors_config(tiny_config()), game::MasterSeed{4}, model, nullptr);
  const Rollout a = actors.collect(20);
  ASSERT_GT(a.size(), 0U);
  for (auto v : a.version) EXPECT_EQ(v, 0);
  perturb(*learner);
  model->publish(*learner, 3);
  const Rollout b = actors.collect(20);
  ASSERT_GT(b.size(), 0U);
  for (auto v : b.version) EXPECT_EQ(v, 3);
  b.check();
  // The stored log-probabilities are the snapshot's on the stored (binary16) observations: the
  // learner's first-epoch ratio is exactly 1.
  std::vector<float> obs(b.obs.size());
  from_half(b.obs.data(), obs.data(), obs.size());
  std::vector<float> probs(b.size() * kActions), value(b.size());
  const auto legal = b.legal_masks();
  model->evaluate(PolicyBatch{obs.data(), b.context.data(), legal.data(), static_cast<int>(b.size())},
                  PolicyOutput{probs.data(), value.data()});
  for (std::size_t i = 0; i < b.size(); ++i) {
    EXPECT_NEAR(b.logp[i], std::log(probs[i * kActions + static_cast<std::size_t>(b.action[i])]), 1e-5);
    EXPECT_NEAR(b.value[i], value[i], 1e-5);
  }
}

TEST(InferenceModel, LoadPolicyReadsACheckpointIntoTheSamePolicy) {
  const config::Config cfg = tiny_config();
  auto net = make_net(9);
  const auto file = std::filesystem::temp_directory_path() / ("hydra_inference_" + std::to_string(::getpid()) + ".ckpt");
  model::CheckpointData data;
  data.step = 12;
  data.config = config::to_json(cfg);
  model::save_checkpoint(file, data, *net);
  const auto loaded = load_policy(file, torch::kCPU);
  EXPECT_EQ(loaded->version(), 12);
  InferenceModel direct(*net, torch::kCPU, 12);
  const Observations o = real_observations(8);
  EXPECT_EQ(eval_rows(*loaded, o, 0, o.n).probs, eval_rows(direct, o, 0, o.n).probs);
  std::filesystem::remove(file);
  std::filesystem::remove(file.string() + ".sha256");
  EXPECT_THROW(load_policy("/nonexistent/x.ckpt", torch::kCPU), Error);
}

// Sum of each (game, seat)'s rewards, by game.
std::map<std::int64_t, std::array<double, 4>> reward_sums(const Rollout& r) {
  std::map<std::int64_t, std::array<double, 4>> out;
  for (std::size_t i = 0; i < r.size(); ++i) out[r.game[i]][r.seat[i]] += r.reward[i];
  return out;
}

// A GRP reward model of a fresh GRP network of `cfg`, through a checkpoint as self-play loads it.
std::shared_ptr<GrpRewardModel> fresh_grp_model(const config::Config& cfg, const std::string& tag) {
  model::GrpNet grp(cfg.model);
  const auto file = std::filesystem::temp_directory_path() / ("hydra_" + tag + "_" + std::to_string(::getpid()) + ".ckpt");
  model::CheckpointData data;
  data.kind = "grp";
  data.config = config::to_json(cfg);
  model::save_checkpoint(file, data, *grp);
  auto rewards = std::make_shared<GrpRewardModel>(file);
  std::filesystem::remove(file);
  std::filesystem::remove(file.string() + ".sha256");
  return rewards;
}

TEST(GrpRewardModel, RewardsOfASelfPlayGameSumToZeroOverTheSeatsAndDifferFromScoreRewards) {
  config::Config cfg = tiny_config();
  cfg.rules.length = "tonpuusen";
  auto rewards = fresh_grp_model(cfg, "grp");

  Actors plain(actors_config(cfg), game::MasterSeed{2}, std::make_shared<LinearTestPolicy>(1), nullptr);
  Actors with_grp(actors_config(cfg), game::MasterSeed{2}, std::make_shared<LinearTestPolicy>(1), nullptr);
  with_grp.set_reward_model(rewards);
  const Rollout a = plain.collect(50);
  const Rollout b = with_grp.collect(50);
  ASSERT_EQ(a.action, b.action);  // same games: rewards never feed back into play
  // Expected placement points sum to 3 + 1 - 1 - 3 = 0 over the seats at every step, so the
  // GRP rewards of the four seats of one game cancel (every seat records in self-play).
  for (const auto& [g, sums] : reward_sums(b)) EXPECT_NEAR(sums[0] + sums[1] + sums[2] + sums[3], 0.0, 1e-4) << g;
  EXPECT_NE(a.reward, b.reward);
  // Rewards sit only on episode ends.
  for (std::size_t i = 0; i < b.size(); ++i)
    if (!b.done[i]) {
      EXPECT_EQ(b.reward[i], 0.0f);
    }
  EXPECT_THROW(GrpRewardModel("/nonexistent/grp.ckpt"), Error);
}

// Greedy play-outs score all the endings of one decision's kyoku at once: the GRP reads the
// shared kyoku once and each ending's next kyoku start as one more step of a batch. Equal to the
// whole-sequence rewards() of each ending; and the score model's rewards by hand.
TEST(GrpRewardModel, LastKyokuRewardsEqualTheWholeSequenceForm) {
  torch::manual_seed(5);
  const auto grp = fresh_grp_model(tiny_config(), "grp_last");
  GrpRewardModel& rewards = *grp;

  const auto start = [](int round, int honba, int sticks, game::Scores scores) {
    game::KyokuStart k;
    k.round = round;
    k.honba = honba;
    k.riichi_sticks = sticks;
    k.scores = scores;
    return k;
  };
  const std::vector<game::KyokuStart> kyoku{start(0, 0, 0, {25000, 25000, 25000, 25000}),
                                            start(1, 0, 0, {33000, 17000, 25000, 25000}),
                                            start(1, 1, 1, {36000, 14000, 24000, 25000})};
  const std::vector<std::optional<game::KyokuStart>> next{start(2, 0, 0, {44000, 14000, 17000, 25000}), std::nullopt,
                                                          start(1, 2, 0, {39000, 11000, 24000, 26000}), std::nullopt};
  const std::vector<game::Scores> scores{{44000, 14000, 17000, 25000}, {36000, 14000, 12000, 38000},
                                         {39000, 11000, 24000, 26000}, {20000, 30000, 24000, 26000}};
  const auto got = rewards.last_kyoku_rewards(kyoku, next, scores);
  ASSERT_EQ(got.size(), next.size());
  for (std::size_t i = 0; i < next.size(); ++i) {
    std::vector<game::KyokuStart> seen = kyoku;
    if (next[i]) seen.push_back(*next[i]);
    const auto want = rewards.rewards(seen, scores[i]);
    for (std::size_t s = 0; s < 4; ++s) EXPECT_NEAR(got[i][s], want[2][s], 1e-6) << "ending " << i << " seat " << s;
  }
  // The score model, by hand: the kyoku's score change / 10,000, and at the game's end the
  // placement points (3, 1, -1, -3) too.
  ScoreRewardModel score;
  const auto by_score = score.last_kyoku_rewards(kyoku, next, scores);
  EXPECT_NEAR(by_score[0][0], 0.8, 1e-12);
  EXPECT_NEAR(by_score[0][2], -0.7, 1e-12);
  EXPECT_NEAR(by_score[1][0], 0.0 + 1.0, 1e-12);   // 36,000 -> 36,000, second
  EXPECT_NEAR(by_score[1][2], -1.2 - 3.0, 1e-12);  // 24,000 -> 12,000, fourth
  EXPECT_NEAR(by_score[1][3], 1.3 + 3.0, 1e-12);   // 25,000 -> 38,000, first
  EXPECT_NEAR(by_score[2][3], 0.1, 1e-12);         // the game goes on: 25,000 -> 26,000
}

TEST(ResolveDevice, NamesAndErrors) {
  EXPECT_TRUE(torch::Device(model::resolve_device("cpu")).is_cpu());
  EXPECT_THROW(model::resolve_device("tpu"), Error);
  EXPECT_THROW(model::resolve_device("cuda:x"), Error);
  if (!torch::cuda::is_available()) {
    EXPECT_TRUE(torch::Device(model::resolve_device("auto")).is_cpu());
    EXPECT_THROW(model::resolve_device("cuda"), Error);
    EXPECT_THROW(model::resolve_device("cuda:0"), Error);
  }
}

}  // namespace
}  // namespace hydra::selfplay
