// hydra bench: throughput measurements on one core.
//   hydra bench hand [--data DIR] [--seconds S] [--json]
//     shanten hands/s on the ara_p normal set (10,000 hands) and full agari scorings/s
//     (decomposition, yaku, fu, points, payments) on the 5,000 majiang-core cases.
// Inputs are parsed before timing. Each measurement repeats whole passes over its set for at
// least S seconds and reports thread CPU time (what one core delivers on a shared machine) next
// to wall time.

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/common/error.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/score.hpp"
#include "hydra/game/score_check.hpp"
#include "hydra/game/shanten.hpp"

namespace hydra::apps {
namespace {

using namespace hydra::game;
using Json = nlohmann::ordered_json;

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Rate {
  std::string name;
  std::int64_t items = 0;
  double cpu_s = 0, wall_s = 0;
  double per_cpu_second() const { return static_cast<double>(items) / cpu_s; }
  double per_wall_second() const { return static_cast<double>(items) / wall_s; }
};

// Runs pass() (which handles `per_pass` items and returns a checksum) until `seconds` pass.
template <class F>
Rate measure(const std::string& name, std::int64_t per_pass, double seconds, F&& pass) {
  volatile std::int64_t sink = pass();  // warm-up: tables, caches
  Rate r{name};
  const double c0 = thread_cpu_seconds();
  const auto w0 = std::chrono::steady_clock::now();
  do {
    sink = sink + pass();
    r.items += per_pass;
    r.cpu_s = thread_cpu_seconds() - c0;
  } while (r.cpu_s < seconds);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  return r;
}

std::filesystem::path data_dir(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("HYDRA_TESTDATA"); env && *env) return env;
  throw Error("bench hand: give --data DIR (the shared data folder) or set HYDRA_TESTDATA");
}

void bench_hand(const std::string& data_flag, double seconds, bool json) {
  const auto dir = data_dir(data_flag);
  const auto shanten_cases = load_shanten_cases(dir / "shanten/ara_p_normal_10000.txt");
  std::vector<TileCounts> hands;
  for (const auto& c : shanten_cases) hands.push_back(c.counts);
  const auto wins = load_majiang_cases(dir / "scoring/majiang_core_hule_5000.json");
  const ScoringRules& rules = rules_preset("tenhou").scoring;
  const auto n_hands = static_cast<std::int64_t>(hands.size());
  const auto n_wins = static_cast<std::int64_t>(wins.size());

  std::vector<Rate> rates;
  rates.push_back(measure("shanten_normal", n_hands, seconds, [&] {
    std::int64_t s = 0;
    for (const auto& h : hands) s += shanten_normal(h);
    return s;
  }));
  rates.push_back(measure("shanten_all", n_hands, seconds, [&] {
    std::int64_t s = 0;
    for (const auto& h : hands) s += shanten_all(h).best();
    return s;
  }));
  rates.push_back(measure("agari_scoring", n_wins, seconds, [&] {
    std::int64_t s = 0;
    for (const auto& c : wins) s += score_win(c.hand, c.ctx, rules).points;
    return s;
  }));

  if (json) {
    Json out = Json::array();
    for (const auto& r : rates)
      out.push_back({{"name", r.name}, {"items", r.items}, {"cpu_s", r.cpu_s}, {"wall_s", r.wall_s},
                     {"per_cpu_second", r.per_cpu_second()}, {"per_wall_second", r.per_wall_second()}});
    std::cout << Json{{"bench", "hand"}, {"threads", 1}, {"results", out}}.dump(2) << "\n";
    return;
  }
  std::printf("%-16s %14s %14s %12s\n", "benchmark", "per cpu-s", "per wall-s", "items");
  for (const auto& r : rates)
    std::printf("%-16s %14.0f %14.0f %12lld\n", r.name.c_str(), r.per_cpu_second(), r.per_wall_second(),
                static_cast<long long>(r.items));
  std::printf("shanten: ara_p normal set (%lld hands); agari: majiang-core cases (%lld wins); one thread\n",
              static_cast<long long>(n_hands), static_cast<long long>(n_wins));
}

}  // namespace

void register_bench(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Measure throughput: on one core (hand, engine, encoder) or on a device (model, learner, selfplay, pretrain)");
  bench->require_subcommand(1);
  auto* hand = bench->add_subcommand("hand", "Shanten hands/s (ara_p normal set) and full agari scorings/s (5,000 majiang cases)");
  struct Opts {
    std::string data;
    double seconds = 2.0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  hand->add_option("--data", o->data, "the shared data folder (default: $HYDRA_TESTDATA)");
  hand->add_option("--seconds", o->seconds, "CPU seconds per measurement")->check(number_in(0.01, 600.0))->capture_default_str();
  hand->add_flag("--json", o->json, "machine-readable output");
  hand->callback([o] { bench_hand(o->data, o->seconds, o->json); });
  register_bench_play(*bench);   // engine, encoder (bench_play.cpp)
  register_bench_device(*bench);  // model, learner, selfplay, pretrain on a device (cmd_bench_device.cpp)
}

}  // namespace hydra::apps
