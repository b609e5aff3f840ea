// One game of the self-play actors (actor_game.hpp). Encoding writes the seat's observation (under
// the seat's suit permutation, rounded to binary16) straight into its row and, for learner seats,
// into the seat's trajectory; choosing samples the action from the seat's own KDF stream.

#include "actor_game.hpp"

#include <algorithm>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/selfplay/policy.hpp"

namespace hydra::selfplay {
namespace {

constexpr std::size_t kSeats = game::kNumSeats;
constexpr std::size_t kObs = encoder::kObsSize;

// A tile-type mask under a suit permutation (honours fixed).
std::uint64_t permute_tiles(const encoder::SuitPerm& p, std::uint64_t bits) {
  if (p.identity()) return bits;
  std::uint64_t out = 0;
  for (int t = 0; t < encoder::kTiles; ++t)
    if ((bits >> t) & 1U) out |= std::uint64_t{1} << p(game::TileType(t)).index();
  return out;
}

// Entry n - 1 of every per-decision field of a trajectory (filled by encode and choose).
void grow(Rollout& r, std::size_t n, std::int64_t game_index, game::Seat seat) {
  r.action.resize(n);
  r.logp.resize(n);
  r.value.resize(n);
  r.version.resize(n);
  r.game.push_back(game_index);
  r.seat.push_back(static_cast<std::uint8_t>(seat.index()));
  r.legal.resize(n);
  r.obs.resize(n * kObs);
  r.context.resize(n * kContext);
  r.opp_waits.resize(n * kOpponents);
}

}  // namespace

BatchPolicy* ActorGame::policy(const game::Decision& d) {
  if (d.mask.count() == 1) return nullptr;
  return seats[d.seat].policy;
}

game::Action ActorGame::act(const game::Decision& d) {
  ++decisions;
  if (d.mask.count() == 1) {
    ++forced;
    return d.mask.nth(0);
  }
  return seats[d.seat].bot->act(table_->view(d.seat), d);
}

std::int64_t ActorGame::store(game::Seat seat) {
  Rollout& r = traj[seat];
  const std::size_t n = r.size() + 1;
  grow(r, n, index, seat);
  traj_kyoku[seat].push_back(static_cast<int>(kyoku.size()) - 1);
  collector->stored(r, n);
  recorded_.fetch_add(1, std::memory_order_relaxed);
  return static_cast<std::int64_t>(n - 1);
}

void ActorGame::encode(const game::Decision& d, const Row& row) {
  const std::size_t s = ix(d.seat.index());
  const std::int64_t stored = seats[s].learner ? store(d.seat) : -1;
  stored_.push_back(stored);
  const game::PlayerView& view = table_->view(d.seat);
  if (perm[s].identity()) enc[s].encode_into(view, row.obs);
  else perm[s].apply(enc[s].encode(view).v.data(), row.obs);
  // binary16 rounding before the forward pass: the learner sees exactly these values.
  round_to_half(row.obs, stored >= 0 ? traj[s].obs.data() + ix(stored) * kObs : nullptr, kObs);
  const auto ctx = encoder::score_context(view);
  std::copy(ctx.begin(), ctx.end(), row.context);
  *row.legal = perm[s](d.mask);
  if (stored < 0) return;
  const auto i = ix(stored);
  Rollout& r = traj[s];
  r.legal[i] = row.legal->bits();
  std::copy(ctx.begin(), ctx.end(), r.context.data() + i * kContext);
  for (int o = 1; o <= kOpponents; ++o)
    r.opp_waits[i * kOpponents + static_cast<std::size_t>(o - 1)] =
        permute_tiles(perm[s], table_->view(d.seat.next(o)).waits().bits());
  collector->encoded(*table_, d.seat, perm[s], r, i);
}

game::Action ActorGame::choose(const game::Decision& d, const RowResult& res) {
  const std::size_t s = ix(d.seat.index());
  const std::int64_t stored = stored_[chosen_++];
  if (chosen_ == stored_.size()) {
    stored_.clear();
    chosen_ = 0;
  }
  // selfplay.temperature shapes the learner's own seats; snapshots opposing it play at T = 1.
  const double inv_t = seats[s].learner ? 1.0 / temperature_ : 1.0;
  const game::ActionMask legal = perm[s](d.mask);
  const int chosen = sample_action(res.probs, legal, inv_t, rng[s].uniform01());
  if (stored >= 0) {
    const auto i = ix(stored);
    Rollout& r = traj[s];
    r.action[i] = static_cast<std::int16_t>(chosen);
    // The behaviour policy's log-probability: at T != 1 the tempered one the action was drawn
    // from, so the learner's ratio is the right importance weight.
    r.logp[i] = static_cast<float>(sampled_log_prob(res.probs, legal, inv_t, chosen));
    r.value[i] = res.value;
    r.version[i] = res.version;
    collector->chosen(Choice{*table_, d, key, perm[s], res.probs, legal, inv_t, chosen, r, i,
                             every_seat_observed_ ? &enc : nullptr, perm, spawn_});
  }
  ++decisions;
  ++network;
  const game::Action original = perm[s].inverse()(game::Action(chosen));
  HYDRA_CHECK(d.mask.test(original), "selfplay: a sampled action is not legal");
  return original;
}

void ActorGame::set_collector(std::unique_ptr<DecisionCollector> c) {
  collector = std::move(c);
  every_seat_observed_ = collector->observes_every_seat();
}

void ActorGame::on_event(const game::Table& t, const game::Event& e) {
  for (std::size_t s = 0; s < kSeats; ++s) {
    if (seats[s].policy || every_seat_observed_) enc[s].observe(t.view(game::Seat(static_cast<int>(s))), e);
    if (seats[s].observer) seats[s].observer->observe(e);
  }
  if (e.type == game::EventType::start_kyoku) kyoku.push_back(game::kyoku_start(e));
  tally.add(e);
}

}  // namespace hydra::selfplay
