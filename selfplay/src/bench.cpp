#include "hydra/selfplay/bench.hpp"

#include <time.h>

#include <array>
#include <chrono>
#include <memory>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/encoder/decision_points.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"

namespace hydra::selfplay {
namespace {

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

}  // namespace

EngineRate bench_engine(double seconds, std::uint64_t seed) {
  const game::TableRules& rules = game::table_rules("tenhou");
  std::array<game::RandomAgent, game::kNumSeats> a;
  const std::array<game::Agent*, game::kNumSeats> agents{&a[0], &a[1], &a[2], &a[3]};
  game::play_game(rules, game::game_key(game::MasterSeed{seed}, 0), agents, false);  // warm-up
  EngineRate rate;
  const Clock clock;
  do {
    const game::GameResult r =
        game::play_game(rules, game::game_key(game::MasterSeed{seed}, static_cast<std::uint64_t>(rate.games)), agents, false);
    ++rate.games;
    rate.decisions += r.decisions;
    rate.kyoku += r.kyoku;
    rate.cpu_s = clock.cpu();
  } while (rate.cpu_s < seconds);
  rate.wall_s = clock.wall();
  return rate;
}

EncoderRate bench_encoder(double seconds) {
  using encoder::DecisionKind;
  const game::TableRules& rules = game::table_rules("tenhou");
  const auto any = encoder::decision_points(rules, DecisionKind::any_decision, 4, 32);
  auto after = encoder::decision_points(rules, DecisionKind::after_other_discard, 4, 32);
  if (any.empty() || after.empty()) throw Error("bench encoder: no decision points in the sample games");

  EncoderRate rate;
  rate.any_points = any.size();
  rate.after_points = after.size();
  auto out = std::make_unique<encoder::Obs>();
  volatile float sink = 0;
  rate.full = per_item(any.size(), seconds, [&](std::size_t i) {
    any[i].obs.encode_full(out->v.data());
    sink = sink + out->v[i];
  });
  std::vector<encoder::Encoder> encs;
  for (const auto& s : after) encs.push_back(s.obs.encoder());
  rate.incremental = per_item(after.size(), seconds, [&](std::size_t i) {
    encs[i].invalidate(after[i].touched);
    sink = sink + encs[i].encode(after[i].obs.view()).v[i];
  });
  return rate;
}

}  // namespace hydra::selfplay
