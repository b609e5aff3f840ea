#include "hydra/ppo/trainer_report.hpp"

#include <cmath>
#include <cstdio>
#include "hydra/common/index.hpp"

namespace hydra::ppo {
namespace {

// The names of selfplay::opponent_kind_name, in OpponentKind order (metric tags must not change).
constexpr const char* kKindNames[selfplay::kOpponentKinds] = {"self", "pool", "baseline"};

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

double rank_mean(const selfplay::KindStats& k) {
  double n = 0, sum = 0;
  for (std::size_t r = 0; r < k.ranks.size(); ++r) {
    n += static_cast<double>(k.ranks[r]);
    sum += static_cast<double>(k.ranks[r]) * static_cast<double>(r + 1);
  }
  return ratio(sum, n);
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

metrics::Scalars actor_scalars(const selfplay::ActorStats& s, double collect_seconds, double update_seconds) {
  metrics::Scalars out;
  const double total_seconds = collect_seconds + update_seconds;
  out.emplace_back("perf/games_per_s", ratio(static_cast<double>(s.games), collect_seconds));
  out.emplace_back("perf/decisions_per_s", ratio(static_cast<double>(s.decisions), collect_seconds));
  out.emplace_back("perf/samples_per_s", ratio(static_cast<double>(s.learner_decisions), total_seconds));
  out.emplace_back("perf/collect_seconds", collect_seconds);
  out.emplace_back("perf/inference_seconds", s.inference_seconds);
  out.emplace_back("selfplay/games", static_cast<double>(s.games));
  out.emplace_back("selfplay/kyoku", static_cast<double>(s.kyoku));
  out.emplace_back("selfplay/decisions", static_cast<double>(s.decisions));
  out.emplace_back("selfplay/samples", static_cast<double>(s.learner_decisions));
  out.emplace_back("selfplay/forced_share", ratio(static_cast<double>(s.forced), static_cast<double>(s.decisions)));
  out.emplace_back("selfplay/forward_passes", static_cast<double>(s.forward_passes));
  // Only with an external baseline that failed in a game (docs/SELFPLAY.md).
  if (s.void_games > 0) out.emplace_back("selfplay/void_games", static_cast<double>(s.void_games));
  // Only with play-outs (ppo.advantage = rollout, docs/PPO.md "Greedy play-outs"): the share of
  // stored decisions eligible for play-outs, of those played out, and the play-outs' decisions
  // per stored one (what they cost in play).
  if (s.paired > 0) {
    const auto stored = static_cast<double>(s.learner_decisions);
    out.emplace_back("selfplay/paired_share", ratio(static_cast<double>(s.paired), stored));
    out.emplace_back("selfplay/branched_share", ratio(static_cast<double>(s.branches), stored));
    out.emplace_back("selfplay/branch_decisions_per_sample", ratio(static_cast<double>(s.branch_decisions), stored));
  }

  selfplay::KindStats all;
  for (const selfplay::KindStats& k : s.kinds) {
    all.learner_kyoku += k.learner_kyoku;
    all.wins += k.wins;
    all.deal_ins += k.deal_ins;
    all.riichi += k.riichi;
    all.calls += k.calls;
  }
  const auto kyoku = static_cast<double>(all.learner_kyoku);
  out.emplace_back("play/win_rate", ratio(static_cast<double>(all.wins), kyoku));
  out.emplace_back("play/deal_in_rate", ratio(static_cast<double>(all.deal_ins), kyoku));
  out.emplace_back("play/riichi_rate", ratio(static_cast<double>(all.riichi), kyoku));
  out.emplace_back("play/call_rate", ratio(static_cast<double>(all.calls), kyoku));
  // Learner seat-kyoku whose reward no stored decision earned (dropped, docs/SELFPLAY.md).
  out.emplace_back("selfplay/unearned_share", ratio(static_cast<double>(s.unearned_kyoku), kyoku));

  for (int kind = 0; kind < selfplay::kOpponentKinds; ++kind) {
    const selfplay::KindStats& k = s.kinds[ix(kind)];
    if (k.games == 0) continue;
    const std::string name = kKindNames[ix(kind)];
    out.emplace_back("rank/vs_" + name, rank_mean(k));
    out.emplace_back("rank/vs_" + name + "_games", static_cast<double>(k.games));
    if (static_cast<selfplay::OpponentKind>(kind) == selfplay::OpponentKind::self) continue;
    double seats = 0;
    for (std::int64_t c : k.ranks) seats += static_cast<double>(c);
    for (std::size_t r = 0; r < k.ranks.size(); ++r)
      out.emplace_back("rank/vs_" + name + "_p" + std::to_string(r + 1), ratio(static_cast<double>(k.ranks[r]), seats));
  }
  return out;
}

double scalar_or(const metrics::Scalars& scalars, const std::string& tag, double fallback) {
  for (const auto& [k, v] : scalars)
    if (k == tag) return v;
  return fallback;
}

std::string human_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto s = static_cast<long long>(std::llround(seconds));
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%llds", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%lldm%02llds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%lldh%02lldm", s / 3600, (s % 3600) / 60);
  return buf;
}

std::string progress_line(std::int64_t step, std::int64_t last, const metrics::Scalars& s, double eta_seconds) {
  std::string line = "update " + std::to_string(step) + "/" + std::to_string(last) + " (" +
                     fixed(100.0 * ratio(static_cast<double>(step), static_cast<double>(last)), 1) + "%)";
  line += " | " + fixed(scalar_or(s, "perf/games_per_s", 0), 2) + " games/s " +
          fixed(scalar_or(s, "perf/decisions_per_s", 0), 0) + " dec/s " +
          fixed(scalar_or(s, "perf/samples_per_s", 0), 0) + " samples/s";
  line += " | pi " + fixed(scalar_or(s, "loss/policy", 0), 4) + " v " + fixed(scalar_or(s, "loss/value", 0), 4) +
          " H " + fixed(scalar_or(s, "loss/entropy", 0), 3) + " kl " + fixed(scalar_or(s, "ppo/approx_kl", 0), 4);
  std::string ranks;
  for (const char* kind : {"self", "pool", "baseline"}) {
    const double r = scalar_or(s, std::string("rank/vs_") + kind, -1);
    if (r > 0 && std::string(kind) != "self") ranks += std::string(" ") + kind + " " + fixed(r, 2);
  }
  if (!ranks.empty()) line += " | rank vs" + ranks;
  line += " | ETA " + human_duration(eta_seconds);
  return line;
}

}  // namespace hydra::ppo
