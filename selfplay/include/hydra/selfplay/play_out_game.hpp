#pragma once

// A play-out played by a network (docs/PPO.md "Play-outs by the network"): the rest of a kyoku
// from a copy of a game's table, every seat decided by one policy, as an engine game of its own
// (EngineGame::spawn), so its passes are batched with the games' and the other play-outs'. The
// seats keep the deciding game's encoders and suit permutations, so from the copied table a
// play-out is exactly that game continued by the agent: argmax at temperature 0, else drawn from
// each seat's own stream at the temperature. It ends at the kyoku's end (or the game's) and writes
// where it ended into the slot its game reserved for it. A cut play-out (PlayOutAgentSpec::depth)
// ends instead at the deciding seat's first network decision after `depth` decisions, or its first
// in a later kyoku, and keeps the network's value there (search.hpp, option depth). With a greedy
// tail it is not cut: after `depth` decisions bot:greedy plays every seat to the kyoku's end. With
// other opponents the deciding seat alone is the agent's, and bot:greedy or another network plays
// the other seats.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/engine.hpp"

namespace hydra::selfplay {

// Where a play-out ended: the next kyoku's start (absent when the game ended in this one) and
// the scores then (the final scores when it did); the decisions it took after its first action;
// for a cut play-out, the network's value at the seat's decision where it was cut (absent when
// the game ended first).
struct PlayOutEnd {
  std::optional<game::KyokuStart> next;
  game::Scores scores{};
  std::int64_t decisions = 0;
  std::optional<float> value;

  // A cut play-out's reward for `seat`: the value where it was cut, or the placement points of
  // the final scores where the game ended first (one unit, an expected final placement).
  double cut_reward(std::size_t seat) const;
};

// Who plays a network play-out, and how.
struct PlayOutAgentSpec {
  BatchPolicy* policy = nullptr;
  double temperature = 0;  // 0: argmax (lowest index on ties)
  // > 0: cut the play-out at the deciding seat's first network decision once it has taken this
  // many decisions (or once its kyoku has ended), keeping the network's value there; that
  // decision is still played. 0: to the kyoku's end.
  int depth = 0;
  // Instead of the cut, every decision after the first `depth` is bot:greedy's (each seat's bot
  // seeded from the game key, as in a greedy play-out) to the kyoku's end, and the play-out keeps
  // no value: it is rewarded like a full one. With depth 0 the whole play-out is the greedy bot's
  // (the search's continuation=greedy) and `policy` may be null: it is never asked.
  bool greedy_tail = false;
  // Every decision of the other seats (all but the deciding one) is bot:greedy's, from the first
  // (each seat's bot seeded from the game key): the deciding seat plays on as the network, to the
  // depth and tail above, against greedy opponents. `depth` still counts every seat's decisions.
  bool greedy_others = false;
  // Instead, the other seats' decisions are this network's (at the same temperature; a tail still
  // hands every seat to bot:greedy after the depth). Null: `policy` plays them.
  BatchPolicy* others = nullptr;

  // Whether bot:greedy plays some decision of a play-out (its bots are needed).
  bool greedy() const { return greedy_tail || greedy_others; }
  // Whether a play-out ends at the cut with the network's value (else at the kyoku's end).
  bool cut() const { return depth > 0 && !greedy_tail; }
  // Whether a network may decide in a play-out, so that its seats' encoders are kept up to date;
  // not for a play-out bot:greedy plays from its first decision, which encodes nothing.
  bool network() const { return !(greedy_tail && depth == 0); }
};

// The deciding game as it stands, for a play-out of it.
struct PlayOutStart {
  const game::Table& table;  // its only pending decision is `seat`'s
  game::Seat seat;
  // Every seat's, up to date; may be null where the agent plays no network (!network()).
  const game::SeatArray<encoder::Encoder>* encoders;
  const game::SeatArray<encoder::SuitPerm>& perms;
  const game::GameKey* key = nullptr;  // the deciding game's: seeds the greedy bots of a tail or the others
};

class PlayOutGame final : public EngineGame {
 public:
  // `first`: the action `seat` plays first (table action space), or none for the agent to decide.
  // `walls`: the kyoku's unseen tiles dealt again from this stream first (Table::shuffle_unseen).
  // `sampling`: the parent of the seats' sampling streams (unused at temperature 0). On its end
  // the play-out writes `*out` and counts `*outstanding` down.
  PlayOutGame(const PlayOutStart& start, std::optional<game::Action> first, std::optional<game::Xoshiro256ss> walls,
              const PlayOutAgentSpec& agent, const game::StreamKey& sampling, PlayOutEnd* out,
              std::atomic<int>* outstanding);

  game::Table& table() override { return *table_; }
  bool over() override { return table_->done() || (agent_.cut() ? end_.value.has_value() : end_.next.has_value()); }
  void ended() override;
  BatchPolicy* policy(const game::Decision& d) override;
  game::Action act(const game::Decision& d) override;
  void encode(const game::Decision& d, const Row& row) override;
  game::Action choose(const game::Decision& d, const RowResult& result) override;

 private:
  std::unique_ptr<game::Table> table_;
  std::optional<game::SeatArray<encoder::Encoder>> enc_;  // none where no network decides
  game::SeatArray<encoder::SuitPerm> perm_;
  std::optional<game::SeatArray<game::Xoshiro256ss>> rng_;
  std::optional<game::SeatArray<GreedyAgent>> greedy_;  // the greedy bots (of a tail or the others)
  std::int64_t routed_ = 0;                            // decisions policy() was asked about
  PlayOutAgentSpec agent_;
  game::Seat seat_;  // the deciding seat: whose value a cut play-out keeps
  PlayOutEnd end_;
  PlayOutEnd* out_;
  std::atomic<int>* outstanding_;
};

}  // namespace hydra::selfplay
