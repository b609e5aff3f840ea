#pragma once

// The per-seat observation encoder (docs/ENCODER.md).
//
//   Encoder enc(seat);                 // one per observing seat
//   view.apply(e); enc.observe(view, e);   // for every event, after the seat's view applied it
//   const Obs& o = enc.encode(view);   // at a decision: rewrites only the dirty groups
//
// observe() updates the bookkeeping (book.hpp) and marks the channel groups the event touched;
// encode() rewrites exactly those groups in the kept planes. encode_full() writes every group
// from the same state into any buffer: the reference that incremental encoding must equal bit
// for bit. Nothing here allocates.

#include "hydra/encoder/book.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/view.hpp"

namespace hydra::encoder {

// Writes the channels of group `g` (and nothing else) from the observer's view and bookkeeping;
// for the per-player groups only the planes of the seats in `seats` (bit s: seat s).
void write_group(Group g, const game::PlayerView& view, const Book& book, float* obs, unsigned seats = 0xF);
// All 85 channels, from scratch.
void encode_full(const game::PlayerView& view, const Book& book, float* obs);

class Encoder {
 public:
  explicit Encoder(game::Seat me) : book_(me) {}
  // An encoder that starts from this bookkeeping (Book::for_seat); every group is written at the
  // first encode().
  explicit Encoder(const Book& book) : book_(book) {}

  game::Seat seat() const { return book_.me(); }
  void observe(const game::PlayerView& view, const game::Event& e) { dirty_ |= book_.apply(view, e); }
  // Rewrites the dirty groups and returns the planes (valid until the next observe()).
  const Obs& encode(const game::PlayerView& view);
  // encode(), then one copy into `dst` (kObsSize floats), e.g. a slot of a batch buffer.
  void encode_into(const game::PlayerView& view, float* dst);

  // Marks groups for rewriting at the next encode() (after the planes were overwritten from
  // outside; benchmarks use it to repeat one update).
  void invalidate(GroupMask groups) { dirty_ |= groups; }

  const Book& book() const { return book_; }
  GroupMask dirty() const { return dirty_; }
  const Obs& planes() const { return planes_; }

 private:
  Book book_;
  GroupMask dirty_ = GroupMask::all();
  Obs planes_;
};

// A seat's view and encoder fed together: for log replays, tests and tools that do not already
// hold views (the table keeps its own views; self-play pairs them with Encoders directly).
class Observer {
 public:
  Observer(game::Seat me, const game::TableRules& rules) : view_(me, rules), enc_(me) {}
  void apply(const game::Event& e) {
    view_.apply(e);
    enc_.observe(view_, e);
  }
  const Obs& encode() { return enc_.encode(view_); }
  void encode_full(float* obs) const { encoder::encode_full(view_, enc_.book(), obs); }
  const game::PlayerView& view() const { return view_; }
  const Encoder& encoder() const { return enc_; }

 private:
  game::PlayerView view_;
  Encoder enc_;
};

}  // namespace hydra::encoder
