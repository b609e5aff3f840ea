#pragma once

// The encoder's own bookkeeping for one observing seat: what the planes need beyond the engine's
// PlayerView, kept up to date event by event (never recomputed from the whole history):
//   - per seat: the tile types in its river, those discarded from the hand (tedashi), the river
//     position of the latest discard and latest tedashi of each type, the riichi declaration and
//     the types passed since it (the inputs of the discard and safety channels);
//   - the tile types the observer can see, counted (own hand, rivers, every meld, dora
//     indicators: the kabe / one-chance channels);
//   - the observer's drawn tile and its shanten before the last draw or call (channels 8, 10).
// Only public information and the observer's own tiles enter; hidden fields of other seats
// (their dealt hands, their draws) are never read.

#include <array>
#include <cstdint>

#include "hydra/encoder/layout.hpp"
#include "hydra/game/event.hpp"
#include "hydra/game/view.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {

// Public facts about one seat's discards.
struct SeatBook {
  std::uint64_t discarded = 0;  // tile types in its river, called-away ones included
  std::uint64_t tedashi = 0;    // tile types it discarded from the hand (not the drawn tile)
  std::uint64_t passed = 0;     // tile types discarded by anyone, or added by a kakan, after its
                                // riichi declaration tile (it can no longer ron on them)
  std::array<std::int8_t, kTiles> last{};          // river index of the latest discard, -1 none
  std::array<std::int8_t, kTiles> last_tedashi{};  // river index of the latest tedashi, -1 none
  std::int8_t river = 0;        // discards so far in the kyoku
  std::uint8_t open_melds = 0;  // chi, pon, daiminkan (a kakan upgrades a pon: not counted again)
  bool riichi = false;          // declared (reach event seen)
  bool riichi_tile = false;     // the declaration tile has been discarded

  SeatBook() { last.fill(-1); last_tedashi.fill(-1); }
};

class Book {
 public:
  explicit Book(game::Seat me) : me_(me) {}

  // Applies one event; `view` is the observer's view after it applied the same event. Returns the
  // groups whose channels the event may have changed (and, for the per-player groups, whose
  // planes).
  GroupMask apply(const game::PlayerView& view, const game::Event& e);

  // The bookkeeping `other` would keep, from this one and the two seats' views: everything
  // public is the same for every observer (the per-seat facts, the visible counts less the own
  // closed tiles); the own part comes from `theirs`: its closed tiles, its shanten, no drawn
  // tile, and its shanten before the last draw taken as its shanten now (the true one needs its
  // past draws). For a search's deal of the tiles this seat cannot see (Table::redeal_hidden),
  // where `theirs` holds a dealt hand; `mine` is this seat's view.
  Book for_seat(const game::PlayerView& mine, const game::PlayerView& theirs) const;

  game::Seat me() const { return me_; }
  const SeatBook& seat(game::Seat s) const { return seats_[ix(s.index())]; }
  const game::TileCounts& visible() const { return visible_; }
  game::Pai drawn() const { return drawn_; }
  int shanten_before() const { return shanten_before_; }
  // Best shanten of the own hand as last held with 3n+1 closed tiles: while the hand holds 3n+1
  // tiles it is that hand's shanten_best (kept at every event that leaves 3n+1 tiles).
  int shanten13() const { return shanten13_; }

 private:
  SeatBook& at(game::Seat s) { return seats_[ix(s.index())]; }
  void see(game::TileType t, int n = 1) { visible_[ix(t.index())] = static_cast<std::uint8_t>(visible_[ix(t.index())] + n); }
  void start_kyoku(const game::PlayerView& view, const game::Event& e);
  // Both return the seats whose per-seat planes changed (bit s: seat s).
  unsigned discard(const game::Event& e);
  unsigned pass_to_riichi(game::TileType t);

  game::Seat me_;
  std::array<SeatBook, game::kNumSeats> seats_{};
  game::TileCounts visible_{};
  game::Pai drawn_ = game::Pai::unknown();
  int shanten13_ = 8;       // best shanten of the own 3n+1 hand, as last held
  int shanten_before_ = 8;  // shanten13_ at the last own draw or chi/pon
};

}  // namespace hydra::encoder
