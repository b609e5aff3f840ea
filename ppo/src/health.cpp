#include "hydra/ppo/health.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "hydra/ppo/trainer_report.hpp"
#include "hydra/common/index.hpp"

namespace hydra::ppo {
namespace {

constexpr double kClipHigh = 0.3;
constexpr double kKlHigh = 0.05;
constexpr double kKlLow = 1e-4;
constexpr double kEntropyLow = 0.1;
constexpr double kEntropyRise = 0.2;
constexpr double kRankPar = 2.6;
constexpr double kRankMargin = 0.1;  // above the run's first window: worse than the start
constexpr double kRankMinSeats = 20;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

}  // namespace

TrainingHealth::TrainingHealth(int window) : window_(window) {}

bool TrainingHealth::advance(Streak& s, bool unhealthy) const {
  if (!unhealthy) {
    s = Streak{};
    return false;
  }
  ++s.count;
  if (s.count < window_ || s.warned) return false;
  s.warned = true;
  return true;
}

std::vector<std::string> TrainingHealth::observe(std::int64_t step, const metrics::Scalars& s) {
  std::vector<std::string> out;
  if (window_ <= 0) return out;
  const std::string span = " for " + std::to_string(window_) + " updates (update " + std::to_string(step) + ")";
  const double nan = std::numeric_limits<double>::quiet_NaN();

  if (scalar_or(s, "ppo/value_warmup", 0) == 0) {
    const double clip = scalar_or(s, "ppo/clip_fraction", nan);
    if (clip == clip && advance(clip_, clip > kClipHigh))
      out.push_back("ppo/clip_fraction has stayed above " + num(kClipHigh) + span + ", now " + num(clip) +
                    ": each update moves the policy further than the clip allows; lower ppo.lr or ppo.epochs, "
                    "or set ppo.kl_stop");
    const double kl = scalar_or(s, "ppo/approx_kl", nan);
    if (kl == kl) {
      if (advance(kl_high_, kl > kKlHigh))
        out.push_back("ppo/approx_kl has stayed above " + num(kKlHigh) + span + ", now " + num(kl) +
                      ": the policy moves too far per update; lower ppo.lr, or set ppo.kl_stop to about 0.03");
      if (advance(kl_low_, kl < kKlLow))
        out.push_back("ppo/approx_kl has stayed below " + num(kKlLow) + span + ", now " + num(kl) +
                      ": the policy barely moves; raise ppo.lr or check the rewards");
    }
    const double h = scalar_or(s, "loss/entropy", nan);
    if (h == h) {
      if (!first_entropy_) first_entropy_ = h;
      if (advance(entropy_low_, h < kEntropyLow))
        out.push_back("loss/entropy has stayed below " + num(kEntropyLow) + " nats" + span + ", now " + num(h) +
                      ": the policy has collapsed to near-deterministic play; raise ppo.entropy_start or "
                      "ppo.entropy_target");
      if (advance(entropy_high_, h > *first_entropy_ + kEntropyRise))
        out.push_back("loss/entropy has stayed more than " + num(kEntropyRise) + " nats above its first value " +
                      num(*first_entropy_) + span + ", now " + num(h) +
                      ": the policy drifts toward uniform play; set ppo.entropy_target (-1 with a KL anchor), "
                      "lower ppo.entropy_start or ppo.lr");
    }
    const double ev = scalar_or(s, "ppo/explained_variance", nan);
    if (ev == ev && advance(ev_, ev < 0))
      out.push_back("ppo/explained_variance has stayed below 0" + span + ", now " + num(ev) +
                    ": the value head predicts the returns worse than a constant, so the advantages are noise; "
                    "raise ppo.value_warmup or ppo.value_coef, or lower ppo.lr");
  }

  const double games = scalar_or(s, "rank/vs_baseline_games", 0);
  if (games > 0) {
    // Seat-games: one learner seat per baseline game.
    rank_window_.push_back({scalar_or(s, "rank/vs_baseline", 0) * games, games});
    while (rank_window_.size() > ix(window_)) rank_window_.pop_front();
    double sum = 0, n = 0;
    for (const auto& [r, g] : rank_window_) {
      sum += r;
      n += g;
    }
    const double rank = sum / n;
    const bool full = rank_window_.size() == ix(window_) && n >= kRankMinSeats;
    // A start weaker than its baseline (a clone of a stronger bot) is judged against itself: the
    // first full window's mean, plus the same margin par has.
    if (full && !rank_start_) rank_start_ = rank;
    const double limit = rank_start_ ? std::max(kRankPar, *rank_start_ + kRankMargin) : kRankPar;
    // The window already spans many updates: its mean alone is the verdict.
    if (full && rank <= limit) rank_ = Streak{};
    if (full && rank > limit && !rank_.warned) {
      rank_.warned = true;
      out.push_back("rank/vs_baseline has averaged " + num(rank) + " over the last " + std::to_string(window_) +
                    " updates with baseline games (" + num(n) + " games; 2.5 is par, the run's first window " +
                    num(*rank_start_) + "; update " + std::to_string(step) +
                    "): the learner got worse against its baseline; lower ppo.lr, raise ppo.kl_anchor_start and "
                    "ppo.kl_anchor_end, or raise ppo.rollout_samples");
    }
  }
  return out;
}

}  // namespace hydra::ppo
