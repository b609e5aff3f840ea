#include "hydra/pretrain/bench.hpp"

#include <chrono>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/log.hpp"
#include "hydra/pretrain/bc.hpp"

namespace hydra::pretrain {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace

PretrainRate bench_pretrain(const config::Config& cfg, const torch::Device& device, std::uint64_t seed, double seconds) {
  if (cfg.pretrain.data.empty()) throw Error("bench pretrain: no logs: give --data DIR or a config with pretrain.data");
  const auto batch = ix(cfg.pretrain.batch);
  PretrainRate rate;

  data::Dataset stream(dataset_options(cfg, game::MasterSeed{seed}, false));
  rate.files = stream.files().size();
  log::info("bench pretrain: {} training files; filling the shuffle buffer ({} samples)", rate.files,
            cfg.pretrain.shuffle_buffer);
  constexpr std::size_t kKept = 8;  // batches the learner phase cycles through
  std::vector<data::SampleBatch> kept(1);
  if (stream.next(kept[0], batch) == 0) throw Error("bench pretrain: the logs hold no decision");
  const auto t0 = Clock::now();
  data::SampleBatch b;
  do {
    const auto n = stream.next(b, batch);
    rate.pipeline_samples += static_cast<std::int64_t>(n);
    if (kept.size() < kKept) kept.push_back(b);
  } while (since(t0) < seconds);
  rate.pipeline_seconds = since(t0);
  rate.report = stream.report();
  log::info("bench pretrain: pipeline {:.0f} samples/s; learner next", rate.pipeline_per_s());

  BcLearner learner(cfg.model, cfg.pretrain, device, /*total_steps=*/1000000, seed);
  (void)learner.step(kept[0]);
  const auto t1 = Clock::now();
  do {
    const auto& x = kept[ix(rate.steps) % kept.size()];
    (void)learner.step(x);  // reads its losses back: a sync per step, as in training
    rate.learner_samples += static_cast<std::int64_t>(x.size());
    ++rate.steps;
  } while (since(t1) < seconds);
  rate.learner_seconds = since(t1);
  return rate;
}

}  // namespace hydra::pretrain
