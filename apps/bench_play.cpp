// hydra bench engine | encoder: the self-play hot path on one core.
//   hydra bench engine [--seconds S] [--seed N] [--json]
//     whole hanchan (tenhou preset) between four random legal agents, events not recorded (as in
//     training): hanchan per CPU second and the time per agent decision (table + agent).
//   hydra bench encoder [--seconds S] [--json]
//     the 85x34 observation at decision points of seeded random games: a full encode from
//     scratch and the incremental update after another seat's discard, ns per observation, and
//     their ratio. Inputs come from hydra::encoder::decision_points, as in the Google
//     Benchmark (tests/bench/bench_encoder.cpp).
// Single thread, fixed seed; times are thread CPU time (what one core delivers on a shared
// machine) with wall time next to it. Measured, never asserted.

#include <time.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/common/error.hpp"
#include "hydra/encoder/decision_points.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"

namespace hydra::apps {
namespace {

using Json = nlohmann::ordered_json;

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Clock {
  double cpu0 = cpu_now(), wall0 = wall_now();
  double cpu() const { return cpu_now() - cpu0; }
  double wall() const { return wall_now() - wall0; }
};

void bench_engine(double seconds, std::uint64_t seed, bool json) {
  const game::TableRules& rules = game::table_rules("tenhou");
  std::array<game::RandomAgent, game::kNumSeats> a;
  const std::array<game::Agent*, game::kNumSeats> agents{&a[0], &a[1], &a[2], &a[3]};
  game::play_game(rules, game::game_key(game::MasterSeed{seed}, 0), agents, false);  // warm-up
  std::int64_t games = 0, decisions = 0, kyoku = 0;
  const Clock clock;
  double cpu = 0;
  do {
    const game::GameResult r =
        game::play_game(rules, game::game_key(game::MasterSeed{seed}, static_cast<std::uint64_t>(games)), agents, false);
    ++games;
    decisions += r.decisions;
    kyoku += r.kyoku;
    cpu = clock.cpu();
  } while (cpu < seconds);
  const double wall = clock.wall();
  const double per_s = static_cast<double>(games) / cpu;
  const double ns_decision = cpu * 1e9 / static_cast<double>(decisions);
  if (json) {
    std::cout << Json{{"bench", "engine"},
                      {"rules", "tenhou"},
                      {"agents", "random"},
                      {"threads", 1},
                      {"seed", seed},
                      {"hanchan", games},
                      {"kyoku", kyoku},
                      {"decisions", decisions},
                      {"cpu_s", cpu},
                      {"wall_s", wall},
                      {"hanchan_per_cpu_second", per_s},
                      {"hanchan_per_wall_second", static_cast<double>(games) / wall},
                      {"ns_per_decision", ns_decision},
                      {"decisions_per_hanchan", static_cast<double>(decisions) / static_cast<double>(games)}}
                     .dump(2)
              << "\n";
    return;
  }
  std::printf("hanchan/s (one core, CPU time)  %10.1f   (wall %.1f)\n", per_s, static_cast<double>(games) / wall);
  std::printf("ns per decision                 %10.0f\n", ns_decision);
  std::printf("%lld hanchan, %lld kyoku, %lld decisions in %.2f CPU s; random agents, tenhou rules, seed %llu\n",
              static_cast<long long>(games), static_cast<long long>(kyoku), static_cast<long long>(decisions), cpu,
              static_cast<unsigned long long>(seed));
}

struct PerItem {
  std::int64_t items = 0;
  double cpu_s = 0, wall_s = 0;
  double ns() const { return cpu_s * 1e9 / static_cast<double>(items); }
};

// Calls step(i) for i = 0, 1, ... (cycling over n inputs) in rounds of n until `seconds` pass.
template <class F>
PerItem per_item(std::size_t n, double seconds, F&& step) {
  for (std::size_t i = 0; i < n; ++i) step(i);  // warm-up
  PerItem r;
  const Clock clock;
  do {
    for (std::size_t i = 0; i < n; ++i) step(i);
    r.items += static_cast<std::int64_t>(n);
    r.cpu_s = clock.cpu();
  } while (r.cpu_s < seconds);
  r.wall_s = clock.wall();
  return r;
}

void bench_encoder(double seconds, bool json) {
  using encoder::DecisionKind;
  const game::TableRules& rules = game::table_rules("tenhou");
  const auto any = encoder::decision_points(rules, DecisionKind::any_decision, 4, 32);
  auto after = encoder::decision_points(rules, DecisionKind::after_other_discard, 4, 32);
  if (any.empty() || after.empty()) throw Error("bench encoder: no decision points in the sample games");

  auto out = std::make_unique<encoder::Obs>();
  volatile float sink = 0;
  const PerItem full = per_item(any.size(), seconds, [&](std::size_t i) {
    any[i].obs.encode_full(out->v.data());
    sink = sink + out->v[i];
  });
  std::vector<encoder::Encoder> encs;
  for (const auto& s : after) encs.push_back(s.obs.encoder());
  const PerItem inc = per_item(after.size(), seconds, [&](std::size_t i) {
    encs[i].invalidate(after[i].touched);
    sink = sink + encs[i].encode(after[i].obs.view()).v[i];
  });
  const double ratio = full.ns() / inc.ns();
  if (json) {
    auto item = [](const PerItem& p) {
      return Json{{"observations", p.items}, {"cpu_s", p.cpu_s}, {"wall_s", p.wall_s}, {"ns_per_observation", p.ns()}};
    };
    std::cout << Json{{"bench", "encoder"},
                      {"threads", 1},
                      {"channels", encoder::kChannels},
                      {"full", item(full)},
                      {"incremental_after_discard", item(inc)},
                      {"full_over_incremental", ratio}}
                     .dump(2)
              << "\n";
    return;
  }
  std::printf("full encode                       %8.0f ns/observation\n", full.ns());
  std::printf("incremental after another discard %8.0f ns/observation\n", inc.ns());
  std::printf("full / incremental                %8.2f\n", ratio);
  std::printf("%zu and %zu decision points of seeded random hanchan; one thread, CPU time\n", any.size(), after.size());
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
