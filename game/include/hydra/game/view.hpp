#pragma once

// One seat's view of a game, rebuilt only from the mjai events that seat sees (Mortal's
// PlayerState): its own hand, every river with tedashi/tsumogiri and called marks, every meld,
// riichi and ippatsu state, the three kinds of furiten, dora indicators, scores, honba and
// riichi sticks, the tiles left in the live wall. Other seats' hidden tiles are ignored when an
// event carries them (a table may feed the same full event to all four views).
//
// apply() checks each event against what the seat knows and throws hydra::Error for an event
// that cannot happen (a discard of a tile the seat does not hold, a second draw, ...); the replay
// checker adds the file and line. legal() lists what the seat may do now (legal.hpp).
//
// Everything is fixed-capacity: applying an event or listing the legal actions never allocates.

#include <array>
#include <cstdint>

#include "hydra/game/event.hpp"
#include "hydra/game/hand.hpp"
#include "hydra/game/legal.hpp"
#include "hydra/game/score.hpp"
#include "hydra/game/shanten.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

struct RiverTile {
  Pai pai;
  bool tsumogiri = false;
  bool riichi = false;  // the riichi declaration tile
  bool called = false;  // taken by a chi, pon or daiminkan
};
// Size for the worst case, not the common one: a seat discards once per own draw (at most ~35 of
// the 70 live tiles plus 4 rinshan) and once per own call (at most 4).
using River = FixedVec<RiverTile, 48>;
using Melds = FixedVec<Meld, 4>;

// The facts of a win that scoring needs beyond the hand, from the winner's view.
struct WinSituation {
  Hand hand;  // closed tiles include the winning tile
  WinContext ctx;
};

class PlayerView {
 public:
  PlayerView(Seat me, const TableRules& rules);
  // After the table that owns the view was copied (Table::branch): its rules live in the copy.
  void rebind_rules(const TableRules& rules) { rules_ = &rules; }

  void apply(const Event& e);
  // Another deal of this seat's closed tiles, as many as it holds (Table::redeal_hidden, for the
  // seats another seat's search cannot see): waits and shanten follow the new tiles; the furiten
  // of a missed win is cleared (it came from the old tiles' waits), discard furiten follows the
  // new waits; the drawn tile is forgotten. Throws hydra::Error for another number of tiles.
  void replace_closed(const std::vector<Pai>& closed);
  Legal legal() const;
  // The same into `out`, reusing it: only what the previous answer set is cleared (hot path).
  void legal(Legal& out) const;
  // Whether `e` (an event of this seat) is one of its legal moves now; else why not.
  bool is_legal(const Event& e, std::string* why) const;
  // The win on `tile` (tsumo: the drawn tile) as scoring sees it, without honba and sticks
  // (the kyoku settlement adds them), with these ura indicators.
  WinSituation win_situation(Pai tile, bool tsumo, Seat from, const DoraMarkers& ura) const;
  WinResult evaluate_win(Pai tile, bool tsumo, Seat from, const DoraMarkers& ura) const;

  // Own state.
  Seat seat() const { return me_; }
  const Hand& hand() const { return hand_; }
  Phase phase() const { return phase_; }
  Pai last_drawn() const { return drawn_; }
  bool tenpai() const { return !waits_.empty(); }  // 13-tile hands only: after a discard or deal
  TileMask waits() const { return waits_; }
  int shanten() const { return shanten_; }  // of the 3n+1 hand (after a discard, the deal or a kan)
  bool furiten() const;

  // Public state.
  const TableRules& rules() const { return *rules_; }
  const Scores& scores() const { return scores_; }
  TileType bakaze() const { return bakaze_; }
  int kyoku() const { return kyoku_; }
  int honba() const { return honba_; }
  int kyotaku() const { return kyotaku_; }
  Seat oya() const { return oya_; }
  const DoraMarkers& dora_markers() const { return dora_markers_; }
  int live_left() const { return live_left_; }
  int kans() const { return kans_total_; }
  const River& river(Seat s) const { return rivers_[ix(s)]; }
  const Melds& melds(Seat s) const { return melds_[ix(s)]; }
  bool riichi(Seat s) const { return riichi_accepted_[ix(s)]; }
  bool riichi_declared(Seat s) const { return riichi_declared_[ix(s)]; }
  bool ippatsu(Seat s) const { return ippatsu_[ix(s)]; }
  Seat pao(Seat s) const { return pao_[ix(s)]; }  // who is liable for s's daisangen/daisuushii
  int riichi_count() const;
  // Nagashi mangan so far: every discard a terminal or honour, none called.
  bool nagashi(Seat s) const;
  // The first go-around: no call yet and this seat has not discarded (tenhou, chiihou, double
  // riichi, kyuushu kyuuhai).
  bool first_turn(Seat s) const { return no_calls_ && rivers_[ix(s)].empty(); }
  // After the fourth discard of an uncalled first go-around: all four the same wind.
  bool suufon_renda() const;
  // Four kans by more than one seat: the kyoku ends once the next discard passes.
  bool suukaikan() const;
  Seat last_actor() const { return last_actor_; }
  EventType last_event() const { return last_type_; }
  Pai last_tile() const { return last_pai_; }

 private:
  void start_kyoku(const Event& e);
  void on_tsumo(const Event& e);
  void on_dahai(const Event& e);
  void on_call(const Event& e);
  void on_kakan(const Event& e);
  void on_ankan(const Event& e);
  void remove_own(Pai p, const Event& e);
  void commit_missed_win();
  void note_win_chance(Pai p);
  void update_waits();

  void turn_actions(Legal& out) const;
  void riichi_discards(Legal& out) const;
  void response_actions(Legal& out) const;
  void chankan_actions(Legal& out) const;
  void add_discards(Legal& out, TileMask forbidden) const;
  void add_kans(Legal& out) const;
  bool can_win_on(Pai p, bool tsumo, Seat from) const;
  bool can_call_keep_discard(TileCounts after, TileMask forbidden) const;

  Seat me_;
  const TableRules* rules_;

  // Public.
  Scores scores_{};
  TileType bakaze_{27};
  int kyoku_ = 1, honba_ = 0, kyotaku_ = 0;
  Seat oya_{0};
  DoraMarkers dora_markers_;
  int live_left_ = 0;
  int kans_total_ = 0;
  std::array<std::uint8_t, kNumSeats> kans_by_seat_{};
  std::array<River, kNumSeats> rivers_{};
  std::array<Melds, kNumSeats> melds_{};
  std::array<bool, kNumSeats> riichi_declared_{}, riichi_accepted_{}, ippatsu_{}, rinshan_next_{};
  std::array<Seat, kNumSeats> pao_{};
  bool no_calls_ = true;
  int discards_ = 0;  // in the kyoku, all seats
  EventType last_type_ = EventType::none;
  Seat last_actor_;
  Pai last_pai_;

  // Own.
  Hand hand_;
  Phase phase_ = Phase::idle;
  Pai drawn_ = Pai::unknown();
  bool rinshan_draw_ = false;
  bool double_riichi_ = false;
  bool in_kyoku_ = false;
  TileMask waits_;
  std::int8_t shanten_ = 8;  // of the 3n+1 hand (after a discard, the deal or a kan)
  TileMask discarded_;  // every tile type this seat has discarded in the kyoku (discard furiten)
  TileMask kuikae_;     // discards forbidden right after an own chi/pon
  bool temp_furiten_ = false;
  bool riichi_furiten_ = false;
  bool missed_win_ = false;  // a winning tile just went by; furiten once the chance is passed
};

}  // namespace hydra::game
