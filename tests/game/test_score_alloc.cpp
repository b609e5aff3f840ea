// Scoring allocates nothing: the global operator new of this test binary counts calls, and
// scoring every kind of hand (closed, open, kans, chiitoitsu, kokushi, yakuman, no yaku, not
// complete) must leave the count unchanged.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "hydra/game/agari.hpp"
#include "hydra/game/score.hpp"
#include "test_score_builder.hpp"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

// GCC (-O2, inlining gtest's `new TestClass`) cannot see that this operator new is malloc-backed
// and warns that the matching delete frees a mismatched allocation; they are a matched pair.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace hydra::game {
namespace {

using testing::WinOf;

TEST(ScoreAlloc, ScoringAndAgariAllocateNothing) {
  const std::vector<WinOf> wins = {
      WinOf("23m567m345p678s22p").win("4m").tsumo().riichi().dora("1m").ura("9p"),
      WinOf("567p678s34s55p").meld("m2-34").win("5s"),
      WinOf("999m123p456s7z").meld("z1111").win("7z").round(Wind::south).riichi(),
      WinOf("223344m556677p9s").win("9s"),
      WinOf("19m19p19s1234567z").win("1m"),
      WinOf("111222333444z5m").win("5m"),
      WinOf("234m456p789s1199s").win("1s"),
      WinOf("234m456p789s1357s").win("9s"),
  };
  std::vector<std::pair<Hand, WinContext>> inputs;
  for (const auto& w : wins) inputs.emplace_back(w.hand(), w.context());
  const ScoringRules& rules = rules_preset("tenhou").scoring;
  score_win(inputs[0].first, inputs[0].second, rules);  // anything lazily built, built now
  const long before = g_allocations.load();
  ASSERT_GT(before, 0);  // the counting operator new is the one in use
  int wins_seen = 0, complete = 0;
  for (const auto& [hand, ctx] : inputs) {
    wins_seen += score_win(hand, ctx, rules).is_win() ? 1 : 0;
    complete += is_agari(hand.closed) ? 1 : 0;
  }
  EXPECT_EQ(g_allocations.load(), before);
  EXPECT_EQ(wins_seen, 6);  // the last two: no yaku, not complete
  EXPECT_EQ(complete, 7);
}

}  // namespace
}  // namespace hydra::game
