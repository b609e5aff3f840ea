// Encoder speed on one core, over the decision points of seeded random-agent hanchan:
//   BM_EncodeFull           all 85 channels from scratch (encode_full), ns per observation
//   BM_WriteGroup/g         one channel group g (layout.hpp's Group order) from scratch: where
//                           the full encode's time goes
//   BM_EncodeAfterDiscard   the incremental update after another seat's discard (the common
//                           case: the discards and safety groups), ns per observation
//   BM_EncodeAfterOwnDraw   the incremental update after the own draw (hand, drawn, shanten,
//                           safety: the discard analysis dominates)
//   BM_ObserveEvent         the per-event bookkeeping (Book::apply) alone, ns per event
//   BM_BatchFull / BM_BatchIncremental   observations/s written into a [256, 85, 34] buffer
//   BM_ReplayStream         a whole game's events through four seats (view + encoder), one
//                           incremental observation at every decision point: observations/s
// Measured, never asserted.

#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "hydra/encoder/batch.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/encoder/decision_points.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {
namespace {

using game::Event;
using game::EventType;
using game::Seat;

const game::TableRules& rules() { return game::table_rules("tenhou"); }

std::vector<std::vector<Event>> games(int n) {
  std::vector<std::vector<Event>> out;
  std::array<game::RandomAgent, game::kNumSeats> a;
  for (int g = 0; g < n; ++g)
    out.push_back(game::play_game(rules(), game::game_key(game::MasterSeed{2026}, static_cast<std::uint64_t>(g)),
                                  {&a[0], &a[1], &a[2], &a[3]})
                      .events);
  return out;
}

using Kind = DecisionKind;

// 32 observers (clean planes) at decision points right after the chosen kind of event.
const std::vector<DecisionPoint>& decision_points_of(Kind kind) {
  static std::array<std::unique_ptr<std::vector<DecisionPoint>>, 3> cache;
  auto& slot = cache[ix(kind)];
  if (!slot) slot = std::make_unique<std::vector<DecisionPoint>>(decision_points(rules(), kind, 4, 32));
  return *slot;
}

void BM_EncodeFull(benchmark::State& state) {
  const auto& snaps = decision_points_of(Kind::any_decision);
  auto out = std::make_unique<Obs>();
  std::size_t i = 0;
  for (auto _ : state) {
    snaps[i].obs.encode_full(out->v.data());
    benchmark::DoNotOptimize(out->v.data());
    benchmark::ClobberMemory();
    if (++i == snaps.size()) i = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void BM_WriteGroup(benchmark::State& state) {
  const auto& snaps = decision_points_of(Kind::any_decision);
  const auto g = static_cast<Group>(state.range(0));
  auto out = std::make_unique<Obs>();
  std::size_t i = 0;
  for (auto _ : state) {
    write_group(g, snaps[i].obs.view(), snaps[i].obs.encoder().book(), out->v.data());
    benchmark::DoNotOptimize(out->v.data());
    benchmark::ClobberMemory();
    if (++i == snaps.size()) i = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void incremental(benchmark::State& state, Kind kind) {
  std::vector<DecisionPoint> snaps = decision_points_of(kind);  // own copies: encode() mutates the planes
  std::vector<Encoder> encs;
  for (const DecisionPoint& s : snaps) encs.push_back(s.obs.encoder());
  std::size_t i = 0;
  for (auto _ : state) {
    Encoder& enc = encs[i];
    enc.invalidate(snaps[i].touched);
    benchmark::DoNotOptimize(enc.encode(snaps[i].obs.view()).v.data());
    benchmark::ClobberMemory();
    if (++i == snaps.size()) i = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
void BM_EncodeAfterDiscard(benchmark::State& state) { incremental(state, Kind::after_other_discard); }
void BM_EncodeAfterOwnDraw(benchmark::State& state) { incremental(state, Kind::after_own_draw); }

void BM_ObserveEvent(benchmark::State& state) {
  // Views prepared for every event of one game; the book replays the stream.
  const auto events = games(1).front();
  std::vector<game::PlayerView> views;
  game::PlayerView v(Seat(0), rules());
  for (const Event& e : events) {
    v.apply(e);
    views.push_back(v);
  }
  std::int64_t n = 0;
  for (auto _ : state) {
    Book b(Seat(0));
    GroupMask m;
    for (std::size_t i = 0; i < events.size(); ++i) m |= b.apply(views[i], events[i]);
    benchmark::DoNotOptimize(m);
    n += static_cast<std::int64_t>(events.size());
  }
  state.SetItemsProcessed(n);
}

void BM_BatchFull(benchmark::State& state) {
  const auto& snaps = decision_points_of(Kind::any_decision);
  ObsBatch batch(256);
  std::size_t i = 0;
  for (auto _ : state) {
    if (batch.full()) batch.clear();
    batch.add_full(snaps[i].obs.view(), snaps[i].obs.encoder().book());
    if (++i == snaps.size()) i = 0;
  }
  benchmark::DoNotOptimize(batch.data());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void BM_BatchIncremental(benchmark::State& state) {
  std::vector<DecisionPoint> snaps = decision_points_of(Kind::after_other_discard);
  std::vector<Encoder> encs;
  for (const DecisionPoint& s : snaps) encs.push_back(s.obs.encoder());
  ObsBatch batch(256);
  std::size_t i = 0;
  for (auto _ : state) {
    if (batch.full()) batch.clear();
    encs[i].invalidate(snaps[i].touched);
    batch.add(encs[i], snaps[i].obs.view());
    if (++i == snaps.size()) i = 0;
  }
  benchmark::DoNotOptimize(batch.data());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void BM_ReplayStream(benchmark::State& state) {
  const auto all = games(4);
  game::Legal legal;
  std::int64_t observations = 0;
  for (auto _ : state) {
    for (const auto& events : all) {
      std::vector<Observer> seats;
      for (int s = 0; s < 4; ++s) seats.emplace_back(Seat(s), rules());
      for (const Event& e : events)
        for (Observer& o : seats) {
          o.apply(e);
          o.view().legal(legal);
          if (legal.phase == game::Phase::idle) continue;
          benchmark::DoNotOptimize(o.encode().v.data());
          ++observations;
        }
    }
  }
  state.SetItemsProcessed(observations);
}

BENCHMARK(BM_EncodeFull);
BENCHMARK(BM_WriteGroup)->DenseRange(0, kNumGroups - 1);
BENCHMARK(BM_EncodeAfterDiscard);
BENCHMARK(BM_EncodeAfterOwnDraw);
BENCHMARK(BM_ObserveEvent);
BENCHMARK(BM_BatchFull);
BENCHMARK(BM_BatchIncremental);
BENCHMARK(BM_ReplayStream)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hydra::encoder

BENCHMARK_MAIN();
