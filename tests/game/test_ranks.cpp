// Final ranks (Tenhou tie rule) and the index of a rank tuple among the 24 permutations, against
// hand-worked cases and an enumeration in lexicographic order.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "hydra/common/error.hpp"
#include "hydra/game/kyoku.hpp"

namespace hydra::game {
namespace {

TEST(Ranks, TiesGoToTheSeatNearerTheFirstDealer) {
  EXPECT_EQ(ranks({30000, 30000, 20000, 20000}), (std::array<int, 4>{0, 1, 2, 3}));
  EXPECT_EQ(ranks({20000, 30000, 30000, 20000}), (std::array<int, 4>{2, 0, 1, 3}));
  EXPECT_EQ(ranks({-1000, 41000, 10000, 50000}), (std::array<int, 4>{3, 1, 2, 0}));
}

TEST(Ranks, PermutationIndexIsLexicographic) {
  EXPECT_EQ(rank_permutation_index({0, 1, 2, 3}), 0);
  EXPECT_EQ(rank_permutation_index({0, 1, 3, 2}), 1);
  EXPECT_EQ(rank_permutation_index({1, 0, 2, 3}), 6);
  EXPECT_EQ(rank_permutation_index({3, 2, 1, 0}), 23);
  std::array<int, 4> r{0, 1, 2, 3};
  for (int p = 0; p < 24; ++p) {
    EXPECT_EQ(rank_permutation_index(r), p);
    std::next_permutation(r.begin(), r.end());
  }
  EXPECT_THROW(rank_permutation_index({0, 0, 2, 3}), InvariantError);
  EXPECT_THROW(rank_permutation_index({0, 1, 2, 4}), InvariantError);
}

}  // namespace
}  // namespace hydra::game
