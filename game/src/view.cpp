// PlayerView: applying events. Legal actions are in legal.cpp, wins in view_win.cpp.

#include "hydra/game/view.hpp"

#include "hydra/common/error.hpp"
#include "hydra/game/agari.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

[[noreturn]] void bad(const Event& e, std::string_view why) {
  throw Error(std::string(why) + " (" + describe(e) + ")");
}

void check_seat(const Event& e, Seat s, std::string_view field) {
  if (!s.valid()) bad(e, std::string("missing or invalid '") + std::string(field) + "'");
}

// After a deal, a discard or a kan the closed hand is 3n+1 tiles. Events that contradict each
// other (a second ankan without the rinshan draw) can leave another size, which shanten takes
// for a bug: refuse the event before the waits are computed.
void check_closed_size(const Event& e, const Hand& hand, Seat me) {
  const int n = hand.closed_size();
  if (n % 3 != 1 || n > 13) bad(e, "seat " + std::to_string(me.index()) + " would hold " + std::to_string(n) + " closed tiles");
}

bool is_dragon_or_wind_set(const Meld& m, bool dragon) {
  if (m.is_run()) return false;
  return dragon ? m.first().is_dragon() : m.first().is_wind();
}

}  // namespace

PlayerView::PlayerView(Seat me, const TableRules& rules) : me_(me), rules_(&rules) {
  HYDRA_CHECK(me.valid(), "a view needs a seat 0-3");
  scores_.fill(rules.start_score);
}

int PlayerView::riichi_count() const {
  int n = 0;
  for (bool r : riichi_accepted_) n += r ? 1 : 0;
  return n;
}

bool PlayerView::nagashi(Seat s) const {
  for (const RiverTile& t : rivers_[ix(s)])
    if (t.called || !t.pai.type().is_yaochu()) return false;
  return true;
}

bool PlayerView::suufon_renda() const {
  if (!no_calls_ || discards_ != 4) return false;
  const TileType first = rivers_[0][0].pai.type();
  if (!first.is_wind()) return false;
  for (const River& r : rivers_)
    if (r.size() != 1 || r[0].pai.type() != first) return false;
  return true;
}

bool PlayerView::suukaikan() const {
  if (kans_total_ < 4) return false;
  for (std::uint8_t k : kans_by_seat_)
    if (k == 4) return false;  // one seat's four kans: suukantsu stays possible, play on
  return true;
}

bool PlayerView::furiten() const {
  return temp_furiten_ || riichi_furiten_ || (waits_.bits() & discarded_.bits()) != 0;
}

// Most hands are far from tenpai: the table-driven shanten rules them out before the costlier
// search for winning tiles.
void PlayerView::update_waits() {
  shanten_ = static_cast<std::int8_t>(shanten_best(hand_.closed));
  waits_ = shanten_ == 0 ? winning_tiles(hand_.closed) : TileMask();
}

void PlayerView::remove_own(Pai p, const Event& e) {
  const auto t = ix(p.type().index());
  if (hand_.closed[t] == 0) bad(e, "seat " + std::to_string(me_.index()) + " does not hold " + std::string(mjai_name(p)));
  if (p.is_red() && !(hand_.closed_red & red_bit(p.type())))
    bad(e, "seat " + std::to_string(me_.index()) + " does not hold the red " + std::string(mjai_name(p)));
  // A plain five when only the red copy is left is a mismatch too.
  if (!p.is_red() && p.type().is_five() && (hand_.closed_red & red_bit(p.type())) && hand_.closed[t] == 1)
    bad(e, "seat " + std::to_string(me_.index()) + " holds only the red copy of " + std::string(mjai_name(p)));
  hand_.remove(p);
}

// A winning tile went by (a discard, a kakan). If the seat does not win on it, it becomes
// furiten when the next event arrives (temporary; permanent in riichi).
void PlayerView::note_win_chance(Pai p) {
  if (waits_.contains(p.type())) missed_win_ = true;
}

void PlayerView::commit_missed_win() {
  if (!missed_win_) return;
  missed_win_ = false;
  temp_furiten_ = true;
  if (riichi_declared_[ix(me_)]) riichi_furiten_ = true;
}

void PlayerView::apply(const Event& e) {
  // The window to win on a passed tile closes with the next tile event (reach_accepted, dora and
  // a double ron's second hora still belong to it).
  const bool tile_event = e.type == EventType::tsumo || e.type == EventType::dahai || takes_discard(e.type) ||
                          e.type == EventType::kakan || e.type == EventType::ankan || e.type == EventType::start_kyoku;
  if (tile_event) commit_missed_win();
  // Everything but the game and kyoku brackets happens inside a kyoku: before the first
  // start_kyoku (or after an end_kyoku) the view has no hand to act on.
  const bool bracket = e.type == EventType::none || e.type == EventType::start_game ||
                       e.type == EventType::start_kyoku || e.type == EventType::end_kyoku ||
                       e.type == EventType::end_game;
  if (!bracket && !in_kyoku_) bad(e, std::string(to_string(e.type)) + " outside a kyoku");
  switch (e.type) {
    case EventType::none:
      return;
    case EventType::end_kyoku:
      in_kyoku_ = false;
      return;
    case EventType::start_game:
      scores_.fill(rules_->start_score);
      in_kyoku_ = false;
      phase_ = Phase::idle;
      return;
    case EventType::start_kyoku:
      start_kyoku(e);
      break;
    case EventType::tsumo:
      on_tsumo(e);
      break;
    case EventType::dahai:
      on_dahai(e);
      break;
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan:
      on_call(e);
      break;
    case EventType::kakan:
      on_kakan(e);
      break;
    case EventType::ankan:
      on_ankan(e);
      break;
    case EventType::dora:
      if (e.dora_marker.is_unknown()) bad(e, "a dora indicator must be shown");
      if (dora_markers_.full()) bad(e, "more than five dora indicators");
      dora_markers_.push_back(e.dora_marker);
      return;  // the phase (a decision after a rinshan draw) stays
    case EventType::reach:
      check_seat(e, e.actor, "actor");
      if (riichi_declared_[ix(e.actor)]) bad(e, "a second riichi");
      riichi_declared_[ix(e.actor)] = true;
      phase_ = e.actor == me_ ? Phase::riichi_discard : Phase::idle;
      if (e.actor == me_) double_riichi_ = first_turn(me_);
      return;
    case EventType::reach_accepted:
      check_seat(e, e.actor, "actor");
      if (!riichi_declared_[ix(e.actor)] || riichi_accepted_[ix(e.actor)]) bad(e, "reach_accepted without a reach");
      riichi_accepted_[ix(e.actor)] = true;
      ippatsu_[ix(e.actor)] = true;
      scores_[ix(e.actor)] -= 1000;
      ++kyotaku_;
      return;  // the others may still call the declaration tile
    case EventType::hora:
      // A double ron is two hora in a row: the other seats keep their chance to win.
      for (int s = 0; s < kNumSeats; ++s) scores_[ix(s)] += e.deltas[ix(s)];
      kyotaku_ = 0;
      if (e.actor == me_) phase_ = Phase::idle;
      return;
    case EventType::ryukyoku:
      for (int s = 0; s < kNumSeats; ++s) scores_[ix(s)] += e.deltas[ix(s)];
      phase_ = Phase::idle;
      in_kyoku_ = false;
      break;
    case EventType::end_game:
      phase_ = Phase::idle;
      in_kyoku_ = false;
      return;
  }
  if (tile_event) {
    last_type_ = e.type;
    last_actor_ = e.actor;
    last_pai_ = e.pai;
  }
}

// start_kyoku's scores, honba and kyotaku replace the view's own: a host that sends a seat only
// the events up to its own decisions (mjai.app: no hora, no ryukyoku) states the totals there
// only. Every reader gives start_kyoku its scores (data::normalize); the mjai bot fills in what a
// host's line leaves out from the view's running totals.
void PlayerView::start_kyoku(const Event& e) {
  const Seat me = me_;
  const TableRules* rules = rules_;
  *this = PlayerView(me, *rules);
  scores_ = e.scores;
  check_seat(e, e.oya, "oya");
  if (!e.bakaze.is_wind()) bad(e, "bakaze must be a wind");
  if (e.kyoku < 1 || e.kyoku > 4) bad(e, "kyoku must be 1-4");
  if (e.dora_marker.is_unknown()) bad(e, "the dora indicator must be shown");
  bakaze_ = e.bakaze;
  kyoku_ = e.kyoku;
  honba_ = e.honba;
  kyotaku_ = e.kyotaku;
  oya_ = e.oya;
  dora_markers_.push_back(e.dora_marker);
  live_left_ = 70;
  in_kyoku_ = true;
  const Tehai& mine = e.tehais[ix(me_)];
  if (mine.size() != 13) bad(e, "a dealt hand must have 13 tiles");
  for (Pai p : mine) {
    if (p.is_unknown()) bad(e, "seat " + std::to_string(me_.index()) + "'s dealt hand is hidden");
    hand_.add(p);
  }
  for (int t = 0; t < kNumTileTypes; ++t)
    if (hand_.closed[ix(t)] > 4) bad(e, "a dealt hand holds five of a kind");
  update_waits();
}

void PlayerView::replace_closed(const std::vector<Pai>& closed) {
  if (static_cast<int>(closed.size()) != hand_.closed_size())
    throw Error("seat " + std::to_string(me_.index()) + " holds " + std::to_string(hand_.closed_size()) +
                " closed tiles, not " + std::to_string(closed.size()));
  hand_.closed = {};
  hand_.closed_red = 0;
  for (Pai p : closed) hand_.add(p);
  drawn_ = Pai::unknown();
  temp_furiten_ = false;
  riichi_furiten_ = false;
  missed_win_ = false;
  update_waits();
}

void PlayerView::on_tsumo(const Event& e) {
  check_seat(e, e.actor, "actor");
  if (live_left_ <= 0) bad(e, "tsumo from an empty live wall");
  --live_left_;
  const bool rinshan = rinshan_next_[ix(e.actor)];
  rinshan_next_[ix(e.actor)] = false;
  // A kan ends every ippatsu only once it completes, at its rinshan draw: a kakan robbed by
  // chankan never completes, so the riichi player who robs it keeps ippatsu (Tenhou pays
  // riichi + ippatsu + chankan). The riichi player's own kan ends its ippatsu too.
  if (rinshan) ippatsu_.fill(false);
  phase_ = Phase::idle;
  if (e.actor != me_) return;
  if (e.pai.is_unknown()) bad(e, "own draw is hidden");
  if (hand_.closed_size() % 3 != 1) bad(e, "a draw while the hand holds 3n+2 tiles");
  hand_.add(e.pai);
  drawn_ = e.pai;
  rinshan_draw_ = rinshan;
  phase_ = Phase::turn;
}

void PlayerView::on_dahai(const Event& e) {
  check_seat(e, e.actor, "actor");
  if (e.pai.is_unknown()) bad(e, "a discard must show its tile");
  River& river = rivers_[ix(e.actor)];
  if (river.full()) bad(e, "river overflow");
  const bool declaring = riichi_declared_[ix(e.actor)] && !riichi_accepted_[ix(e.actor)];
  river.push_back({e.pai, e.tsumogiri, declaring, false});
  if (riichi_accepted_[ix(e.actor)]) ippatsu_[ix(e.actor)] = false;
  ++discards_;
  if (e.actor == me_) {
    if (hand_.closed_size() % 3 != 2) bad(e, "a discard while the hand holds 3n+1 tiles");
    if (e.tsumogiri && !(drawn_ == e.pai)) bad(e, "tsumogiri of a tile that was not drawn");
    remove_own(e.pai, e);
    discarded_.insert(e.pai.type());
    temp_furiten_ = false;
    kuikae_ = TileMask();
    drawn_ = Pai::unknown();
    rinshan_draw_ = false;
    update_waits();
    phase_ = Phase::idle;
  } else {
    note_win_chance(e.pai);
    phase_ = Phase::response;
  }
}

void PlayerView::on_call(const Event& e) {
  check_seat(e, e.actor, "actor");
  check_seat(e, e.target, "target");
  if (e.actor == e.target) bad(e, "a seat calls its own discard");
  if (last_type_ != EventType::dahai || last_actor_ != e.target || !(last_pai_ == e.pai))
    bad(e, "a call on a tile that is not the last discard");
  River& river = rivers_[ix(e.target)];
  river[river.size() - 1].called = true;
  const From from = static_cast<From>(e.actor.distance_to(e.target));
  Meld m;
  if (e.type == EventType::chi) {
    if (e.consumed.size() != 2) bad(e, "chi consumes two tiles");
    if (from != From::kamicha) bad(e, "chi from a seat other than kamicha");
    m = Meld::chi(e.pai, e.consumed[0], e.consumed[1]);
  } else if (e.type == EventType::pon) {
    if (e.consumed.size() != 2) bad(e, "pon consumes two tiles");
    m = Meld::pon(e.pai, e.consumed[0], e.consumed[1], from);
  } else {
    if (e.consumed.size() != 3) bad(e, "daiminkan consumes three tiles");
    m = Meld::daiminkan(e.pai, {e.consumed[0], e.consumed[1], e.consumed[2]}, from);
    ++kans_total_;
    ++kans_by_seat_[ix(e.actor)];
    rinshan_next_[ix(e.actor)] = true;
  }
  Melds& melds = melds_[ix(e.actor)];
  if (melds.full()) bad(e, "a fifth meld");
  melds.push_back(m);
  no_calls_ = false;
  ippatsu_.fill(false);
  // Pao: the call that completes the third dragon set or the fourth wind set.
  if (e.type != EventType::chi && (m.first().is_dragon() || m.first().is_wind())) {
    const bool dragon = m.first().is_dragon();
    int sets = 0;
    for (const Meld& x : melds) sets += is_dragon_or_wind_set(x, dragon) ? 1 : 0;
    if (sets == (dragon ? 3 : 4)) pao_[ix(e.actor)] = e.target;
  }
  phase_ = Phase::idle;
  if (e.actor != me_) return;
  for (Pai p : e.consumed) remove_own(p, e);
  hand_.add_meld(m);
  if (e.type == EventType::daiminkan) return;  // the rinshan draw comes next
  const int t = e.pai.type().index();
  kuikae_ = TileMask();
  kuikae_.insert(TileType(t));
  if (e.type == EventType::chi) {
    const int low = m.first().index();
    const int n = t % 9;
    if (t == low && n + 3 <= 8) kuikae_.insert(TileType(t + 3));     // 3 called with 45: not 6
    if (t == low + 2 && n - 3 >= 0) kuikae_.insert(TileType(t - 3)); // 6 called with 45: not 3
  }
  phase_ = Phase::turn;
}

void PlayerView::on_kakan(const Event& e) {
  check_seat(e, e.actor, "actor");
  Melds& melds = melds_[ix(e.actor)];
  int idx = -1;
  for (int i = 0; i < melds.size(); ++i)
    if (melds[i].kind() == MeldKind::pon && melds[i].first() == e.pai.type()) idx = i;
  if (idx < 0) bad(e, "kakan without a pon of that tile");
  if (e.actor == me_ && drawn_.is_unknown()) bad(e, "kakan without a draw");
  melds[idx] = Meld::kakan(melds[idx], e.pai);
  ++kans_total_;
  ++kans_by_seat_[ix(e.actor)];
  rinshan_next_[ix(e.actor)] = true;
  no_calls_ = false;
  phase_ = Phase::idle;  // ippatsu ends at the rinshan draw (on_tsumo), if nobody robs the tile
  if (e.actor == me_) {
    remove_own(e.pai, e);
    for (int i = 0; i < hand_.num_melds; ++i) {
      Meld& own = hand_.melds[ix(i)];
      if (own.kind() == MeldKind::pon && own.first() == e.pai.type()) own = melds[idx];
    }
    check_closed_size(e, hand_, me_);
    update_waits();
  } else {
    note_win_chance(e.pai);
    phase_ = Phase::chankan;
  }
}

void PlayerView::on_ankan(const Event& e) {
  check_seat(e, e.actor, "actor");
  if (e.consumed.size() != 4) bad(e, "ankan consumes four tiles");
  const Meld m = Meld::ankan({e.consumed[0], e.consumed[1], e.consumed[2], e.consumed[3]});
  Melds& melds = melds_[ix(e.actor)];
  if (melds.full()) bad(e, "a fifth meld");
  melds.push_back(m);
  ++kans_total_;
  ++kans_by_seat_[ix(e.actor)];
  rinshan_next_[ix(e.actor)] = true;
  no_calls_ = false;
  phase_ = Phase::idle;  // ippatsu ends at the rinshan draw (on_tsumo), as for a kakan
  if (e.actor == me_) {
    if (drawn_.is_unknown()) bad(e, "ankan without a draw");
    for (Pai p : e.consumed) remove_own(p, e);
    hand_.add_meld(m);
    check_closed_size(e, hand_, me_);
    update_waits();
  } else if (rules_->kokushi_ankan_chankan) {
    const Pai p(m.first());
    if (waits_.contains(p.type()) && is_kokushi([&] { TileCounts c = hand_.closed; ++c[ix(p.type().index())]; return c; }())) {
      note_win_chance(p);
      phase_ = Phase::chankan;
    }
  }
}

}  // namespace hydra::game
