// Book: the encoder's per-event bookkeeping, and which channel groups each event touches.

#include "hydra/encoder/book.hpp"

#include "hydra/game/shanten.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {
namespace {

using game::EventType;

constexpr std::uint64_t bit(game::TileType t) { return std::uint64_t{1} << t.index(); }

GroupMask groups(std::initializer_list<Group> gs) {
  GroupMask m;
  for (Group g : gs) m.set(g);
  return m;
}

// Everything the observer's own tiles feed: hand and red fives, own meld thermometer, drawn
// tile, shanten; safety too, since the visible counts include the own hand and melds.
const GroupMask kOwnHandChange = groups({Group::hand, Group::open_melds, Group::drawn, Group::shanten, Group::safety});

}  // namespace

GroupMask Book::apply(const game::PlayerView& view, const game::Event& e) {
  const bool mine = e.actor == me_;
  switch (e.type) {
    case EventType::none:
    case EventType::end_kyoku:
    case EventType::end_game:
      return {};
    case EventType::start_game:
      *this = Book(me_);
      return GroupMask::all();
    case EventType::start_kyoku:
      start_kyoku(view, e);
      return GroupMask::all();
    case EventType::tsumo:
      // Another seat's draw shows nothing: not even its tile enters any channel.
      if (!mine) return {};
      see(e.pai.type());
      drawn_ = e.pai;
      shanten_before_ = shanten13_;
      return groups({Group::hand, Group::drawn, Group::shanten, Group::safety});
    case EventType::dahai: {
      GroupMask m = groups({Group::discards, Group::safety});
      m.set_seats(discard(e));
      if (!mine) {
        see(e.pai.type());
        return m;
      }
      drawn_ = game::Pai::unknown();
      shanten13_ = game::shanten_best(view.hand().closed);
      m |= groups({Group::hand, Group::drawn, Group::shanten});
      return m;
    }
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan: {
      ++at(e.actor).open_melds;
      GroupMask m = groups({Group::melds, Group::safety});
      m.set_seat(e.actor.index());  // its tenpai estimate
      if (!mine) {
        for (game::Pai p : e.consumed) see(p.type());
        return m;
      }
      drawn_ = game::Pai::unknown();
      shanten_before_ = shanten13_;
      // A daiminkan leaves 3n+1 closed tiles; its rinshan draw then counts as the draw.
      if (e.type == EventType::daiminkan) shanten13_ = game::shanten_best(view.hand().closed);
      m |= kOwnHandChange;
      return m;
    }
    case EventType::kakan:
    case EventType::ankan: {
      GroupMask m = groups({Group::melds, Group::safety});
      // The kakan tile passes every riichi seat (a chankan chance they did not take).
      if (e.type == EventType::kakan) m.set_seats(pass_to_riichi(e.pai.type()));
      if (!mine) {
        if (e.type == EventType::kakan) see(e.pai.type());
        else see(e.consumed[0].type(), 4);
        return m;
      }
      drawn_ = game::Pai::unknown();
      shanten13_ = game::shanten_best(view.hand().closed);
      m |= kOwnHandChange;
      return m;
    }
    case EventType::dora:
      see(e.dora_marker.type());
      return groups({Group::dora, Group::safety});
    case EventType::reach:
    {
      at(e.actor).riichi = true;
      GroupMask m = groups({Group::meta, Group::safety});
      m.set_seat(e.actor.index());
      return m;
    }
    case EventType::reach_accepted:
    case EventType::hora:
    case EventType::ryukyoku:
      return groups({Group::meta});
  }
  return GroupMask::all();
}

Book Book::for_seat(const game::PlayerView& mine, const game::PlayerView& theirs) const {
  Book b(theirs.seat());
  b.seats_ = seats_;
  for (std::size_t t = 0; t < b.visible_.size(); ++t)
    b.visible_[t] = static_cast<std::uint8_t>(visible_[t] - mine.hand().closed[t] + theirs.hand().closed[t]);
  b.drawn_ = game::Pai::unknown();
  b.shanten13_ = game::shanten_best(theirs.hand().closed);
  b.shanten_before_ = b.shanten13_;
  return b;
}

void Book::start_kyoku(const game::PlayerView& view, const game::Event& e) {
  seats_ = {};
  visible_ = view.hand().closed;  // the view checked the dealt hand
  see(e.dora_marker.type());
  drawn_ = game::Pai::unknown();
  shanten13_ = game::shanten_best(view.hand().closed);
  shanten_before_ = shanten13_;
}

unsigned Book::discard(const game::Event& e) {
  SeatBook& b = at(e.actor);
  const game::TileType t = e.pai.type();
  // Passes every seat whose declaration tile is already out (the discarder's own later discards
  // included); the declaration tile itself is a discard, not a passed tile.
  const unsigned seats = pass_to_riichi(t) | (1U << e.actor.index());
  if (b.riichi) b.riichi_tile = true;
  const auto i = ix(t.index());
  b.discarded |= bit(t);
  b.last[i] = b.river;
  if (!e.tsumogiri) {
    b.tedashi |= bit(t);
    b.last_tedashi[i] = b.river;
  }
  ++b.river;
  return seats;
}

unsigned Book::pass_to_riichi(game::TileType t) {
  unsigned seats = 0;
  for (int i = 0; i < game::kNumSeats; ++i) {
    SeatBook& s = seats_[ix(i)];
    if (s.riichi && s.riichi_tile) {
      s.passed |= bit(t);
      seats |= 1U << i;
    }
  }
  return seats;
}

}  // namespace hydra::encoder
