#include <gtest/gtest.h>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include "hydra/game/wall.hpp"
#include "wall_golden.hpp"

namespace hydra::game {
namespace {

// Every golden wall computed on 1 thread and on many (each task derives its own keys and owns
// its generator: nothing is shared, so the result cannot depend on scheduling).
std::vector<Wall::Tiles> compute(const std::vector<testing::GoldenWall>& golden, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  std::vector<Wall::Tiles> out(golden.size());
  tbb::parallel_for(std::size_t{0}, golden.size(), [&](std::size_t i) {
    const auto& g = golden[i];
    out[i] = Wall::shuffled(wall_key(game_key(g.master, g.game), g.kyoku, g.honba));
  });
  return out;
}

TEST(WallThreaded, SameWallsOnOneThreadAndMany) {
  const auto golden = testing::load_wall_golden();
  ASSERT_GE(golden.size(), 1000u);
  const auto serial = compute(golden, 1);
  for (int threads : {2, 4, 16}) {
    const auto parallel = compute(golden, threads);
    ASSERT_EQ(parallel, serial) << threads << " threads";
  }
  for (std::size_t i = 0; i < golden.size(); ++i) ASSERT_EQ(serial[i], golden[i].tiles) << "line " << golden[i].line;
}

}  // namespace
}  // namespace hydra::game
