// A table rebuilt from one seat's view of the kyoku in play (rebuild.hpp).

#include "hydra/game/rebuild.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/legal.hpp"
#include "tenpai_hand.hpp"

namespace hydra::game {
namespace {

constexpr int kNone = -1;

// Where every tile of the kyoku's wall goes: the places the events fix, then the rest.
class WallPlan {
 public:
  WallPlan(const TableRules& rules, Seat seat, std::span<const Event> events) : rules_(rules), seat_(seat) {
    tile_at_.fill(kNone);
    id_used_.fill(false);
    forbid_.fill(0);
    // The red fives last: placeholders take plain tiles first, so a red five goes to the end of
    // the wall rather than into a hand whose calls the table would then make with it (it
    // consumes a held red five first, legal.hpp).
    std::size_t n = 0;
    for (int id = 0; id < kNumTiles; ++id)
      if (!Tile(id).is_red()) order_[n++] = id;
    for (int id = 0; id < kNumTiles; ++id)
      if (Tile(id).is_red()) order_[n++] = id;
    for (std::size_t i = 0; i < events.size(); ++i) {
      at_ = i;
      place(events[i]);
    }
  }

  // Fills every place left (seats in riichi first, with tenpai hands) and returns the wall.
  Wall::Tiles fill(Xoshiro256ss& rng) {
    for (int s = 0; s < kNumSeats; ++s) {
      if (!riichi_slots_[ix(s)]) continue;
      std::vector<int> slots;
      for (const int pos : *riichi_slots_[ix(s)])
        if (tile_at_[ix(pos)] == kNone) slots.push_back(pos);
      if (slots.size() != riichi_slots_[ix(s)]->size())
        throw Error("rebuilding the kyoku: seat " + std::to_string(s) + " called a kan after its riichi");
      TileCounts left{};
      for (int id = 0; id < kNumTiles; ++id)
        if (!id_used_[ix(id)]) ++left[ix(id / 4)];
      // A random tenpai hand whose tiles fit the slots' constraints (a drawn slot does not hold
      // the tile discarded from the hand right after it), the most constrained slot first.
      std::stable_sort(slots.begin(), slots.end(),
                       [&](int x, int y) { return std::popcount(forbid_[ix(x)]) > std::popcount(forbid_[ix(y)]); });
      bool placed = false;
      for (int attempt = 0; attempt < 32 && !placed; ++attempt) {
        const auto hand = tenpai_hand(left, static_cast<int>(slots.size()), TileMask(), rng);
        if (!hand) break;
        TileCounts want = *hand;
        std::vector<Pai> tiles;
        for (const int id : order_)
          if (!id_used_[ix(id)] && want[ix(id / 4)] > 0) {
            --want[ix(id / 4)];
            tiles.push_back(seen(Tile(id)));
          }
        std::vector<Pai> dealt;
        for (const int pos : slots) {
          const auto it = std::find_if(tiles.begin(), tiles.end(), [&](Pai p) { return !forbidden(pos, p); });
          if (it == tiles.end()) break;
          dealt.push_back(*it);
          tiles.erase(it);
        }
        if (dealt.size() != slots.size()) continue;
        for (std::size_t k = 0; k < slots.size(); ++k) put(slots[k], dealt[k]);
        placed = true;
      }
      if (!placed) throw Error("rebuilding the kyoku: no tenpai hand is left for seat " + std::to_string(s) + "'s riichi");
    }
    for (int pos = 0; pos < kNumTiles; ++pos) {
      if (tile_at_[ix(pos)] != kNone) continue;
      int pick = kNone;
      for (std::size_t k = 0; k < order_.size() && pick == kNone; ++k)
        if (!id_used_[ix(order_[k])] && !forbidden(pos, seen(Tile(order_[k])))) pick = order_[k];
      if (pick == kNone) throw Error("rebuilding the kyoku: the unseen tiles cannot fill the wall");
      tile_at_[ix(pos)] = pick;
      id_used_[ix(pick)] = true;
    }
    Wall::Tiles out{};
    for (int pos = 0; pos < kNumTiles; ++pos) out[ix(pos)] = Tile(tile_at_[ix(pos)]);
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error("rebuilding the kyoku: event " + std::to_string(at_ + 1) + ": " + what);
  }
  Pai seen(Tile t) const { return rules_.red_fives ? Pai(t) : Pai(t.type()); }
  bool forbidden(int pos, Pai p) const { return (forbid_[ix(pos)] >> p.index()) & 1U; }
  void forbid(int pos, Pai p) { forbid_[ix(pos)] |= std::uint64_t{1} << p.index(); }
  // A call that took plain fives of a kind: the table takes a held red five first (legal.hpp),
  // so no tile the seat holds now is that red five.
  void no_red_held(Seat o, const Consumed& consumed) {
    for (const Pai p : consumed) {
      if (!rules_.red_fives || !p.type().is_five() || p.is_red()) continue;
      const Pai red(p.type(), true);
      if (std::find(consumed.begin(), consumed.end(), red) != consumed.end()) continue;
      for (const int pos : open_[ix(o)]) forbid(pos, red);
    }
  }

  // A free tile id of what the seats see as `p` (red five: its own id under red-five rules).
  int free_id(Pai p) const {
    const int base = 4 * p.type().index();
    for (int id = base; id < base + 4; ++id)
      if (!id_used_[ix(id)] && seen(Tile(id)) == p) return id;
    return kNone;
  }
  void put(int pos, Pai p) {
    if (p.is_unknown()) fail("a tile the seat saw is unknown");
    if (tile_at_[ix(pos)] != kNone) fail("wall place " + std::to_string(pos) + " is dealt twice");
    const int id = free_id(p);
    if (id == kNone) fail("more than four " + std::string(mjai_name(p)) + " (or a second red five)");
    tile_at_[ix(pos)] = id;
    id_used_[ix(id)] = true;
  }
  // Another seat shows `p` from its hand: the first slot it held since the deal that may be `p`.
  void from_hand(Seat o, Pai p) {
    auto& slots = open_[ix(o)];
    const auto it = std::find_if(slots.begin(), slots.end(), [&](int pos) { return !forbidden(pos, p); });
    if (it == slots.end()) fail("seat " + std::to_string(o.index()) + " shows a tile it cannot hold");
    const int pos = *it;
    slots.erase(it);
    if (pos == drawn_[ix(o)]) drawn_[ix(o)] = kNone;
    put(pos, p);
  }

  void place(const Event& e) {
    const Seat a = e.actor;
    const bool mine = a == seat_;
    switch (e.type) {
      case EventType::start_kyoku: {
        if (at_ != 0) fail("a second start_kyoku");
        put(Wall::dora_index(0), e.dora_marker);
        const int offset = e.oya.distance_to(seat_);
        const Tehai& own = e.tehais[ix(seat_)];
        if (own.size() != 13) fail("the seat's deal is not 13 tiles");
        for (int k = 0; k < 13; ++k) put(Wall::deal_index(offset, k), own[k]);
        for (int s = 0; s < kNumSeats; ++s) {
          if (Seat(s) == seat_) continue;
          for (int k = 0; k < 13; ++k) open_[ix(s)].push_back(Wall::deal_index(e.oya.distance_to(Seat(s)), k));
        }
        return;
      }
      case EventType::tsumo: {
        const int pos = rinshan_next_ ? Wall::rinshan_index(rinshan_drawn_++) : Wall::kLiveBegin + live_drawn_++;
        rinshan_next_ = false;
        if (pos >= Wall::kDeadBegin && !(pos < Wall::rinshan_index(Wall::kMaxKans))) fail("a draw past the wall");
        if (mine) {
          put(pos, e.pai);
        } else {
          open_[ix(a)].push_back(pos);
          drawn_[ix(a)] = pos;
        }
        return;
      }
      case EventType::dahai:
        if (!mine) {
          if (e.tsumogiri) {
            const int pos = drawn_[ix(a)];
            if (pos == kNone) fail("a tsumogiri without a draw");
            auto& slots = open_[ix(a)];
            slots.erase(std::find(slots.begin(), slots.end(), pos));
            put(pos, e.pai);
          } else {
            // The drawn tile stays in the hand, so it is not this tile (else the discard would
            // be a tsumogiri).
            if (drawn_[ix(a)] != kNone) forbid(drawn_[ix(a)], e.pai);
            from_hand(a, e.pai);
          }
          if (riichi_[ix(a)] && !riichi_slots_[ix(a)]) riichi_slots_[ix(a)] = open_[ix(a)];
        }
        drawn_[ix(a)] = kNone;
        return;
      case EventType::chi:
      case EventType::pon:
      case EventType::daiminkan:
      case EventType::ankan:
        if (!mine) {
          for (const Pai p : e.consumed) from_hand(a, p);
          no_red_held(a, e.consumed);
        }
        drawn_[ix(a)] = kNone;
        if (e.type != EventType::chi && e.type != EventType::pon) rinshan_next_ = true;
        return;
      case EventType::kakan:
        if (!mine) from_hand(a, e.pai);
        drawn_[ix(a)] = kNone;
        rinshan_next_ = true;
        return;
      case EventType::dora:
        if (doras_ + 1 >= Wall::kMaxIndicators) fail("more than five dora indicators");
        put(Wall::dora_index(++doras_), e.dora_marker);
        return;
      case EventType::reach:
        riichi_[ix(a)] = true;
        return;
      case EventType::reach_accepted:
      case EventType::none: return;
      default: fail("'" + std::string(to_string(e.type)) + "' is not an event within a kyoku in play");
    }
  }

  const TableRules& rules_;
  Seat seat_;
  std::size_t at_ = 0;
  std::array<int, kNumTiles> tile_at_{};
  std::array<bool, kNumTiles> id_used_{};
  std::array<int, kNumTiles> order_{};   // tile ids, plain before red
  // Per place, the tiles (a bit per Pai index) it must not hold: the table would have played
  // the events otherwise.
  std::array<std::uint64_t, kNumTiles> forbid_{};
  SeatArray<std::vector<int>> open_{};   // the slots each other seat holds, not yet shown, oldest first
  SeatArray<int> drawn_{kNone, kNone, kNone, kNone};
  SeatArray<bool> riichi_{};
  SeatArray<std::optional<std::vector<int>>> riichi_slots_{};  // its hidden slots after the riichi discard
  int live_drawn_ = 0, rinshan_drawn_ = 0, doras_ = 0;
  bool rinshan_next_ = false;
};

// A call's tiles as a sorted list of Pai indices (red fives apart).
std::array<int, 4> tiles_of(const Consumed& c) {
  std::array<int, 4> out{99, 99, 99, 99};
  for (int k = 0; k < c.size(); ++k) out[ix(k)] = c[k].index();
  std::sort(out.begin(), out.end());
  return out;
}

bool is_decision_event(const Event& e) {
  switch (e.type) {
    case EventType::dahai:
    case EventType::reach:
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan:
    case EventType::kakan:
    case EventType::ankan: return true;
    default: return false;
  }
}

}  // namespace

std::unique_ptr<Table> rebuild_table(const TableRules& rules, Seat seat, std::span<const Event> events,
                                     const GameKey& key) {
  if (events.empty() || events.front().type != EventType::start_kyoku)
    throw Error("rebuilding the kyoku: its events must start with start_kyoku");
  const Event& start = events.front();
  Xoshiro256ss rng(key);
  WallPlan plan(rules, seat, events);
  GameProgress at;
  at.round = (start.bakaze.index() - 27) * 4 + (start.kyoku - 1);
  at.honba = start.honba;
  at.kyotaku = start.kyotaku;
  at.scores = start.scores;
  // Each decision the table plays (asked or forced) must be the next recorded one (the seat's own
  // tsumogiri flags are the table's: it knows its tiles, and some hosts leave the flag out). The
  // hook's state outlives this call with the table (whose copies, the searches' play-outs, get
  // hooks of their own).
  struct Replay {
    std::vector<Event> events;  // the kyoku's events but `none`
    std::size_t next = 1;       // the next decision event to replay
    std::size_t draws = 0;      // the recorded draws
    std::size_t drawn = 0;      // the table's draws (a host may order or omit dora and reach_accepted)
    std::string error;
    void skip() {
      while (next < events.size() && !is_decision_event(events[next])) ++next;
    }
  };
  auto replay = std::make_shared<Replay>();
  for (const Event& e : events) {
    if (e.type != EventType::none) replay->events.push_back(e);
    if (e.type == EventType::tsumo) ++replay->draws;
  }
  auto table = std::make_unique<Table>(rules, key, at, plan.fill(rng), [replay, seat](const Table&, const Event& e) {
    Replay& r = *replay;
    if (e.type == EventType::tsumo) ++r.drawn;
    if (!is_decision_event(e) || !r.error.empty()) return;
    r.skip();
    if (r.next == r.events.size()) {
      r.error = "the table played " + describe(e) + " after the last event";
      return;
    }
    const Event& want = r.events[r.next];
    if (want.type != e.type || want.actor != e.actor ||
        (e.type != EventType::ankan && e.type != EventType::reach && want.pai != e.pai) ||
        (e.type == EventType::dahai && e.actor != seat && want.tsumogiri != e.tsumogiri) ||
        tiles_of(want.consumed) != tiles_of(e.consumed))
      r.error = "event " + std::to_string(r.next + 1) + " (" + describe(want) + ") was replayed as " + describe(e);
    ++r.next;
  });
  // The recorded decisions answered where the table asks for them; everyone else passes.
  for (;;) {
    if (!replay->error.empty()) throw Error("rebuilding the kyoku: " + replay->error);
    replay->skip();
    const FixedVec<Decision, kNumSeats> pending = table->pending();
    if (replay->next == replay->events.size()) {
      if (replay->drawn >= replay->draws) {
        if (replay->drawn == replay->draws)
          for (const Decision& d : pending)
            if (d.seat == seat) return table;
        throw Error("rebuilding the kyoku: after its last event the table does not wait for seat " +
                    std::to_string(seat.index()));
      }
      // The draw after the last decision comes once everyone asked passes.
      if (pending.empty() || table->done()) throw Error("rebuilding the kyoku: the table stops before its last event");
      for (const Decision& d : pending) {
        if (!d.mask.test(Action(Action::kPass)))
          throw Error("rebuilding the kyoku: the table asks seat " + std::to_string(d.seat.index()) +
                      " for a decision its events do not record");
        table->act(d.seat, Action(Action::kPass));
      }
      continue;
    }
    const Event& e = replay->events[replay->next];
    const std::string where = "rebuilding the kyoku: event " + std::to_string(replay->next + 1) + " (" + describe(e) + ")";
    if (pending.empty() || table->done()) throw Error(where + ": the table waits for no decision");
    // A call answers another seat's discard; the actor's later turn is no answer to one.
    const bool answers = e.type == EventType::chi || e.type == EventType::pon || e.type == EventType::daiminkan;
    for (const Decision& d : pending) {
      const bool responding = d.phase == Phase::response || d.phase == Phase::chankan;
      if (d.seat != e.actor || (responding && !answers)) {
        if (!d.mask.test(Action(Action::kPass)))
          throw Error(where + ": the table asks seat " + std::to_string(d.seat.index()) + " first");
        table->act(d.seat, Action(Action::kPass));
      } else if (d.phase == Phase::kan_select) {
        const Action t = Action::kan_select(kan_type(e));
        if (!d.mask.test(t)) throw Error(where + ": not one of the kan candidates");
        table->act(d.seat, t);
      } else {
        std::string why;
        const int a = action_of(e, table->legal(d.seat), why);
        if (a < 0) throw Error(where + ": " + why);
        table->act(d.seat, Action(a));
      }
    }
  }
}

}  // namespace hydra::game
