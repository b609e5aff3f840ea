// A short threaded collect (labelled `threaded`: scripts/test.sh --sanitize thread runs it under
// TSan): two groups alternating with the inference thread, parallel stepping and encoding, all
// three opponent kinds, one forward pass per model.

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
  actors.progress = [&](std::int64_t done) { last_progress = done; };
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

}  // namespace
}  // namespace hydra::selfplay
