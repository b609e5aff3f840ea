// Self-play throughput of the lock-step actors (docs/SELFPLAY.md): decisions/s of whole
// collects, split into engine, encode and inference time.
//
//   bench_selfplay [--threads=N] [--games=N] [--torch-threads=N] [Google Benchmark flags]
//
// BM_SelfplayQuickstart: the quickstart model (4 blocks x 64 channels, random init) on the CPU
// with the quickstart opponent mix (configs/quickstart.json: 16 games, 20% self, 10% pool,
// 70% bot:random), hanchan. BM_SelfplayTestPolicy: the same games with the torch-free linear
// test policy, i.e. what the engine and encoder cost without the network. One iteration = one
// collect(500): every slot starts a game, and all of them play to the end. Counters: decisions/s (all seats), network decisions/s, and
// engine / encode / inference microseconds per network decision (engine and encode are summed
// over worker threads; inference is the inference thread's time inside evaluate()).

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include <oneapi/tbb/global_control.h>
#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/model/network.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/torch/inference.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/common/index.hpp"

namespace {

using namespace hydra;

struct Options {
  int threads = 0;        // oneTBB workers (0 = default)
  int games = 16;
  int torch_threads = 1;  // intra-op threads of the inference thread's forward passes
};
Options g_opt;

config::Config quickstart() {
  config::Config c;
  c.model.blocks = 4;
  c.model.channels = 64;
  c.rules.length = "hanchan";
  c.selfplay.games = g_opt.games;
  c.selfplay.opp_self = 0.2;
  c.selfplay.opp_pool = 0.1;
  c.selfplay.opp_baseline = 0.7;
  c.selfplay.baseline = "bot:random";
  c.selfplay.pool_size = 4;
  return c;
}

void report(benchmark::State& state, const selfplay::ActorStats& s) {
  const double net = static_cast<double>(s.network_decisions);
  state.counters["decisions/s"] = static_cast<double>(s.decisions) / s.wall_seconds;
  state.counters["net_decisions/s"] = net / s.wall_seconds;
  state.counters["engine_us"] = 1e6 * s.engine_seconds / net;
  state.counters["encode_us"] = 1e6 * s.encode_seconds / net;
  state.counters["inference_us"] = 1e6 * s.inference_seconds / net;
  state.counters["batch"] = net / static_cast<double>(s.forward_passes);
  state.counters["games"] = static_cast<double>(s.games);
}

void run(benchmark::State& state, const std::shared_ptr<selfplay::BatchPolicy>& learner,
         const std::shared_ptr<selfplay::BatchPolicy>& pool) {
  std::unique_ptr<oneapi::tbb::global_control> limit;
  if (g_opt.threads > 0)
    limit = std::make_unique<oneapi::tbb::global_control>(oneapi::tbb::global_control::max_allowed_parallelism,
                                                          ix(g_opt.threads));
  selfplay::Actors actors(selfplay::actors_config(quickstart()), game::MasterSeed{1}, learner, nullptr);
  actors.set_pool({pool});
  for (auto _ : state) {
    const selfplay::Rollout r = actors.collect(500);  // fills both groups once, then whole games
    benchmark::DoNotOptimize(r.size());
  }
  report(state, actors.take_stats());
}

void BM_SelfplayQuickstart(benchmark::State& state) {
  torch::set_num_threads(g_opt.torch_threads);
  model::HydraNet net(quickstart().model);
  net->init_weights(1);
  auto learner = std::make_shared<selfplay::InferenceModel>(*net, torch::kCPU, 1);
  auto pool = std::make_shared<selfplay::InferenceModel>(*net, torch::kCPU, 0);
  run(state, learner, pool);
}
BENCHMARK(BM_SelfplayQuickstart)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

void BM_SelfplayTestPolicy(benchmark::State& state) {
  run(state, std::make_shared<selfplay::LinearTestPolicy>(1, 1), std::make_shared<selfplay::LinearTestPolicy>(2, 0));
}
BENCHMARK(BM_SelfplayTestPolicy)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

bool parse_flag(std::string_view arg, std::string_view name, int& out) {
  if (arg.substr(0, name.size()) != name) return false;
  out = std::atoi(std::string(arg.substr(name.size())).c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (parse_flag(a, "--threads=", g_opt.threads) || parse_flag(a, "--games=", g_opt.games) ||
        parse_flag(a, "--torch-threads=", g_opt.torch_threads))
      continue;
    argv[kept++] = argv[i];
  }
  argc = kept;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
