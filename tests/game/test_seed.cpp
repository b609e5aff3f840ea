#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

// ---- SHA-256: FIPS 180-2 appendix B examples --------------------------------------------------

TEST(Sha256, Fips180Examples) {
  EXPECT_EQ(to_hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(to_hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  // One million 'a' (FIPS 180-2 B.3).
  EXPECT_EQ(to_hex(sha256(std::string(1000000, 'a'))), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// ---- KDF: expected digests from Python's hashlib over the documented byte layout --------------
// python3 -c "import hashlib,struct; le=lambda v: struct.pack('<Q', v);
//   g=hashlib.sha256(le(0)+b'game'+le(0)).digest(); print(g.hex());
//   print(hashlib.sha256(g+b'wall'+le(0)+le(0)).hexdigest()); ..."

TEST(Kdf, GameAndWallKeysMatchTheDocumentedLayout) {
  const GameKey g = game_key(MasterSeed{0}, 0);
  EXPECT_EQ(to_hex(g.bytes()), "7be89a8289a00dd815dac65cc75acc532776ee1f17a5d4f68e3782257a6c7b22");
  EXPECT_EQ(to_hex(wall_key(g, 0, 0).bytes()), "3f3c26ec502bca2f2a5210620ec23200eff0cbc369948090d9a3d74470cc5bc3");
  EXPECT_EQ(to_hex(game_key(MasterSeed{~std::uint64_t{0}}, 7).bytes()),
            "0b4566850bcb526236355184ac1eda3c65480c33d0eecc19b33bfc5e4f20f601");
  // sha256(le(5) + b'data-order' + le(2)) and sha256(game_key(0,0) + b'exploration' + le(1)).
  EXPECT_EQ(to_hex(stream_key(MasterSeed{5}, labels::data_order, {2}).bytes()),
            "38b1b78a59157d38732c808e1b0d268e348457cc43f6411b0754268b8097c1b0");
  EXPECT_EQ(to_hex(derive(g, labels::exploration, {1}).bytes()),
            "29204987a01480fd01dd24de4b35bfc20f6b0900e92b3d9876158a9b686565ec");
  // The wall key is the general child derivation with the "wall" label.
  EXPECT_EQ(wall_key(g, 5, 2).bytes(), derive(g, labels::wall, {5, 2}).bytes());
}

TEST(Kdf, NeighbouringInputsGiveUnrelatedKeys) {
  // Never seed + i: every (game, kyoku, honba) and every stream gets a distinct key.
  std::set<Digest> keys;
  for (std::uint64_t game = 0; game < 4; ++game) {
    const GameKey g = game_key(MasterSeed{1}, game);
    keys.insert(g.bytes());
    for (std::uint64_t kyoku = 0; kyoku < 8; ++kyoku)
      for (std::uint64_t honba = 0; honba < 4; ++honba) keys.insert(wall_key(g, kyoku, honba).bytes());
  }
  for (auto label : labels::all) keys.insert(stream_key(MasterSeed{1}, label).bytes());
  // Index-free stream keys hash fewer bytes than any game key, so all of these differ.
  EXPECT_EQ(keys.size(), 4u + 4u * 8u * 4u + labels::all.size());
}

TEST(Kdf, LabelsAreNotPrefixesOfEachOther) {
  for (auto a : labels::all)
    for (auto b : labels::all)
      if (a != b) {
        EXPECT_FALSE(b.starts_with(a)) << a << " / " << b;
      }
}

// ---- xoshiro256**: reference outputs -----------------------------------------------------------
// From a Python transcription of the reference C code (tests/game/data/make_walls_golden.py):
//   r.s = [1, 2, 3, 4]; [r.next() for _ in range(6)]
//   r = Xoshiro256ss(sha256(b'abc')); [r.next() ...], [r.below(136) ...], [r.below(3) ...]

TEST(Xoshiro, ReferenceOutputsForAKnownState) {
  auto r = Xoshiro256ss::from_state({1, 2, 3, 4});
  const std::vector<std::uint64_t> want = {11520ULL, 0ULL, 1509978240ULL, 1215971899390074240ULL,
                                           1216172134540287360ULL, 607988272756665600ULL};
  for (std::uint64_t w : want) EXPECT_EQ(r.next(), w);
}

TEST(Xoshiro, SeededFromAKeyLittleEndian) {
  Xoshiro256ss r(sha256("abc"));
  EXPECT_EQ(r.next(), 0x8c534008a5bc398fULL);
  EXPECT_EQ(r.next(), 0xd5b20b11da9f9a7dULL);
  EXPECT_EQ(r.next(), 0x1732c49f70a53d64ULL);
  Xoshiro256ss b(sha256("abc"));
  for (std::uint32_t w : {74u, 113u, 12u, 135u, 1u, 121u, 52u, 48u, 94u, 106u}) EXPECT_EQ(b.below(136), w);
  Xoshiro256ss c(sha256("abc"));
  for (std::uint32_t w : {1u, 2u, 0u, 2u, 0u, 2u, 1u, 1u, 2u, 2u}) EXPECT_EQ(c.below(3), w);
}

TEST(Xoshiro, StateRoundTrips) {
  Xoshiro256ss a(sha256("state"));
  for (int i = 0; i < 10; ++i) a.next();
  auto b = Xoshiro256ss::from_state(a.state());
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.next(), b.next());
  EXPECT_THROW(Xoshiro256ss::from_state({0, 0, 0, 0}), InvariantError);
}

// ---- Bounded sampling: unbiased (statistical invariants with a fixed seed) ---------------------

double chi_square(const std::vector<long>& counts, double expected) {
  double x = 0;
  for (long c : counts) x += (static_cast<double>(c) - expected) * (static_cast<double>(c) - expected) / expected;
  return x;
}

TEST(BoundedSampling, HugeBoundIsUnbiased) {
  // bound = 3 * 2^30 is where shortcuts fail loudly: `x % bound` doubles the weight of the first
  // third; multiply-shift without rejection doubles every third value (r mod 3 == 2 gets 1/2).
  // With rejection every result has exactly one accepted 32-bit input.
  Xoshiro256ss r(sha256("bounded-huge"));
  constexpr std::uint32_t bound = 3U << 30;
  constexpr long n = 600000;
  std::vector<long> third(3), mod3(3);
  for (long i = 0; i < n; ++i) {
    const std::uint32_t v = r.below(bound);
    ASSERT_LT(v, bound);
    ++third[v / (1U << 30)];
    ++mod3[v % 3];
  }
  // Chi-square with 2 degrees of freedom: 13.8 is the 0.1% tail. A biased sampler scores in the
  // tens of thousands here.
  EXPECT_LT(chi_square(third, n / 3.0), 13.8);
  EXPECT_LT(chi_square(mod3, n / 3.0), 13.8);
}

TEST(BoundedSampling, WallSizedBoundsAreUniform) {
  Xoshiro256ss r(sha256("bounded-136"));
  constexpr long per = 10000;
  std::vector<long> counts(136);
  for (long i = 0; i < 136 * per; ++i) ++counts[r.below(136)];
  // 135 degrees of freedom: the 0.1% tail is at 186.
  EXPECT_LT(chi_square(counts, per), 186.0);
  Xoshiro256ss one(sha256("one"));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(one.below(1), 0u);
}

TEST(Shuffle, AllPermutationsOfFourEquallyLikely) {
  Xoshiro256ss r(sha256("shuffle-4"));
  constexpr long n = 240000;
  std::vector<long> counts(24);
  for (long i = 0; i < n; ++i) {
    std::array<int, 4> a = {0, 1, 2, 3};
    shuffle(std::span<int>(a), r);
    // Lehmer code of the permutation -> 0..23.
    int code = 0;
    for (int k = 0; k < 4; ++k) {
      int smaller = 0;
      for (int j = k + 1; j < 4; ++j) smaller += a[ix(j)] < a[ix(k)];
      code = code * (4 - k) + smaller;
    }
    ++counts[ix(code)];
  }
  // 23 degrees of freedom: the 0.1% tail is at 49.7.
  EXPECT_LT(chi_square(counts, n / 24.0), 49.7);
}

}  // namespace
}  // namespace hydra::game
