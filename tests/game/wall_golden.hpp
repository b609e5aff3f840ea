#pragma once

// Loader for tests/game/data/walls_golden.txt (written by make_walls_golden.py, an independent
// Python reference): `master game kyoku honba : 136 ids` per line, '#' comments.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hydra/game/wall.hpp"

namespace hydra::game::testing {

struct GoldenWall {
  int line = 0;
  MasterSeed master;
  std::uint64_t game = 0, kyoku = 0, honba = 0;
  Wall::Tiles tiles;
};

inline std::vector<GoldenWall> load_wall_golden() {
  const std::string path = HYDRA_WALLS_GOLDEN;  // set by tests/game/CMakeLists.txt
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::vector<GoldenWall> out;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.empty() || text[0] == '#') continue;
    std::istringstream f(text);
    GoldenWall g;
    g.line = line;
    std::string colon;
    f >> g.master.value >> g.game >> g.kyoku >> g.honba >> colon;
    for (Tile& t : g.tiles) {
      int id = -1;
      f >> id;
      t = Tile(id);
    }
    std::string extra;
    EXPECT_TRUE(f && colon == ":" && !(f >> extra)) << path << ":" << line << ": malformed";
    out.push_back(g);
  }
  return out;
}

}  // namespace hydra::game::testing
