// review_game (review.hpp): the decisions of a log, replayed through each reviewed seat's view and
// checkpoint agent, and scored in batches.

#include "hydra/review/review.hpp"

#include <algorithm>
#include <memory>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/action.hpp"
#include "hydra/game/hand.hpp"
#include "hydra/game/view.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::review {
namespace {

using game::Action;
using game::EventType;


std::string name_of(game::Pai p) { return std::string(game::mjai_name(p)); }

std::string meld_kind(game::MeldKind k) {
  switch (k) {
    case game::MeldKind::chi: return "chi";
    case game::MeldKind::pon: return "pon";
    case game::MeldKind::daiminkan: return "daiminkan";
    case game::MeldKind::kakan: return "kakan";
    case game::MeldKind::ankan: return "ankan";
  }
  return "?";
}

// The label of an action with the decision's legal moves (the tiles of a call, tsumo or ron).
std::string label_with(int action, bool kan_select, const game::Legal& legal) {
  if (kan_select || action < Action::kRiichi) return action_label(action, kan_select);
  const Action a(action);
  if (a.is_chi() && legal.has(a)) {
    std::string s = "chi ";
    const game::Move& m = legal.move(a);
    for (int k = 0; k < m.consumed.size(); ++k) s += name_of(m.consumed[k]);
    return s;
  }
  if (action == Action::kKan && legal.kans.size() == 1) {
    const game::Move& k = legal.kans[0];
    const game::Pai p = k.type == EventType::ankan ? k.consumed[0] : k.pai;
    return "kan " + name_of(game::Pai(p.type()));
  }
  if (action == Action::kAgari) return legal.phase == game::Phase::turn ? "tsumo" : "ron";
  return action_label(action, kan_select);
}

Table snapshot(const game::PlayerView& v) {
  Table t;
  t.bakaze = std::string(game::wind_name(v.bakaze()));
  t.kyoku = v.kyoku();
  t.honba = v.honba();
  t.kyotaku = v.kyotaku();
  t.oya = v.oya().index();
  t.live_left = v.live_left();
  for (int s = 0; s < 4; ++s) t.scores[ix(s)] = v.scores()[ix(s)];
  std::vector<game::Pai> closed = game::closed_tiles(v.hand());
  std::sort(closed.begin(), closed.end(), [](game::Pai a, game::Pai b) { return data::tenhou_order(a) < data::tenhou_order(b); });
  const bool own_turn = v.phase() == game::Phase::turn || v.phase() == game::Phase::riichi_discard ||
                        v.phase() == game::Phase::kan_select;
  const game::Pai drawn = v.last_drawn();
  bool drawn_out = false;
  for (const game::Pai p : closed) {
    if (own_turn && !drawn_out && !drawn.is_unknown() && p == drawn) {
      drawn_out = true;
      continue;
    }
    t.hand.push_back(name_of(p));
  }
  if (drawn_out) t.drawn = name_of(drawn);
  for (int s = 0; s < 4; ++s) {
    const game::Seat seat(s);
    for (const game::RiverTile& r : v.river(seat)) t.rivers[ix(s)].push_back({name_of(r.pai), r.tsumogiri, r.riichi, r.called});
    for (const game::Meld& m : v.melds(seat)) {
      ShownMeld sm;
      sm.kind = meld_kind(m.kind());
      for (int k = 0; k < m.size(); ++k) sm.tiles.push_back(name_of(m.tile(k)));
      if (m.kind() != game::MeldKind::ankan) sm.called = name_of(m.called());
      sm.from = static_cast<int>(m.from());
      t.melds[ix(s)].push_back(std::move(sm));
    }
    t.riichi[ix(s)] = v.riichi_declared(seat);
  }
  for (const game::Pai p : v.dora_markers()) t.dora.push_back(name_of(p));
  if (v.phase() == game::Phase::response || v.phase() == game::Phase::chankan) {
    t.offered = name_of(v.last_tile());
    t.offered_by = v.last_actor().index();
  }
  return t;
}

std::string kyoku_result(const data::GameLog& log, std::size_t start) {
  std::string out;
  for (std::size_t i = start + 1; i < log.events.size(); ++i) {
    const game::Event& e = log.events[i];
    if (e.type == EventType::start_kyoku || e.type == EventType::end_game) break;
    if (e.type == EventType::hora) {
      if (!out.empty()) out += "; ";
      const int gain = e.deltas[ix(e.actor.index())];
      out += e.actor == e.target ? "tsumo by " + std::to_string(e.actor.index())
                                 : "ron by " + std::to_string(e.actor.index()) + " from " + std::to_string(e.target.index());
      out += " +" + std::to_string(gain);
    } else if (e.type == EventType::ryukyoku) {
      out = "ryukyoku (" + std::string(game::to_string(e.reason)) + ")";
    }
  }
  return out;
}

}  // namespace

std::string action_label(int action, bool kan_select) {
  if (kan_select) return "kan " + name_of(game::Pai(game::TileType(action)));
  if (action < Action::kRiichi) return "discard " + name_of(Action(action).discard_pai());
  switch (action) {
    case Action::kRiichi: return "riichi";
    case Action::kChiLow: return "chi (low)";
    case Action::kChiMid: return "chi (middle)";
    case Action::kChiHigh: return "chi (high)";
    case Action::kPon: return "pon";
    case Action::kKan: return "kan";
    case Action::kAgari: return "agari";
    case Action::kRyukyoku: return "kyuushu kyuuhai";
    default: return "pass";
  }
}

int kyoku_count(const data::GameLog& log) {
  return static_cast<int>(std::count_if(log.events.begin(), log.events.end(),
                                        [](const game::Event& e) { return e.type == EventType::start_kyoku; }));
}

Review review_game(const data::GameLog& log, std::string_view name, const game::TableRules& rules,
                   selfplay::BatchPolicy& policy, const Options& options) {
  const int n_kyoku = kyoku_count(log);
  if (options.kyoku && (*options.kyoku < 0 || *options.kyoku >= n_kyoku))
    throw Error(std::string(name) + ": --kyoku " + std::to_string(*options.kyoku + 1) + " is not in the game (it has " +
                std::to_string(n_kyoku) + " kyoku, numbered 1 to " + std::to_string(n_kyoku) + ")");
  std::array<bool, 4> reviewed{};
  for (const int s : options.seats) {
    HYDRA_CHECK(s >= 0 && s < 4, "review_game: seat out of range");
    reviewed[ix(s)] = true;
  }

  data::SampleBatch samples;
  data::ExtractStats stats;
  data::extract_samples(log, name, samples, rules, &stats);

  Review r;
  r.game = std::string(name);
  r.names = log.names;
  for (int s = 0; s < 4; ++s)
    if (reviewed[ix(s)]) r.seats.push_back(s);
  // The kyoku of every event, and each kyoku's label and result.
  std::vector<int> kyoku_of(log.events.size(), -1);
  int k = -1;
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    const game::Event& e = log.events[i];
    if (e.type == EventType::start_kyoku) {
      ++k;
      Kyoku ky;
      ky.label = std::string(game::wind_name(e.bakaze)) + std::to_string(e.kyoku) + "-" + std::to_string(e.honba);
      for (int s = 0; s < 4; ++s) ky.scores[ix(s)] = e.scores[ix(s)];
      ky.result = kyoku_result(log, i);
      r.kyoku.push_back(std::move(ky));
    }
    if (e.type == EventType::end_game && e.scores != game::Scores{})
      for (int s = 0; s < 4; ++s) r.final_scores[ix(s)] = e.scores[ix(s)];
    if (e.type == EventType::hora || e.type == EventType::ryukyoku || e.type == EventType::start_kyoku)
      for (int s = 0; s < 4; ++s) r.final_scores[ix(s)] = e.scores[ix(s)];
    kyoku_of[i] = k;
  }
  if (!log.events.empty() && log.events.back().type == EventType::end_game && log.events.back().scores != game::Scores{})
    for (int s = 0; s < 4; ++s) r.final_scores[ix(s)] = log.events.back().scores[ix(s)];
  const std::array<int, 4> ranks = game::ranks(r.final_scores);
  for (int s = 0; s < 4; ++s) r.final_points[ix(s)] = static_cast<float>(rules.uma_train[ix(ranks[ix(s)])]);

  // The rows to review, in game order (the order extract_samples opened them in).
  std::vector<std::size_t> rows;
  for (std::size_t row = 0; row < samples.size(); ++row) {
    const int seat = stats.sample_seat[row];
    const int at = stats.sample_observed[row];
    if (!reviewed[ix(seat)]) continue;
    if (options.kyoku && kyoku_of[ix(at)] != *options.kyoku) continue;
    rows.push_back(row);
  }
  std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
    return stats.sample_observed[a] < stats.sample_observed[b];
  });

  // Each seat's agent and view follow the events; at the event a decision was observed after,
  // the agent prepares its row of the batch and the view gives the table.
  const std::size_t n = rows.size();
  const auto obs_size = static_cast<std::size_t>(encoder::kObsSize);
  std::vector<float> obs(n * obs_size), context(n * ix(selfplay::kContext));
  std::vector<game::ActionMask> legal(n);
  std::vector<game::Decision> decisions(n);
  std::vector<std::unique_ptr<selfplay::ModelAgent>> agents(4);
  std::vector<std::unique_ptr<game::PlayerView>> views(4);
  std::vector<std::unique_ptr<selfplay::SearchAgent>> searchers(4);
  for (const int s : r.seats) {
    if (options.searcher) {
      searchers[ix(s)] = options.searcher();
      searchers[ix(s)]->start_game(game::Seat(s), game::GameKey{});
    }
    agents[ix(s)] = std::make_unique<selfplay::ModelAgent>(std::shared_ptr<selfplay::BatchPolicy>(&policy, [](auto*) {}),
                                                           rules, "review");
    agents[ix(s)]->start_game(game::Seat(s), game::GameKey{});
    views[ix(s)] = std::make_unique<game::PlayerView>(game::Seat(s), rules);
  }
  r.decisions.resize(n);
  std::size_t next = 0;
  game::Legal legal_moves;
  for (std::size_t i = 0; i < log.events.size() && next < n; ++i) {
    const game::Event& e = log.events[i];
    for (const int s : r.seats) {
      agents[ix(s)]->observe(e);
      if (searchers[ix(s)]) searchers[ix(s)]->observe(e);
      views[ix(s)]->apply(e);
    }
    for (; next < n && stats.sample_observed[rows[next]] == static_cast<int>(i); ++next) {
      const std::size_t row = rows[next];
      const int s = stats.sample_seat[row];
      const game::PlayerView& v = *views[ix(s)];
      const game::ActionMask mask = samples.legal_mask(row);
      game::Decision& d = decisions[next];
      d.seat = game::Seat(s);
      v.legal(legal_moves);
      // The second, kan-select row of a kan: typed kan, labelled with a tile type.
      const bool kan_select = samples.type[row] == static_cast<std::uint8_t>(data::DecisionType::kan) &&
                              samples.action[row] != Action::kKan;
      d.phase = kan_select ? game::Phase::kan_select : v.phase();
      d.mask = mask;
      agents[ix(s)]->prepare(v, d, obs.data() + next * obs_size, context.data() + next * ix(selfplay::kContext), &legal[next]);
      HYDRA_CHECK(legal[next] == mask, "review: the agent's legal mask differs from the extractor's");

      Decision& out = r.decisions[next];
      out.seat = s;
      out.kyoku = kyoku_of[i];
      out.event = stats.sample_event[row] + 1;
      out.kan_select = kan_select;
      out.phase = std::string(game::to_string(d.phase));
      out.table = snapshot(v);
      const bool own_turn = legal_moves.phase != game::Phase::response && legal_moves.phase != game::Phase::chankan;
      out.turn = static_cast<int>(v.river(game::Seat(s)).size()) + (own_turn ? 1 : 0);
      out.taken = static_cast<int>(samples.action[row]);
      out.taken_label = label_with(out.taken, kan_select, legal_moves);
      for (int a = 0; a < data::kSampleActions; ++a)
        if (mask.test(Action(a))) out.choices.push_back({a, label_with(a, kan_select, legal_moves), 0.0F});
      if (selfplay::SearchAgent* searcher = searchers[ix(s)].get()) {
        const game::Action played = searcher->act(v, d);
        if (const auto& last = searcher->last_search()) {
          Decision::Searched& out_search = out.search.emplace();
          out_search.action = played.index();
          out_search.label = label_with(played.index(), kan_select, legal_moves);
          for (std::size_t c = 0; c < last->candidates.size(); ++c)
            out_search.values.emplace_back(last->candidates[c].index(), last->values[c]);
        }
      }
    }
  }
  HYDRA_CHECK(next == n, "review: a decision was not met while replaying the events");

  // Batches through the policy; finish() is the agent's own pick.
  std::vector<float> probs(n * ix(selfplay::kActions)), values(n);
  const std::size_t batch = static_cast<std::size_t>(std::max(1, options.batch));
  for (std::size_t lo = 0; lo < n; lo += batch) {
    const std::size_t m = std::min(batch, n - lo);
    selfplay::PolicyBatch in;
    in.obs = obs.data() + lo * obs_size;
    in.context = context.data() + lo * ix(selfplay::kContext);
    in.legal = legal.data() + lo;
    in.n = static_cast<int>(m);
    policy.evaluate(in, selfplay::PolicyOutput{probs.data() + lo * ix(selfplay::kActions), values.data() + lo});
  }
  for (std::size_t j = 0; j < n; ++j) {
    Decision& out = r.decisions[j];
    const float* p = probs.data() + j * ix(selfplay::kActions);
    out.agent = agents[ix(out.seat)]->finish(decisions[j], p).index();
    out.value = values[j];
    for (Choice& c : out.choices) c.prob = p[c.action];
    out.taken_prob = p[out.taken];
    std::stable_sort(out.choices.begin(), out.choices.end(), [](const Choice& a, const Choice& b) { return a.prob > b.prob; });
    HYDRA_CHECK(!out.choices.empty() && out.choices.front().action == out.agent,
                "review: the most probable action is not the agent's greedy action");
  }
  return r;
}

Summary summarize(const Review& r) {
  Summary s;
  for (const Decision& d : r.decisions) {
    ++s.decisions;
    if (d.taken == d.agent) ++s.agreed;
  }
  return s;
}

}  // namespace hydra::review
