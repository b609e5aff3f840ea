#pragma once

// The SE-ResNet policy/value network of docs/MODEL.md. Layout and parameter names are
// documented in docs/MODEL.md and mirrored by the PyTorch module in scripts/model_reference.py,
// so an exported state dict loads there unchanged.

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/action.hpp"
#include "hydra/game/event.hpp"

namespace hydra::model {

// The network's sizes are the encoder's and the game's (one home each).
inline constexpr int kObsChannels = encoder::kChannels;
inline constexpr int kTiles = encoder::kTiles;
inline constexpr int kActions = game::kNumActions;
inline constexpr int kScoreContext = encoder::kContextSize;
inline constexpr int kRankPerms = 24;  // 4! final rank orders (model/grp.hpp)
inline constexpr int kOpponents = game::kNumSeats - 1;

// The network's outputs. Every head returns raw logits (or the raw value): probabilities come
// from masked_softmax (policy), softmax (GRP) and sigmoid (tenpai, danger), and the losses take
// logits because that is the numerically stable form.
struct Outputs {
  torch::Tensor policy;  // [B,46]
  torch::Tensor value;   // [B,1]
  torch::Tensor grp;     // [B,24] logits over the rank permutations of grp.hpp
  torch::Tensor tenpai;  // [B,3] one per opponent (shimocha, toimen, kamicha)
  torch::Tensor danger;  // [B,3,34] per opponent per tile type

  Outputs to_float() const;  // bf16 autocast outputs -> fp32 for the losses
};

namespace detail {
// How the trunk's norms run (detail::norm_mish): model.bf16_norm, model.norm_as_groups and
// model.fused_norm.
struct NormSettings {
  bool bf16 = false;
  bool as_groups = false;
  bool fused = false;
};
}  // namespace detail

// Pre-activation SE-ResBlock: GN -> Mish -> conv3 -> GN -> Mish -> conv3 -> SE -> + input.
class SEResBlockImpl : public torch::nn::Cloneable<SEResBlockImpl> {
 public:
  // norms: model.bf16_norm, model.norm_as_groups and model.fused_norm (detail::norm_mish).
  SEResBlockImpl(int channels, int se_hidden, detail::NormSettings norms = {});
  void reset() override;
  torch::Tensor forward(const torch::Tensor& x);

  torch::nn::GroupNorm norm1{nullptr}, norm2{nullptr};
  torch::nn::Conv1d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear se_fc1{nullptr}, se_fc2{nullptr};  // the SE MLP shared by both pools

 private:
  int channels_;
  int se_hidden_;
  detail::NormSettings norms_;
};
TORCH_MODULE(SEResBlock);

// Two-layer MLP head: fc1 -> Mish -> fc2 (value, GRP and tenpai heads).
class MlpHeadImpl : public torch::nn::Cloneable<MlpHeadImpl> {
 public:
  MlpHeadImpl(int in, int hidden, int out);
  void reset() override;
  torch::Tensor forward(const torch::Tensor& x);

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};

 private:
  int in_, hidden_, out_;
};
TORCH_MODULE(MlpHead);

// Policy head: 1x1 conv C -> P, Mish, flatten P*34, FC -> 46.
class PolicyHeadImpl : public torch::nn::Cloneable<PolicyHeadImpl> {
 public:
  PolicyHeadImpl(int channels, int policy_channels);
  void reset() override;
  torch::Tensor forward(const torch::Tensor& latent);

  torch::nn::Conv1d conv{nullptr};
  torch::nn::Linear fc{nullptr};

 private:
  int channels_, policy_channels_;
};
TORCH_MODULE(PolicyHead);

// The whole network. Cloneable so actors can hold a deep copy for inference
// (`std::dynamic_pointer_cast<HydraNetImpl>(net->clone())`).
class HydraNetImpl : public torch::nn::Cloneable<HydraNetImpl> {
 public:
  explicit HydraNetImpl(const config::ModelConfig& config);
  void reset() override;

  // obs [B,85,34], score_context [B,16] (see score_context()).
  Outputs forward(const torch::Tensor& obs, const torch::Tensor& score_context);

  // Orthogonal init of docs/MODEL.md, drawn from a generator seeded with `seed` (the global
  // torch generator is left untouched). Called by reset() with seed 0; call again with the
  // run's network-init seed.
  void init_weights(std::uint64_t seed);

  const config::ModelConfig& config() const { return config_; }
  detail::NormSettings norms() const;  // the trunk's, from the config

  torch::nn::Conv1d stem{nullptr};
  torch::nn::ModuleList blocks{nullptr};
  torch::nn::GroupNorm trunk_norm{nullptr};  // pre-activation trunks end with norm + Mish
  PolicyHead policy{nullptr};
  MlpHead value{nullptr}, grp{nullptr}, tenpai{nullptr};
  torch::nn::Conv1d danger{nullptr};

 private:
  config::ModelConfig config_;
};
TORCH_MODULE(HydraNet);

// Parameter count per top-level component (stem, blocks, trunk_norm, policy, value, grp,
// tenpai, danger) in registration order.
std::vector<std::pair<std::string, std::int64_t>> component_parameters(const torch::nn::Module& net);
std::int64_t count_parameters(const torch::nn::Module& net);

// The 16-value score context of docs/MODEL.md, from one player's view (encoder/context.hpp
// holds the one definition; this is the model's name for it). `scores` are in
// relative seat order (self, shimocha, toimen, kamicha), in points:
//   [0,4)   score / 100,000
//   [4,10)  gaps s_i - s_j / 100,000 for (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
//   [10,14) overtake thresholds: per seat, the points needed to reach the next higher distinct
//           score (0 for the top score) / 100,000
//   14      round index / 8 clipped to 1 (E1 = 0 ... S4 = 7, West rounds clip), 15: honba / 10
std::array<float, kScoreContext> score_context(const std::array<int, 4>& scores, int round, int honba);

}  // namespace hydra::model
