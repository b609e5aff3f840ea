// Games played in parallel are the games played one by one: each game depends only on its key
// and owns its table and agents, so no schedule can change it. Two runners, as for the walls:
// std::thread workers (visible to ThreadSanitizer) and oneTBB parallel_for, as self-play runs
// them (skipped under TSan: Debian's libtbb is not instrumented).

#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/parallel_for.h>

#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"

#if defined(__SANITIZE_THREAD__)
constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kThreadSanitizer = true;
#else
constexpr bool kThreadSanitizer = false;
#endif
#else
constexpr bool kThreadSanitizer = false;
#endif

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

TEST(RandomGamesThreaded, StdThreadsMatchSerial) {
  const auto expected = serial();
  std::vector<std::vector<Event>> got(kGames);
  std::atomic<int> next{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w)
    workers.emplace_back([&] {
      for (int g = next++; g < kGames; g = next++) got[static_cast<std::size_t>(g)] = play(static_cast<std::uint64_t>(g));
    });
  for (auto& w : workers) w.join();
  for (int g = 0; g < kGames; ++g) EXPECT_TRUE(got[static_cast<std::size_t>(g)] == expected[static_cast<std::size_t>(g)]) << "game " << g;
}

TEST(RandomGamesThreaded, TbbParallelForMatchesSerial) {
  if (kThreadSanitizer) GTEST_SKIP() << "uninstrumented libtbb: TSan cannot see TBB's task hand-off";
  const auto expected = serial();
  std::vector<std::vector<Event>> got(kGames);
  oneapi::tbb::parallel_for(0, kGames, [&](int g) { got[static_cast<std::size_t>(g)] = play(static_cast<std::uint64_t>(g)); });
  for (int g = 0; g < kGames; ++g) EXPECT_TRUE(got[static_cast<std::size_t>(g)] == expected[static_cast<std::size_t>(g)]) << "game " << g;
}

}  // namespace
}  // namespace hydra::game
