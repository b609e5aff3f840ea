#pragma once

// Deterministic seeding: a SHA-256 key-derivation tree rooted at one 64-bit master seed.
//
//   game key   = SHA-256( LE64(master) || "game" || LE64(game_index) )
//   wall key   = SHA-256( game key (32 bytes) || "wall" || LE64(kyoku) || LE64(honba) )
//   stream key = SHA-256( LE64(master) || label || LE64(index)... )        (stream_key)
//   child key  = SHA-256( parent key (32 bytes) || label || LE64(index)... ) (derive)
//
// LE64 = the integer as 8 bytes, little-endian; labels are their ASCII bytes, no terminator or
// length. Every integer in the tree is a u64 so there is exactly one encoding. `kyoku` is the round
// index of the game (E1 = 0 ... E4 = 3, S1 = 4 ... S4 = 7, W1 = 8 ... N4 = 15); (round, honba)
// names a kyoku uniquely within a game, and a duplicate replay of the same game reuses its walls.
// Labels are a fixed list (below), none a prefix of another, so no two paths hash the same bytes.
// The same master seed gives the same keys on every platform and thread count.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

namespace hydra::game {

struct MasterSeed {
  std::uint64_t value = 0;
  friend constexpr bool operator==(MasterSeed, MasterSeed) = default;
};

using Digest = std::array<std::uint8_t, 32>;

// SHA-256 of a byte string (OpenSSL EVP).
Digest sha256(std::span<const std::uint8_t> bytes);
Digest sha256(std::string_view text);
std::string to_hex(const Digest& d);

// A 32-byte key. The tag keeps a game key from being used where a wall key is expected.
template <class Tag>
class Key {
 public:
  constexpr Key() = default;
  constexpr explicit Key(const Digest& bytes) : bytes_(bytes) {}
  constexpr const Digest& bytes() const { return bytes_; }
  friend constexpr bool operator==(const Key&, const Key&) = default;

 private:
  Digest bytes_{};
};

using GameKey = Key<struct GameKeyTag>;
using WallKey = Key<struct WallKeyTag>;
using StreamKey = Key<struct StreamKeyTag>;

// Fixed labels. Stream labels are the independent random streams of a run: changing how one
// is consumed never shifts another.
namespace labels {
inline constexpr std::string_view game = "game";
inline constexpr std::string_view wall = "wall";
inline constexpr std::string_view network_init = "network-init";
inline constexpr std::string_view data_order = "data-order";
inline constexpr std::string_view augmentation = "augmentation";
inline constexpr std::string_view exploration = "exploration";
inline constexpr std::string_view opponent_pool = "opponent-pool";
inline constexpr std::string_view critic_init = "critic-init";
inline constexpr std::string_view critic_order = "critic-order";
inline constexpr std::string_view branch = "branch";  // the alternative action of a paired branch
inline constexpr std::string_view play_out = "play-out";  // the walls of a greedy play-out
inline constexpr std::string_view search = "search";      // the deals and streams of a search agent's play-outs
inline constexpr std::string_view learn_rows = "learn-rows";  // the decisions the learner keeps (ppo.unplayed_share)
// The master seed of rank R's actors in a data-parallel run, R >= 1 (rank 0 plays on the master
// seed itself): stream_key(master, rank, {R}). Not a stream of one run, so not in `all`.
inline constexpr std::string_view rank = "rank";
inline constexpr std::array<std::string_view, 13> all = {game,          wall,        network_init, data_order,
                                                         augmentation,  exploration, opponent_pool, critic_init,
                                                         critic_order,  branch,      play_out,      search,
                                                         learn_rows};
}  // namespace labels

GameKey game_key(MasterSeed master, std::uint64_t game_index);
WallKey wall_key(const GameKey& game, std::uint64_t kyoku, std::uint64_t honba);

// A stream straight under the master seed, e.g. stream_key(m, labels::data_order, epoch).
StreamKey stream_key(MasterSeed master, std::string_view label, std::initializer_list<std::uint64_t> indices = {});

// A child of any key, e.g. derive(game, labels::exploration, seat).
StreamKey derive_bytes(std::span<const std::uint8_t> parent, std::string_view label,
                       std::initializer_list<std::uint64_t> indices);
template <class Tag>
StreamKey derive(const Key<Tag>& parent, std::string_view label, std::initializer_list<std::uint64_t> indices = {}) {
  return derive_bytes(parent.bytes(), label, indices);
}

// Bytes [8*word, 8*word + 8) of a digest as a little-endian integer: how a key becomes a seed
// (u64(stream_key(...).bytes()) for torch::manual_seed, network init) or a generator word.
std::uint64_t u64(const Digest& d, std::size_t word = 0);

// SHA-256(key || name) read as a fraction of 2^64, in [0, 1): the seeded hash split of a corpus
// (a file is in the validation split when hash_fraction(key, name) < val_fraction; hydra
// pretrain and hydra grp split the same files the same way for the same seed).
double hash_fraction(const StreamKey& key, std::string_view name);

// A fresh master seed from the OS entropy source (for runs started without one; log it).
MasterSeed random_master_seed();

}  // namespace hydra::game
