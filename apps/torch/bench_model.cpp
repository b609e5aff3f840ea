// torch_impl::bench_model, bench_learner, bench_selfplay, bench_pretrain (torch_impl.hpp), registered in
// apps/bench_model.cpp.
//
// hydra bench model | learner | selfplay: how fast the network, the PPO update and self-play run
// on a device, to size a machine. Each takes the run config (--config, --set) and --device.
//   hydra bench model [--batch-sizes 1,16,64,256,1024] [--seconds S]
//     forward samples/s per batch size through selfplay::InferenceModel::evaluate, the call the
//     actors make (host batch in, one device copy each way, masked softmax on the host; bf16
//     autocast as the config says).
//   hydra bench learner [--samples N] [--seconds S] [--peak-tflops T]
//     ppo::Learner::update on a fixed rollout of N real positions: rollout samples/s (the
//     trainer's perf/learner_samples_per_s), trained samples/s (rollout x epochs), FLOPs per
//     trained sample from the architecture (model/flops.hpp), the achieved TFLOP/s and its share
//     of the device's bf16 peak (known for H100/H200/A100, else --peak-tflops).
//   hydra bench selfplay [--seconds S]
//     selfplay::Actors as `hydra train` builds them (the config's model, opponent mix, baseline
//     and pool, the same games for the same seed), collects of ppo.rollout_samples until S
//     seconds have passed: games per hour and where the time went (engine, encoding, inference,
//     waiting for inference).
// Short by default (seconds); --seconds lengthens. Times are wall clock: these measure the
// device and the whole machine, not one core.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/thread_limit.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/model/flops.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/model/run_context.hpp"
#include "hydra/ppo/learner.hpp"
#include "hydra/pretrain/bc.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/torch/grp_rewards.hpp"
#include "hydra/selfplay/torch/inference.hpp"
#include "../positions.hpp"
#include "torch_impl.hpp"
#include "device_run.hpp"
#include "hydra/common/index.hpp"

namespace hydra::apps {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Positions the model and learner benches feed the network: real decisions, so the legal masks
// and planes have their real sparsity (the arithmetic does not depend on it, the host side does).
constexpr std::size_t kBenchPositions = 512;

Json model_head(const config::Config& cfg, const torch::Device& device) {
  return Json{{"device", device.str()},
              {"device_name", model::device_name(device.str())},
              {"blocks", cfg.model.blocks},
              {"channels", cfg.model.channels},
              {"bf16_autocast", model::autocast_enabled(cfg.model, device.type())},
              {"forward_flops_per_sample", model::forward_flops(cfg.model).total()}};
}

void print_head(const Json& h) {
  std::printf("device %s (%s), model %dx%d, %s, %.3g GFLOP per forward sample\n", h["device"].get<std::string>().c_str(),
              h["device_name"].get<std::string>().c_str(), h["blocks"].get<int>(), h["channels"].get<int>(),
              h["bf16_autocast"].get<bool>() ? "bf16 autocast" : "fp32", h["forward_flops_per_sample"].get<double>() * 1e-9);
}


// ---- model -------------------------------------------------------------------------------

struct ModelRate {
  int batch = 0;
  std::int64_t passes = 0;
  double seconds = 0;
  double samples_per_s() const { return static_cast<double>(batch) * static_cast<double>(passes) / seconds; }
};

ModelRate time_batch(selfplay::InferenceModel& net, const data::SampleBatch& pos, int batch, double seconds) {
  // A batch of `batch` rows cycling over the positions, laid out as the actors lay theirs out.
  const auto ub = ix(batch);
  std::vector<float> obs(ub * encoder::kObsSize), ctx(ub * data::kSampleContext), probs(ub * data::kSampleActions), value(ub);
  std::vector<game::ActionMask> legal(ub);
  for (std::size_t i = 0; i < ub; ++i) {
    const std::size_t j = i % pos.size();
    std::copy_n(pos.obs.data() + j * encoder::kObsSize, encoder::kObsSize, obs.data() + i * encoder::kObsSize);
    std::copy_n(pos.context.data() + j * data::kSampleContext, data::kSampleContext, ctx.data() + i * data::kSampleContext);
    legal[i] = pos.legal_mask(j);
  }
  const selfplay::PolicyBatch in{obs.data(), ctx.data(), legal.data(), batch};
  const selfplay::PolicyOutput out{probs.data(), value.data()};
  net.evaluate(in, out);  // warm-up: allocator, kernel choice
  ModelRate r{batch};
  const auto t0 = Clock::now();
  do {
    net.evaluate(in, out);  // returns after the device->host copy: the work is done
    ++r.passes;
    r.seconds = since(t0);
  } while (r.seconds < seconds);
  return r;
}


void run_bench_model(const BenchModelFlags& f) {
  const config::Config cfg = f.model.load();
  const model::RunContext context(f.model.threads, f.model.device);
  const torch::Device device = context.device();
  std::vector<int> sizes = f.batch_sizes;
  if (sizes.empty()) sizes = device.is_cuda() ? std::vector<int>{1, 16, 64, 256, 1024} : std::vector<int>{1, 16, 64, 256};
  const auto positions = load_positions("", kBenchPositions, f.model.seed, game::table_rules(cfg.rules.preset));
  model::HydraNet net(cfg.model);
  net->init_weights(f.model.seed);
  selfplay::InferenceModel inference(*net, device, 0);
  const double flops = model::forward_flops(cfg.model).total();
  std::vector<ModelRate> rates;
  for (const int b : sizes) {
    rates.push_back(time_batch(inference, positions.samples, b, f.seconds));
    log::info("bench model: batch {}: {:.0f} samples/s", b, rates.back().samples_per_s());
  }
  Json head = model_head(cfg, device);
  if (f.model.json) {
    Json j{{"bench", "model"}};
    j.update(head);
    j["results"] = Json::array();
    for (const auto& r : rates)
      j["results"].push_back({{"batch", r.batch},
                              {"passes", r.passes},
                              {"seconds", r.seconds},
                              {"samples_per_s", r.samples_per_s()},
                              {"ms_per_pass", 1e3 * r.seconds / static_cast<double>(r.passes)},
                              {"tflops", r.samples_per_s() * flops * 1e-12}});
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  print_head(head);
  std::printf("%8s %14s %12s %10s\n", "batch", "samples/s", "ms/pass", "TFLOP/s");
  for (const auto& r : rates)
    std::printf("%8d %14.0f %12.3f %10.3f\n", r.batch, r.samples_per_s(), 1e3 * r.seconds / static_cast<double>(r.passes),
                r.samples_per_s() * flops * 1e-12);
  std::printf("forward passes through InferenceModel::evaluate (host batch in, probabilities out), wall clock\n");
}

// ---- learner ------------------------------------------------------------------------------

// A rollout of `n` one-decision episodes cycling over real positions, old log-probabilities
// from the learner's own network (as actors give them).
selfplay::Rollout bench_rollout(const data::SampleBatch& s, std::int64_t n, ppo::Learner& learner) {
  selfplay::Rollout r;
  const auto un = ix(n);
  r.obs.resize(un * encoder::kObsSize);
  for (std::size_t i = 0; i < un; ++i) {
    const std::size_t j = i % s.size();
    selfplay::to_half(s.obs.data() + j * encoder::kObsSize, r.obs.data() + i * encoder::kObsSize, encoder::kObsSize);
    r.context.insert(r.context.end(), s.context.begin() + static_cast<std::ptrdiff_t>(j * data::kSampleContext),
                     s.context.begin() + static_cast<std::ptrdiff_t>((j + 1) * data::kSampleContext));
    r.legal.push_back(s.legal_mask(j).bits());
    r.action.push_back(static_cast<std::int16_t>(s.action[j]));
    r.value.push_back(0.0f);
    r.reward.push_back(s.value[j]);
    r.done.push_back(1);
    r.version.push_back(0);
    for (int o = 0; o < selfplay::kOpponents; ++o) r.opp_waits.push_back(o == static_cast<int>(i % 3) ? 0b1001U : 0U);
  }
  r.logp.assign(un, 0.0f);
  const auto logp = learner.log_probs(r);
  r.logp.assign(logp.data_ptr<float>(), logp.data_ptr<float>() + logp.numel());
  return r;
}


void run_bench_learner(const BenchLearnerFlags& f) {
  config::Config cfg = f.model.load();
  const model::RunContext context(f.model.threads, f.model.device);
  const torch::Device device = context.device();
  // A fixed amount of work per update: every planned epoch runs whatever the approx-KL of
  // repeated updates on one rollout (training cuts epochs only when the policy moved a lot).
  cfg.ppo.kl_high = 1e9;
  cfg.ppo.kl_stop = 0;
  const std::int64_t n =
      f.samples > 0 ? f.samples : std::min<std::int64_t>(cfg.ppo.rollout_samples, 2 * std::int64_t{cfg.ppo.minibatch});
  const auto positions = load_positions("", kBenchPositions, f.model.seed, game::table_rules(cfg.rules.preset));
  ppo::Learner learner(ppo::learner_config(cfg), device, game::MasterSeed{f.model.seed});
  const auto rollout = bench_rollout(positions.samples, n, learner);
  log::info("bench learner: warm-up update of {} samples", n);
  learner.update(rollout);  // allocator, kernel choice, AdamW state
  std::int64_t updates = 0, trained = 0;
  double seconds = 0;
  const auto t0 = Clock::now();
  do {
    const auto s = learner.update(rollout);
    ++updates;
    // Minibatches are equal within one: steps x (n / batches) samples went forward and backward.
    const std::int64_t batches = std::max<std::int64_t>(1, n / cfg.ppo.minibatch);
    trained += s.minibatches * n / batches;
    seconds += s.seconds;
    log::info("bench learner: update {} in {:.2f} s", updates, s.seconds);
  } while (since(t0) < f.seconds);

  const double per_sample = model::train_flops_per_sample(cfg.model, learner.has_anchor());
  const double trained_per_s = static_cast<double>(trained) / seconds;
  const double tflops = trained_per_s * per_sample * 1e-12;
  const std::string name = model::device_name(device.str());
  std::optional<double> peak;
  if (f.peak_tflops > 0) peak = f.peak_tflops;
  else if (device.is_cuda()) peak = model::known_peak_tflops(name);
  Json head = model_head(cfg, device);
  Json j{{"bench", "learner"}};
  j.update(head);
  j["rollout_samples"] = n;
  j["minibatch"] = cfg.ppo.minibatch;
  j["epochs"] = cfg.ppo.epochs;
  j["updates"] = updates;
  j["update_seconds"] = seconds;
  j["rollout_samples_per_s"] = static_cast<double>(n * updates) / seconds;
  j["trained_samples_per_s"] = trained_per_s;
  j["train_flops_per_sample"] = per_sample;
  j["tflops"] = tflops;
  j["peak_tflops"] = peak ? Json(*peak) : Json(nullptr);
  j["peak_fraction"] = peak ? Json(tflops / *peak) : Json(nullptr);
  if (f.model.json) {
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  print_head(head);
  std::printf("rollout samples/s  %12.1f   (%lld samples x %lld updates in %.2f s; minibatch %d, %d epochs)\n",
              j["rollout_samples_per_s"].get<double>(), static_cast<long long>(n), static_cast<long long>(updates), seconds,
              cfg.ppo.minibatch, cfg.ppo.epochs);
  std::printf("trained samples/s  %12.1f   (forward + backward of a sample in a minibatch)\n", trained_per_s);
  std::printf("FLOPs per trained sample %.4g (3 x forward%s), %.3f TFLOP/s", per_sample,
              learner.has_anchor() ? " + anchor forward" : "", tflops);
  if (peak) std::printf(", %.1f%% of the %.1f TFLOP/s bf16 peak\n", 100.0 * tflops / *peak, *peak);
  else std::printf("; peak unknown for this device (give --peak-tflops)\n");
}

// ---- pretrain -----------------------------------------------------------------------------

// Behaviour cloning's two halves apart: the data pipeline (`hydra pretrain`'s training stream:
// decode, replay, encode, shuffle, augment; producer thread and parallel decode) drawing batches
// of pretrain.batch with nothing consuming them, then BcLearner::step on batches it already has.
// Each phase runs --seconds after its warm-up (the pipeline's first batch fills the shuffle
// buffer; the learner's first step chooses kernels and makes the AdamW state). The ratio says
// whether the pipeline keeps the learner busy: >= 10 leaves it under a tenth of the machine.
void run_bench_pretrain(const BenchPretrainFlags& f) {
  config::Config cfg = f.model.load();
  if (!f.data.empty()) cfg.pretrain.data = f.data;
  if (cfg.pretrain.data.empty()) throw Error("bench pretrain: no logs: give --data DIR or a config with pretrain.data");
  const model::RunContext context(f.model.threads, f.model.device);
  const torch::Device device = context.device();
  const game::MasterSeed seed{f.model.seed};
  const auto batch = ix(cfg.pretrain.batch);

  data::Dataset stream(pretrain::dataset_options(cfg, seed, false));
  log::info("bench pretrain: {} training files; filling the shuffle buffer ({} samples)", stream.files().size(),
            cfg.pretrain.shuffle_buffer);
  constexpr std::size_t kKept = 8;  // batches the learner phase cycles through
  std::vector<data::SampleBatch> kept(1);
  if (stream.next(kept[0], batch) == 0) throw Error("bench pretrain: the logs hold no decision");
  std::int64_t pipe_samples = 0;
  const auto t0 = Clock::now();
  data::SampleBatch b;
  do {
    const auto n = stream.next(b, batch);
    pipe_samples += static_cast<std::int64_t>(n);
    if (kept.size() < kKept) kept.push_back(b);
  } while (since(t0) < f.seconds);
  const double pipe_seconds = since(t0);
  const double pipe_rate = static_cast<double>(pipe_samples) / pipe_seconds;
  const auto report = stream.report();
  log::info("bench pretrain: pipeline {:.0f} samples/s; learner next", pipe_rate);

  pretrain::BcLearner learner(cfg.model, cfg.pretrain, device, /*total_steps=*/1000000, f.model.seed);
  (void)learner.step(kept[0]);
  std::int64_t steps = 0, learn_samples = 0;
  const auto t1 = Clock::now();
  do {
    const auto& x = kept[ix(steps) % kept.size()];
    (void)learner.step(x);  // reads its losses back: a sync per step, as in training
    learn_samples += static_cast<std::int64_t>(x.size());
    ++steps;
  } while (since(t1) < f.seconds);
  const double learn_seconds = since(t1);
  const double learn_rate = static_cast<double>(learn_samples) / learn_seconds;

  const Json head = model_head(cfg, device);
  Json j{{"bench", "pretrain"}};
  j.update(head);
  j["batch"] = cfg.pretrain.batch;
  j["files"] = stream.files().size();
  j["pipeline"] = {{"samples", pipe_samples},
                   {"seconds", pipe_seconds},
                   {"samples_per_s", pipe_rate},
                   {"files_read", report.files_read},
                   {"bad_files", report.bad.size()},
                   {"cpu_seconds", {{"gunzip", report.seconds_gunzip},
                                    {"parse", report.seconds_parse},
                                    {"replay", report.seconds_replay},
                                    {"encode", report.seconds_encode}}}};
  j["learner"] = {{"steps", steps}, {"seconds", learn_seconds}, {"samples_per_s", learn_rate}};
  j["pipeline_over_learner"] = pipe_rate / learn_rate;
  j["cpu_threads"] = ThreadLimit::active();
  if (f.model.json) {
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  print_head(head);
  std::printf("pipeline  %12.0f samples/s   (%lld samples in %.1f s, batch %d; %lld file reads of %zu files, %zu bad)\n", pipe_rate,
              static_cast<long long>(pipe_samples), pipe_seconds, cfg.pretrain.batch,
              static_cast<long long>(report.files_read), stream.files().size(), report.bad.size());
  std::printf("          CPU seconds since the start: gunzip %.1f  parse %.1f  replay %.1f  encode %.1f\n",
              report.seconds_gunzip, report.seconds_parse, report.seconds_replay, report.seconds_encode);
  std::printf("learner   %12.0f samples/s   (%lld steps in %.1f s)\n", learn_rate, static_cast<long long>(steps),
              learn_seconds);
  std::printf("pipeline / learner %.1f  (%s)\n", pipe_rate / learn_rate,
              pipe_rate >= 10 * learn_rate ? ">= 10: the pipeline keeps the learner busy with a tenth of the machine"
                                           : "< 10: the pipeline takes a large share of the machine or starves the learner");
}

// ---- selfplay -----------------------------------------------------------------------------



void run_bench_selfplay(const BenchSelfplayFlags& f) {
  const config::Config cfg = f.model.load();
  const model::RunContext context(f.model.threads, f.model.device);
  const torch::Device device = context.device();
  const game::MasterSeed master{f.model.seed};
  // The networks as the trainer's fresh start makes them: the learner's initial weights behind
  // the current snapshot, a copy of them as the first pool entry, the baseline bot or checkpoint.
  ppo::Learner learner(ppo::learner_config(cfg), device, master);
  auto current = std::make_shared<selfplay::InferenceModel>(learner.net(), device, 0);
  std::shared_ptr<selfplay::BatchPolicy> baseline;
  if (!selfplay::is_bot_name(cfg.selfplay.baseline)) baseline = selfplay::load_policy(cfg.selfplay.baseline, device);
  selfplay::Actors actors(selfplay::actors_config(cfg), master, current, baseline);
  actors.set_pool({std::make_shared<selfplay::InferenceModel>(learner.net(), device, 0)});
  if (!cfg.selfplay.grp.empty()) actors.set_reward_model(std::make_shared<selfplay::GrpRewardModel>(cfg.selfplay.grp));

  const auto t0 = Clock::now();
  auto last = t0;
  std::int64_t finished = 0;
  actors.progress = [&](std::int64_t done) {
    if (since(last) < 5.0) return;
    last = Clock::now();
    log::info("bench selfplay: {} games in {:.0f} s", finished + done, since(t0));
  };
  selfplay::ActorStats total;
  std::int64_t collects = 0;
  do {
    actors.collect(cfg.ppo.rollout_samples);
    const auto s = actors.take_stats();
    finished += s.games;
    total += s;
    ++collects;
  } while (since(t0) < f.seconds);

  const double wall = total.wall_seconds;
  const auto share = [&](double s) { return s / wall; };
  Json j{{"bench", "selfplay"}};
  j.update(model_head(cfg, device));
  j["game_length"] = cfg.rules.length;
  j["concurrent_games"] = cfg.selfplay.games;
  j["opponents"] = {{"self", cfg.selfplay.opp_self}, {"pool", cfg.selfplay.opp_pool},
                    {"baseline", cfg.selfplay.opp_baseline}, {"baseline_agent", cfg.selfplay.baseline}};
  j["cpu_threads"] = ThreadLimit::active();
  j["collects"] = collects;
  j["games"] = total.games;
  j["kyoku"] = total.kyoku;
  j["decisions"] = total.decisions;
  j["network_decisions"] = total.network_decisions;
  j["learner_samples"] = total.learner_decisions;
  j["forward_passes"] = total.forward_passes;
  j["mean_batch"] = total.forward_passes > 0 ? static_cast<double>(total.network_decisions) / static_cast<double>(total.forward_passes) : 0.0;
  j["wall_s"] = wall;
  j["games_per_hour"] = 3600.0 * static_cast<double>(total.games) / wall;
  j["learner_samples_per_s"] = static_cast<double>(total.learner_decisions) / wall;
  j["seconds"] = {{"engine", total.engine_seconds}, {"encode", total.encode_seconds},
                  {"inference", total.inference_seconds}, {"wait", total.wait_seconds}};
  j["share_of_wall"] = {{"engine", share(total.engine_seconds)}, {"encode", share(total.encode_seconds)},
                        {"inference", share(total.inference_seconds)}, {"wait", share(total.wait_seconds)}};
  if (f.model.json) {
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  print_head(j);
  std::printf("%s per hour     %12.0f   (%lld games, %lld collects in %.1f s; %d concurrent, %d CPU threads)\n",
              cfg.rules.length.c_str(), j["games_per_hour"].get<double>(), static_cast<long long>(total.games),
              static_cast<long long>(collects), wall, cfg.selfplay.games, ThreadLimit::active());
  std::printf("learner samples/s    %12.0f   (network decisions %lld, mean batch %.1f)\n",
              j["learner_samples_per_s"].get<double>(), static_cast<long long>(total.network_decisions),
              j["mean_batch"].get<double>());
  std::printf("time, share of wall: engine %.2f  encode %.2f  (CPU seconds summed over worker threads)\n",
              share(total.engine_seconds), share(total.encode_seconds));
  std::printf("                     inference %.2f  (the inference thread busy)  wait %.2f  (games idle, waiting for it)\n",
              share(total.inference_seconds), share(total.wait_seconds));
}

}  // namespace

namespace torch_impl {

void bench_model(const BenchModelFlags& f) { run_bench_model(f); }
void bench_learner(const BenchLearnerFlags& f) { run_bench_learner(f); }
void bench_selfplay(const BenchSelfplayFlags& f) { run_bench_selfplay(f); }
void bench_pretrain(const BenchPretrainFlags& f) { run_bench_pretrain(f); }

}  // namespace torch_impl
}  // namespace hydra::apps
