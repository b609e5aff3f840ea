// A play-out played by a network (play_out_game.hpp).

#include "hydra/selfplay/play_out_game.hpp"

#include <algorithm>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/selfplay/rewards.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::selfplay {
namespace {

game::Xoshiro256ss seat_stream(const game::StreamKey& parent, std::size_t s) {
  return game::Xoshiro256ss(game::derive(parent, game::labels::exploration, {s}));
}

}  // namespace

double PlayOutEnd::cut_reward(std::size_t seat) const {
  return value ? static_cast<double>(*value) : kPlacementReward[ix(game::ranks(scores)[seat])];
}

PlayOutGame::PlayOutGame(const PlayOutStart& start, std::optional<game::Action> first,
                         std::optional<game::Xoshiro256ss> walls, const PlayOutAgentSpec& agent,
                         const game::StreamKey& sampling, PlayOutEnd* out, std::atomic<int>* outstanding)
    : perm_(start.perms), agent_(agent), seat_(start.seat), out_(out), outstanding_(outstanding) {
  HYDRA_CHECK(agent_.depth >= 0 && (agent_.policy != nullptr || (agent_.greedy_tail && agent_.depth == 0)),
              "a network play-out needs a policy (only a greedy one from its first decision needs none) and a depth >= 0");
  HYDRA_CHECK(!(agent_.greedy_others && agent_.others != nullptr), "a play-out's other seats are greedy or a network's, not both");
  if (agent_.network()) {
    HYDRA_CHECK(start.encoders != nullptr, "a network play-out needs the seats' encoders");
    enc_.emplace(*start.encoders);
  }
  if (agent_.greedy()) {
    HYDRA_CHECK(start.key != nullptr, "a play-out's greedy bots need the game key");
    greedy_.emplace();
    for (int s = 0; s < game::kNumSeats; ++s) (*greedy_)[game::Seat(s)].start_game(game::Seat(s), *start.key);
  }
  if (agent_.temperature > 0)
    rng_.emplace(game::SeatArray<game::Xoshiro256ss>{seat_stream(sampling, 0), seat_stream(sampling, 1),
                                                     seat_stream(sampling, 2), seat_stream(sampling, 3)});
  table_ = start.table.branch([this](const game::Table& t, const game::Event& e) {
    if (enc_)
      for (int s = 0; s < game::kNumSeats; ++s) (*enc_)[game::Seat(s)].observe(t.view(game::Seat(s)), e);
    if (e.type == game::EventType::start_kyoku && !end_.next) end_.next = game::kyoku_start(e);
  });
  if (walls) table_->shuffle_unseen(*walls);
  if (first) table_->act(start.seat, *first);
}

void PlayOutGame::ended() {
  end_.scores = table_->done() ? table_->final_scores() : table_->scores();
  *out_ = end_;
  outstanding_->fetch_sub(1, std::memory_order_acq_rel);
}

// A forced move, with a greedy tail every decision after the first `depth` (counted in the
// table's order, as the engine asks, every seat's), and with greedy others every other seat's
// decision, is answered by act(); with other opponents' network, the other seats' go to it.
BatchPolicy* PlayOutGame::policy(const game::Decision& d) {
  const bool tail = agent_.greedy_tail && routed_++ >= agent_.depth;
  if (d.mask.count() == 1 || tail || (agent_.greedy_others && d.seat != seat_)) return nullptr;
  return agent_.others != nullptr && d.seat != seat_ ? agent_.others : agent_.policy;
}

game::Action PlayOutGame::act(const game::Decision& d) {
  ++end_.decisions;
  if (d.mask.count() == 1) return d.mask.nth(0);
  HYDRA_CHECK(greedy_.has_value(), "play-out: a network decision was asked of act()");
  return (*greedy_)[d.seat].act(table_->view(d.seat), d);
}

// The seat's observation as the deciding game's seat would write it (actor_game.cpp).
void PlayOutGame::encode(const game::Decision& d, const Row& row) {
  const std::size_t s = ix(d.seat.index());
  const game::PlayerView& view = table_->view(d.seat);
  HYDRA_CHECK(enc_.has_value(), "play-out: a network row asked of a play-out without encoders");
  if (perm_[s].identity()) (*enc_)[s].encode_into(view, row.obs);
  else perm_[s].apply((*enc_)[s].encode(view).v.data(), row.obs);
  round_to_half(row.obs, nullptr, encoder::kObsSize);
  const auto ctx = encoder::score_context(view);
  std::copy(ctx.begin(), ctx.end(), row.context);
  *row.legal = perm_[s](d.mask);
}

game::Action PlayOutGame::choose(const game::Decision& d, const RowResult& res) {
  if (agent_.cut() && d.seat == seat_ && !end_.value && (end_.decisions >= agent_.depth || end_.next))
    end_.value = res.value;
  ++end_.decisions;
  const std::size_t s = ix(d.seat.index());
  const game::ActionMask legal = perm_[s](d.mask);
  const game::Action a =
      rng_ ? game::Action(sample_action(res.probs, legal, 1.0 / agent_.temperature, (*rng_)[s].uniform01()))
           : pick_action(res.probs, legal, std::nullopt);
  const game::Action original = perm_[s].inverse()(a);
  HYDRA_CHECK(d.mask.test(original), "play-out: the agent's action is not legal");
  return original;
}

}  // namespace hydra::selfplay
