#pragma once

// The numerical self-test of a device behind `hydra check` (docs/GPU.md), in the spirit of
// KataGo's testgpuerror: real positions through the code paths training uses (model::HydraNet
// under model::AutocastGuard via selfplay::InferenceModel, ppo::Learner, the checkpoint writer
// and reader):
//   bf16_*              bf16 autocast against fp32 on the device, per head, batched
//   cpu_bf16_*          (a CPU with AVX-512) model.cpu_bf16_inference's forward against fp32:
//                       policy, value, and the share of positions whose argmax differs
//   batched_vs_single   one forward of N positions against N forwards of one, fp32
//   cuda_graphs         (CUDA with model.cuda_graphs) self-play's evaluate() replaying CUDA
//                       graphs against the eager forward, several batch sizes
//   update_finite       one PPO update of a fixed rollout: parameters and losses finite
//   update_lowers_loss  ... and the PPO objective of that rollout lower after it than before
//   checkpoint_weights  the updated network saved on the device, loaded on the CPU: every tensor equal
//   checkpoint_outputs  ... and its fp32 outputs on the CPU against the device's fp32 outputs
//   gloo_all_reduce     (a build with Gloo) two ranks on localhost all-reduce the parameters:
//                       exactly twice them on both (torch.distributed, docs/DISTRIBUTED.md)
//
// Error of a head: the largest difference over the positions of what the head's consumers read:
// probabilities for the policy (masked softmax over the legal actions), GRP (softmax over the 24
// rank orders), tenpai and danger (sigmoids); for the value, the difference in value units
// divided by max(1, RMS of the fp32 values), so a value head on any scale gets one threshold.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <torch/types.h>

#include "hydra/common/config.hpp"
#include "hydra/data/dataset.hpp"

namespace hydra::ppo {

// One check: its measured value against its threshold.
struct DeviceCheck {
  DeviceCheck(std::string n, std::string w, double v, double t, bool s = false, std::string nt = "")
      : name(std::move(n)), what(std::move(w)), value(v), threshold(t), strict(s), note(std::move(nt)) {}
  std::string name;
  std::string what;
  double value = 0;
  double threshold = 0;
  bool strict = false;  // pass when value < threshold (else value <= threshold)
  std::string note;
  bool pass() const;
};

// The config the check runs: `cfg` with the model of `checkpoint` (a hydra_net checkpoint, which
// becomes ppo.init) when one is given. Reward normalisation is off and the value warm-up skipped,
// so the loss before and after the update is one objective of the same targets and the whole
// network learns in the one update. A checkpoint of another kind is a hydra::Error.
config::Config device_check_config(config::Config cfg, const std::string& checkpoint);

// Runs every check on `positions` (real decisions, data::extract_samples' layout) with the
// config's model on `device`, a learner seeded with `seed`; logs each phase's time. On CUDA,
// TF32 is switched off first: fp32 means fp32 in the references.
std::vector<DeviceCheck> run_device_check(const config::Config& cfg, const torch::Device& device,
                                          const data::SampleBatch& positions, std::uint64_t seed);

}  // namespace hydra::ppo
