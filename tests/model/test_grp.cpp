// The GRP network, the rank permutation order and the per-kyoku rewards.

#include <gtest/gtest.h>

#include <numeric>

#include "hydra/model/grp.hpp"
#include "hydra/model/network.hpp"
#include "hydra/common/index.hpp"

namespace hydra::model {
namespace {

TEST(Grp, PermutationOrderIsLexicographicOverRanksOfSeats) {
  EXPECT_EQ(rank_permutation(0), (Ranks{0, 1, 2, 3}));
  EXPECT_EQ(rank_permutation(1), (Ranks{0, 1, 3, 2}));
  EXPECT_EQ(rank_permutation(6), (Ranks{1, 0, 2, 3}));
  EXPECT_EQ(rank_permutation(23), (Ranks{3, 2, 1, 0}));
  for (int p = 0; p < kRankPerms; ++p) {
    EXPECT_EQ(permutation_index(rank_permutation(p)), p);
    if (p > 0) {
      EXPECT_LT(rank_permutation(p - 1), rank_permutation(p));
    }
  }
}

TEST(Grp, FinalRanksBreakTiesBySeatOrder) {
  EXPECT_EQ(final_ranks({20000, 40000, 10000, 30000}), (Ranks{2, 0, 3, 1}));
  EXPECT_EQ(final_ranks({25000, 25000, 25000, 25000}), (Ranks{0, 1, 2, 3}));
  EXPECT_EQ(final_ranks({10000, 30000, 30000, 30000}), (Ranks{3, 0, 1, 2}));
}

TEST(Grp, ShapesAndCausality) {
  torch::manual_seed(10);
  GrpNet grp(config::ModelConfig{});
  const auto seq = torch::randn({3, 6, kGrpFeatures});
  const auto logits = grp->forward(seq);
  EXPECT_EQ(logits.sizes(), (std::vector<std::int64_t>{3, 6, 24}));
  // Steps 0..3 of a prefix equal steps 0..3 of the whole sequence (padding is harmless).
  const auto prefix = grp->forward(seq.slice(1, 0, 4));
  EXPECT_TRUE(torch::allclose(prefix, logits.slice(1, 0, 4), 1e-6, 1e-6));
}

TEST(Grp, ExpectedPointsByHand) {
  // All mass on permutation 6 = ranks (1,0,2,3): seat 0 second (+1), seat 1 first (+3).
  auto probs = torch::zeros({kRankPerms}, torch::kDouble);
  probs[6] = 1.0;
  auto e = expected_points(probs);
  EXPECT_TRUE(torch::equal(e, torch::tensor({1.0, 3.0, -1.0, -3.0}, torch::kDouble)));
  // Uniform over all 24: every seat expects the mean placement, 0; the seats' sum is always 0.
  e = expected_points(torch::full({kRankPerms}, 1.0 / 24, torch::kDouble));
  EXPECT_NEAR(e.abs().max().item<double>(), 0.0, 1e-12);
}

TEST(Grp, RewardsTelescopeToTheGameResult) {
  torch::manual_seed(11);
  GrpNet grp(config::ModelConfig{});
  const std::vector<game::KyokuStart> game = {
      {0, 0, 0, {25000, 25000, 25000, 25000}}, {1, 0, 0, {33000, 17000, 25000, 25000}},
      {2, 1, 1, {33000, 17000, 21000, 28000}}, {4, 0, 0, {41000, 12000, 19000, 28000}},
      {7, 0, 0, {30000, 12000, 30000, 28000}}};
  const std::array<int, 4> final_scores{30000, 4000, 38000, 28000};
  const auto rewards = kyoku_rewards(*grp, game, final_scores);
  ASSERT_EQ(rewards.size(), game.size());
  // E_0: the GRP's expectation before anything happened.
  torch::NoGradGuard no_grad;
  const auto e0 = expected_points(torch::softmax(grp->forward(grp_sequence(game)).to(torch::kDouble)[0][0], -1));
  const auto ranks = final_ranks(final_scores);  // seat 2 first, seat 0 second, seat 3 third, seat 1 fourth
  EXPECT_EQ(ranks, (Ranks{1, 3, 0, 2}));
  double zero_sum = 0;
  for (int seat = 0; seat < 4; ++seat) {
    double total = 0;
    for (const auto& r : rewards) total += r[ix(seat)];
    EXPECT_NEAR(total, kPlacementPoints[static_cast<std::size_t>(ranks[ix(seat)])] -
                           e0[seat].item<double>(), 1e-9)
        << seat;
    zero_sum += total;
  }
  // Placement points and every expectation sum to 0 over seats, so the rewards do too.
  EXPECT_NEAR(zero_sum, 0.0, 1e-9);
  for (const auto& r : rewards) EXPECT_NEAR(r[0] + r[1] + r[2] + r[3], 0.0, 1e-9);
}

}  // namespace
}  // namespace hydra::model
