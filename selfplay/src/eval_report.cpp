#include "hydra/selfplay/eval_report.hpp"

#include <cmath>

#include <fmt/format.h>

namespace hydra::selfplay {
namespace {

// JSON has no NaN: an unknown value is null.
nlohmann::ordered_json number(double v) { return std::isnan(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v); }

nlohmann::ordered_json estimate_json(const Estimate& e) {
  return {{"value", number(e.value)}, {"ci95", {number(e.lo), number(e.hi)}}};
}

// Rates and shares in percent, sizes in points, ranks and pt as they are.
bool percent(std::string_view name) {
  return name.starts_with("rank_") || name.ends_with("_rate");
}

std::string cell(const Estimate& e, std::string_view name, bool sign) {
  const double k = percent(name) ? 100 : 1;
  const int prec = name == "avg_rank" ? 3 : name == "avg_win" || name == "avg_deal_in" ? 0 : 2;
  if (std::isnan(e.value)) return "-";
  // A value that rounds to zero prints as 0, never "-0.00" (rounding noise in a zero difference).
  auto clean = [&](double x) { return std::abs(x * k) < 0.5 * std::pow(10.0, -prec) ? 0.0 : x * k; };
  const Estimate v{clean(e.value), clean(e.lo), clean(e.hi), e.se};
  std::string s = sign ? fmt::format("{:+.{}f}", v.value, prec) : fmt::format("{:.{}f}", v.value, prec);
  if (!std::isnan(v.lo)) s += fmt::format(" [{:.{}f}, {:.{}f}]", v.lo, prec, v.hi, prec);
  return s;
}

}  // namespace

nlohmann::ordered_json report_json(const EvalOptions& o, const EvalResult& r) {
  nlohmann::ordered_json j;
  j["challenger"] = o.challenger;
  j["champion"] = o.champion;
  j["rules"] = o.rules;
  j["seed"] = o.master.value;
  j["first_seed"] = o.first_seed;
  j["seeds_planned"] = o.seeds;
  j["seeds_played"] = r.seeds.size();
  j["seeds_voided"] = r.seeds_voided;
  j["games"] = r.games;
  j["kyoku"] = r.kyoku;
  nlohmann::ordered_json ch, cp, diff;
  for (const Metric& m : metrics()) {
    const auto a = challenger_sums(r.seeds, m), b = champion_sums(r.seeds, m);
    ch[std::string(m.name)] = estimate_json(metric_estimate(m, a));
    cp[std::string(m.name)] = estimate_json(metric_estimate(m, b));
    diff[std::string(m.name)] = estimate_json(paired_difference(a, b));
  }
  j["challenger_stats"] = ch;
  j["champion_stats"] = cp;
  j["difference"] = diff;
  // The challenger's average rank per wall seed: two evaluations with the same --seed play the
  // same walls, so their results pair by seed (scripts/paired_eval.py).
  {
    const auto rank = challenger_sums(r.seeds, metrics().front());
    nlohmann::ordered_json seeds = nlohmann::ordered_json::array(), ranks = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.seeds.size(); ++i) {
      seeds.push_back(r.seeds[i].seed);
      ranks.push_back(rank[i].den > 0 ? rank[i].num / rank[i].den : 0.0);
    }
    j["per_seed"] = {{"seed", std::move(seeds)}, {"challenger_avg_rank", std::move(ranks)}};
  }
  if (o.sequential.enabled) {
    const SequentialResult& s = r.sequential;
    j["sequential"] = {{"metric", "avg_rank difference"}, {"batch", o.sequential.batch}, {"margin", o.sequential.margin},
                       {"looks", s.looks}, {"max_looks", s.max_looks}, {"z", s.z},
                       {"stopped_early", s.stopped_early}, {"reason", s.reason},
                       {"adjusted_ci", {number(s.last.lo), number(s.last.hi)}}};
  }
  if (!r.voided.empty()) {
    nlohmann::ordered_json v = nlohmann::ordered_json::array();
    for (const VoidedGame& g : r.voided)
      v.push_back({{"seed", g.seed}, {"challenger_seat", g.challenger_seat}, {"agent", g.fault.agent},
                   {"seat", g.fault.seat}, {"reason", g.fault.reason}, {"event", g.fault.event}, {"reply", g.fault.reply}});
    j["voided"] = std::move(v);
  }
  return j;
}

std::string report_table(const EvalOptions& o, const EvalResult& r) {
  std::string out = fmt::format("eval: {} (challenger) vs {} (champion), 1v3 duplicate, rules {}, seed {}\n",
                                o.challenger, o.champion, o.rules, o.master.value);
  if (r.seeds_voided > 0) out += fmt::format("{} seeds with a void game are not scored (listed below)\n", r.seeds_voided);
  const std::string from = o.first_seed > 0 ? fmt::format(" (seeds {} to {})", o.first_seed, o.first_seed + o.seeds - 1) : "";
  out += fmt::format("{} seeds{} x 4 seats = {} games, {} kyoku; 95% intervals clustered by seed (Wilson for rates and rank shares); rates and ranks in %\n\n",
                     r.seeds.size(), from, r.games, r.kyoku);
  out += fmt::format("{:<16}{:<30}{:<30}{}\n", "", "challenger", "champion", "difference");
  for (const Metric& m : metrics()) {
    const auto a = challenger_sums(r.seeds, m), b = champion_sums(r.seeds, m);
    out += fmt::format("{:<16}{:<30}{:<30}{}\n", m.label, cell(metric_estimate(m, a), m.name, false),
                       cell(metric_estimate(m, b), m.name, false), cell(paired_difference(a, b), m.name, true));
  }
  if (o.sequential.enabled) {
    const SequentialResult& s = r.sequential;
    out += fmt::format("\nsequential test (avg rank difference, Bonferroni z = {:.3f} over {} looks of {} seeds): ", s.z,
                       s.max_looks, o.sequential.batch);
    out += s.stopped_early ? fmt::format("stopped after look {}: {}", s.looks,
                                         s.reason == "difference" ? "the difference is significant"
                                                                  : "equivalent within the margin")
                           : fmt::format("not settled early ({} looks)", s.looks);
    if (!std::isnan(s.last.lo)) out += fmt::format(", adjusted interval [{:.3f}, {:.3f}]", s.last.lo, s.last.hi);
    out += "\n";
  }
  if (!r.voided.empty()) {
    out += fmt::format("\nvoid games: {} (agent faults); their {} seeds are not scored\n", r.voided.size(), r.seeds_voided);
    for (const VoidedGame& g : r.voided) {
      out += fmt::format("  seed {} (challenger at seat {}): {} at seat {}: {}\n", g.seed, g.challenger_seat, g.fault.agent,
                         g.fault.seat, g.fault.reason);
      if (!g.fault.event.empty()) out += fmt::format("    event: {}\n", g.fault.event);
      if (!g.fault.reply.empty()) out += fmt::format("    reply: {}\n", g.fault.reply);
    }
  }
  return out;
}

}  // namespace hydra::selfplay
