// Self-play statistics (actor_stats.hpp).

#include "hydra/selfplay/actor_stats.hpp"

namespace hydra::selfplay {

const char* opponent_kind_name(OpponentKind k) {
  switch (k) {
    case OpponentKind::self: return "self";
    case OpponentKind::pool: return "pool";
    case OpponentKind::baseline: return "baseline";
  }
  return "?";
}

namespace {
double ratio(std::int64_t a, std::int64_t b) { return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }
}  // namespace

double KindStats::win_rate() const { return ratio(wins, learner_kyoku); }
double KindStats::deal_in_rate() const { return ratio(deal_ins, learner_kyoku); }
double KindStats::riichi_rate() const { return ratio(riichi, learner_kyoku); }
double KindStats::call_rate() const { return ratio(calls, learner_kyoku); }
double KindStats::average_rank() const {
  std::int64_t n = 0, sum = 0;
  for (std::size_t r = 0; r < 4; ++r) {
    n += ranks[r];
    sum += ranks[r] * static_cast<std::int64_t>(r + 1);
  }
  return ratio(sum, n);
}

KindStats ActorStats::total() const {
  KindStats t;
  for (const KindStats& k : kinds) {
    t.games += k.games;
    t.learner_seats += k.learner_seats;
    t.learner_kyoku += k.learner_kyoku;
    t.wins += k.wins;
    t.deal_ins += k.deal_ins;
    t.riichi += k.riichi;
    t.calls += k.calls;
    for (std::size_t r = 0; r < 4; ++r) t.ranks[r] += k.ranks[r];
  }
  return t;
}

nlohmann::ordered_json ActorStats::to_json() const {
  const auto kind_json = [](const KindStats& k) {
    nlohmann::ordered_json j;
    j["games"] = k.games;
    j["learner_seats"] = k.learner_seats;
    j["win_rate"] = k.win_rate();
    j["deal_in_rate"] = k.deal_in_rate();
    j["riichi_rate"] = k.riichi_rate();
    j["call_rate"] = k.call_rate();
    j["average_rank"] = k.average_rank();
    j["ranks"] = k.ranks;
    return j;
  };
  nlohmann::ordered_json j;
  j["games"] = games;
  j["kyoku"] = kyoku;
  j["decisions"] = decisions;
  j["network_decisions"] = network_decisions;
  j["learner_decisions"] = learner_decisions;
  j["forced"] = forced;
  j["forward_passes"] = forward_passes;
  j["engine_seconds"] = engine_seconds;
  j["encode_seconds"] = encode_seconds;
  j["inference_seconds"] = inference_seconds;
  j["wait_seconds"] = wait_seconds;
  j["wall_seconds"] = wall_seconds;
  j["decisions_per_second"] = wall_seconds > 0 ? static_cast<double>(decisions) / wall_seconds : 0.0;
  j["all"] = kind_json(total());
  for (int k = 0; k < kOpponentKinds; ++k)
    j[opponent_kind_name(static_cast<OpponentKind>(k))] = kind_json(kinds[static_cast<std::size_t>(k)]);
  return j;
}

}  // namespace hydra::selfplay
