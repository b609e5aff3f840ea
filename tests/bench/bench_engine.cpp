// Engine speed on one core: whole random-agent games (hanchan under the tenhou preset) per second
// and the time per decision. Measured, never asserted. Events are not recorded (as in training);
// BM_RandomHanchanRecorded keeps them, as self-play that writes logs does.

#include <benchmark/benchmark.h>

#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"

namespace hydra::game {
namespace {

void run(benchmark::State& state, const char* rules_name, bool record) {
  const TableRules& rules = table_rules(rules_name);
  std::array<RandomAgent, kNumSeats> a;
  std::uint64_t g = 0;
  std::int64_t decisions = 0, kyoku = 0;
  for (auto _ : state) {
    const GameResult r = play_game(rules, game_key(MasterSeed{2026}, g++), {&a[0], &a[1], &a[2], &a[3]}, record);
    decisions += r.decisions;
    kyoku += r.kyoku;
    benchmark::DoNotOptimize(r.final_scores);
  }
  state.counters["games/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["decisions/s"] = benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  state.counters["ns/decision"] = benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate |
                                                                                         benchmark::Counter::kInvert);
  state.counters["kyoku/game"] = static_cast<double>(kyoku) / static_cast<double>(state.iterations());
}

void BM_RandomHanchan(benchmark::State& state) { run(state, "tenhou", false); }
void BM_RandomHanchanRecorded(benchmark::State& state) { run(state, "tenhou", true); }
void BM_RandomKyoku(benchmark::State& state) { run(state, "tenhou-kyoku", false); }
BENCHMARK(BM_RandomHanchan)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_RandomHanchanRecorded)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_RandomKyoku)->Unit(benchmark::kMicrosecond)->MinTime(1.0);

}  // namespace
}  // namespace hydra::game

BENCHMARK_MAIN();
