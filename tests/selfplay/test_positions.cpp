// The positions of `hydra check` and `hydra bench model|learner` (selfplay/positions.hpp): greedy
// self-play games when there are no logs, spread evenly and the same for the same seed; logs when
// a folder is named, a log that does not read skipped.

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "hydra/common/error.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/positions.hpp"

namespace hydra::selfplay {
namespace {

namespace fs = std::filesystem;

const game::TableRules& tenhou() { return game::table_rules("tenhou"); }

fs::path temp_dir(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() / ("hydra_positions_" + std::to_string(::getpid()) + "_" + tag);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

TEST(Positions, GreedySelfplayWithoutLogs) {
  ::unsetenv("HYDRA_TESTDATA");
  const Positions a = load_positions("", 20, 7, tenhou());
  EXPECT_EQ(a.samples.size(), 20u);
  EXPECT_EQ(a.samples.obs.size(), 20u * static_cast<std::size_t>(encoder::kObsSize));
  EXPECT_NE(a.source.find("greedy self-play games (seed 7)"), std::string::npos) << a.source;
  const Positions b = load_positions("", 20, 7, tenhou());
  EXPECT_EQ(a.samples.obs, b.samples.obs);
  EXPECT_EQ(a.samples.action, b.samples.action);
  EXPECT_EQ(a.source, b.source);
}

TEST(Positions, LogsOfAFolderAndABadOneSkipped) {
  const fs::path dir = temp_dir("logs");
  std::array<std::unique_ptr<game::Agent>, game::kNumSeats> bots;
  std::array<game::Agent*, game::kNumSeats> agents{};
  for (std::size_t s = 0; s < bots.size(); ++s) {
    bots[s] = make_bot("bot:greedy");
    agents[s] = bots[s].get();
  }
  data::GameLog log;
  log.names = {"a", "b", "c", "d"};
  log.events = game::play_game(tenhou(), game::game_key(game::MasterSeed{3}, 0), agents, true).events;
  data::write_mjai(dir / "a.json.gz", log);
  std::ofstream(dir / "0_bad.json") << "not a log\n";  // read first (the files are sorted), skipped
  const Positions p = load_positions(dir.string(), 10, 1, tenhou());
  EXPECT_EQ(p.samples.size(), 10u);
  EXPECT_EQ(p.source, "1 log under " + dir.string());

  const fs::path empty = temp_dir("bad");
  std::ofstream(empty / "b.json") << "not a log\n";
  EXPECT_THROW(load_positions(empty.string(), 10, 1, tenhou()), Error);
  fs::remove_all(dir);
  fs::remove_all(empty);
}

}  // namespace
}  // namespace hydra::selfplay
