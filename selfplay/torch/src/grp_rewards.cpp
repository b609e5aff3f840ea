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

}  // namespace hydra::selfplay
