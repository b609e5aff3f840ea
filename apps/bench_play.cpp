// hydra bench engine | encoder: the self-play hot path on one core.
//   hydra bench engine [--seconds S] [--seed N] [--json]
//     whole hanchan (tenhou preset) between four random legal agents, events not recorded (as in
//     training): hanchan per CPU second and the time per agent decision (table + agent).
//   hydra bench encoder [--seconds S] [--json]
//     the 85x34 observation at decision points of seeded random games: a full encode from
//     scratch and the incremental update after another seat's discard, ns per observation, and
//     their ratio. Inputs come from hydra::encoder::decision_points, as in the Google
//     Benchmark (tests/bench/bench_encoder.cpp).
// The loops are selfplay/bench.hpp's; this file prints them. Single thread, fixed seed; times are
// thread CPU time (what one core delivers on a shared machine) with wall time next to it.

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/selfplay/bench.hpp"

namespace hydra::apps {
namespace {

using Json = nlohmann::ordered_json;

void bench_engine(double seconds, std::uint64_t seed, bool json) {
  const selfplay::EngineRate r = selfplay::bench_engine(seconds, seed);
  const double per_s = static_cast<double>(r.games) / r.cpu_s;
  const double ns_decision = r.cpu_s * 1e9 / static_cast<double>(r.decisions);
  if (json) {
    std::cout << Json{{"bench", "engine"},
                      {"rules", "tenhou"},
                      {"agents", "random"},
                      {"threads", 1},
                      {"seed", seed},
                      {"hanchan", r.games},
                      {"kyoku", r.kyoku},
                      {"decisions", r.decisions},
                      {"cpu_s", r.cpu_s},
                      {"wall_s", r.wall_s},
                      {"hanchan_per_cpu_second", per_s},
                      {"hanchan_per_wall_second", static_cast<double>(r.games) / r.wall_s},
                      {"ns_per_decision", ns_decision},
                      {"decisions_per_hanchan", static_cast<double>(r.decisions) / static_cast<double>(r.games)}}
                     .dump(2)
              << "\n";
    return;
  }
  std::printf("hanchan/s (one core, CPU time)  %10.1f   (wall %.1f)\n", per_s, static_cast<double>(r.games) / r.wall_s);
  std::printf("ns per decision                 %10.0f\n", ns_decision);
  std::printf("%lld hanchan, %lld kyoku, %lld decisions in %.2f CPU s; random agents, tenhou rules, seed %llu\n",
              static_cast<long long>(r.games), static_cast<long long>(r.kyoku), static_cast<long long>(r.decisions),
              r.cpu_s, static_cast<unsigned long long>(seed));
}

void bench_encoder(double seconds, bool json) {
  const selfplay::EncoderRate r = selfplay::bench_encoder(seconds);
  const double ratio = r.full.ns() / r.incremental.ns();
  if (json) {
    auto item = [](const selfplay::PerItem& p) {
      return Json{{"observations", p.items}, {"cpu_s", p.cpu_s}, {"wall_s", p.wall_s}, {"ns_per_observation", p.ns()}};
    };
    std::cout << Json{{"bench", "encoder"},
                      {"threads", 1},
                      {"channels", encoder::kChannels},
                      {"full", item(r.full)},
                      {"incremental_after_discard", item(r.incremental)},
                      {"full_over_incremental", ratio}}
                     .dump(2)
              << "\n";
    return;
  }
  std::printf("full encode                       %8.0f ns/observation\n", r.full.ns());
  std::printf("incremental after another discard %8.0f ns/observation\n", r.incremental.ns());
  std::printf("full / incremental                %8.2f\n", ratio);
  std::printf("%zu and %zu decision points of seeded random hanchan; one thread, CPU time\n", r.any_points, r.after_points);
}

}  // namespace

void register_bench_play(CLI::App& bench) {
  struct Opts {
    double seconds = 2.0;
    std::uint64_t seed = 2026;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* engine = bench.add_subcommand("engine", "Random-agent hanchan/s on one core and the time per decision");
  engine->add_option("--seconds", o->seconds, "CPU seconds to measure")->check(number_in(0.01, 600.0))->capture_default_str();
  engine->add_option("--seed", o->seed, "master seed of the games")->check(seed_value())->capture_default_str();
  engine->add_flag("--json", o->json, "machine-readable output");
  engine->callback([o] { bench_engine(o->seconds, o->seed, o->json); });
  auto* enc = bench.add_subcommand("encoder", "Full and incremental observation encoding, ns per observation");
  enc->add_option("--seconds", o->seconds, "CPU seconds per measurement")->check(number_in(0.01, 600.0))->capture_default_str();
  enc->add_flag("--json", o->json, "machine-readable output");
  enc->callback([o] { bench_encoder(o->seconds, o->json); });
}

}  // namespace hydra::apps
