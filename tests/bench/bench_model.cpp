// Forward + backward samples/s of the SE-ResNet with the full weighted loss (what one training
// step costs, optimizer excluded). scripts/bench_model.py runs the same architecture in Python
// PyTorch and prints both side by side.
//
//   bench_model [--device=cpu|cuda] [--bf16] [--threads=N] [--only=small|default]
//               [--batch-small=N] [--batch-default=N] [Google Benchmark flags]
//
// Defaults: CPU, fp32, small = 4 blocks x 64 channels at batch 256, default = 40 x 256 at batch
// 32 (CPU) or 2048 (CUDA, bf16 autocast as in training).

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <torch/cuda.h>
#include <torch/torch.h>

#include "hydra/model/losses.hpp"
#include "hydra/model/network.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/common/index.hpp"

using hydra::ix;

namespace {

using namespace hydra::model;

struct Options {
  std::string device = "cpu";
  bool bf16 = false;
  int threads = 0;
  std::string only;
  int batch_small = 256;
  int batch_default = 0;  // 0: 32 on CPU, 2048 on CUDA
};

void fwd_bwd(benchmark::State& state, hydra::config::ModelConfig cfg, int batch, const Options& opt) {
  const torch::Device device(opt.device);
  torch::manual_seed(1);
  HydraNet net(cfg);
  net->to(device);
  const auto f = torch::TensorOptions().device(device);
  const auto obs = torch::bernoulli(torch::full({batch, kObsChannels, kTiles}, 0.3, f));
  const auto ctx = torch::rand({batch, kScoreContext}, f);
  Targets t;
  t.legal = torch::rand({batch, kActions}, f) < 0.4;
  t.legal.select(1, 0).fill_(true);
  t.action = torch::zeros({batch}, f.dtype(torch::kLong));
  t.value = torch::randn({batch}, f);
  t.grp = torch::randint(kRankPerms, {batch}, f.dtype(torch::kLong));
  t.tenpai = torch::bernoulli(torch::full({batch, kOpponents}, 0.3, f));
  t.danger = torch::bernoulli(torch::full({batch, kOpponents, kTiles}, 0.1, f));
  const auto step = [&] {
    net->zero_grad();
    Outputs out;
    {
      AutocastGuard autocast(device.type(), opt.bf16);
      out = net->forward(obs, ctx);
    }
    compute_losses(out.to_float(), t, cfg).total.backward();
    if (device.is_cuda()) torch::cuda::synchronize();
  };
  step();  // warm-up: allocator, kernel selection
  for (auto _ : state) step();
  state.SetItemsProcessed(state.iterations() * batch);
  state.counters["batch"] = batch;
  state.counters["threads"] = at::get_num_threads();
}

Options parse(int& argc, char** argv) {
  Options opt;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&](std::string_view key) { return std::string(a.substr(key.size())); };
    if (a.starts_with("--device=")) opt.device = value("--device=");
    else if (a == "--bf16") opt.bf16 = true;
    else if (a.starts_with("--threads=")) opt.threads = std::stoi(value("--threads="));
    else if (a.starts_with("--only=")) opt.only = value("--only=");
    else if (a.starts_with("--batch-small=")) opt.batch_small = std::stoi(value("--batch-small="));
    else if (a.starts_with("--batch-default=")) opt.batch_default = std::stoi(value("--batch-default="));
    else rest.push_back(argv[i]);
  }
  argc = static_cast<int>(rest.size());
  for (int i = 0; i < argc; ++i) argv[i] = rest[ix(i)];
  if (opt.batch_default == 0) opt.batch_default = opt.device == "cuda" ? 2048 : 32;
  return opt;
}

}  // namespace

int main(int argc, char** argv) {
  static const Options opt = parse(argc, argv);
  if (opt.device == "cuda" && !torch::cuda::is_available()) {
    std::fprintf(stderr, "bench_model: --device=cuda but no CUDA device is available\n");
    return 1;
  }
  if (opt.threads > 0) at::set_num_threads(opt.threads);
  hydra::config::ModelConfig small;
  small.blocks = 4;
  small.channels = 64;
  const hydra::config::ModelConfig def;  // 40 x 256
  const std::string suffix = "/" + opt.device + (opt.bf16 ? "_bf16" : "_fp32");
  if (opt.only.empty() || opt.only == "small")
    benchmark::RegisterBenchmark(("fwd_bwd/small_4x64" + suffix).c_str(),
                                 [small](benchmark::State& s) { fwd_bwd(s, small, opt.batch_small, opt); })
        ->Unit(benchmark::kMillisecond)->UseRealTime();
  if (opt.only.empty() || opt.only == "default")
    benchmark::RegisterBenchmark(("fwd_bwd/default_40x256" + suffix).c_str(),
                                 [def](benchmark::State& s) { fwd_bwd(s, def, opt.batch_default, opt); })
        ->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
