// Random-string fuzzing of the tile parsers: whatever the text, parse_compact / parse_mjai /
// parse_counts either return a valid result or throw hydra::Error, never crash or throw anything
// else. Run under ASan + UBSan by `scripts/test.sh --sanitize address`.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/tile.hpp"

namespace hydra::game {
namespace {

// Half the strings are noise over the notation's alphabet plus any byte (NUL and high bytes
// included); the other half are well-formed compact groups ("406p", "77z"), sometimes with one
// byte overwritten, so the parsers' deeper paths (digit runs, honour ranges, red fives, fifth
// copies) are reached as often as the first error check.
std::string random_text(Xoshiro256ss& rng) {
  static constexpr std::string_view kAlphabet = "0123456789mpsz?rESWNPFC ";
  std::string s;
  if (rng.below(2) == 0) {
    const std::uint32_t len = rng.below(24);
    for (std::uint32_t i = 0; i < len; ++i) {
      if (rng.below(8) == 0)
        s.push_back(static_cast<char>(rng.below(256)));
      else
        s.push_back(kAlphabet[rng.below(static_cast<std::uint32_t>(kAlphabet.size()))]);
    }
    return s;
  }
  const std::uint32_t groups = 1 + rng.below(4);
  for (std::uint32_t g = 0; g < groups; ++g) {
    const std::uint32_t digits = 1 + rng.below(5);
    for (std::uint32_t d = 0; d < digits; ++d) s.push_back(static_cast<char>('0' + rng.below(10)));
    s.push_back("mpsz"[rng.below(4)]);
  }
  if (rng.below(4) == 0) s[rng.below(static_cast<std::uint32_t>(s.size()))] = static_cast<char>(rng.below(256));
  return s;
}

std::vector<int> sorted_indices(const std::vector<Pai>& tiles) {
  std::vector<int> v;
  for (Pai p : tiles) v.push_back(p.index());
  std::sort(v.begin(), v.end());
  return v;
}

template <class F>
void expect_value_or_error(F parse, const std::string& text, int& accepted) {
  try {
    parse(text);
    ++accepted;
  } catch (const Error&) {
    // The one allowed failure.
  } catch (const std::exception& e) {
    ADD_FAILURE() << "non-hydra exception for '" << text << "': " << e.what();
  }
}

TEST(TileFuzz, ParsersOnlyThrowHydraError) {
  Xoshiro256ss rng(sha256("tile-fuzz"));
  int compact_ok = 0, mjai_ok = 0, counts_ok = 0;
  for (int i = 0; i < 100000; ++i) {
    const std::string text = random_text(rng);
    expect_value_or_error([](const std::string& s) {
      // A parse that succeeds round-trips through the formatter to the same tiles.
      const std::vector<Pai> tiles = parse_compact(s);
      if (tiles.empty()) throw Error("empty");  // counted as a rejection: only real successes count
      for (Pai p : tiles) EXPECT_FALSE(p.is_unknown());
      EXPECT_EQ(sorted_indices(parse_compact(to_compact(tiles))), sorted_indices(tiles)) << s;
    }, text, compact_ok);
    expect_value_or_error([](const std::string& s) {
      const Pai p = parse_mjai(s);
      EXPECT_EQ(mjai_name(p), s);  // only exact names parse
    }, text, mjai_ok);
    expect_value_or_error([](const std::string& s) {
      const TileCounts c = parse_counts(s);
      for (auto v : c) EXPECT_LE(v, 4);
    }, text, counts_ok);
  }
  // The generator must reach the success paths too, or it tests only the first error check
  // (about a quarter of the strings parse as compact notation, 2% as an mjai name).
  EXPECT_GT(compact_ok, 10000);
  EXPECT_GT(mjai_ok, 1000);
  EXPECT_GT(counts_ok, 10000);
}

}  // namespace
}  // namespace hydra::game
