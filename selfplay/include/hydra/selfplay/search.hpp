#pragma once

// Search at decision time (docs/EVAL.md "Search"): the agent `search:CKPT[:KEY=VALUE...]`.
//
// At each of its decisions the agent evaluates the checkpoint's policy as a model agent would.
// When more than one action is likely (probability >= `threshold`, the `candidates` most likely
// at most, the argmax always), it plays each of them out on `walls` deals of what its seat cannot
// see (Table::redeal_hidden: the other hands and the wall dealt again, uniformly among the deals
// consistent with its view), every seat of every play-out played by the continuation network
// (argmax, or sampled at `temperature`) to the end of the kyoku. All candidates share the deals
// (common random numbers). A candidate's reward on a deal is the seat's score change / 10,000
// plus, when the game ends, the placement points of rewards.hpp, or with `grp` the GRP's change
// of the seat's expected placement points over the kyoku (the reward of selfplay.grp, which
// weighs a point by what it does to the final rank); its gain is its mean reward less
// the argmax's, paired by deal. It plays the candidate of highest gain among those whose gain
// exceeds `margin` plus `sigmas` standard errors of the paired differences; else the argmax. One decision's play-outs are engine games
// (play_out_game.hpp) spawned by the deciding game, which defers the decision until they end, so
// their passes are batched with every other game's; a search is a function of the seat's view,
// the game key and the decision's index, whatever the thread count.
//
// Options (each after a colon, following the path; a path with a colon cannot be searched):
//   walls=N (8)            deals per candidate
//   threshold=P (0.1)      the probability a candidate needs
//   candidates=K (4)       at most this many candidates
//   continuation=CKPT      who plays the play-outs (default: CKPT); `greedy`: bot:greedy in
//                          every seat (each seat's bot seeded from the game key), far cheaper
//                          than a network, so many more deals (not with depth or temperature)
//   temperature=T (0)      of the continuation; 0 = argmax
//   margin=M (0)           how much better than the argmax a candidate must be to be played
//   sigmas=S (1)           and by how many standard errors of its paired gain
//   grp=CKPT               reward the GRP's change of expected placement points (hydra grp)
//   calls=0                decisions on another seat's discard or kan are not searched (argmax)
//   riichi=0               whether to declare riichi is the argmax's: a declaration is played as
//                          it is (its riichi discard is searched), a dama turn searches its discards
//   more=N                 a staged search: after the first `walls` deals, N more (the same deals
//                          a search of walls + N plays) only where a candidate is on course for the
//                          gate, its gain above margin + sigmas * sqrt(walls / (walls + N)) of the
//                          first deals' standard errors; elsewhere the argmax is played on the
//                          first deals. With time the first stage runs whole and a further
//                          stage only where the time a deal of the stage before took says it
//                          ends within the budget.
//   stages=S (1)           with more: up to S such extensions, each multiplying the deals by
//                          (walls + more) / walls (walls=32:more=96:stages=3: 32, 128, 512, 2048
//                          deals), each where a candidate is on course for the gate at the next
//                          stage's deals: a sequential test that spends the deals on the decisions
//                          whose candidates are close to the gate.
//   depth=N                cut each play-out at the seat's first network decision after N
//                          decisions (or its first in the next kyoku) and score it by the
//                          continuation's value head there, which a behaviour-cloned checkpoint
//                          (hydra pretrain) trains on the final placement points 3, 1, -1, -3;
//                          a play-out in which the game ends scores those points. Not with grp
//                          unless the play-outs have a tail.
//   tail=greedy            with depth=N: the play-out is not cut; after its first N decisions
//                          bot:greedy plays every seat to the kyoku's end, and it is rewarded like
//                          a full play-out (selfplay.play_out_tail's continuation)
//   others=greedy|CKPT3    the continuation plays the searching seat alone, and bot:greedy
//                          (greedy) or the network CKPT3 the three other seats, from the
//                          candidate on (selfplay.play_out_others): the seat's own play on is the
//                          continuation's at a quarter of its passes
//   time=S                 a budget of S seconds per searched decision: the deals are played in
//                          rounds of ceil(walls / 4) and no round starts that the last round's
//                          time says would end past S (the first always runs). Such a search
//                          runs at once on an engine of the agent's own, in eval and selfplay as
//                          in bot, so it is the bot a host sees; where the budget binds, the
//                          choice depends on the machine's speed. A round's deals are those of
//                          the search without a budget: a budget that does not bind changes
//                          nothing. With more, the first stage is one round and a further stage
//                          starts only where the stage before's time per deal says it ends
//                          within S.
// In `hydra eval` and `hydra selfplay` a search runs on the engine's own table, its play-outs
// batched with every game's passes. Where no table is held (`hydra bot`, a plain game loop) the
// agent rebuilds one from the kyoku's events as its seat saw them (game/rebuild.hpp) and runs
// the play-outs on an engine of its own: the same deals and the same choice, since a search reads
// only what the seat sees. A kyoku it cannot rebuild (a kan after a riichi, say) is played by the
// argmax, with a warning.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/data/game_log.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/engine.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/play_out_game.hpp"
#include "hydra/selfplay/rewards.hpp"

namespace hydra::selfplay {

inline constexpr std::string_view kSearchPrefix = "search:";

struct SearchOptions {
  int walls = 8;
  double threshold = 0.1;
  int candidates = 4;
  std::string continuation;  // empty: the searched checkpoint; kGreedyContinuation: bot:greedy
  double temperature = 0;
  double margin = 0;
  double sigmas = 1;
  std::string grp;  // empty: the score change and the final placement points
  double time = 0;  // seconds per searched decision; 0: no budget, every wall
  bool calls = true;  // false: decisions on another seat's discard or kan are not searched
  bool riichi = true;  // false: whether to declare riichi is the argmax's (its discards are searched)
  int more = 0;  // > 0: after the first `walls` deals, this many more where a candidate is on course for the gate
  int stages = 1;  // with more: how many times the deals may grow by (walls + more) / walls
  int depth = 0;      // > 0: play-outs cut after this many decisions, scored by the value head
  bool greedy_tail = false;  // with depth: not cut, bot:greedy plays on after the depth's decisions
  // Who plays the other seats of a play-out: empty: the continuation; kGreedyContinuation:
  // bot:greedy; else a checkpoint (the continuation plays the searching seat alone).
  std::string others;
  bool bf16 = false;  // the play-outs' networks run the bf16 CPU forward (model.cpu_bf16_inference)

  // Whether bot:greedy plays every decision of a play-out after the candidate.
  bool greedy() const;
  // Whether bot:greedy plays the other seats of a play-out; whether a network of its own does.
  bool greedy_others() const;
  bool network_others() const { return !others.empty() && !greedy_others(); }
  // Who plays the play-outs, for PlayOutGame (the continuation's policy: null for greedy(); the
  // other seats' network with network_others()).
  PlayOutAgentSpec play_out_agent(BatchPolicy* continuation, BatchPolicy* others_policy = nullptr) const;
};

// The search option value naming bot:greedy (a colon separates the options, so the bot's own
// name cannot be written in one): continuation=greedy, tail=greedy, others=greedy.
inline constexpr std::string_view kGreedyContinuation = "greedy";

struct SearchName {
  std::string checkpoint;
  SearchOptions options;
};

bool is_search_name(std::string_view name);
// Parses "search:CKPT[:KEY=VALUE...]"; throws hydra::Error naming the bad option.
SearchName parse_search_name(std::string_view name);

// What the searches of one agent name did, summed over its games (thread-safe).
struct SearchCounters {
  std::atomic<std::int64_t> decisions{0};  // network decisions of the agent
  std::atomic<std::int64_t> searched{0};   // of those, with two or more candidates
  std::atomic<std::int64_t> changed{0};    // of those, where it played another action than the argmax
  std::atomic<std::int64_t> extended{0};   // of those, where it played `more` deals beyond the first
  std::atomic<std::int64_t> deals{0};      // the deals of all the searches (walls, and more where they went on)
  std::atomic<std::int64_t> play_outs{0};
  std::atomic<std::int64_t> play_out_decisions{0};
  // The longest search run at once (act(), or under a time budget), in microseconds: the wait a
  // host sees at its slowest decision. 0 where every search was batched in the engine.
  std::atomic<std::int64_t> longest_us{0};
};

// The reward model of `grp`, shared by the search agents of one name and called under its lock:
// the engine settles searches on several threads, and a model holds one network.
struct SearchReward {
  std::mutex mu;
  std::shared_ptr<KyokuRewardModel> model;
};

// The agent: a model agent of the checkpoint (it observes, encodes and answers alone when the
// decision has one likely action) that the game driver (play.cpp) asks for a search.
class SearchAgent final : public BatchedAgent {
 public:
  SearchAgent(std::shared_ptr<BatchPolicy> policy, std::shared_ptr<BatchPolicy> continuation,
              const game::TableRules& rules, std::string name, SearchOptions options,
              std::shared_ptr<SearchCounters> counters, std::shared_ptr<SearchReward> reward = nullptr,
              std::shared_ptr<BatchPolicy> others = nullptr);

  std::string_view name() const override { return model_.name(); }
  void start_game(game::Seat seat, const game::GameKey& key) override;
  void observe(const game::Event& e) override;
  // Without the engine's table (hydra bot, a plain game loop): the search on a rebuilt table.
  game::Action act(const game::PlayerView& view, const game::Decision& d) override;
  // The search of decision d (two or more candidates, most likely first) on `table`, at once, on
  // the agent's own engine: act()'s search, and the engine path's under a time budget.
  game::Action search_on(const game::Table& table, const game::Decision& d, std::vector<game::Action> candidates);
  BatchPolicy* policy() const override { return model_.policy(); }
  void prepare(const game::PlayerView& view, const game::Decision& d, float* obs, float* context,
               game::ActionMask* legal) override {
    model_.prepare(view, d, obs, context, legal);
  }
  game::Action finish(const game::Decision& d, const float* probs) override { return model_.finish(d, probs); }

  // What act()'s last decision searched (hydra review shows it): its candidates, most likely
  // first, their mean rewards and the action played; none when one action was likely or the
  // kyoku could not be rebuilt.
  struct Searched {
    std::vector<game::Action> candidates;
    std::vector<double> values;
    game::Action played;
    int deals = 0;
  };
  const std::optional<Searched>& last_search() const { return last_; }

  const SearchOptions& options() const { return options_; }
  BatchPolicy* continuation() const { return continuation_.get(); }
  BatchPolicy* others() const { return others_.get(); }  // option others=CKPT3's network, else null
  const encoder::Observer& observer() const { return model_.observer(); }
  const game::GameKey& key() const { return key_; }
  SearchCounters& counters() const { return *counters_; }
  // The number of the game's next searched decision of this seat (it keys the search's deals and
  // streams), whichever path searches it.
  std::uint64_t next_search_index() { return searched_++; }
  // The GRP of `grp` (null without), and the starts of the game's kyoku so far (what it reads).
  SearchReward* reward() const { return reward_.get(); }
  const std::vector<game::KyokuStart>& kyoku() const { return kyoku_; }

 private:
  ModelAgent model_;
  std::shared_ptr<BatchPolicy> continuation_;
  std::shared_ptr<BatchPolicy> others_;
  SearchOptions options_;
  std::shared_ptr<SearchCounters> counters_;
  std::shared_ptr<SearchReward> reward_;
  game::GameKey key_;
  std::vector<game::KyokuStart> kyoku_;
  // The game's searched decisions so far; for act(): the kyoku's events so far and the engine of
  // its play-outs.
  std::uint64_t searched_ = 0;
  std::vector<game::Event> kyoku_events_;
  std::unique_ptr<Engine> engine_;
  std::optional<Searched> last_;
};

// The candidates of decision `d`, most likely first (ties: lower action index): the legal actions
// with probability >= threshold, at most `candidates`, the argmax always; the argmax alone for a
// decision on another seat's discard or kan (response, chankan) when `calls` is off.
std::vector<game::Action> search_candidates(const float* probs, const game::Decision& d, const SearchOptions& options);

// What the game's log keeps of a search (data::SearchNote) whose candidates had these mean
// rewards over `deals` deals, for the action event at index `event` of the game's events.
data::SearchNote search_note(std::size_t event, const std::vector<game::Action>& candidates,
                             const std::vector<double>& values, int deals);

// One decision's search in flight: made by the deciding game, which spawns games() and waits
// until done().
class Search {
 public:
  // `index`: the decision's number among the seat's searched decisions of the game (it keys the
  // deals and the continuations' streams).
  Search(const game::Table& table, game::Seat seat, const SearchAgent& agent, std::vector<game::Action> candidates,
         std::uint64_t index);
  Search(const Search&) = delete;
  Search& operator=(const Search&) = delete;

  // The play-out games: all of them, or those of deals [first, last) (every candidate's).
  std::vector<std::unique_ptr<EngineGame>> take_games() { return take_walls(0, walls_); }
  std::vector<std::unique_ptr<EngineGame>> take_walls(int first, int last);
  // Ends the search at its first `walls` deals, whose games have been played (a time budget);
  // the games of the others are dropped unplayed.
  void stop_at(int walls);
  // Once done(), with option more: whether the search goes on, its further deals dealt (their
  // games from take_walls(the walls before, walls())); false when no candidate is on course for
  // the gate at the next stage's deals, or after the last of its `stages` extensions.
  bool extend();
  // Whether another stage is allowed (option more, stages left): extend() may go on, to
  // next_walls() deals.
  bool can_extend() const { return stages_left_ > 0 && base_ != nullptr; }
  int next_walls() const { return next_stage(walls_, first_walls_, more_); }
  // The deals of the stage after one of `walls` deals: walls * (first + more) / first.
  static int next_stage(int walls, int first, int more) {
    return static_cast<int>(static_cast<std::int64_t>(walls) * (first + more) / first);
  }
  // The deals of options' last stage (walls without more); past 65,536 it stops counting there.
  static std::int64_t total_walls(const SearchOptions& o);
  int walls() const { return walls_; }
  bool done() const { return outstanding_.load(std::memory_order_acquire) == 0; }
  // Once done(): the action to play, and each candidate's mean reward (candidates' order). The
  // first of them reads the play-outs' rewards (with `grp`, one call of its model); one thread at
  // a time.
  game::Action best() const;
  // Once done(): counts the search in `c` (searched, changed, play-outs and their decisions), the
  // agent having played `played`.
  void count(SearchCounters& c, game::Action played) const;
  std::vector<double> values() const;
  const std::vector<game::Action>& candidates() const { return candidates_; }
  // Once done(): what the game's log keeps of it (the mjai line of the action it chose, at
  // index `event` of the game's events, carries it: data::SearchNote).
  data::SearchNote note(std::size_t event) const;
  std::int64_t play_out_decisions() const;

 private:
  double reward(std::size_t candidate, int wall) const;  // the seat's reward on one play-out
  void settle() const;                                   // fills rewards_ once
  struct Gain {
    double gain = 0;  // mean reward less the argmax's, paired by deal
    double se = 0;    // standard error of the paired differences
  };
  std::vector<Gain> gains() const;  // of each candidate but the argmax, in order
  void deal(const game::Table& table, const encoder::Observer& own, int first, int last);

  const SearchAgent* agent_;
  game::Seat seat_;
  std::uint64_t index_ = 0;
  game::Scores start_scores_{};
  std::vector<game::Action> candidates_;
  double margin_ = 0;
  double sigmas_ = 0;
  int walls_ = 0;
  int more_ = 0;
  int first_walls_ = 0;  // the first stage's deals
  int stages_left_ = 0;  // extensions still allowed
  bool extended_ = false;
  // With more: the decision's table and the seat's observer as they were, for the further deals.
  std::unique_ptr<game::Table> base_;
  std::unique_ptr<encoder::Observer> own_;
  bool cut_ = false;  // play-outs end at the cut with the continuation's value
  std::vector<PlayOutEnd> ends_;  // deal-major: ends_[w * candidates + k]
  SearchReward* reward_model_ = nullptr;
  std::vector<game::KyokuStart> kyoku_;   // with a reward model: the game's kyoku starts so far
  mutable std::vector<double> rewards_;   // as ends_, once settled
  std::atomic<int> outstanding_{0};
  std::vector<std::unique_ptr<EngineGame>> games_;
};

}  // namespace hydra::selfplay
