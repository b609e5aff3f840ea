// The table's step machine (table.hpp).

#include "hydra/game/table.hpp"

#include <algorithm>
#include <optional>
#include <span>
#include <string>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/game/agari.hpp"
#include "tenpai_hand.hpp"

namespace hydra::game {
namespace {

Tehai sorted_tehai(const Hand& h) {
  Tehai out;
  for (int t = 0; t < kNumTileTypes; ++t) {
    const TileType tt(t);
    const int n = h.closed[ix(t)];
    const bool red = tt.is_five() && (h.closed_red & red_bit(tt));
    for (int k = 0; k < n; ++k) out.push_back(Pai(tt, red && k == 0));
  }
  return out;
}

}  // namespace

Table::Table(const TableRules& rules, std::vector<Wall::Tiles> walls, bool record)
    : rules_(rules),
      views_{PlayerView(Seat(0), rules_), PlayerView(Seat(1), rules_), PlayerView(Seat(2), rules_), PlayerView(Seat(3), rules_)},
      given_walls_(std::move(walls)),
      walls_given_(true) {
  start(record, GameProgress::start(rules_));
}

Table::Table(const TableRules& rules, const GameKey& key, const GameProgress& at, const Wall::Tiles& wall,
             EventHook on_event)
    : rules_(rules), key_(key),
      views_{PlayerView(Seat(0), rules_), PlayerView(Seat(1), rules_), PlayerView(Seat(2), rules_), PlayerView(Seat(3), rules_)},
      given_walls_{wall},
      walls_given_(true),
      seeded_after_given_(true),
      on_event_(std::move(on_event)) {
  start(false, at);
}

Table::Table(const TableRules& rules, const GameKey& key, bool record)
    : rules_(rules), key_(key),
      views_{PlayerView(Seat(0), rules_), PlayerView(Seat(1), rules_), PlayerView(Seat(2), rules_), PlayerView(Seat(3), rules_)} {
  start(record, GameProgress::start(rules_));
}

Table::Table(const TableRules& rules, const GameKey& key, bool record, EventHook on_event)
    : rules_(rules), key_(key),
      views_{PlayerView(Seat(0), rules_), PlayerView(Seat(1), rules_), PlayerView(Seat(2), rules_), PlayerView(Seat(3), rules_)},
      on_event_(std::move(on_event)) {
  start(record, GameProgress::start(rules_));
}

std::optional<TileCounts> tenpai_hand(const TileCounts& counts, int size, TileMask safe, Xoshiro256ss& rng) {
  constexpr int kTries = 64;
  const int sets = (size - 1) / 3;
  for (int attempt = 0; attempt < kTries; ++attempt) {
    TileCounts left = counts;
    TileCounts hand{};
    const auto take = [&](int t, int n) {
      left[ix(t)] = static_cast<std::uint8_t>(left[ix(t)] - n);
      hand[ix(t)] = static_cast<std::uint8_t>(hand[ix(t)] + n);
    };
    bool ok = true;
    for (int k = 0; k < sets && ok; ++k) {
      std::array<int, 2 * kNumTileTypes> options{};  // t: triplet of t; kNumTileTypes + t: run from t
      std::uint32_t n = 0;
      for (int t = 0; t < kNumTileTypes; ++t) {
        if (left[ix(t)] >= 3) options[n++] = t;
        if (t < 27 && t % 9 <= 6 && left[ix(t)] > 0 && left[ix(t + 1)] > 0 && left[ix(t + 2)] > 0)
          options[n++] = kNumTileTypes + t;
      }
      if (n == 0) {
        ok = false;
        break;
      }
      const int o = options[rng.below(n)];
      if (o < kNumTileTypes) {
        take(o, 3);
      } else {
        for (int d = 0; d < 3; ++d) take(o - kNumTileTypes + d, 1);
      }
    }
    if (!ok) continue;
    std::array<int, kNumTileTypes> pairs{};
    std::uint32_t np = 0;
    for (int t = 0; t < kNumTileTypes; ++t)
      if (left[ix(t)] >= 2) pairs[np++] = t;
    if (np == 0) continue;
    take(pairs[rng.below(np)], 2);
    // One of the 3n + 2 tiles leaves, each equally likely.
    std::uint32_t drop = rng.below(static_cast<std::uint32_t>(size + 1));
    for (int t = 0; t < kNumTileTypes; ++t) {
      if (drop < hand[ix(t)]) {
        --hand[ix(t)];
        break;
      }
      drop -= hand[ix(t)];
    }
    const TileMask waits = winning_tiles(hand);
    if (!waits.empty() && (waits.bits() & safe.bits()) == 0) return hand;
  }
  return std::nullopt;
}

std::unique_ptr<Table> Table::branch(EventHook on_event) const {
  std::unique_ptr<Table> t(new Table(*this));
  for (PlayerView& v : t->views_) v.rebind_rules(t->rules_);
  t->events_.clear();
  t->record_ = false;
  t->on_event_ = std::move(on_event);
  return t;
}

void Table::redeal_hidden(Seat seat, Xoshiro256ss& rng) {
  HYDRA_CHECK(!done() && wall_.has_value(), "Table::redeal_hidden: no kyoku in play");
  std::array<int, kNumTiles> at{};
  const int wall_n = wall_->unseen_positions(at);
  // The pool as the seats see tiles (red fives only under red-five rules), sorted: its order
  // carries nothing of where each tile was.
  std::array<Pai, kNumTiles> pool{};
  std::size_t n = 0;
  for (int k = 0; k < wall_n; ++k) pool[n++] = seen(wall_->tiles()[ix(at[ix(k)])]);
  SeatArray<int> held{};
  for (int k = 1; k < kNumSeats; ++k) {
    const Seat o = seat.next(k);
    for (Pai p : closed_tiles(views_[o].hand())) pool[n++] = p;
    held[o] = views_[o].hand().closed_size();
  }
  const std::span<Pai> sorted(pool.data(), n);
  std::sort(sorted.begin(), sorted.end(), [](Pai a, Pai b) { return a.index() < b.index(); });
  shuffle(sorted, rng);
  std::vector<Pai> tiles(sorted.begin(), sorted.end());
  // A seat in riichi is tenpai, and not on its own discards: its hand is built so (when the
  // pool allows), its tiles the first copies of their kinds in the shuffled order.
  SeatArray<std::vector<Pai>> dealt;
  for (int k = 1; k < kNumSeats; ++k) {
    const Seat o = seat.next(k);
    if (!views_[seat].riichi_declared(o)) continue;
    TileCounts counts{};
    for (Pai p : tiles) ++counts[ix(p.type().index())];
    TileMask safe;
    for (const RiverTile& r : views_[seat].river(o)) safe.insert(r.pai.type());
    const auto hand = tenpai_hand(counts, held[o], safe, rng);
    if (!hand) continue;
    TileCounts want = *hand;
    std::vector<Pai> rest;
    for (Pai p : tiles) {
      auto& w = want[ix(p.type().index())];
      if (w > 0) {
        --w;
        dealt[o].push_back(p);
      } else {
        rest.push_back(p);
      }
    }
    tiles = std::move(rest);
  }
  // The others: a hand that was drawn and kept on purpose for as many turns as the seat has
  // discarded is nearer to winning than a uniform deal. Of 1 + discards / 2 uniform draws from
  // the pool the seat gets the one of lowest shanten (the first on ties): one draw before its
  // first discard, the deal's own distribution.
  for (int k = 1; k < kNumSeats; ++k) {
    const Seat o = seat.next(k);
    if (!dealt[o].empty()) {  // in riichi, dealt above
      views_[o].replace_closed(dealt[o]);
      continue;
    }
    const std::size_t need = ix(held[o]);
    const int tries = 1 + static_cast<int>(views_[seat].river(o).size()) / 2;
    std::vector<std::size_t> pick(tiles.size()), best;
    int best_shanten = 99;
    for (int t = 0; t < tries; ++t) {
      for (std::size_t i = 0; i < pick.size(); ++i) pick[i] = i;
      TileCounts c{};
      for (std::size_t i = 0; i < need; ++i) {  // a partial Fisher-Yates draw of `need` tiles
        const std::size_t j = i + rng.below(static_cast<std::uint32_t>(pick.size() - i));
        std::swap(pick[i], pick[j]);
        ++c[ix(tiles[pick[i]].type().index())];
      }
      const int sh = shanten_best(c);
      if (sh < best_shanten) {
        best_shanten = sh;
        best.assign(pick.begin(), pick.begin() + static_cast<std::ptrdiff_t>(need));
      }
    }
    std::sort(best.begin(), best.end());
    std::vector<Pai> rest;
    std::size_t b = 0;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      if (b < best.size() && best[b] == i) {
        dealt[o].push_back(tiles[i]);
        ++b;
      } else {
        rest.push_back(tiles[i]);
      }
    }
    tiles = std::move(rest);
    views_[o].replace_closed(dealt[o]);
  }
  HYDRA_CHECK(tiles.size() == ix(wall_n), "Table::redeal_hidden: the pool does not refill the wall");
  shuffle(std::span<Pai>(tiles.data(), tiles.size()), rng);  // the wall: what is left, in a fresh order
  // Wall ids: the k-th plain copy of a kind gets that kind's k-th id, skipping the red five's id
  // (4 x the kind: 16, 52, 88) under red-five rules; a red five gets its own.
  std::array<int, Pai::kUnknown + 1> used{};
  std::array<Tile, kNumTiles> rest{};
  for (int k = 0; k < wall_n; ++k) {
    const Pai p = tiles[ix(k)];
    const int type = p.type().index();
    int id = 4 * type;
    if (!p.is_red()) id += used[ix(p.index())]++ + (rules_.red_fives && p.type().is_five() ? 1 : 0);
    rest[ix(k)] = Tile(id);
  }
  wall_->set_unseen(std::span<const Tile>(rest.data(), ix(wall_n)));
  if (state_ == State::responses) ask_responses(responding_to_);
}

void Table::start(bool record, const GameProgress& at) {
  record_ = record;
  if (record_) events_.reserve(1024);
  progress_ = at;
  scores_ = progress_.scores;
  kyotaku_ = progress_.kyotaku;
  Event e;
  e.type = EventType::start_game;
  emit(e);
  start_kyoku();
  auto_play();
}

void Table::emit(const Event& e) {
  if (record_) events_.push_back(e);
  for (PlayerView& v : views_) v.apply(e);
  if (on_event_) on_event_(*this, e);
}

Event Table::scored(EventType type) {
  Event e;
  e.type = type;
  e.scores = scores_;
  return e;
}

void Table::start_kyoku() {
  if (walls_given_ && !(seeded_after_given_ && ix(kyoku_played_) >= given_walls_.size())) {
    if (ix(kyoku_played_) >= given_walls_.size())
      throw Error("table: kyoku " + std::to_string(kyoku_played_ + 1) + " needs a wall, but only " +
                  std::to_string(given_walls_.size()) + " were given");
    wall_.emplace(given_walls_[ix(kyoku_played_)]);
  } else {
    wall_.emplace(Wall::from_key(wall_key(key_, static_cast<std::uint64_t>(progress_.round), static_cast<std::uint64_t>(progress_.honba))));
  }
  Event e = scored(EventType::start_kyoku);
  e.bakaze = progress_.bakaze();
  e.kyoku = static_cast<std::uint8_t>(progress_.kyoku());
  e.honba = static_cast<std::uint8_t>(progress_.honba);
  e.kyotaku = static_cast<std::uint8_t>(kyotaku_);
  e.oya = progress_.oya();
  e.dora_marker = seen(wall_->dora_indicators()[0]);
  for (int k = 0; k < kNumSeats; ++k) {
    auto tiles = wall_->haipai(k);
    std::sort(tiles.begin(), tiles.end());
    Tehai& t = e.tehais[ix(e.oya.next(k))];
    for (Tile x : tiles) t.push_back(seen(x));
  }
  outcome_ = {};
  riichi_pending_ = false;
  ++kyoku_played_;
  emit(e);
  draw(e.oya, false);
  ask_turn(e.oya, State::turn);
}

bool Table::draw(Seat seat, bool rinshan) {
  if (!rinshan && wall_->live_left() == 0) {
    exhaustive_draw();
    return false;
  }
  const Tile t = rinshan ? wall_->draw_rinshan() : wall_->draw();
  Event e;
  e.type = EventType::tsumo;
  e.actor = seat;
  e.pai = seen(t);
  emit(e);
  return true;
}

void Table::ask_turn(Seat seat, State state) {
  actor_ = seat;
  state_ = state;
  Legal& l = legal_[seat];
  views_[seat].legal(l);
  HYDRA_CHECK(!l.mask.empty(), "a turn decision without a legal action");
  pending_.clear();
  pending_.push_back({seat, l.phase, l.mask});
}

void Table::act(Seat seat, Action a) {
  act_one(seat, a);
  ++decisions_;
  auto_play();
}

void Table::auto_play() {
  while (state_ != State::game_over && state_ != State::responses && pending_.size() == 1 && pending_[0].mask.count() == 1)
    act_one(pending_[0].seat, pending_[0].mask.nth(0));
}

void Table::act_one(Seat seat, Action a) {
  HYDRA_CHECK(state_ != State::game_over, "act() after the game ended");
  const Decision* d = nullptr;
  for (const Decision& p : pending_)
    if (p.seat == seat) d = &p;
  HYDRA_CHECK(d != nullptr, "act() for a seat that has no pending decision");
  HYDRA_CHECK(d->mask.test(a), "act(): " + to_string(a) + " is not legal (" + to_string(d->mask) + ")");
  const Legal& l = legal_[seat];
  switch (state_) {
    case State::turn:
      if (a.is_discard()) {
        discard(seat, l.move(a), false);
      } else if (a.index() == Action::kRiichi) {
        Event e;
        e.type = EventType::reach;
        e.actor = seat;
        emit(e);
        ask_turn(seat, State::riichi_discard);
      } else if (a.index() == Action::kKan) {
        if (l.kans.size() > 1) {
          state_ = State::kan_select;
          pending_.clear();
          pending_.push_back({seat, Phase::kan_select, l.kan_select_mask()});
        } else {
          kan(seat, l.kans[0]);
        }
      } else if (a.index() == Action::kAgari) {
        FixedVec<Seat, 3> w;
        w.push_back(seat);
        hora(w, seat, l.move(a).pai);
      } else {
        HYDRA_CHECK(a.index() == Action::kRyukyoku, "unexpected turn action " + to_string(a));
        abortive(RyukyokuReason::kyushukyuhai);
      }
      return;
    case State::riichi_discard:
      discard(seat, l.move(a), true);
      return;
    case State::kan_select:
      kan(seat, l.kan_move(a));
      return;
    case State::responses:
      HYDRA_CHECK(!answered_[seat], "a seat answered twice");
      answers_[seat] = a;
      answered_[seat] = true;
      for (const Decision& p : pending_)
        if (!answered_[p.seat]) return;
      resolve_responses();
      return;
    case State::game_over:
      return;
  }
}

void Table::discard(Seat seat, const Move& m, bool declaring) {
  emit(m.to_event(seat));
  riichi_pending_ = declaring;
  response_to_ = EventType::dahai;
  ask_responses(seat);
}

void Table::kan(Seat seat, const Move& m) {
  emit(m.to_event(seat));
  if (m.type == EventType::ankan) {  // Tenhou: an ankan's dora comes before its rinshan draw
    wall_->reveal_kan_dora();
    Event d;
    d.type = EventType::dora;
    d.dora_marker = seen(wall_->dora_indicators()[static_cast<std::size_t>(wall_->indicators_revealed() - 1)]);
    emit(d);
  }
  response_to_ = m.type;
  ask_responses(seat);
}

void Table::ask_responses(Seat actor) {
  responding_to_ = actor;
  state_ = State::responses;
  pending_.clear();
  answered_.fill(false);
  for (int k = 1; k < kNumSeats; ++k) {
    const Seat s = actor.next(k);
    Legal& l = legal_[s];
    views_[s].legal(l);
    answers_[s] = Action(Action::kPass);
    if (l.mask.count() > 1) pending_.push_back({s, l.phase, l.mask});
    else answered_[s] = true;
  }
  if (pending_.empty()) resolve_responses();
}

void Table::resolve_responses() {
  FixedVec<Seat, 3> rons;
  Seat caller;
  for (int k = 1; k < kNumSeats; ++k) {
    const Seat s = responding_to_.next(k);
    const int a = answers_[s].index();
    if (a == Action::kAgari) rons.push_back(s);
    else if (a == Action::kPon || a == Action::kKan) caller = s;
    else if (Action(a).is_chi() && !caller.valid()) caller = s;
  }
  pending_.clear();
  if (!rons.empty()) {
    if (rons.size() == 3 && rules_.triple_ron_draw) {
      abortive(RyukyokuReason::sanchaho);
      return;
    }
    hora(rons, responding_to_, legal_[rons[0]].move(Action(Action::kAgari)).pai);
    return;
  }
  if (response_to_ != EventType::dahai) {  // kakan or ankan, not robbed
    rinshan_after_kan(responding_to_, response_to_);
    return;
  }
  if (riichi_pending_) {
    riichi_pending_ = false;
    scores_[ix(responding_to_)] -= 1000;
    ++kyotaku_;
    Event e = scored(EventType::reach_accepted);
    e.actor = responding_to_;
    e.deltas[ix(responding_to_)] = -1000;
    emit(e);
    if (views_[0].riichi_count() == kNumSeats) {
      abortive(RyukyokuReason::suchareach);
      return;
    }
  }
  if (views_[0].suufon_renda()) {
    abortive(RyukyokuReason::sufonrenta);
    return;
  }
  if (views_[0].suukaikan()) {
    abortive(RyukyokuReason::sukaikan);
    return;
  }
  if (caller.valid()) {
    const Move& m = legal_[caller].move(answers_[caller]);
    emit(m.to_event(caller));
    if (m.type == EventType::daiminkan) rinshan_after_kan(caller, m.type);
    else ask_turn(caller, State::turn);
    return;
  }
  const Seat next = responding_to_.next(1);
  if (draw(next, false)) ask_turn(next, State::turn);
}

void Table::rinshan_after_kan(Seat seat, EventType kan_type) {
  draw(seat, true);
  if (kan_type != EventType::ankan) {  // Tenhou: open kans reveal after the rinshan draw
    wall_->reveal_kan_dora();
    Event d;
    d.type = EventType::dora;
    d.dora_marker = seen(wall_->dora_indicators()[static_cast<std::size_t>(wall_->indicators_revealed() - 1)]);
    emit(d);
  }
  ask_turn(seat, State::turn);
}

void Table::hora(const FixedVec<Seat, 3>& winners, Seat from, Pai tile) {
  const bool tsumo = winners[0] == from;
  DoraMarkers ura;
  for (Tile t : wall_->ura_indicators()) ura.push_back(seen(t));
  for (int i = 0; i < winners.size(); ++i) {
    const Seat w = winners[i];
    const PlayerView& v = views_[w];
    const DoraMarkers u = v.riichi(w) ? ura : DoraMarkers();
    const WinResult r = v.evaluate_win(tile, tsumo, from, u);
    HYDRA_CHECK(r.is_win(), "a legal agari that does not score");
    const Seat pao = rules_.pao ? v.pao(w) : Seat::none();
    const Scores d = win_deltas(r, w, from, progress_.oya(), progress_.honba, kyotaku_, pao, i == 0);
    for (int s = 0; s < kNumSeats; ++s) scores_[ix(s)] += d[ix(s)];
    Event e = scored(EventType::hora);
    e.actor = w;
    e.target = from;
    e.pai = tile;
    e.deltas = d;
    e.detailed = true;
    Hand shown = v.hand();
    if (tsumo) shown.remove(tile);
    e.hora_tehais = sorted_tehai(shown);
    e.yakus = mjai_yakus(r);
    e.fu = static_cast<std::uint8_t>(r.fu);
    e.fan = static_cast<std::uint8_t>(mjai_fan(r));
    e.hora_points = r.points;
    e.ura_markers = u;
    e.pao = pao;
    emit(e);
    outcome_.win = true;
    if (w == progress_.oya()) outcome_.dealer_won = true;
  }
  kyotaku_ = 0;
  end_kyoku();
}

void Table::exhaustive_draw() {
  std::array<bool, kNumSeats> tenpai{}, nagashi{};
  bool any_nagashi = false;
  Event e = scored(EventType::ryukyoku);
  for (int s = 0; s < kNumSeats; ++s) {
    const auto i = ix(s);
    tenpai[i] = views_[i].tenpai();
    nagashi[i] = views_[0].nagashi(Seat(s));
    any_nagashi = any_nagashi || nagashi[i];
    if (tenpai[i]) {
      e.tehais[i] = sorted_tehai(views_[i].hand());
    } else {
      for (int k = 0; k < views_[i].hand().closed_size(); ++k) e.tehais[i].push_back(Pai::unknown());
    }
  }
  e.deltas = exhaustive_draw_deltas(tenpai, nagashi, progress_.oya());
  for (int s = 0; s < kNumSeats; ++s) scores_[ix(s)] += e.deltas[ix(s)];
  e.scores = scores_;
  e.reason = any_nagashi ? RyukyokuReason::nagashimangan : RyukyokuReason::fanpai;
  e.tenpais = tenpai;
  e.detailed = true;
  emit(e);
  outcome_.exhaustive = true;
  outcome_.dealer_tenpai = tenpai[ix(progress_.oya())];
  end_kyoku();
}

void Table::abortive(RyukyokuReason reason) {
  Event e = scored(EventType::ryukyoku);
  e.reason = reason;
  emit(e);
  outcome_.abortive = true;
  end_kyoku();
}

void Table::end_kyoku() {
  Event e;
  e.type = EventType::end_kyoku;
  emit(e);
  const auto next = next_kyoku(progress_, outcome_, scores_, kyotaku_, rules_);
  if (next) {
    progress_ = *next;
    start_kyoku();
    return;
  }
  final_ = game::final_scores(scores_, kyotaku_, rules_);
  Event end;
  end.type = EventType::end_game;
  end.scores = final_;
  emit(end);
  state_ = State::game_over;
  pending_.clear();
}

}  // namespace hydra::game
