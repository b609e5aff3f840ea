// The duplicate arena: reports reproduce exactly (same seed, any thread count), each seed's four
// games put the challenger in every seat over the same walls, and greedy beats random.

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include "hydra/common/error.hpp"
#include "hydra/selfplay/duplicate.hpp"
#include "hydra/selfplay/eval_report.hpp"
#include "one_game.hpp"

namespace hydra::selfplay {
namespace {

// A folder of its own for one test, removed after it.
class Scratch {
 public:
  explicit Scratch(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("hydra_arena_" + std::to_string(::getpid()) + "_" + name)) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::vector<std::string> read_lines(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Writes `lines`, each with its newline, then `tail` without one.
void write_lines(const std::filesystem::path& file, const std::vector<std::string>& lines, const std::string& tail = "") {
  std::ofstream out(file, std::ios::trunc);
  for (const std::string& l : lines) out << l << "\n";
  out << tail;
}

EvalOptions small(std::uint64_t seeds) {
  EvalOptions o;
  o.challenger = "bot:greedy";
  o.champion = "bot:random";
  o.seeds = seeds;
  o.master = game::MasterSeed{20260501};
  return o;
}

TEST(Arena, SameSeedSameReportAnyThreadCount) {
  const EvalOptions o = small(3);
  const std::string first = report_json(o, run_eval(o)).dump();
  EXPECT_EQ(report_json(o, run_eval(o)).dump(), first);
  {
    const oneapi::tbb::global_control one(oneapi::tbb::global_control::max_allowed_parallelism, 1);
    EXPECT_EQ(report_json(o, run_eval(o)).dump(), first);
  }
  EXPECT_EQ(report_table(o, run_eval(o)), report_table(o, run_eval(o)));
}

TEST(Arena, DuplicateSeatsAndGreedyBeatsRandom) {
  const EvalOptions o = small(3);
  const EvalResult r = run_eval(o);
  ASSERT_EQ(r.seeds.size(), 3u);
  EXPECT_EQ(r.games, 12u);
  double rank_sum = 0;
  for (std::size_t i = 0; i < r.seeds.size(); ++i) {
    // The same games played one at a time, one decision at a time.
    EXPECT_EQ(testing::play_seed_one_by_one(o, i).games, r.seeds[i].games);
    for (std::size_t c = 0; c < 4; ++c) {
      std::array<bool, 4> seen{};
      for (const SeatGame& g : r.seeds[i].games[c]) seen[static_cast<std::size_t>(g.rank - 1)] = true;
      EXPECT_EQ(seen, (std::array<bool, 4>{true, true, true, true}));
      rank_sum += r.seeds[i].games[c][c].rank;
    }
  }
  EXPECT_LT(rank_sum / 12, 2.0);
}

TEST(Arena, SequentialStopsOnAClearDifference) {
  EvalOptions o = small(12);
  o.sequential = {true, 4, 0};
  const EvalResult r = run_eval(o);
  EXPECT_EQ(r.sequential.max_looks, 3);
  // Greedy against random settles at the first look (4 seeds) or the second.
  EXPECT_TRUE(r.sequential.stopped_early);
  EXPECT_EQ(r.sequential.reason, "difference");
  EXPECT_LT(r.seeds.size(), 12u);
  EXPECT_EQ(r.seeds.size() % 4, 0u);
  EXPECT_LT(r.sequential.last.hi, 0);
}

// A part of a long evaluation (first_seed) plays the whole run's seeds: the same four games per
// seed as the whole run and as the games played one by one, numbered as in the whole run.
TEST(Arena, APartPlaysTheWholeRunsSeeds) {
  const EvalOptions whole = small(5);
  const EvalResult all = run_eval(whole);
  EvalOptions part = small(2);
  part.first_seed = 3;
  const EvalResult r = run_eval(part);
  ASSERT_EQ(r.seeds.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.seeds[i].seed, 3 + i);
    EXPECT_EQ(r.seeds[i].games, all.seeds[3 + i].games) << "seed " << 3 + i;
    EXPECT_EQ(r.seeds[i].games, testing::play_seed_one_by_one(part, 3 + i).games) << "seed " << 3 + i;
  }
  const auto report = report_json(part, r);
  EXPECT_EQ(report["first_seed"], 3);
  EXPECT_EQ(report["per_seed"]["seed"], (nlohmann::ordered_json{3, 4}));
}

// A journal keeps every finished seed: a run stopped part way (here: a run of the first three
// seeds) and continued with the same journal reads those back, plays only the rest, and reports
// what the whole run reports, byte for byte, at any thread count.
TEST(Arena, AJournalContinuesAStoppedRunToTheWholeRunsReport) {
  const Scratch dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const auto file = dir.path() / "journal.jsonl";
  const EvalOptions whole = small(5);
  const std::string want = report_json(whole, run_eval(whole)).dump();
  EvalOptions o = small(3);
  o.journal = file;
  EXPECT_EQ(run_eval(o).seeds_from_journal, 0u);
  EXPECT_EQ(read_lines(file).size(), 1u + 3u);  // the header and three seeds
  o.seeds = 5;
  {
    const oneapi::tbb::global_control one(oneapi::tbb::global_control::max_allowed_parallelism, 1);
    const EvalResult r = run_eval(o);
    EXPECT_EQ(r.seeds_from_journal, 3u);
    EXPECT_EQ(report_json(o, r).dump(), want);
  }
  EXPECT_EQ(read_lines(file).size(), 1u + 5u);
  const EvalResult again = run_eval(o);  // nothing left to play
  EXPECT_EQ(again.seeds_from_journal, 5u);
  EXPECT_EQ(report_json(o, again).dump(), want);
  EXPECT_EQ(again.kyoku, run_eval(whole).kyoku);
  EXPECT_EQ(again.decisions, run_eval(whole).decisions);
}

// What is read back is what the journal holds: a seed's line edited by hand changes the report.
TEST(Arena, AJournalsSeedsAreReadBackNotPlayedAgain) {
  const Scratch dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const auto file = dir.path() / "journal.jsonl";
  EvalOptions o = small(2);
  o.journal = file;
  const EvalResult played = run_eval(o);
  auto lines = read_lines(file);
  ASSERT_EQ(lines.size(), 3u);
  // Seed 0's game with the challenger at seat 0: swap the challenger's rank with the seat ranked 1
  // or 4, so its average rank moves.
  auto j = nlohmann::json::parse(lines[1]);
  const int seed = j["seed"].get<int>();
  auto& seats = j["games"][0];
  const int mine = seats[0][0].get<int>();
  const int other = mine == 1 ? 4 : 1;
  for (auto& seat : seats)
    if (seat[0] == other) seat[0] = mine;
  seats[0][0] = other;
  lines[1] = j.dump();
  write_lines(file, lines);
  const EvalResult r = run_eval(o);
  EXPECT_EQ(r.seeds_from_journal, 2u);
  const auto& s = r.seeds[static_cast<std::size_t>(seed)];
  EXPECT_EQ(s.games[0][0].rank, other);
  EXPECT_NE(report_json(o, r).dump(), report_json(o, played).dump());
}

TEST(Arena, AJournalsTornLastLineIsDroppedAndItsSeedPlayedAgain) {
  const Scratch dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const auto file = dir.path() / "journal.jsonl";
  EvalOptions o = small(3);
  o.journal = file;
  const std::string want = report_json(o, run_eval(o)).dump();
  auto lines = read_lines(file);
  ASSERT_EQ(lines.size(), 4u);
  // A kill in the middle of the last seed's line: half of it, no newline.
  const std::string torn = lines.back().substr(0, lines.back().size() / 2);
  lines.pop_back();
  write_lines(file, lines, torn);
  const EvalResult r = run_eval(o);
  EXPECT_EQ(r.seeds_from_journal, 2u);
  EXPECT_EQ(report_json(o, r).dump(), want);
  EXPECT_EQ(read_lines(file).size(), 4u);  // the torn line gone, the seed written whole
}

TEST(Arena, AJournalOfAnotherRunOrBrokenIsAnErrorNamingFileLineAndField) {
  const Scratch dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  const auto file = dir.path() / "journal.jsonl";
  EvalOptions o = small(2);
  o.journal = file;
  (void)run_eval(o);
  const auto lines = read_lines(file);
  auto expect_error = [&](EvalOptions bad, const std::string& part) {
    try {
      (void)run_eval(bad);
      ADD_FAILURE() << "no error, expected one with: " << part;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  EvalOptions other = o;
  other.champion = "bot:tsumogiri";
  expect_error(other, file.string() + ":1: field 'run.champion': the journal is of another run (\"bot:random\"");
  other = o;
  other.master = game::MasterSeed{1};
  expect_error(other, ":1: field 'run.seed'");
  other = o;
  other.play = "sampled at T=1";
  expect_error(other, ":1: field 'run.play'");
  auto j = nlohmann::json::parse(lines[2]);
  j["games"][3][1][0] = 7;
  write_lines(file, {lines[0], lines[1], j.dump(), lines[1]});
  expect_error(o, file.string() + ":3: field 'games[3][1].rank': must be from 1 to 4, got 7");
  write_lines(file, {lines[0], lines[1], "{\"seed\": 1, \"kyoku\": 3}", lines[2]});
  expect_error(o, ":3: field 'decisions': missing");
  write_lines(file, {lines[0], lines[1], lines[1]});
  expect_error(o, ":3: field 'seed': seed " + std::to_string(nlohmann::json::parse(lines[1])["seed"].get<int>()) +
                      " is twice in the journal");
  write_lines(file, {"not json", lines[1]});
  expect_error(o, ":1: not a journal of hydra eval");
  write_lines(file, {"{\"a\": 1}"});
  expect_error(o, ":1: not a journal of hydra eval (no \"journal\"");
}

TEST(Arena, BadOptions) {
  EvalOptions o = small(0);
  EXPECT_THROW((void)run_eval(o), Error);
  o = small(1);
  o.champion = "bot:unknown";
  EXPECT_THROW((void)run_eval(o), Error);
  o = small(2);
  o.first_seed = std::numeric_limits<std::uint64_t>::max() - 1;
  EXPECT_THROW((void)run_eval(o), Error);
}

}  // namespace
}  // namespace hydra::selfplay
