// Self-play rewards (rewards.hpp).

#include "hydra/selfplay/rewards.hpp"

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {

std::vector<std::array<double, 4>> ScoreRewardModel::rewards(const std::vector<game::KyokuStart>& kyoku,
                                                             const std::array<int, 4>& final_scores) {
  constexpr std::size_t kSeats = 4;
  const std::array<int, kSeats> rank = game::ranks(final_scores);  // ties to the seat nearer the first dealer
  const std::size_t nk = kyoku.size();
  std::vector<std::array<double, 4>> out;
  out.reserve(nk);
  for (std::size_t k = 0; k < nk; ++k) {
    std::array<double, 4> r{};
    for (std::size_t s = 0; s < kSeats; ++s) {
      const int end = k + 1 < nk ? kyoku[k + 1].scores[s] : final_scores[s];
      r[s] = (end - kyoku[k].scores[s]) / kRewardScale +
             (k + 1 == nk ? kPlacementReward[ix(rank[s])] : 0.0);
    }
    out.push_back(r);
  }
  return out;
}

std::vector<std::array<double, 4>> KyokuRewardModel::last_kyoku_rewards(
    const std::vector<game::KyokuStart>& kyoku, const std::vector<std::optional<game::KyokuStart>>& next,
    const std::vector<std::array<int, 4>>& scores) {
  HYDRA_CHECK(!kyoku.empty() && next.size() == scores.size(), "last_kyoku_rewards: one score per ending");
  std::vector<std::array<double, 4>> out;
  out.reserve(next.size());
  std::vector<game::KyokuStart> seen = kyoku;
  for (std::size_t i = 0; i < next.size(); ++i) {
    seen.resize(kyoku.size());
    if (next[i]) seen.push_back(*next[i]);
    out.push_back(rewards(seen, scores[i])[kyoku.size() - 1]);
  }
  return out;
}

std::int64_t assign_episode_rewards(Rollout& r, const std::vector<int>& kk,
                                    const std::vector<std::array<double, 4>>& rewards, std::size_t seat) {
  const std::size_t n = r.size();
  r.reward.assign(n, 0.0f);
  r.done.assign(n, 0);
  std::int64_t unearned = 0;
  std::size_t i = 0;
  for (std::size_t k = 0; k < rewards.size(); ++k) {
    std::int64_t end = -1;
    while (i < n && kk[i] == static_cast<int>(k)) end = static_cast<std::int64_t>(i++);
    if (end < 0) {  // no decision of this seat earned the kyoku's reward: it is not learned from
      ++unearned;
      continue;
    }
    r.done[ix(end)] = 1;
    r.reward[ix(end)] = static_cast<float>(rewards[k][seat]);
  }
  HYDRA_CHECK(i == n, "selfplay: a stored decision outside the game's kyoku");
  return unearned;
}

}  // namespace hydra::selfplay
