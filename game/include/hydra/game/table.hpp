#pragma once

// The full-information table: owns the walls (seeded from the game key, wall.hpp) and the
// scores, plays one whole game under a TableRules preset, and emits every step as an mjai event.
// It is a step machine, so self-play can run many tables in lock step with batched inference:
//
//   Table t(rules, key);
//   while (!t.done())
//     for (const Decision& d : FixedVec(t.pending())) t.act(d.seat, choose(t.view(d.seat), d));
//
// Each pending decision comes from that seat's PlayerView (the one source of truth for legality);
// the table only resolves what views cannot know: the wall, call priority among seats (ron >
// pon/kan > chi; every seat answers before anything is applied), the abortive draws, the
// payments (kyoku.hpp) and the progression of the game. Kan dora follow Tenhou: an ankan reveals
// before its rinshan draw, a daiminkan or kakan after the rinshan draw, before the discard.
// Decisions with a single legal action (a lone "pass") are taken by the table, not asked.

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "hydra/game/event.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/view.hpp"
#include "hydra/game/wall.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

struct Decision {
  Seat seat;
  Phase phase = Phase::idle;
  ActionMask mask;
};

class Table {
 public:
  // Starts the game (start_game, the first start_kyoku and the dealer's draw are emitted).
  // Without `record`, events are applied to the views but not kept (benchmarks, training
  // loops that write no logs).
  Table(const TableRules& rules, const GameKey& key, bool record = true);
  // Called after each event was applied to the views, from the constructor on: observers that
  // need the views as they were at that event (self-play encoders) read them here, since one
  // act() can emit several events.
  using EventHook = std::function<void(const Table&, const Event&)>;
  Table(const TableRules& rules, const GameKey& key, bool record, EventHook on_event);
  // The same game on given walls: the k-th kyoku played (0-based, renchan and abortive draws
  // included) deals walls[k] (wall.hpp layout) instead of the seeded wall; for replaying
  // recorded games whose walls are known. Starting a kyoku beyond the list throws hydra::Error.
  Table(const TableRules& rules, std::vector<Wall::Tiles> walls, bool record = true);
  // A game joined at a kyoku (rebuild.hpp): it stands at `at` (round, honba, sticks, scores) and
  // deals `wall` there; a later kyoku (a play-out that reaches the next deal) gets the seeded wall
  // of `key`. It keeps no record; `on_event` sees its events from the constructor on.
  Table(const TableRules& rules, const GameKey& key, const GameProgress& at, const Wall::Tiles& wall,
        EventHook on_event = {});

  // A table is neither copied nor moved by its users (its seats' views point at its rules):
  // branch() makes the one kind of copy there is.
  Table& operator=(const Table&) = delete;

  // An independent copy of the game as it stands: the same walls, hands, scores and pending
  // decisions, played on from here by whoever answers it (self-play's paired branches,
  // docs/PPO.md). It reports its events to `on_event` (may be empty) and keeps no record of them.
  std::unique_ptr<Table> branch(EventHook on_event) const;
  // Of such a copy: the kyoku's unseen tiles dealt again (Wall::shuffle_unseen), so the copy plays
  // on a fresh draw of the same future. Every hand, meld, discard and revealed indicator stays.
  void shuffle_unseen(Xoshiro256ss& rng) { wall_->shuffle_unseen(rng); }
  // Of such a copy: everything `seat` cannot see dealt again, for a search by that seat
  // (docs/EVAL.md "Search"): the other seats' closed tiles and the wall's unseen tiles
  // (shuffle_unseen's) are pooled, put in a fixed order and shuffled with `rng`, then dealt back
  // in the same numbers: each other seat as many closed tiles as it held (its melds, river and
  // every public fact stay; PlayerView::replace_closed), the wall its unseen positions. A seat
  // in riichi gets a tenpai hand that does not wait on its own discards (random sets and a pair
  // less one tile, when the pool allows; else like the others). Another seat's hand was kept on
  // purpose for as many turns as it discarded: it gets the lowest-shanten of 1 + discards / 2
  // uniform draws. The wall takes the rest in a fresh order.
  // The result depends only on what `seat` sees and on `rng`, never on where the hidden tiles
  // were. Decisions pending for the other seats (calls and wins on a discard) are asked again
  // from their new hands.
  void redeal_hidden(Seat seat, Xoshiro256ss& rng);

  bool done() const { return state_ == State::game_over; }
  // The decisions the table waits for; all of them must be answered (in any order). Answering
  // the last one advances the table and replaces this list: iterate over a copy.
  const FixedVec<Decision, kNumSeats>& pending() const { return pending_; }
  // Whether `seat`'s pending decision was answered already: a set of responses keeps every
  // seat's decision listed until the last one answers.
  bool answered(Seat seat) const { return state_ == State::responses && answered_[seat]; }
  // Answers one pending decision; throws InvariantError for an action outside its mask.
  void act(Seat seat, Action a);

  const PlayerView& view(Seat s) const { return views_[s]; }
  const Legal& legal(Seat s) const { return legal_[s]; }
  const std::vector<Event>& events() const { return events_; }
  std::vector<Event> take_events() { return std::move(events_); }
  int kyoku_played() const { return kyoku_played_; }
  const Wall& wall() const { return *wall_; }
  const GameProgress& progress() const { return progress_; }
  const Scores& scores() const { return scores_; }
  int kyotaku() const { return kyotaku_; }
  const Scores& final_scores() const { return final_; }  // valid once done()
  const TableRules& rules() const { return rules_; }
  int decisions() const { return decisions_; }
  // The seat whose turn it is: the one about to discard, or the discarder (kan player) the
  // pending responses are about. Absent calls, the next live draw is the following seat's.
  Seat turn() const { return actor_; }

 private:
  enum class State : std::uint8_t { turn, riichi_discard, kan_select, responses, game_over };
  Table(const Table&) = default;  // member-wise, for branch(), which re-points the views

  void start(bool record, const GameProgress& at);
  void emit(const Event& e);
  void start_kyoku();
  void act_one(Seat seat, Action a);
  void auto_play();
  bool draw(Seat seat, bool rinshan);  // false: the live wall was empty, the kyoku ended
  void ask_turn(Seat seat, State state);
  void ask_responses(Seat actor);
  void discard(Seat seat, const Move& m, bool declaring);
  void kan(Seat seat, const Move& m);
  void resolve_responses();
  void rinshan_after_kan(Seat seat, EventType kan_type);
  void hora(const FixedVec<Seat, 3>& winners, Seat from, Pai tile);
  void exhaustive_draw();
  void abortive(RyukyokuReason reason);
  void end_kyoku();
  Event scored(EventType type);
  // What the seats see of a wall tile: a red five only where the rules have red fives.
  Pai seen(Tile t) const { return rules_.red_fives ? Pai(t) : Pai(t.type()); }

  TableRules rules_;
  GameKey key_;
  SeatArray<PlayerView> views_;
  SeatArray<Legal> legal_{};
  SeatArray<Action> answers_{};
  SeatArray<bool> answered_{};
  FixedVec<Decision, kNumSeats> pending_;
  std::optional<Wall> wall_;
  std::vector<Wall::Tiles> given_walls_;
  bool walls_given_ = false;
  bool seeded_after_given_ = false;  // a joined game: seeded walls once the given ones are played
  GameProgress progress_;
  Scores scores_{};
  Scores final_{};
  int kyotaku_ = 0;
  KyokuOutcome outcome_;
  State state_ = State::turn;
  Seat actor_;             // whose turn it is
  Seat responding_to_;     // the discarder or kan player the responses are about
  EventType response_to_ = EventType::none;  // dahai, kakan or ankan
  bool riichi_pending_ = false;
  std::vector<Event> events_;
  bool record_ = true;
  EventHook on_event_;
  int decisions_ = 0;
  int kyoku_played_ = 0;
};

}  // namespace hydra::game
