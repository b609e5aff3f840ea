#pragma once

// The policy and value of a HydraNet in bf16 on the CPU, for inference
// (model.cpu_bf16_inference; docs/MODEL.md "bf16 inference on the CPU").
//
// Built once from a network's weights: bf16 copies of the convolutions (stem, trunk, policy head)
// as 2-D kernels of height 1 in channels-last layout, which oneDNN runs on the CPU's bf16 matrix
// units (AMX, AVX512-BF16) where it has them; everything else reads the network's own fp32
// tensors. Activations are [batch, tiles, channels] in memory (channels last): the residual stream
// stays fp32, each GroupNorm + Mish is one pass (fp32 arithmetic, two-pass statistics) that reads
// the stream or a bf16 convolution output and writes bf16 for the next convolution, and the SE
// pools, gate and residual add are fp32 around bf16 convolution outputs. The heads' linear layers
// run in fp32. The result is the fp32 forward's to bf16's precision (tests/model
// `CpuBf16.*`), not to the bit: a bf16 snapshot is its own player, deterministic for its inputs.
//
// The kernels need AVX-512F (supported(); every CPU with bf16 matrix units has it); the
// torch-free parts of Hydra never see this.

#include <cstdint>
#include <vector>

#include <torch/torch.h>

#include "hydra/model/network.hpp"

namespace hydra::model {

class CpuBf16Net {
 public:
  // bf16 copies of `net`'s convolutions; the other weights are shared with `net`, which must not
  // change while this object is used (inference snapshots never change). Error without AVX-512F.
  explicit CpuBf16Net(const HydraNetImpl& net);

  // The 46 policy logits (raw, unmasked) and the value, fp32 [batch, 47], for CPU fp32 inputs
  // obs [batch, 85, 34] and context [batch, 16]. Safe from several threads at once.
  torch::Tensor logits_and_values(const torch::Tensor& obs, const torch::Tensor& context) const;

  // Whether this CPU runs the kernels (AVX-512F and FMA).
  static bool supported();

 private:
  struct Norm {
    torch::Tensor weight, bias;  // fp32 [C]
    double eps = 1e-5;
    std::int64_t groups = 32;
  };
  struct Block {
    Norm norm1, norm2;
    torch::Tensor conv1, conv2;          // bf16 [C, C, 1, 3], channels last
    torch::Tensor se_w1, se_b1, se_w2, se_b2;  // fp32
  };
  // Mish(GroupNorm(x)) of a channels-last [B, C, 1, 34] tensor (fp32 or bf16), bf16 out.
  static torch::Tensor norm_mish(const torch::Tensor& x, const Norm& n);

  torch::Tensor stem_;  // bf16 [C, 85, 1, 3]
  std::vector<Block> blocks_;
  Norm trunk_norm_;
  torch::Tensor policy_conv_w_, policy_conv_b_;  // bf16 [P, C, 1, 1], [P]
  torch::Tensor policy_fc_w_, policy_fc_b_;      // fp32
  torch::Tensor value_w1_, value_b1_, value_w2_, value_b2_;  // fp32
};

}  // namespace hydra::model
