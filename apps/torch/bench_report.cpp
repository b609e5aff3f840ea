// torch_impl::bench_model, bench_learner, bench_selfplay, bench_pretrain (torch_impl.hpp), registered in
// apps/cmd_bench_device.cpp: flags in, the measurements of ppo/bench.hpp and pretrain/bench.hpp, a
// table or JSON out.
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
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/thread_limit.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/model/flops.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/model/run_context.hpp"
#include "hydra/ppo/bench.hpp"
#include "hydra/pretrain/bench.hpp"
#include "hydra/selfplay/positions.hpp"
#include "torch_impl.hpp"

namespace hydra::apps {
namespace {

using Json = nlohmann::ordered_json;

// Positions the model and learner benches feed the network: real decisions, so the legal masks
// and planes have their real sparsity (the arithmetic does not depend on it, the host side does).
constexpr std::size_t kBenchPositions = 512;

Json model_head(const config::Config& cfg, const torch::Device& device) {
  return Json{{"device", device.str()},
              {"device_name", model::device_name(device.str())},
              {"blocks", cfg.model.blocks},
              {"channels", cfg.model.channels},
              {"bf16_autocast", model::autocast_enabled(cfg.model, device.type())},
              {"cpu_bf16_inference", device.is_cpu() && cfg.model.cpu_bf16_inference},
              {"forward_flops_per_sample", model::forward_flops(cfg.model).total()}};
}

void print_head(const Json& h) {
  std::printf("device %s (%s), model %dx%d, %s, %.3g GFLOP per forward sample\n", h["device"].get<std::string>().c_str(),
              h["device_name"].get<std::string>().c_str(), h["blocks"].get<int>(), h["channels"].get<int>(),
              h["cpu_bf16_inference"].get<bool>() ? "bf16 inference (model.cpu_bf16_inference)"
              : h["bf16_autocast"].get<bool>()    ? "bf16 autocast"
                                                  : "fp32",
              h["forward_flops_per_sample"].get<double>() * 1e-9);
}


// ---- model -------------------------------------------------------------------------------

void run_bench_model(const BenchModelFlags& f) {
  const config::Config cfg = f.model.load();
  const model::RunContext context(f.model.threads, f.model.device);
  const torch::Device device = context.device();
  std::vector<int> sizes = f.batch_sizes;
  if (sizes.empty()) sizes = device.is_cuda() ? std::vector<int>{1, 16, 64, 256, 1024} : std::vector<int>{1, 16, 64, 256};
  const auto positions = selfplay::load_positions("", kBenchPositions, f.model.seed, game::table_rules(cfg.rules.preset));
  model::HydraNet net(cfg.model);
  net->init_weights(f.model.seed);
  selfplay::InferenceModel inference(*net, device, 0);
  const double flops = model::forward_flops(cfg.model).total();
  std::vector<ppo::ForwardRate> rates;
  for (const int b : sizes) {
    rates.push_back(ppo::bench_forward(inference, positions.samples, b, f.seconds));
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

void print_profile(const model::DeviceProfile& p, const std::string& trace) {
  const bool cuda = p.device == "cuda";
  std::printf("\nprofiled update: %.3f s wall", p.wall_seconds);
  if (cuda) std::printf(", device busy %.3f s (%.0f%%)", p.busy_seconds, 100.0 * p.busy_seconds / p.wall_seconds);
  std::printf(", %lld %s, %.3f s summed; trace %s\n", static_cast<long long>(p.events),
              cuda ? "kernels and copies" : "operators (inclusive times)", p.event_seconds, trace.c_str());
  const auto table = [&](const char* title, const std::vector<model::ProfiledName>& rows) {
    std::printf("%10s %7s %8s  %s\n", "seconds", "share", "calls", title);
    for (const auto& r : rows)
      std::printf("%10.4f %6.1f%% %8lld  %s\n", r.seconds, 100.0 * r.seconds / std::max(1e-12, p.event_seconds),
                  static_cast<long long>(r.calls), r.name.c_str());
  };
  if (!p.kinds.empty()) table("kind", p.kinds);
  table(cuda ? "kernel" : "operator", p.top);
}

void run_bench_learner(const BenchLearnerFlags& f) {
  const config::Config cfg = f.model.load();
  const model::RunContext context(f.model.threads, f.model.device);
  const torch::Device device = context.device();
  const auto positions = selfplay::load_positions("", kBenchPositions, f.model.seed, game::table_rules(cfg.rules.preset));
  const ppo::LearnerRate rate = ppo::bench_learner(cfg, device, positions.samples, f.samples, f.model.seed, f.seconds,
                                                   !f.profile.empty(), f.profile, f.played_share);

  const double per_sample = model::train_flops_per_sample(cfg.model, rate.anchor);
  const double trained_per_s = rate.trained_per_s();
  const double tflops = trained_per_s * per_sample * 1e-12;
  const std::string name = model::device_name(device.str());
  std::optional<double> peak;
  if (f.peak_tflops > 0) peak = f.peak_tflops;
  else if (device.is_cuda()) peak = model::known_peak_tflops(name);
  Json head = model_head(cfg, device);
  Json j{{"bench", "learner"}};
  j.update(head);
  j["rollout_samples"] = rate.rollout_samples;
  j["minibatch"] = cfg.ppo.minibatch;
  j["epochs"] = cfg.ppo.epochs;
  j["updates"] = rate.updates;
  j["update_seconds"] = rate.seconds;
  j["played_share"] = f.played_share;
  j["learned_rows"] = rate.learned_rows;
  j["rollout_samples_per_s"] = rate.rollout_per_s();
  j["trained_samples_per_s"] = trained_per_s;
  j["train_flops_per_sample"] = per_sample;
  j["tflops"] = tflops;
  j["peak_tflops"] = peak ? Json(*peak) : Json(nullptr);
  j["peak_fraction"] = peak ? Json(tflops / *peak) : Json(nullptr);
  if (rate.profile) j["profile"] = rate.profile->to_json();
  if (f.model.json) {
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  print_head(head);
  std::printf("rollout samples/s  %12.1f   (%lld samples x %lld updates in %.2f s; minibatch %d, %d epochs)\n",
              j["rollout_samples_per_s"].get<double>(), static_cast<long long>(rate.rollout_samples),
              static_cast<long long>(rate.updates), rate.seconds, cfg.ppo.minibatch, cfg.ppo.epochs);
  if (rate.learned_rows > 0)
    std::printf("rows learned       %12lld   of each rollout (ppo.unplayed_share %.3g, %.3g of the decisions played out)\n",
                static_cast<long long>(rate.learned_rows), cfg.ppo.unplayed_share, f.played_share);
  std::printf("trained samples/s  %12.1f   (forward + backward of a sample in a minibatch)\n", trained_per_s);
  std::printf("FLOPs per trained sample %.4g (3 x forward%s), %.3f TFLOP/s", per_sample,
              rate.anchor ? " + anchor forward" : "", tflops);
  if (peak) std::printf(", %.1f%% of the %.1f TFLOP/s bf16 peak\n", 100.0 * tflops / *peak, *peak);
  else std::printf("; peak unknown for this device (give --peak-tflops)\n");
  if (rate.profile) print_profile(*rate.profile, f.profile);
}

// ---- pretrain -----------------------------------------------------------------------------

void run_bench_pretrain(const BenchPretrainFlags& f) {
  config::Config cfg = f.model.load();
  if (!f.data.empty()) cfg.pretrain.data = f.data;
  const model::RunContext context(f.model.threads, f.model.device);
  const torch::Device device = context.device();
  const pretrain::PretrainRate rate = pretrain::bench_pretrain(cfg, device, f.model.seed, f.seconds);
  const double pipe_rate = rate.pipeline_per_s();
  const double learn_rate = rate.learner_per_s();
  const auto& report = rate.report;

  const Json head = model_head(cfg, device);
  Json j{{"bench", "pretrain"}};
  j.update(head);
  j["batch"] = cfg.pretrain.batch;
  j["files"] = rate.files;
  j["pipeline"] = {{"samples", rate.pipeline_samples},
                   {"seconds", rate.pipeline_seconds},
                   {"samples_per_s", pipe_rate},
                   {"files_read", report.files_read},
                   {"bad_files", report.bad.size()},
                   {"cpu_seconds", {{"gunzip", report.seconds_gunzip},
                                    {"parse", report.seconds_parse},
                                    {"replay", report.seconds_replay},
                                    {"encode", report.seconds_encode}}}};
  j["learner"] = {{"steps", rate.steps}, {"seconds", rate.learner_seconds}, {"samples_per_s", learn_rate}};
  j["pipeline_over_learner"] = pipe_rate / learn_rate;
  j["cpu_threads"] = ThreadLimit::active();
  if (f.model.json) {
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  print_head(head);
  std::printf("pipeline  %12.0f samples/s   (%lld samples in %.1f s, batch %d; %lld file reads of %zu files, %zu bad)\n", pipe_rate,
              static_cast<long long>(rate.pipeline_samples), rate.pipeline_seconds, cfg.pretrain.batch,
              static_cast<long long>(report.files_read), rate.files, report.bad.size());
  std::printf("          CPU seconds since the start: gunzip %.1f  parse %.1f  replay %.1f  encode %.1f\n",
              report.seconds_gunzip, report.seconds_parse, report.seconds_replay, report.seconds_encode);
  std::printf("learner   %12.0f samples/s   (%lld steps in %.1f s)\n", learn_rate, static_cast<long long>(rate.steps),
              rate.learner_seconds);
  std::printf("pipeline / learner %.1f  (%s)\n", pipe_rate / learn_rate,
              pipe_rate >= 10 * learn_rate ? ">= 10: the pipeline keeps the learner busy with a tenth of the machine"
                                           : "< 10: the pipeline takes a large share of the machine or starves the learner");
}

// ---- selfplay -----------------------------------------------------------------------------

void run_bench_selfplay(const BenchSelfplayFlags& f) {
  const config::Config cfg = f.model.load();
  const model::RunContext context(f.model.threads, f.model.device);
  const torch::Device device = context.device();
  const ppo::SelfplayRate rate = ppo::bench_selfplay(cfg, device, f.model.seed, f.seconds);
  const selfplay::ActorStats& total = rate.total;
  const std::int64_t collects = rate.collects;

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
  // With play-outs (ppo.advantage = rollout) most of the work is in them: their decisions are
  // counted apart from the games' (network_decisions and mean_batch are the games' own).
  const bool play_outs = total.paired > 0;
  const double per_sample = total.learner_decisions > 0
                                ? static_cast<double>(total.branch_decisions) / static_cast<double>(total.learner_decisions)
                                : 0.0;
  if (play_outs)
    j["play_outs"] = {{"agent", cfg.selfplay.play_out_agent},
                      {"walls", cfg.selfplay.play_outs},
                      {"eligible_decisions", total.paired},
                      {"played_out", total.branches},
                      {"decisions", total.branch_decisions},
                      {"decisions_per_learner_sample", per_sample},
                      {"decisions_per_s", static_cast<double>(total.branch_decisions) / wall}};
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
  if (play_outs)
    std::printf("play-outs            %12.0f decisions/s   (%s, %d walls; %lld of %lld decisions played out, %.0f play-out "
                "decisions per learner sample)\n",
                j["play_outs"]["decisions_per_s"].get<double>(), cfg.selfplay.play_out_agent.c_str(), cfg.selfplay.play_outs,
                static_cast<long long>(total.branches), static_cast<long long>(total.paired), per_sample);
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
