// Shanten throughput on the ara_p normal set (10,000 real-shaped 14-tile hands), single thread.
// items_per_second is hands/s. Needs HYDRA_TESTDATA (the shared data folder).
//   build/bench/bench_shanten [--benchmark_filter=...]

#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hydra/game/shanten.hpp"
#include "testdata.hpp"
#include "hydra/common/index.hpp"

using hydra::ix;

namespace {

using hydra::game::TileCounts;

std::vector<TileCounts> load_normal_set() {
  const auto root = hydra::testing::testdata_dir();
  if (!root) {
    std::fprintf(stderr, "bench_shanten: HYDRA_TESTDATA is not set\n");
    std::exit(2);
  }
  const auto path = *root / "shanten/ara_p_normal_10000.txt";
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "bench_shanten: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::vector<TileCounts> hands;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    TileCounts c{};
    for (int i = 0; i < 14; ++i) {
      int t = 0;
      f >> t;
      ++c[ix(t)];
    }
    hands.push_back(c);
  }
  return hands;
}

const std::vector<TileCounts>& hands() {
  static const std::vector<TileCounts> h = load_normal_set();
  return h;
}

// The first call builds the shape tables: report how long that takes, once, as wall time and
// as this process's CPU time (the honest number on a shared, busy machine).
void BM_TableBuild(benchmark::State& state) {
  struct Took {
    double wall_s, cpu_s;
  };
  Took took{};
  for (auto _ : state) {
    static const Took once = [] {
      const auto t0 = std::chrono::steady_clock::now();
      const std::clock_t c0 = std::clock();
      benchmark::DoNotOptimize(hydra::game::shanten_normal(hands().front()));
      return Took{std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC};
    }();
    took = once;
  }
  state.counters["build_ms"] = took.wall_s * 1e3;
  state.counters["build_cpu_ms"] = took.cpu_s * 1e3;
}
BENCHMARK(BM_TableBuild)->Iterations(1);

template <class F>
void run_over_set(benchmark::State& state, F f) {
  const auto& h = hands();
  f(h.front());  // tables built outside the timed loop
  for (auto _ : state)
    for (const TileCounts& c : h) benchmark::DoNotOptimize(f(c));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(h.size()));
}

void BM_ShantenNormal(benchmark::State& state) {
  run_over_set(state, [](const TileCounts& c) { return hydra::game::shanten_normal(c); });
}
BENCHMARK(BM_ShantenNormal);

void BM_ShantenAll(benchmark::State& state) {
  run_over_set(state, [](const TileCounts& c) { return hydra::game::shanten_all(c).best(); });
}
BENCHMARK(BM_ShantenAll);

void BM_DiscardShanten(benchmark::State& state) {
  run_over_set(state, [](const TileCounts& c) { return hydra::game::discard_shanten(c).best; });
}
BENCHMARK(BM_DiscardShanten);

}  // namespace

BENCHMARK_MAIN();
