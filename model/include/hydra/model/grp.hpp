#pragma once

// The global reward predictor of docs/PRETRAIN.md: a GRU over a game's kyoku sequence that
// predicts the final rank permutation, and the per-kyoku rewards derived from it.
//
// Rank permutations: index p in [0,24) names the tuple (rank of seat 0, ..., rank of seat 3),
// ranks 0 = first .. 3 = fourth, seats absolute (seat 0 = the first dealer), in lexicographic
// order of that tuple: p = 0 is (0,1,2,3) (seats finish in seat order), p = 1 is (0,1,3,2), ...,
// p = 23 is (3,2,1,0). rank_permutation(p) and permutation_index(ranks) convert.

#include <array>
#include <cstdint>
#include <vector>

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/game/kyoku.hpp"

namespace hydra::model {

inline constexpr int kGrpFeatures = 7;

using Ranks = std::array<int, 4>;  // rank (0 = first) of each absolute seat

const Ranks& rank_permutation(int index);
int permutation_index(const Ranks& ranks);
// Final ranks from final scores; ties go to the seat nearer the first dealer (Tenhou).
Ranks final_ranks(const std::array<int, 4>& scores);

// The GRP's features of the state at the start of one kyoku (game::KyokuStart):
// [round, honba, riichi sticks, 4 scores / 10,000] (docs/PRETRAIN.md).
std::array<float, kGrpFeatures> grp_features(const game::KyokuStart& state);
// [1, T, 7] features of a kyoku sequence.
torch::Tensor grp_sequence(const std::vector<game::KyokuStart>& states);

// GRU (batch first) over [B,T,7] -> per-step logits [B,T,24]. Causal, so the logits at step t
// are the prediction from the prefix 0..t: one pass scores every prefix of a game, and padding
// after a sequence's end never changes its earlier steps.
class GrpNetImpl : public torch::nn::Cloneable<GrpNetImpl> {
 public:
  explicit GrpNetImpl(const config::ModelConfig& config);
  void reset() override;
  torch::Tensor forward(const torch::Tensor& sequences);

  torch::nn::GRU gru{nullptr};
  torch::nn::Linear head{nullptr};

 private:
  config::ModelConfig config_;
};
TORCH_MODULE(GrpNet);

// Placement points per rank used for training rewards (the uma of docs/RULES.md).
inline constexpr std::array<double, 4> kPlacementPoints{3.0, 1.0, -1.0, -3.0};

// Expected placement points of each seat under permutation probabilities probs[..., 24]:
// returns [..., 4].
torch::Tensor expected_points(const torch::Tensor& probs, const std::array<double, 4>& points = kPlacementPoints);

// Per-kyoku rewards of a finished game. `kyoku` holds the start state of every kyoku in order,
// `final_scores` the scores at the end of the game. E_t = expected placement points under the
// GRP after seeing kyoku 0..t (t < n); E_n = the actual placement points of final_ranks().
// reward[t][seat] = E_{t+1} - E_t, so the rewards of a seat sum to its actual placement points
// minus the GRP's expectation at the start of the game.
std::vector<std::array<double, 4>> kyoku_rewards(GrpNetImpl& grp, const std::vector<game::KyokuStart>& kyoku,
                                                 const std::array<int, 4>& final_scores,
                                                 const std::array<double, 4>& points = kPlacementPoints);

}  // namespace hydra::model
