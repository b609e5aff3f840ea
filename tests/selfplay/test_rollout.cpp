// Rollout storage: append keeps episodes whole, check() catches malformed rollouts.

#include <gtest/gtest.h>

#include "hydra/common/error.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::selfplay {
namespace {

Rollout one_episode(int n, std::int16_t action) {
  Rollout r;
  for (int i = 0; i < n; ++i) {
    r.obs.insert(r.obs.end(), encoder::kObsSize, to_half(0.5f));
    r.context.insert(r.context.end(), kContext, 0.0f);
    r.legal.push_back((std::uint64_t{1} << action) | 1U);
    r.action.push_back(action);
    r.logp.push_back(-0.5f);
    r.value.push_back(0.0f);
    r.reward.push_back(i + 1 == n ? 1.0f : 0.0f);
    r.done.push_back(i + 1 == n ? 1 : 0);
    r.opp_waits.insert(r.opp_waits.end(), kOpponents, 0);
    r.version.push_back(1);
  }
  r.games = 1;
  r.kyoku = 1;
  r.all_decisions = n;
  return r;
}

TEST(Rollout, AppendConcatenatesEveryFieldAndTheCounters) {
  Rollout a = one_episode(3, 5);
  const Rollout b = one_episode(2, 7);
  a.append(b);
  EXPECT_EQ(a.size(), 5U);
  EXPECT_EQ(a.obs.size(), 5U * encoder::kObsSize);
  EXPECT_EQ(a.action[3], 7);
  EXPECT_EQ(a.done[2], 1);
  EXPECT_EQ(a.games, 2);
  EXPECT_EQ(a.all_decisions, 5);
  a.check();
  a.clear();
  EXPECT_EQ(a.size(), 0U);
  EXPECT_EQ(a.games, 0);
  a.check();
}

TEST(Rollout, CheckRejectsAnIllegalActionAnOpenEpisodeAndShortArrays) {
  Rollout r = one_episode(2, 5);
  r.action[0] = 6;
  EXPECT_THROW(r.check(), InvariantError);
  r = one_episode(2, 5);
  r.done[1] = 0;
  EXPECT_THROW(r.check(), InvariantError);
  r = one_episode(2, 5);
  r.value.pop_back();
  EXPECT_THROW(r.check(), InvariantError);
  r = one_episode(2, 5);
  r.obs.pop_back();
  EXPECT_THROW(r.check(), InvariantError);
}

}  // namespace
}  // namespace hydra::selfplay
