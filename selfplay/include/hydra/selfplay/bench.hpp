#pragma once

// The measurements behind `hydra bench engine | encoder`: the self-play hot path on one core, the
// table with its agents and the observation encoder. Single thread, fixed seed; times are thread
// CPU time (what one core delivers on a shared machine) with wall time next to it. The command
// (apps/bench_play.cpp) prints them; measured, never asserted.

#include <cstddef>
#include <cstdint>

namespace hydra::selfplay {

struct EngineRate {
  std::int64_t games = 0, kyoku = 0, decisions = 0;
  double cpu_s = 0, wall_s = 0;
};

// Whole hanchan (tenhou preset) between four random legal agents, events not recorded (as in
// training), after one warm-up game, until `seconds` of CPU time have passed; game i plays the
// walls of game key i of `seed`.
EngineRate bench_engine(double seconds, std::uint64_t seed);

struct PerItem {
  std::int64_t items = 0;
  double cpu_s = 0, wall_s = 0;
  double ns() const { return cpu_s * 1e9 / static_cast<double>(items); }
};

struct EncoderRate {
  PerItem full;                  // a full encode from scratch at any decision point
  PerItem incremental;           // the incremental update after another seat's discard
  std::size_t any_points = 0;    // decision points of the full encodes
  std::size_t after_points = 0;  // and of the incremental ones
};

// The 85x34 observation at decision points of seeded random games (encoder::decision_points, as
// in the Google Benchmark tests/bench/bench_encoder.cpp), each in rounds over its points until
// `seconds` of CPU time have passed. Throws hydra::Error when the games give no decision points.
EncoderRate bench_encoder(double seconds);

}  // namespace hydra::selfplay
