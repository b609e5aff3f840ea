#include <gtest/gtest.h>

#include <thread>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include "hydra/game/wall.hpp"
#include "wall_golden.hpp"

// The same walls on 1 thread and on many. Each wall derives its own keys and owns its generator,
// so nothing is shared and no schedule can change a wall. Two runners:
//  - std::thread workers: every synchronisation is visible to ThreadSanitizer, so under
//    `scripts/test.sh --sanitize thread` this checks the KDF, OpenSSL use and shuffle for races;
//  - oneTBB parallel_for, as the self-play code runs them. Debian's libtbb is not instrumented,
//    so TSan cannot see TBB's task hand-off and reports its inline bookkeeping and every task
//    body's reads of the caller's data as races; that runner is skipped under TSan.

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

using testing::GoldenWall;

Wall::Tiles wall_of(const GoldenWall& g) { return Wall::shuffled(wall_key(game_key(g.master, g.game), g.kyoku, g.honba)); }

std::vector<Wall::Tiles> with_std_threads(const std::vector<GoldenWall>& golden, unsigned threads) {
  std::vector<Wall::Tiles> out(golden.size());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t i = t; i < golden.size(); i += threads) out[i] = wall_of(golden[i]);
    });
  for (auto& th : pool) th.join();
  return out;
}

std::vector<Wall::Tiles> with_tbb(const std::vector<GoldenWall>& golden, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  std::vector<Wall::Tiles> out(golden.size());
  tbb::parallel_for(std::size_t{0}, golden.size(), [&](std::size_t i) { out[i] = wall_of(golden[i]); });
  return out;
}

std::vector<Wall::Tiles> serial(const std::vector<GoldenWall>& golden) {
  std::vector<Wall::Tiles> out;
  for (const auto& g : golden) out.push_back(wall_of(g));
  return out;
}

TEST(WallThreaded, SameWallsOnOneStdThreadAndMany) {
  const auto golden = testing::load_wall_golden();
  ASSERT_GE(golden.size(), 1000u);
  const auto one = serial(golden);
  for (std::size_t i = 0; i < golden.size(); ++i) ASSERT_EQ(one[i], golden[i].tiles) << "line " << golden[i].line;
  for (unsigned threads : {2U, 4U, 16U}) ASSERT_EQ(with_std_threads(golden, threads), one) << threads << " threads";
}

TEST(WallThreaded, SameWallsOnOneTbbThreadAndMany) {
  if (kThreadSanitizer) GTEST_SKIP() << "uninstrumented libtbb: TSan cannot see TBB's task hand-off";
  const auto golden = testing::load_wall_golden();
  ASSERT_GE(golden.size(), 1000u);
  const auto one = with_tbb(golden, 1);
  for (std::size_t i = 0; i < golden.size(); ++i) ASSERT_EQ(one[i], golden[i].tiles) << "line " << golden[i].line;
  for (int threads : {2, 4, 16}) ASSERT_EQ(with_tbb(golden, threads), one) << threads << " threads";
}

}  // namespace
}  // namespace hydra::game
