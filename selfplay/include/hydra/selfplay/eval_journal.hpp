#pragma once

// The journal of a 1v3 duplicate (`hydra eval --journal FILE`, docs/EVAL.md "A journal of the
// seeds played"): what a long evaluation has finished, kept as it finishes, so that a run stopped
// part way (Ctrl-C, kill -9, a machine going down) loses nothing it played and the same command
// continues where it stopped.
//
// The file is JSON lines. The first names the run: {"journal": "hydra eval", "run": {...}} with
// the challenger, the champion, the rules, the master seed and whatever else the caller says
// decides the games (the play mode); a run with another identity refuses the file instead of
// mixing two runs' games. Every further line is one wall seed whose four games all ended and
// none was void, written and flushed the moment its last game ends:
//   {"seed": i, "kyoku": K, "decisions": D, "games": [[seat0, seat1, seat2, seat3] x 4]}
// with games[c] the game with the challenger at seat c and each seat a SeatGame as an array in the
// order of the header's "seat_game_fields". A seed's games depend only on the master seed, the
// seed and the agents, so a seed read back is the seed played again. A torn last line (a kill
// mid-write) is dropped when the journal is opened; any other unreadable line is an error naming
// the file, the line and the field.

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

#include "hydra/selfplay/eval_stats.hpp"

namespace hydra::selfplay {

// One finished seed as the journal keeps it.
struct JournalSeed {
  SeedGames games;
  long kyoku = 0, decisions = 0;
};

class EvalJournal {
 public:
  // Opens `file` (creating it and its folder), reads the seeds an earlier run of the same
  // identity wrote, and keeps it open for appending.
  EvalJournal(const std::filesystem::path& file, const nlohmann::ordered_json& run);

  // The seeds read when it was opened, by seed index.
  const std::map<std::uint64_t, JournalSeed>& finished() const { return finished_; }
  // Appends one finished seed and flushes it; safe from several threads.
  void write(const JournalSeed& seed);

 private:
  std::filesystem::path file_;
  std::map<std::uint64_t, JournalSeed> finished_;
  std::ofstream out_;
  std::mutex mutex_;
};

}  // namespace hydra::selfplay
