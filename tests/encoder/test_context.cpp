// The score context (encoder/context.hpp) against values computed by hand from its definition,
// and its per-view form against the explicit rotation of the table's scores.

#include <gtest/gtest.h>

#include <array>

#include "hydra/encoder/context.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/table.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {
namespace {

TEST(ScoreContext, HandComputedValues) {
  const auto c = score_context({25000, 31000, 12000, 32000}, 5, 2);
  const std::array<float, 16> want{0.25F, 0.31F, 0.12F, 0.32F,                    // scores
                                   -0.06F, 0.13F, -0.07F, 0.19F, -0.01F, -0.20F,  // gaps 01 02 03 12 13 23
                                   0.06F, 0.01F, 0.13F, 0.0F,                     // to the next higher score
                                   0.625F, 0.2F};                                 // round 5 / 8, honba 2 / 10
  for (std::size_t i = 0; i < 16; ++i) EXPECT_NEAR(c[i], want[i], 1e-6) << i;
  // Ties count the next higher distinct score; West rounds clip to 1.
  const auto t = score_context({30000, 30000, 20000, 20000}, 9, 0);
  EXPECT_NEAR(t[10], 0.0F, 1e-7);
  EXPECT_NEAR(t[11], 0.0F, 1e-7);
  EXPECT_NEAR(t[12], 0.1F, 1e-7);
  EXPECT_NEAR(t[13], 0.1F, 1e-7);
  EXPECT_EQ(t[14], 1.0F);
  EXPECT_EQ(t[15], 0.0F);
}

// Plays seeded random games and, at every start of a kyoku, checks each seat's context against
// the table's absolute scores rotated by hand and the round counted from the game's progress.
TEST(ScoreContext, FromViewRotatesToTheSeat) {
  const game::TableRules& rules = game::table_rules("tenhou");
  int checked = 0, distinct = 0;
  for (std::uint64_t g = 0; g < 3; ++g) {
    game::Table table(rules, game::game_key(game::MasterSeed{7}, g), /*record=*/false);
    std::array<game::RandomAgent, 4> agents;
    for (int s = 0; s < 4; ++s) agents[ix(s)].start_game(game::Seat(s), game::game_key(game::MasterSeed{7}, g));
    while (!table.done()) {
      for (int s = 0; s < 4; ++s) {
        const game::PlayerView& v = table.view(game::Seat(s));
        const auto& abs = v.scores();
        const std::array<int, 4> rel{abs[ix(s)], abs[static_cast<std::size_t>((s + 1) % 4)],
                                     abs[static_cast<std::size_t>((s + 2) % 4)], abs[static_cast<std::size_t>((s + 3) % 4)]};
        const int round = (v.bakaze().index() - 27) * 4 + v.kyoku() - 1;
        EXPECT_EQ(round_index(v), round);
        EXPECT_EQ(score_context(v), score_context(rel, round, v.honba()));
        ++checked;
        if (rel[0] != rel[1]) ++distinct;
      }
      const auto pending = table.pending();
      for (const auto& d : pending)
        table.act(d.seat, agents[ix(d.seat.index())].act(table.view(d.seat), d));
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(distinct, 10);  // the rotation was exercised on unequal scores
}

}  // namespace
}  // namespace hydra::encoder
