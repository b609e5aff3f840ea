// hydra bench model | learner | selfplay | pretrain: throughput of the network, the PPO update,
// self-play and behaviour cloning on a device (apps/torch/bench_report.cpp measures; docs/GPU.md reads the numbers).

#include <memory>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "torch_side.hpp"

namespace hydra::apps {

void register_bench_device(CLI::App& bench) {
  auto* model = bench.add_subcommand("model", "Network forward samples/s per batch size on a device");
  auto fm = std::make_shared<BenchModelFlags>();
  fm->model.add_to(*model);
  model->add_option("--batch-sizes", fm->batch_sizes, "comma-separated batch sizes (default 1,16,64,256,1024 on CUDA, up to 256 on CPU)")
      ->delimiter(',')
      ->check(integer_in(1, 65536));
  model->add_option("--seconds", fm->seconds, "seconds per batch size")->check(number_in(0.01, 3600.0))->capture_default_str();
  model->callback([fm] { torch_side::load().bench_model(*fm); });

  auto* learner = bench.add_subcommand("learner", "PPO update samples/s, FLOPs per sample and share of the device's peak");
  auto fl = std::make_shared<BenchLearnerFlags>();
  fl->model.add_to(*learner);
  learner->add_option("--samples", fl->samples, "rollout size (default: 2 minibatches, at most ppo.rollout_samples)")
      ->check(integer_in(1, 100000000));
  learner->add_option("--seconds", fl->seconds, "seconds of updates after one warm-up update (at least one)")
      ->check(number_in(0.0, 3600.0))
      ->capture_default_str();
  learner->add_option("--peak-tflops", fl->peak_tflops, "the device's peak TFLOP/s (known for H100, H200, A100)")
      ->check(number_in(0.0, 1e6, /*lo_open=*/true));
  learner->add_option("--profile", fl->profile,
                      "after the timed updates, profile one more (kernels by time and kind, how busy the device was) "
                      "and write its Chrome trace to this file");
  learner->add_option("--played-share", fl->played_share,
                      "with ppo.policy_gradient = expected: the share of the rollout's decisions with actions played "
                      "out, the others carrying none (ppo.unplayed_share thins those)")
      ->check(number_in(0.0, 1.0))
      ->capture_default_str();
  learner->callback([fl] { torch_side::load().bench_learner(*fl); });

  auto* sp = bench.add_subcommand("selfplay", "Self-play games per hour with the config's model and opponents, and the time split");
  auto fs = std::make_shared<BenchSelfplayFlags>();
  fs->model.add_to(*sp);
  sp->add_option("--seconds", fs->seconds, "play collects until this many seconds have passed (at least one)")
      ->check(number_in(0.0, 86400.0))
      ->capture_default_str();
  sp->callback([fs] { torch_side::load().bench_selfplay(*fs); });

  auto* pt = bench.add_subcommand("pretrain", "Behaviour cloning: samples/s of the data pipeline and of the learner, and their ratio");
  auto fp = std::make_shared<BenchPretrainFlags>();
  fp->model.add_to(*pt);
  pt->add_option("--data", fp->data, "log folders, files or globs (replace pretrain.data)");
  pt->add_option("--seconds", fp->seconds, "seconds of each phase (pipeline, then learner)")
      ->check(number_in(0.0, 86400.0))
      ->capture_default_str();
  pt->callback([fp] { torch_side::load().bench_pretrain(*fp); });
}

}  // namespace hydra::apps
