#pragma once

// The privileged critic (docs/PPO.md "Privileged critic"): a value network for PPO's advantages
// that sees, beside the seat's own observation and score context, the privileged planes of
// encoder/privileged.hpp (the other hands, the wall in draw order, the dead wall). It is a
// separate network: no policy reads its weights or its inputs, so what the actor plays can never
// depend on hidden information. Any baseline that does not depend on the action keeps the policy
// gradient unbiased; one that knows the wall removes most of the luck of a kyoku from it.

#include <cstdint>

#include <torch/torch.h>

#include "hydra/encoder/privileged.hpp"
#include "hydra/model/network.hpp"

namespace hydra::model {

inline constexpr int kCriticInputChannels = kObsChannels + encoder::kPrivilegedChannels;

struct CriticConfig {
  int blocks = 2;
  int channels = 64;  // a multiple of 32
  int hidden = 256;   // value MLP
};

// [obs | privileged planes] -> stem -> SE-ResBlocks -> GroupNorm, Mish -> z;
// mean of z over tiles, [pooled, score context] -> Linear -> Mish -> Linear -> V.
class CriticNetImpl : public torch::nn::Cloneable<CriticNetImpl> {
 public:
  explicit CriticNetImpl(const CriticConfig& config);
  void reset() override;
  // obs [B,85,34], privileged [B,37,34], score_context [B,16] -> [B,1] V.
  torch::Tensor forward(const torch::Tensor& obs, const torch::Tensor& privileged, const torch::Tensor& score_context);
  void init_weights(std::uint64_t seed);
  const CriticConfig& config() const { return config_; }

  torch::nn::Conv1d stem{nullptr};
  torch::nn::ModuleList blocks{nullptr};
  torch::nn::GroupNorm trunk_norm{nullptr};
  MlpHead value{nullptr};

 private:
  CriticConfig config_;
};
TORCH_MODULE(CriticNet);

}  // namespace hydra::model
