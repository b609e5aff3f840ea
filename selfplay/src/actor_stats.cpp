// Self-play statistics (actor_stats.hpp).

#include "hydra/selfplay/actor_stats.hpp"
#include "hydra/common/index.hpp"

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

KindStats& KindStats::operator+=(const KindStats& o) {
  games += o.games;
  learner_seats += o.learner_seats;
  learner_kyoku += o.learner_kyoku;
  wins += o.wins;
  deal_ins += o.deal_ins;
  riichi += o.riichi;
  calls += o.calls;
  for (std::size_t r = 0; r < 4; ++r) ranks[r] += o.ranks[r];
  return *this;
}

ActorStats& ActorStats::operator+=(const ActorStats& o) {
  games += o.games;
  kyoku += o.kyoku;
  decisions += o.decisions;
  network_decisions += o.network_decisions;
  learner_decisions += o.learner_decisions;
  forced += o.forced;
  forward_passes += o.forward_passes;
  void_games += o.void_games;
  unearned_kyoku += o.unearned_kyoku;
  paired += o.paired;
  branches += o.branches;
  branch_decisions += o.branch_decisions;
  for (std::size_t k = 0; k < kinds.size(); ++k) kinds[k] += o.kinds[k];
  engine_seconds += o.engine_seconds;
  encode_seconds += o.encode_seconds;
  inference_seconds += o.inference_seconds;
  wait_seconds += o.wait_seconds;
  wall_seconds += o.wall_seconds;
  return *this;
}

KindStats ActorStats::total() const {
  KindStats t;
  for (const KindStats& k : kinds) t += k;
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
  if (void_games > 0) j["void_games"] = void_games;  // only with an external baseline
  j["unearned_kyoku"] = unearned_kyoku;
  if (paired > 0) {  // only with play-outs
    j["paired"] = paired;
    j["branches"] = branches;
    j["branch_decisions"] = branch_decisions;
  }
  j["engine_seconds"] = engine_seconds;
  j["encode_seconds"] = encode_seconds;
  j["inference_seconds"] = inference_seconds;
  j["wait_seconds"] = wait_seconds;
  j["wall_seconds"] = wall_seconds;
  j["decisions_per_second"] = wall_seconds > 0 ? static_cast<double>(decisions) / wall_seconds : 0.0;
  j["all"] = kind_json(total());
  for (int k = 0; k < kOpponentKinds; ++k)
    j[opponent_kind_name(static_cast<OpponentKind>(k))] = kind_json(kinds[ix(k)]);
  return j;
}

}  // namespace hydra::selfplay
