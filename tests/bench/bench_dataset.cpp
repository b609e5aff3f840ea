// Pretraining data throughput on the 34 real gimite mjai games (.json.gz), from files to ready
// batches. items_per_second is samples per second.
//   Stream/T   - Dataset::next over the games in repeat, batches of 256, shuffle buffer 4096,
//                suit augmentation on, T worker threads (wall time). Counters: the share of the
//                decode CPU time spent in gunzip, JSON parsing, replay and encoding
//                (DatasetReport).
//   Extract    - extract_samples alone on games already in memory, one thread.
//   ReadGame   - read_game alone (gunzip + parse + normalise), one thread; items are games.
// Needs HYDRA_TESTDATA (the shared data folder).
//   build/bench/bench_dataset [--benchmark_filter=...]

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <oneapi/tbb/global_control.h>

#include "hydra/data/convert.hpp"
#include "hydra/data/dataset.hpp"
#include "testdata.hpp"

namespace {

namespace fs = std::filesystem;
using namespace hydra::data;

fs::path mjai_dir() {
  const auto root = hydra::testing::testdata_dir();
  if (!root) {
    std::fprintf(stderr, "bench_dataset: HYDRA_TESTDATA is not set\n");
    std::exit(2);
  }
  return *root / "mjai";
}

void BM_Stream(benchmark::State& state) {
  const auto threads = static_cast<std::size_t>(state.range(0));
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  DatasetOptions o;
  o.inputs = {mjai_dir().string()};
  o.val_fraction = 0;
  o.seed = hydra::game::MasterSeed{1};
  o.shuffle_buffer = 4096;
  o.files_in_flight = static_cast<int>(2 * threads);
  Dataset d(o);
  SampleBatch b;
  std::int64_t samples = 0;
  for (auto _ : state) samples += static_cast<std::int64_t>(d.next(b, 256));
  state.SetItemsProcessed(samples);
  const DatasetReport r = d.report();
  const double total = r.seconds_gunzip + r.seconds_parse + r.seconds_replay + r.seconds_encode;
  if (total > 0) {
    state.counters["gunzip"] = r.seconds_gunzip / total;
    state.counters["parse"] = r.seconds_parse / total;
    state.counters["replay"] = r.seconds_replay / total;
    state.counters["encode"] = r.seconds_encode / total;
  }

}
BENCHMARK(BM_Stream)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Extract(benchmark::State& state) {
  std::vector<GameLog> games;
  for (const auto& f : collect_log_files({mjai_dir()})) games.push_back(read_log(f));
  SampleBatch b;
  std::int64_t samples = 0;
  for (auto _ : state) {
    for (const GameLog& g : games) {
      b.clear();
      extract_samples(g, "bench", b);
      samples += static_cast<std::int64_t>(b.size());
    }
  }
  state.SetItemsProcessed(samples);
}
BENCHMARK(BM_Extract)->Unit(benchmark::kMillisecond);

void BM_ReadGame(benchmark::State& state) {
  const auto files = collect_log_files({mjai_dir()});
  std::int64_t games = 0;
  double gunzip = 0, parse = 0;
  for (auto _ : state) {
    for (const auto& f : files) {
      benchmark::DoNotOptimize(read_game(f, &gunzip, &parse));
      ++games;
    }
  }
  state.SetItemsProcessed(games);
  state.counters["gunzip"] = gunzip / (gunzip + parse);
  state.counters["parse"] = parse / (gunzip + parse);
}
BENCHMARK(BM_ReadGame)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
