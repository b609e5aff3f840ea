// Games played in parallel are the games played one by one: each game depends only on its key
// and owns its table and agents, so no schedule can change it. hydra::parallel_for is oneTBB's
// (plain threads under ThreadSanitizer, which then checks the game code for races).

#include <vector>

#include <gtest/gtest.h>

#include "hydra/common/parallel.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

constexpr int kGames = 48;

std::vector<Event> play(std::uint64_t g) {
  std::array<RandomAgent, kNumSeats> a;
  return play_game(table_rules("tenhou"), game_key(MasterSeed{424242}, g), {&a[0], &a[1], &a[2], &a[3]}).events;
}

std::vector<std::vector<Event>> serial() {
  std::vector<std::vector<Event>> out;
  for (int g = 0; g < kGames; ++g) out.push_back(play(static_cast<std::uint64_t>(g)));
  return out;
}

TEST(RandomGamesThreaded, ParallelForMatchesSerial) {
  const auto expected = serial();
  std::vector<std::vector<Event>> got(kGames);
  hydra::parallel_for(0, kGames, [&](std::size_t g) { got[g] = play(g); });
  for (int g = 0; g < kGames; ++g) EXPECT_TRUE(got[ix(g)] == expected[ix(g)]) << "game " << g;
}

}  // namespace
}  // namespace hydra::game
