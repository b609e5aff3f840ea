// Log reading throughput on the 34 real gimite mjai games (~36k events), single thread.
// items_per_second is events (lines) per second; the stages are measured apart:
//   Gunzip     - zlib inflate + line splitting (LineReader over the .json.gz files)
//   ParseJson  - JSON line -> typed Event (parse_mjai_line over lines already in memory)
//   ReadMjai   - the whole read: gunzip + parse + normalise (read_mjai)
//   TenhouXml  - Tenhou mjlog XML -> normalised events (read_tenhou_xml)
// Needs HYDRA_TESTDATA (the shared data folder).
//   build/bench/bench_logs [--benchmark_filter=...]

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "hydra/data/mjai.hpp"
#include "hydra/data/tenhou.hpp"
#include "hydra/data/text_file.hpp"
#include "testdata.hpp"

namespace {

namespace fs = std::filesystem;
using namespace hydra::data;

std::vector<fs::path> files_in(const char* sub) {
  const auto root = hydra::testing::testdata_dir();
  if (!root) {
    std::fprintf(stderr, "bench_logs: HYDRA_TESTDATA is not set\n");
    std::exit(2);
  }
  std::vector<fs::path> files;
  for (const auto& f : fs::directory_iterator(*root / sub)) files.push_back(f.path());
  std::sort(files.begin(), files.end());
  return files;
}

const std::vector<fs::path>& mjai_files() {
  static const auto files = files_in("mjai");
  return files;
}

void BM_Gunzip(benchmark::State& state) {
  std::int64_t lines = 0, bytes = 0;
  for (auto _ : state) {
    for (const auto& f : mjai_files()) {
      LineReader reader(f);
      std::string_view line;
      while (reader.next(line)) {
        ++lines;
        bytes += static_cast<std::int64_t>(line.size()) + 1;
      }
    }
  }
  state.SetItemsProcessed(lines);
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_Gunzip)->Unit(benchmark::kMillisecond);

void BM_ParseJson(benchmark::State& state) {
  std::vector<std::string> lines;
  for (const auto& f : mjai_files()) {
    LineReader reader(f);
    std::string_view line;
    while (reader.next(line)) lines.emplace_back(line);
  }
  std::int64_t events = 0;
  for (auto _ : state) {
    for (const auto& l : lines) benchmark::DoNotOptimize(parse_mjai_line(l));
    events += static_cast<std::int64_t>(lines.size());
  }
  state.SetItemsProcessed(events);
}
BENCHMARK(BM_ParseJson)->Unit(benchmark::kMillisecond);

void BM_ReadMjai(benchmark::State& state) {
  std::int64_t events = 0;
  for (auto _ : state)
    for (const auto& f : mjai_files()) events += static_cast<std::int64_t>(read_mjai(f).events.size());
  state.SetItemsProcessed(events);
}
BENCHMARK(BM_ReadMjai)->Unit(benchmark::kMillisecond);

void BM_TenhouXml(benchmark::State& state) {
  const auto files = files_in("tenhou_xml");
  std::int64_t events = 0;
  for (auto _ : state)
    for (const auto& f : files) events += static_cast<std::int64_t>(read_tenhou_xml(f).events.size());
  state.SetItemsProcessed(events);
}
BENCHMARK(BM_TenhouXml)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
