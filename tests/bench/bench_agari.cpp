// Full agari scoring throughput (decomposition, yaku, fu, points, payments) on kobalab's 5,000
// majiang-core winning hands, single thread; items_per_second is scorings/s. The cases are parsed
// once, outside the timed loop. Needs HYDRA_TESTDATA (the shared data folder).
//   build/bench/bench_agari [--benchmark_filter=...]

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "hydra/game/agari.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/score.hpp"
#include "hydra/game/score_check.hpp"
#include "testdata.hpp"

namespace {

using namespace hydra::game;

const std::vector<MajiangCase>& cases() {
  static const std::vector<MajiangCase> c = [] {
    const auto root = hydra::testing::testdata_dir();
    if (!root) {
      std::fprintf(stderr, "bench_agari: HYDRA_TESTDATA is not set\n");
      std::exit(2);
    }
    return load_majiang_cases(*root / "scoring/majiang_core_hule_5000.json");
  }();
  return c;
}

void BM_ScoreWin(benchmark::State& state) {
  const auto& cs = cases();
  const ScoringRules& rules = rules_preset("tenhou").scoring;
  for (auto _ : state) {
    for (const auto& c : cs) benchmark::DoNotOptimize(score_win(c.hand, c.ctx, rules));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * cs.size()));
}
BENCHMARK(BM_ScoreWin)->Unit(benchmark::kMillisecond);

void BM_IsAgari(benchmark::State& state) {
  const auto& cs = cases();
  for (auto _ : state) {
    for (const auto& c : cs) benchmark::DoNotOptimize(is_agari(c.hand.closed));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * cs.size()));
}
BENCHMARK(BM_IsAgari)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
