// Privileged planes (encoder/privileged.hpp) at every decision of engine games with random
// agents (they call, kan and riichi), under every suit permutation:
// - the predicted next live draw is the tile the table deals next, to the seat predicted, whenever
//   no call or kan comes in between (checked against the tsumo events that follow);
// - each opponent's hand planes are its concealed tiles, permuted, in relative seat order;
// - the wall planes account for every tile left: live wall = live_left(), rinshan = 4 - kans,
//   ura = revealed indicators, hidden dora = 5 - revealed.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "hydra/encoder/privileged.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/table.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {
namespace {

using game::EventType;
using game::Seat;

struct Prediction {  // the next live draw as planes of one decision predicted it
  Seat seat;
  int tile = -1;     // in the permuted space
  SuitPerm perm;
  std::size_t events = 0;  // the table's event count at the decision
};

float sum_plane(const std::array<float, kPrivilegedSize>& p, int channel) {
  float s = 0;
  for (int t = 0; t < kTiles; ++t) s += p[static_cast<std::size_t>(channel * kTiles + t)];
  return s;
}

TEST(PrivilegedPlanes, MatchTheTableAndTheDrawsThatFollow) {
  const game::TableRules& rules = game::table_rules("tenhou");
  std::int64_t decisions = 0, draws_checked = 0, winning = 0;
  for (std::uint64_t g = 0; g < 6; ++g) {
    std::array<game::RandomAgent, 4> agents;
    const game::GameKey key = game::game_key(game::MasterSeed{77}, g);
    for (int s = 0; s < 4; ++s) agents[ix(s)].start_game(Seat(s), key);
    game::Table table(rules, key, true);
    std::vector<Prediction> open;  // predictions waiting for the next live tsumo
    std::size_t checked_events = 0;
    const auto settle = [&] {
      const auto& ev = table.events();
      for (; checked_events < ev.size(); ++checked_events) {
        const game::Event& e = ev[checked_events];
        switch (e.type) {
          case EventType::chi: case EventType::pon: case EventType::daiminkan: case EventType::kakan:
          case EventType::ankan: case EventType::start_kyoku: case EventType::end_kyoku:
          case EventType::hora: case EventType::ryukyoku:
            open.clear();  // the draw order changed, or the kyoku ended
            break;
          case EventType::tsumo:
            for (const Prediction& p : open) {
              EXPECT_EQ(e.actor, p.seat) << "game " << g << " event " << checked_events;
              EXPECT_EQ(p.perm(e.pai.type()).index(), p.tile) << "game " << g << " event " << checked_events;
              ++draws_checked;
            }
            open.clear();
            break;
          default:
            break;
        }
      }
    };
    while (!table.done()) {
      const auto pending = table.pending();
      for (const game::Decision& d : pending) {
        settle();
        const SuitPerm perm = SuitPerm::nth(static_cast<int>((decisions + d.seat.index()) % kNumSuitPerms));
        std::array<float, kPrivilegedSize> p{};
        privileged_planes(table, d.seat, perm, p.data());
        ++decisions;
        // Opponents' hands, permuted, relative seats.
        for (int o = 1; o <= 3; ++o) {
          const auto& closed = table.view(d.seat.next(o)).hand().closed;
          for (int t = 0; t < kTiles; ++t) {
            const int at = perm(game::TileType(t)).index();
            int n = 0;
            for (int k = 0; k < 4; ++k) n += p[static_cast<std::size_t>((priv::kHands + 4 * (o - 1) + k) * kTiles + at)] > 0;
            ASSERT_EQ(n, closed[ix(t)]) << "opponent " << o << " tile " << t;
          }
        }
        // Every tile left in the walls is counted once.
        const game::Wall& wall = table.wall();
        float live = 0;
        for (int k = 0; k < 4; ++k) live += sum_plane(p, priv::kLiveWall + k);
        EXPECT_EQ(live, static_cast<float>(wall.live_left()));
        EXPECT_EQ(sum_plane(p, priv::kRinshan), static_cast<float>(game::Wall::kMaxKans - wall.kans()));
        EXPECT_EQ(sum_plane(p, priv::kUra), static_cast<float>(wall.indicators_revealed()));
        EXPECT_EQ(sum_plane(p, priv::kHiddenDora), static_cast<float>(game::Wall::kMaxIndicators - wall.indicators_revealed()));
        // A seat's winning draw: at most one tile, a tile it waits on, valued by how soon.
        for (int r = 0; r < 4; ++r) {
          int n = 0;
          for (int t = 0; t < kTiles; ++t) {
            const float x = p[static_cast<std::size_t>((priv::kWinningDraw + r) * kTiles + t)];
            if (x <= 0) continue;
            ++n;
            const game::TileType type = perm.inverse()(game::TileType(t));
            EXPECT_TRUE(table.view(d.seat.next(r)).waits().contains(type)) << "seat " << r << " tile " << t;
            EXPECT_GT(p[static_cast<std::size_t>((priv::kSoonDraws + r) * kTiles + t)], 0.0f);
          }
          EXPECT_LE(n, 1);
          winning += n;
        }
        // The next four live draws: one tile on each of four seats' planes (fewer near the end).
        int marked = 0;
        for (int r = 0; r < 4; ++r)
          for (int t = 0; t < kTiles; ++t) marked += p[static_cast<std::size_t>((priv::kNextDraw + r) * kTiles + t)] > 0;
        EXPECT_EQ(marked, std::min(4, wall.live_left()));
        // The first of the next draws is the relative seat after the one whose turn it is.
        if (wall.live_left() > 0) {
          const int r = (table.turn().index() + 1 - d.seat.index() + 4) % 4;
          int t0 = -1;
          for (int t = 0; t < kTiles; ++t)
            if (p[static_cast<std::size_t>((priv::kNextDraw + r) * kTiles + t)] > 0) t0 = t;
          ASSERT_GE(t0, 0);
          const game::Tile next = wall.tiles()[static_cast<std::size_t>(game::Wall::kLiveBegin + game::Wall::kLiveTiles -
                                                                         wall.live_left() - wall.kans())];
          EXPECT_EQ(perm(next.type()).index(), t0);
          open.push_back(Prediction{d.seat.next(r), t0, perm, table.events().size()});
        }
        table.act(d.seat, agents[ix(d.seat.index())].act(table.view(d.seat), d));
      }
    }
    settle();
  }
  EXPECT_GT(decisions, 1000);
  EXPECT_GT(draws_checked, 500);
  EXPECT_GT(winning, 0);
}

}  // namespace
}  // namespace hydra::encoder
