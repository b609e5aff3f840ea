// Tenhou's wall generator (tenhou_wall.hpp): MT19937 with init_by_array, SHA-512 (OpenSSL EVP)
// over blocks of its output, and the swap shuffle of the 136 tile ids.

#include "hydra/data/tenhou_wall.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "hydra/common/error.hpp"
#include "hydra/common/text.hpp"
#include "hydra/common/index.hpp"

namespace hydra::data::tenhou {
namespace {

constexpr std::size_t kSeedBytes = kSeedWords * 4;  // 2,496
constexpr int kMtWordsPerKyoku = 288;
constexpr std::size_t kHashBlockBytes = 128;     // SHA-512 input per digest: 32 MT words
constexpr std::size_t kDigestBytes = 64;         // one digest: 16 rnd words
constexpr int kRndWords = kMtWordsPerKyoku / 2;  // 144

constexpr std::string_view kBase64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Standard base64 (RFC 4648: 4-character groups, '=' padding only at the end), decoded by
// OpenSSL's EVP_DecodeBlock after the checks that let an error say what is wrong; `what` names
// the text in errors.
std::string decode_base64(std::string_view text, const std::string& what) {
  std::size_t end = text.size();
  while (end > 0 && text[end - 1] == '=' && text.size() - end < 2) --end;
  if (const auto bad = text.substr(0, end).find_first_not_of(kBase64Alphabet); bad != std::string_view::npos)
    throw Error(what + ": '" + text::excerpt(text.substr(bad, 1)) + "' at base64 character " + std::to_string(bad + 1) +
                " is not a base64 character");
  if (text.size() % 4 != 0)
    throw Error(what + ": " + std::to_string(text.size()) + " base64 characters, not a multiple of 4 (truncated?)");
  // A padded group's last character may carry no bits beyond the data (RFC 4648 canonical form).
  if (const std::size_t pad = text.size() - end; pad > 0 && end > 0) {
    const auto last = kBase64Alphabet.find(text[end - 1]);
    if ((last & ((1u << (2 * pad)) - 1)) != 0)
      throw Error(what + ": the last base64 character has bits set beyond the data");
  }
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0 || ix(n) != out.size()) throw Error(what + ": not valid base64");
  // EVP_DecodeBlock counts the bytes of a padded group as three; the '=' characters stand for none.
  out.resize(out.size() - (text.size() - end));
  return out;
}

std::uint32_t load_le32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 | static_cast<std::uint32_t>(p[2]) << 16 |
         static_cast<std::uint32_t>(p[3]) << 24;
}

}  // namespace

ShuffleSeed parse_shuffle_seed(std::string_view seed) {
  const std::string what = "SHUFFLE seed";
  if (!seed.starts_with(kShufflePrefix)) {
    if (seed.starts_with(kHexShufflePrefix))
      throw Error(what + ": the older hex form '" + std::string(kHexShufflePrefix) +
                  "...' is not supported (only '" + std::string(kShufflePrefix) + "...')");
    throw Error(what + " '" + text::excerpt(seed, 40) + "': unknown generator, expected the prefix '" +
                std::string(kShufflePrefix) + "'");
  }
  const std::string bytes = decode_base64(seed.substr(kShufflePrefix.size()), what);
  if (bytes.size() != kSeedBytes)
    throw Error(what + ": " + std::to_string(bytes.size()) + " bytes after base64 decoding, expected " +
                std::to_string(kSeedBytes) + " (" + std::to_string(kSeedWords) + " 32-bit words)");
  ShuffleSeed words{};
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = load_le32(data + 4 * i);
  return words;
}

// --- MT19937, transcribed from the algorithm of mt19937ar.c (Matsumoto and Nishimura, 2002) ---

Mt19937ar::Mt19937ar(std::uint32_t seed) { init_genrand(seed); }

Mt19937ar::Mt19937ar(std::span<const std::uint32_t> key) {
  HYDRA_CHECK(!key.empty(), "init_by_array needs a key");
  init_genrand(19650218u);
  std::size_t i = 1, j = 0;
  for (std::size_t k = std::max(kN, key.size()); k > 0; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] + static_cast<std::uint32_t>(j);
    ++i;
    ++j;
    if (i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
    if (j >= key.size()) j = 0;
  }
  for (std::size_t k = kN - 1; k > 0; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) - static_cast<std::uint32_t>(i);
    ++i;
    if (i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
  }
  mt_[0] = 0x80000000u;  // the most significant bit: a non-zero initial state
}

void Mt19937ar::init_genrand(std::uint32_t seed) {
  mt_[0] = seed;
  for (std::size_t i = 1; i < kN; ++i)
    mt_[i] = 1812433253u * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
  i_ = kN;
}

void Mt19937ar::twist() {
  constexpr std::size_t kM = 397;
  constexpr std::uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;
  for (std::size_t k = 0; k < kN; ++k) {
    const std::uint32_t y = (mt_[k] & kUpper) | (mt_[(k + 1) % kN] & kLower);
    mt_[k] = mt_[(k + kM) % kN] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
  }
  i_ = 0;
}

std::uint32_t Mt19937ar::next() {
  if (i_ >= kN) twist();
  std::uint32_t y = mt_[i_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

// --- one kyoku ---

TenhouWall WallGenerator::next() {
  std::array<unsigned char, kMtWordsPerKyoku * 4> src{};
  for (std::size_t i = 0; i < kMtWordsPerKyoku; ++i) {
    const std::uint32_t w = mt_.next();
    for (std::size_t b = 0; b < 4; ++b) src[4 * i + b] = static_cast<unsigned char>(w >> (8 * b));
  }
  std::array<unsigned char, kRndWords * 4> digests{};
  for (std::size_t block = 0; block * kHashBlockBytes < src.size(); ++block) {
    unsigned int len = 0;
    const bool ok = EVP_Digest(src.data() + block * kHashBlockBytes, kHashBlockBytes, digests.data() + block * kDigestBytes,
                               &len, EVP_sha512(), nullptr) == 1;
    HYDRA_CHECK(ok && len == kDigestBytes, "SHA-512 failed");
  }
  std::array<std::uint32_t, kRndWords> rnd{};
  for (std::size_t i = 0; i < rnd.size(); ++i) rnd[i] = load_le32(digests.data() + 4 * i);

  TenhouWall w;
  for (int i = 0; i < game::kNumTiles; ++i) w.yama[ix(i)] = game::Tile(i);
  for (std::size_t i = 0; i + 1 < w.yama.size(); ++i) {
    const std::size_t j = i + rnd[i] % (w.yama.size() - i);
    std::swap(w.yama[i], w.yama[j]);
  }
  w.dice = {static_cast<int>(rnd[135] % 6) + 1, static_cast<int>(rnd[136] % 6) + 1};
  return w;
}

std::array<game::Tile, 13> TenhouWall::haipai(int seat_offset) const {
  std::array<game::Tile, 13> hand{};
  for (int k = 0; k < 13; ++k)
    hand[ix(k)] = yama[static_cast<std::size_t>(yama_index(game::Wall::deal_index(seat_offset, k)))];
  return hand;
}

game::Tile TenhouWall::live_draw(int k) const {
  return yama[static_cast<std::size_t>(yama_index(game::Wall::kLiveBegin + k))];
}
game::Tile TenhouWall::rinshan(int kan) const {
  return yama[static_cast<std::size_t>(yama_index(game::Wall::rinshan_index(kan)))];
}
game::Tile TenhouWall::dora_indicator(int i) const {
  return yama[static_cast<std::size_t>(yama_index(game::Wall::dora_index(i)))];
}
game::Tile TenhouWall::ura_indicator(int i) const {
  return yama[static_cast<std::size_t>(yama_index(game::Wall::ura_index(i)))];
}

game::Wall::Tiles TenhouWall::to_game_wall() const {
  game::Wall::Tiles tiles{};
  for (int i = 0; i < game::kNumTiles; ++i) tiles[ix(i)] = yama[static_cast<std::size_t>(yama_index(i))];
  return tiles;
}

}  // namespace hydra::data::tenhou
