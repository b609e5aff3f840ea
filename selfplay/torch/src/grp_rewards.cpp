// The GRP reward model (grp_rewards.hpp).

#include "hydra/selfplay/torch/grp_rewards.hpp"

#include <torch/torch.h>

#include "hydra/common/error.hpp"
#include "hydra/model/checkpoint.hpp"

namespace hydra::selfplay {

GrpRewardModel::GrpRewardModel(const std::filesystem::path& path) {
  model::LoadOptions options;
  options.restore_rng = false;
  const auto data = model::load_checkpoint(path, nullptr, nullptr, options);
  if (data.kind != "grp")
    throw Error("selfplay.grp: checkpoint '" + path.string() + "' holds a '" + data.kind + "' network, not a grp");
  const config::Config cfg = model::stored_config(path, data);
  net_ = model::GrpNet(cfg.model);
  model::load_checkpoint(path, net_.ptr().get(), nullptr, options);
  net_->eval();
}

std::vector<std::array<double, 4>> GrpRewardModel::rewards(const std::vector<game::KyokuStart>& kyoku,
                                                           const std::array<int, 4>& final_scores) {
  torch::InferenceMode guard;
  return model::kyoku_rewards(*net_, kyoku, final_scores);
}

std::vector<std::array<double, 4>> GrpRewardModel::last_kyoku_rewards(
    const std::vector<game::KyokuStart>& kyoku, const std::vector<std::optional<game::KyokuStart>>& next,
    const std::vector<std::array<int, 4>>& scores) {
  HYDRA_CHECK(!kyoku.empty() && next.size() == scores.size(), "last_kyoku_rewards: one score per ending");
  torch::InferenceMode guard;
  auto [out, state] = net_->gru(model::grp_sequence(kyoku));  // out [1,T,H], state [layers,1,H]
  const auto now = model::expected_points(
      torch::softmax(net_->head(out.select(1, out.size(1) - 1)).to(torch::kDouble), -1), model::kPlacementPoints)[0];
  std::vector<game::KyokuStart> starts;  // of the endings the game goes on after, in order
  for (const auto& k : next)
    if (k) starts.push_back(*k);
  torch::Tensor after = torch::zeros({1, 4}, torch::kDouble);  // [starts, 4]
  if (!starts.empty()) {
    const auto n = static_cast<std::int64_t>(starts.size());
    const auto step = model::grp_sequence(starts).view({n, 1, model::kGrpFeatures});
    const auto h = std::get<0>(net_->gru(step, state.expand({state.size(0), n, state.size(2)}).contiguous()));
    after = model::expected_points(torch::softmax(net_->head(h.select(1, 0)).to(torch::kDouble), -1),
                                   model::kPlacementPoints);
  }
  const auto e_now = now.accessor<double, 1>();
  const auto e_after = after.accessor<double, 2>();
  std::vector<std::array<double, 4>> rewards(next.size());
  std::int64_t g = 0;
  for (std::size_t i = 0; i < next.size(); ++i) {
    const auto ranks = model::final_ranks(scores[i]);
    for (std::size_t s = 0; s < 4; ++s) {
      const double e = next[i] ? e_after[g][static_cast<std::int64_t>(s)]
                               : model::kPlacementPoints[static_cast<std::size_t>(ranks[s])];
      rewards[i][s] = e - e_now[static_cast<std::int64_t>(s)];
    }
    g += next[i] ? 1 : 0;
  }
  return rewards;
}

}  // namespace hydra::selfplay
