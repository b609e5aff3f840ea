#include <gtest/gtest.h>

#include <thread>

#include <tbb/global_control.h>

#include "hydra/common/parallel.hpp"
#include "hydra/game/wall.hpp"
#include "wall_golden.hpp"
#include "hydra/common/index.hpp"

// The same walls on 1 thread and on many. Each wall derives its own keys and owns its generator,
// so nothing is shared and no schedule can change a wall. Two runners: std::thread workers, and
// hydra::parallel_for as the self-play code runs them (oneTBB; plain threads under TSan, see
// common/parallel.hpp), so `scripts/test.sh --sanitize thread` checks the KDF, OpenSSL use and
// shuffle for races.

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
  // Ignored under TSan, where parallel_for uses its own threads.
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, ix(threads));
  std::vector<Wall::Tiles> out(golden.size());
  hydra::parallel_for(0, golden.size(), [&](std::size_t i) { out[i] = wall_of(golden[i]); });
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
  const auto golden = testing::load_wall_golden();
  ASSERT_GE(golden.size(), 1000u);
  const auto one = with_tbb(golden, 1);
  for (std::size_t i = 0; i < golden.size(); ++i) ASSERT_EQ(one[i], golden[i].tiles) << "line " << golden[i].line;
  for (int threads : {2, 4, 16}) ASSERT_EQ(with_tbb(golden, threads), one) << threads << " threads";
}

}  // namespace
}  // namespace hydra::game
