// A short threaded collect (labelled `threaded`: scripts/test.sh --sanitize thread runs it under
// TSan): two groups alternating with the inference thread, parallel stepping and encoding, all
// three opponent kinds, one forward pass per model; and greedy play-outs of every likely action,
// each decision's play-outs in a nested parallel loop inside the parallel steps.

#include <gtest/gtest.h>

#include <memory>

#include "hydra/common/config.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/policy.hpp"

namespace hydra::selfplay {
namespace {

TEST(ActorsThreaded, CollectsWithTheInferenceThreadAndParallelSteps) {
  config::Config cfg;
  cfg.rules.length = "kyoku";
  cfg.selfplay.games = 8;
  cfg.selfplay.opp_self = 0.4;
  cfg.selfplay.opp_pool = 0.3;
  cfg.selfplay.opp_baseline = 0.3;
  cfg.selfplay.baseline = "bot:greedy";
  auto learner = std::make_shared<LinearTestPolicy>(1, 2);
  auto pool = std::make_shared<LinearTestPolicy>(2, 1);
  Actors actors(actors_config(cfg), game::MasterSeed{21}, learner, nullptr);
  actors.set_pool({pool});
  std::int64_t last_progress = 0;
  actors.progress_seconds = 0;  // a report after every step: the last one counts every game
  actors.progress = [&](const Actors::Progress& p) { last_progress = p.games; };
  for (int round = 0; round < 2; ++round) {
    const Rollout r = actors.collect(60);
    r.check();
    EXPECT_GE(static_cast<std::int64_t>(r.size()), 60);
    EXPECT_EQ(last_progress, r.games);
    for (auto v : r.version) EXPECT_EQ(v, 2);
  }
  const ActorStats st = actors.take_stats();
  EXPECT_EQ(st.network_decisions, learner->rows() + pool->rows());
  EXPECT_GT(st.forward_passes, 0);
}

TEST(ActorsThreaded, PlaysOutEveryLikelyActionInParallel) {
  config::Config cfg;
  cfg.rules.length = "kyoku";
  cfg.selfplay.games = 4;
  cfg.selfplay.play_outs = 2;
  cfg.selfplay.play_out_min_prob = 0.1;
  cfg.ppo.advantage = "rollout";
  cfg.ppo.policy_gradient = "expected";
  Actors actors(actors_config(cfg), game::MasterSeed{22}, std::make_shared<LinearTestPolicy>(1, 2), nullptr);
  const Rollout r = actors.collect(30);
  r.check();
  ASSERT_EQ(r.played_out.size(), r.size());
  std::int64_t played = 0;
  for (std::size_t i = 0; i < r.size(); ++i) played += r.played_out[i] != 0;
  const ActorStats st = actors.take_stats();
  EXPECT_EQ(played, st.paired);  // every paired decision plays out at least the greedy choice
  EXPECT_GT(st.branch_decisions, 0);
}

}  // namespace
}  // namespace hydra::selfplay
