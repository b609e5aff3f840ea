#pragma once

// The GRP reward model of self-play (config selfplay.grp; docs/SELFPLAY.md "Rewards"): each
// kyoku's change of the seat's expected placement points, by the GRP network of a checkpoint.

#include <array>
#include <filesystem>
#include <vector>

#include "hydra/game/kyoku.hpp"
#include "hydra/model/grp.hpp"
#include "hydra/selfplay/rewards.hpp"

namespace hydra::selfplay {

// GRP rewards (model::kyoku_rewards) from a checkpoint of kind "grp", on the CPU.
class GrpRewardModel final : public KyokuRewardModel {
 public:
  explicit GrpRewardModel(const std::filesystem::path& path);
  std::vector<std::array<double, 4>> rewards(const std::vector<game::KyokuStart>& kyoku,
                                             const std::array<int, 4>& final_scores) override;
  // The shared kyoku through the GRU once, then every ending's next kyoku start as one more step
  // of a batch from that state.
  std::vector<std::array<double, 4>> last_kyoku_rewards(const std::vector<game::KyokuStart>& kyoku,
                                                        const std::vector<std::optional<game::KyokuStart>>& next,
                                                        const std::vector<std::array<int, 4>>& scores) override;

 private:
  model::GrpNet net_{nullptr};
};

}  // namespace hydra::selfplay
