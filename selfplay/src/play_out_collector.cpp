// Play-outs of a learner decision's actions (play_out_collector.hpp).

#include "play_out_collector.hpp"

#include "standard_error.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/policy.hpp"

namespace hydra::selfplay {
namespace {

// The policy as the learner's seats sample it: sample_action's weights, normalised.
std::array<double, kActions> tempered_probs(const float* probs, game::ActionMask legal, double inv_t) {
  std::array<double, kActions> out = tempered_weights(probs, legal, inv_t);
  double total = 0;
  for (const double w : out) total += w;
  for (double& p : out) p /= total;
  return out;
}

// The rest of the kyoku from table `t` (whose only pending decision is `seat`'s) after `first`,
// played by bot:greedy in every seat, each seeded from the game key as at a game's start, so the
// play-out is a function of the table, the action and `walls` alone: with `walls` the kyoku's
// unseen tiles are first dealt again from that stream (Table::shuffle_unseen), otherwise it plays
// the game's own wall. Two play-outs from one decision with equal streams share the walls, the
// hands and every bot's stream. Decisions with one legal action are taken as the table would.
PlayOutEnd play_out(const game::Table& t, game::Seat seat, game::Action first, const game::GameKey& key,
                    std::optional<game::Xoshiro256ss> walls) {
  PlayOutEnd end;
  auto copy = t.branch([&end](const game::Table&, const game::Event& e) {
    if (e.type == game::EventType::start_kyoku && !end.next) end.next = game::kyoku_start(e);
  });
  if (walls) copy->shuffle_unseen(*walls);
  game::SeatArray<GreedyAgent> bots;
  for (int s = 0; s < game::kNumSeats; ++s) bots[game::Seat(s)].start_game(game::Seat(s), key);
  copy->act(seat, first);
  while (!copy->done() && !end.next) {
    const auto pending = copy->pending();  // answering the last one replaces the list
    for (const game::Decision& d : pending) {
      ++end.decisions;
      copy->act(d.seat, d.mask.count() == 1 ? d.mask.nth(0) : bots[d.seat].act(copy->view(d.seat), d));
    }
  }
  end.scores = copy->done() ? copy->final_scores() : copy->scores();
  return end;
}

game::Xoshiro256ss seat_stream(const game::GameKey& key, std::size_t s) {
  return game::Xoshiro256ss(game::derive(key, game::labels::branch, {s}));
}

}  // namespace

PlayOutCollector::PlayOutCollector(const config::SelfplayConfig& sp, const game::GameKey& key, bool every_likely,
                                   const PlayOutAgentSpec& agent, bool snapshot)
    : branch_rate_(sp.branch_rate),
      walls_(sp.play_outs),
      min_prob_(every_likely ? sp.play_out_min_prob : -1.0),
      unsure_(sp.play_out_unsure),
      sigmas_(sp.play_out_sigmas),
      calls_(sp.play_out_calls),
      riichi_(sp.play_out_riichi),
      agent_(agent),
      snapshot_(snapshot),
      rng_{seat_stream(key, 0), seat_stream(key, 1), seat_stream(key, 2), seat_stream(key, 3)} {
  HYDRA_CHECK(agent_.depth == 0 || agent_.policy != nullptr, "a cut play-out needs a network's value");
}

void PlayOutCollector::stored(Rollout& r, std::size_t n) {
  r.paired.resize(n);
  r.paired_advantage.resize(n);
  if (min_prob_ >= 0) {
    r.played_out.resize(n);
    r.action_value.resize(n * kActions);
  }
}

// Where this decision is the table's only pending one, a draw decides whether it is played out
// (it does not depend on the action, so the advantages stay unbiased). The second draw is what
// paired branches drew their second action from; it stays so that the streams, and with them the
// decisions played out, are as they were.
void PlayOutCollector::chosen(const Choice& c) {
  if (branch_rate_ <= 0 || c.table.pending().size() != 1) return;
  game::Xoshiro256ss& rng = rng_[c.decision.seat];
  const double u = rng.uniform01();
  (void)rng.uniform01();
  if (u >= branch_rate_ || !unsure(c) || !kind_played(c)) return;
  c.trajectory.paired[c.stored] = 1;
  const std::optional<game::Action> g = known_choice(c);
  PlayOuts p{c.stored, actions_to_play(c, g ? c.perm(*g).index() : -1), {}, {}};
  if (p.actions.empty()) return;  // the action played is g: advantage 0 without a play-out
  if (!g && min_prob_ >= 0 && p.actions.size() < 2) {
    // One likely action and no reference: its centred advantage is 0 (nothing to compare).
    c.trajectory.paired[c.stored] = 0;
    c.trajectory.played_out[c.stored] = 0;
    return;
  }
  ++extra_pairs;
  auto& list = play_outs_[c.decision.seat];
  list.push_back(std::move(p));
  play(c, g, list.back());
}

// Whether the policy's most likely action has less than selfplay.play_out_unsure (a function of
// the state alone, like the draw, so the decisions played out stay an unbiased sample).
bool PlayOutCollector::unsure(const Choice& c) const {
  if (unsure_ >= 1.0) return true;
  float top = 0;
  for (int x = 0; x < kActions; ++x)
    if (c.legal.test(game::Action(x))) top = std::max(top, c.probs[x]);
  return top < unsure_;
}

// selfplay.play_out_calls and play_out_riichi: whether a decision of this kind is played out (a
// function of the state alone, like unsure()).
bool PlayOutCollector::kind_played(const Choice& c) const {
  const game::Phase phase = c.decision.phase;
  if (!calls_ && (phase == game::Phase::response || phase == game::Phase::chankan)) return false;
  return riichi_ || !c.decision.mask.test(game::Action(game::Action::kRiichi));
}

std::optional<game::Action> PlayOutCollector::known_choice(const Choice& c) const {
  if (!agent_.policy) {
    GreedyAgent bot;
    bot.start_game(c.decision.seat, c.key);
    return bot.act(c.table.view(c.decision.seat), c.decision);
  }
  if (snapshot_ && agent_.temperature == 0) return c.perm.inverse()(pick_action(c.probs, c.legal, std::nullopt));
  return std::nullopt;
}

// The sampled form: the action played where it is not g. The expected form: every other legal
// action the tempered policy gives at least min_prob_; g and those are marked in played_out.
std::vector<int> PlayOutCollector::actions_to_play(const Choice& c, int g_stored) const {
  std::vector<int> actions;
  if (min_prob_ < 0) {
    if (c.action != g_stored) actions.push_back(c.action);
    return actions;
  }
  const auto pi = tempered_probs(c.probs, c.legal, c.inv_t);
  std::uint64_t& marks = c.trajectory.played_out[c.stored];
  marks = g_stored >= 0 ? std::uint64_t{1} << g_stored : 0;
  for (int x = 0; x < kActions; ++x)
    if (x != g_stored && c.legal.test(game::Action(x)) && pi[ix(x)] >= min_prob_) {
      actions.push_back(x);
      marks |= std::uint64_t{1} << x;
    }
  return actions;
}

std::optional<game::Xoshiro256ss> PlayOutCollector::walls_stream(const Choice& c, std::size_t k) const {
  if (walls_ <= 1) return std::nullopt;
  const std::size_t s = ix(c.decision.seat.index());
  return game::Xoshiro256ss(game::derive(c.key, game::labels::play_out, {s, c.stored, k}));
}

// Each play-out is a function of the table, its action and its wall alone. bot:greedy's run here
// in parallel (a decision's play-outs are most of a step's work; without this one game's
// play-outs would hold one core while the other games' steps are done). A network's become
// engine games, whose passes the engine batches with every other game's; the reference is the
// agent deciding the decision itself when g is not known (the sampled form only: the expected
// form centres the action values over the actions played out, so it needs none).
void PlayOutCollector::play(const Choice& c, std::optional<game::Action> g, PlayOuts& p) {
  const auto walls = ix(walls_), m = p.actions.size();
  const bool reference = g.has_value() || min_prob_ < 0;
  p.played.resize(walls * m);
  p.reference.resize(reference ? walls : 0);
  const auto first = [&](std::size_t j) { return c.perm.inverse()(game::Action(p.actions[j])); };
  if (!agent_.policy) {
    hydra::parallel_for(0, walls * (m + 1), [&](std::size_t job) {
      const std::size_t k = job / (m + 1), j = job % (m + 1);
      if (j == m) p.reference[k] = play_out(c.table, c.decision.seat, *g, c.key, walls_stream(c, k));
      else p.played[k * m + j] = play_out(c.table, c.decision.seat, first(j), c.key, walls_stream(c, k));
    });
    return;
  }
  HYDRA_CHECK(c.encoders != nullptr && c.spawn, "a network play-out needs the game's encoders and the engine");
  const PlayOutStart start{c.table, c.decision.seat, c.encoders, c.perm_of_seat, &c.key};
  const std::size_t s = ix(c.decision.seat.index());
  const auto launch = [&](std::size_t k, std::size_t j, std::optional<game::Action> a, PlayOutEnd* out) {
    outstanding_.fetch_add(1, std::memory_order_acq_rel);
    const game::StreamKey sampling = game::derive(c.key, game::labels::play_out, {s, c.stored, k, j, 1});
    c.spawn(std::make_unique<PlayOutGame>(start, a, walls_stream(c, k), agent_, sampling, out, &outstanding_));
  };
  for (std::size_t k = 0; k < walls; ++k) {
    for (std::size_t j = 0; j < m; ++j) launch(k, j, first(j), &p.played[k * m + j]);
    if (reference) launch(k, m, g, &p.reference[k]);
  }
}

// The seat's reward for its kyoku after each play-out, all of one decision's play-outs in one
// call (they share the kyoku starts up to the decision's kyoku); an action's advantage is the mean
// over the walls of its reward less the reference's (without one: less the mean of the actions
// played out on that wall). A cut play-out's reward is instead the agent's value where it was cut,
// or the placement points where the game ended first: the agent's estimate of the final placement
// points, as the GRP's reward of the kyoku is its estimate after the kyoku less the one before,
// which is the same for every action of a decision and cancels from the advantages.
void PlayOutCollector::settle(const SeatTrajectory& st, KyokuRewardModel& model) {
  Rollout& tr = st.trajectory;
  const std::size_t seat = st.seat;
  for (const PlayOuts& p : play_outs_[game::Seat(static_cast<int>(st.seat))]) {
    std::vector<const PlayOutEnd*> ends;  // played (wall-major), then the references
    for (const auto* list : {&p.played, &p.reference})
      for (const PlayOutEnd& e : *list) {
        ends.push_back(&e);
        extra_decisions += e.decisions;
      }
    std::vector<double> r;
    if (agent_.cut()) {
      for (const PlayOutEnd* e : ends) r.push_back(e->cut_reward(seat));
    } else {
      const auto k = ix(st.kyoku_of[p.stored]);
      const std::vector<game::KyokuStart> seen(st.kyoku.begin(), st.kyoku.begin() + static_cast<std::ptrdiff_t>(k) + 1);
      std::vector<std::optional<game::KyokuStart>> next;
      std::vector<game::Scores> scores;
      for (const PlayOutEnd* e : ends) {
        next.push_back(e->next);
        scores.push_back(e->scores);
      }
      for (const auto& all : model.last_kyoku_rewards(seen, next, scores)) r.push_back(all[seat]);
    }
    const std::size_t walls = ix(walls_), m = p.actions.size();
    std::vector<double> base(walls, 0.0);
    for (std::size_t w = 0; w < walls; ++w) {
      if (!p.reference.empty()) {
        base[w] = r[walls * m + w];
        continue;
      }
      for (std::size_t j = 0; j < m; ++j) base[w] += r[w * m + j];
      base[w] /= static_cast<double>(m);
    }
    for (std::size_t j = 0; j < m; ++j) {
      double diff = 0;
      for (std::size_t w = 0; w < walls; ++w) diff += r[w * m + j] - base[w];
      double mean = diff / static_cast<double>(walls);
      if (sigmas_ > 0) mean = gated(mean, j, m, r, base);
      const auto adv = static_cast<float>(mean);
      const auto x = ix(p.actions[j]);
      if (!tr.action_value.empty()) tr.action_value[p.stored * ix(kActions) + x] = adv;
      if (p.actions[j] == tr.action[p.stored]) tr.paired_advantage[p.stored] = adv;
    }
  }
}

// selfplay.play_out_sigmas: an action's mean difference over the walls counts only when it is
// more than that many standard errors of its per-wall differences from 0; else the action is
// taken to be worth its reference (0). Small differences are where a continuation's bias, the
// same at every such decision, outweighs what the walls can tell; summed over a rollout's
// decisions it moves the policy as surely as a real difference does.
double PlayOutCollector::gated(double mean, std::size_t j, std::size_t m, const std::vector<double>& r,
                               const std::vector<double>& base) const {
  if (base.size() < 2) return mean;
  const double se = standard_error(base.size(), mean, [&](std::size_t w) { return r[w * m + j] - base[w]; });
  return std::abs(mean) > sigmas_ * se ? mean : 0.0;
}

}  // namespace hydra::selfplay
