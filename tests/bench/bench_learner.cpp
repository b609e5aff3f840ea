// PPO learner throughput: Learner::update on a synthetic rollout (GAE, minibatch gathers,
// forward + backward of the PPO loss with the aux heads, gradient clipping, AdamW steps).
//
//   bench_learner [--device=cpu|cuda] [--threads=N] [--only=small|default]
//                 [--epochs=N] [--minibatches=N] [Google Benchmark flags]
//
// small = 4 blocks x 64 channels at minibatch 512 (CPU); default = 40 x 256 at minibatch 2048
// (CUDA with bf16 autocast; skipped with a message without CUDA). The rollout holds
// `minibatches` minibatches (default 2); `epochs` defaults to 1 on CPU, 3 on CUDA.
// samples/s (items_per_second) counts sample passes: rollout samples x epochs per second.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <torch/cuda.h>
#include <torch/torch.h>

#include "hydra/model/losses.hpp"
#include "hydra/ppo/learner.hpp"
#include "hydra/common/index.hpp"

using hydra::ix;

namespace {

using hydra::config::Config;

struct Options {
  std::string device = "cpu";
  int threads = 0;
  std::string only;
  int epochs = 0;  // 0: 1 on CPU, 3 on CUDA
  int minibatches = 2;
};

hydra::selfplay::Rollout synthetic_rollout(hydra::ppo::Learner& learner, int n) {
  torch::NoGradGuard no_grad;
  auto gen = at::detail::createCPUGenerator(17);
  const auto half = torch::bernoulli(torch::full({n, 85, 34}, 0.2), gen).to(torch::kHalf).contiguous();
  const auto ctx = torch::rand({n, 16}, gen);
  hydra::selfplay::Rollout r;
  const auto un = ix(n);
  r.obs.resize(un * 85 * 34);
  std::memcpy(r.obs.data(), half.data_ptr(), r.obs.size() * sizeof(std::uint16_t));
  r.context.assign(ctx.data_ptr<float>(), ctx.data_ptr<float>() + n * 16);
  for (int i = 0; i < n; ++i) {
    r.legal.push_back((std::uint64_t{1} << 14) - 1 + (std::uint64_t{1} << (20 + i % 20)));
    r.action.push_back(static_cast<std::int16_t>(i % 14));
    const bool last = i % 12 == 11 || i + 1 == n;
    r.done.push_back(last ? 1 : 0);
    r.reward.push_back(last ? static_cast<float>(i % 5) - 2.0f : 0.0f);
    for (int o = 0; o < 3; ++o) r.opp_waits.push_back(i % 3 == o ? std::uint64_t{0b1001} << (i % 20) : 0);
    r.version.push_back(0);
  }
  // Old log-probabilities and values from the learner's own network, as the actors would give.
  r.logp.assign(un, 0.0f);
  r.value.assign(un, 0.0f);
  const auto logp = learner.log_probs(r);
  r.logp.assign(logp.data_ptr<float>(), logp.data_ptr<float>() + n);
  return r;
}

void update(benchmark::State& state, Config cfg, const Options& opt) {
  const torch::Device device(opt.device);
  cfg.ppo.epochs = opt.epochs > 0 ? opt.epochs : (device.is_cuda() ? 3 : 1);
  cfg.ppo.kl_high = 1e9;  // always the full epoch count: the benchmark measures a fixed amount of work
  hydra::ppo::Learner learner(hydra::ppo::learner_config(cfg), device, hydra::game::MasterSeed{1});
  const auto rollout = synthetic_rollout(learner, cfg.ppo.minibatch * opt.minibatches);
  learner.update(rollout);  // warm-up: allocator, kernel selection
  std::int64_t passes = 0;
  double seconds = 0;
  for (auto _ : state) {
    const auto s = learner.update(rollout);
    passes += s.minibatches * cfg.ppo.minibatch;
    seconds += s.seconds;
  }
  state.SetItemsProcessed(passes);
  state.counters["minibatch"] = cfg.ppo.minibatch;
  state.counters["rollout"] = static_cast<double>(rollout.size());
  state.counters["epochs"] = cfg.ppo.epochs;
  state.counters["threads"] = at::get_num_threads();
  state.counters["update_s"] = seconds / static_cast<double>(state.iterations());
}

Options parse(int& argc, char** argv) {
  Options opt;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&](std::string_view key) { return std::string(a.substr(key.size())); };
    if (a.starts_with("--device=")) opt.device = value("--device=");
    else if (a.starts_with("--threads=")) opt.threads = std::stoi(value("--threads="));
    else if (a.starts_with("--only=")) opt.only = value("--only=");
    else if (a.starts_with("--epochs=")) opt.epochs = std::stoi(value("--epochs="));
    else if (a.starts_with("--minibatches=")) opt.minibatches = std::stoi(value("--minibatches="));
    else rest.push_back(argv[i]);
  }
  argc = static_cast<int>(rest.size());
  for (int i = 0; i < argc; ++i) argv[i] = rest[ix(i)];
  return opt;
}

}  // namespace

int main(int argc, char** argv) {
  static const Options opt = parse(argc, argv);
  if (opt.threads > 0) at::set_num_threads(opt.threads);
  const bool cuda = torch::cuda::is_available();
  if (opt.device == "cuda" && !cuda) {
    std::fprintf(stderr, "bench_learner: --device=cuda but no CUDA device is available\n");
    return 1;
  }
  Config small;
  small.model.blocks = 4;
  small.model.channels = 64;
  small.ppo.minibatch = 512;
  Config def;  // 40 x 256
  def.ppo.minibatch = 2048;
  if (opt.only.empty() || opt.only == "small")
    benchmark::RegisterBenchmark(("update/small_4x64_mb512/" + opt.device).c_str(),
                                 [small](benchmark::State& s) { update(s, small, opt); })
        ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
  if (opt.only.empty() || opt.only == "default") {
    if (opt.device == "cuda")
      benchmark::RegisterBenchmark("update/default_40x256_mb2048/cuda",
                                   [def](benchmark::State& s) { update(s, def, opt); })
          ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
    else
      std::fprintf(stderr, "bench_learner: 40x256 at minibatch 2048 runs only with --device=cuda%s\n",
                   cuda ? "" : " (no CUDA device here: skipped)");
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
