#pragma once

// The observation layout (docs/ENCODER.md): 85 channels x 34 tile types of float, row-major
// `channel * 34 + tile`, from one seat's view. Players other than the observer are in relative
// order: 1 shimocha, 2 toimen, 3 kamicha (0 is the observer). docs/ENCODER.md has one row per
// channel with its exact definition, value range and the events that change it.
//
// Channels are grouped by what changes them; the incremental encoder rewrites a group only when
// an event marked it dirty.

#include <array>
#include <cstdint>

namespace hydra::encoder {

// The version of the observation layout (these planes and the score context of context.hpp, as
// docs/ENCODER.md defines them). Every checkpoint and export records the version it was trained
// on, and a network of another version is refused: raise it with any change to what a plane or a
// context value means, so an old network never reads observations it was not trained on.
inline constexpr int kVersion = 1;

inline constexpr int kChannels = 85;
inline constexpr int kTiles = 34;
inline constexpr int kObsSize = kChannels * kTiles;

// One observation. 64-byte aligned so whole-plane writes and copies stay on cache lines.
struct alignas(64) Obs {
  std::array<float, kObsSize> v{};
  float* plane(int channel) { return v.data() + channel * kTiles; }
  const float* plane(int channel) const { return v.data() + channel * kTiles; }
  float at(int channel, int tile) const { return v[static_cast<std::size_t>(channel * kTiles + tile)]; }
};

// First channel of each block.
namespace ch {
inline constexpr int kHand = 0;           // 4: closed hand thermometer
inline constexpr int kOwnMelds = 4;       // 4: own declared melds thermometer
inline constexpr int kDrawn = 8;
inline constexpr int kEfficient = 9;
inline constexpr int kProgress = 10;
inline constexpr int kRiver = 11;         // 4 players x {discarded, tedashi, recency}
inline constexpr int kMelds = 23;         // 4 players x {chi, pon, kan}
inline constexpr int kDora = 35;          // 5: indicator count thermometer
inline constexpr int kRed = 40;           // 3: red 5m 5p 5s held
inline constexpr int kRiichi = 43;        // 4 players
inline constexpr int kScore = 47;         // 4 players
inline constexpr int kScoreDiff = 51;     // 4 players
inline constexpr int kShanten = 55;       // 4: one-hot {0, 1, 2, >= 3}
inline constexpr int kRound = 59;
inline constexpr int kHonba = 60;
inline constexpr int kSticks = 61;
inline constexpr int kGenbutsu = 62;      // 3 opponents each from here on
inline constexpr int kTedashiSafe = 65;
inline constexpr int kRiichiSafe = 68;
inline constexpr int kSuji = 71;
inline constexpr int kHalfSuji = 74;
inline constexpr int kMatagi = 77;
inline constexpr int kKabe = 80;          // global
inline constexpr int kOneChance = 81;     // global
inline constexpr int kTenpai = 82;
}  // namespace ch

// What an event can change; each group owns a fixed set of channels (kGroupChannels).
enum class Group : std::uint8_t { hand, open_melds, drawn, shanten, discards, melds, dora, meta, safety };
inline constexpr int kNumGroups = 9;

// Dirty groups, and for the per-player groups (discards, safety) which absolute seats' planes
// changed: a discard rewrites the discarder's planes (and those of riichi seats it passed), not
// all four. The seat-independent parts of a dirty group are always rewritten.
class GroupMask {
 public:
  constexpr GroupMask() = default;
  static constexpr GroupMask all() { return GroupMask((1U << kNumGroups) - 1, 0xF); }
  constexpr void set(Group g) { bits_ |= static_cast<std::uint16_t>(1U << static_cast<unsigned>(g)); }
  constexpr void set_seat(int seat) { seats_ |= static_cast<std::uint8_t>(1U << seat); }
  constexpr void set_seats(unsigned seats) { seats_ |= static_cast<std::uint8_t>(seats); }
  constexpr bool test(Group g) const { return (bits_ >> static_cast<unsigned>(g)) & 1U; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr std::uint16_t bits() const { return bits_; }
  constexpr unsigned seats() const { return seats_; }  // bit s: seat s
  constexpr GroupMask& operator|=(GroupMask o) {
    bits_ |= o.bits_;
    seats_ |= o.seats_;
    return *this;
  }
  friend constexpr bool operator==(GroupMask, GroupMask) = default;

 private:
  constexpr GroupMask(unsigned bits, unsigned seats)
      : bits_(static_cast<std::uint16_t>(bits)), seats_(static_cast<std::uint8_t>(seats)) {}
  std::uint16_t bits_ = 0;
  std::uint8_t seats_ = 0;
};

// The group that writes each channel (every channel belongs to exactly one group).
constexpr Group group_of(int channel) {
  if (channel < ch::kOwnMelds) return Group::hand;
  if (channel < ch::kDrawn) return Group::open_melds;
  if (channel == ch::kDrawn) return Group::drawn;
  if (channel < ch::kRiver) return Group::shanten;
  if (channel < ch::kMelds) return Group::discards;
  if (channel < ch::kDora) return Group::melds;
  if (channel < ch::kRed) return Group::dora;
  if (channel < ch::kRiichi) return Group::hand;  // red fives: own tiles
  if (channel < ch::kShanten) return Group::meta;
  if (channel < ch::kRound) return Group::shanten;
  if (channel < ch::kGenbutsu) return Group::meta;
  return Group::safety;
}

// The documented closed range of each channel's values (checked by the tests and by
// `hydra replay --verify-encoder`). Scores: 100,000 points are in play and no single payment
// under any preset exceeds 300,000, so a score stays within [-300,000, 400,000]; honba and sticks
// are bytes in the event stream (at most 255).
struct Range {
  float lo = 0, hi = 1;
};
constexpr Range channel_range(int channel) {
  if (channel >= ch::kScore && channel < ch::kScoreDiff) return {-4.0F, 4.0F};
  if (channel >= ch::kScoreDiff && channel < ch::kShanten) return {-25.0F, 25.0F};
  if (channel == ch::kHonba || channel == ch::kSticks) return {0.0F, 25.5F};
  return {0.0F, 1.0F};
}

}  // namespace hydra::encoder
