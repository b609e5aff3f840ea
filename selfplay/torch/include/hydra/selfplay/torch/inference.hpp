#pragma once

// Inference snapshots of the network for self-play, eval and bots (docs/MODEL.md): a no-grad
// deep copy of a HydraNet on a device behind the torch-free BatchPolicy interface (policy.hpp).
//
// publish() copies the learner's weights into a NEW snapshot and swaps the pointer under a mutex:
// a forward pass holds its own shared_ptr to the snapshot it started with, so a publish never
// races a forward, and every forward that starts after publish() returned uses the new weights.
// evaluate() enters torch::InferenceMode (and bf16 autocast on CUDA per model.cuda_bf16; on the
// CPU with model.cpu_bf16_inference it runs model::CpuBf16Net, the bf16 forward of the policy and value) in
// the calling thread, makes one host->device copy of the batch (pinned
// staging on CUDA), and returns the masked softmax and the value. Safe to call from several
// threads at once. On CUDA with model.cuda_graphs, the forward replays CUDA graphs captured per
// batch bucket for each snapshot (docs/GPU.md "CUDA graphs"); forward() is always eager.

#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/model/cpu_bf16.hpp"
#include "hydra/model/network.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/policy.hpp"

namespace hydra::selfplay {
namespace detail {
class GraphedForward;
}

class InferenceModel final : public BatchPolicy {
 public:
  // A deep copy of `net` on `device` (eval mode, no grad).
  InferenceModel(const model::HydraNetImpl& net, torch::Device device, std::int64_t version);

  void evaluate(const PolicyBatch& in, PolicyOutput out) override;
  std::int64_t version() const override;
  // On CUDA: the engine runs the passes of several snapshots at once (policy.hpp).
  bool overlaps() const override { return device_.is_cuda(); }

  // Copies the learner's weights (any device) into a new snapshot and swaps it in.
  void publish(const model::HydraNetImpl& learner, std::int64_t version);

  // Every head of the network for a batch (host tensors, fp32): policy logits are raw (unmasked).
  model::Outputs forward(const torch::Tensor& obs, const torch::Tensor& context);
  // The same with bf16 autocast on or off whatever the model config says (`hydra check` compares
  // the two precisions of one snapshot).
  model::Outputs forward(const torch::Tensor& obs, const torch::Tensor& context, bool autocast);

  torch::Device device() const { return device_; }
  // Turns the CUDA graphs of evaluate() off (eager forwards) or back on; on by default where
  // model.cuda_graphs and the device allow them. `hydra check` compares the two.
  void use_cuda_graphs(bool on) { graphs_on_.store(on); }
  // Whether evaluate() would replay CUDA graphs now.
  bool cuda_graphs() const;
  const config::ModelConfig& model_config() const { return config_; }

 private:
  struct Weights {
    mutable model::HydraNet net{nullptr};  // forward() is non-const; the weights never change
    std::int64_t version = 0;
    std::shared_ptr<detail::GraphedForward> graphs;  // CUDA with model.cuda_graphs, else null
    std::shared_ptr<const model::CpuBf16Net> bf16;   // CPU with model.cpu_bf16_inference, else null
  };
  std::shared_ptr<const Weights> current() const;
  std::shared_ptr<const Weights> copy_of(const model::HydraNetImpl& net, std::int64_t version) const;

  torch::Device device_;
  config::ModelConfig config_;
  std::atomic<bool> graphs_on_{true};
  mutable std::mutex mu_;
  std::shared_ptr<const Weights> snapshot_;
};

// A hydra_net checkpoint as a policy (model config from the checkpoint's config, version = its
// step; `cpu_bf16` turns model.cpu_bf16_inference on). Errors name the file.
std::shared_ptr<InferenceModel> load_policy(const std::filesystem::path& path, torch::Device device,
                                            bool cpu_bf16 = false);

// The network of selfplay.play_out_agent (`start`: the checkpoint of ppo.init; a checkpoint path)
// for Actors::set_play_out_policy, loaded on `device` (in bf16 with the run's
// model.cpu_bf16_inference); null for bot:greedy and the snapshot.
std::shared_ptr<InferenceModel> play_out_policy(const config::Config& cfg, torch::Device device);
// The network of selfplay.play_out_others (`start`: ppo.init; a checkpoint path) for
// Actors::set_play_out_others_policy; null for agent and bot:greedy.
std::shared_ptr<InferenceModel> play_out_others_policy(const config::Config& cfg, torch::Device device);

// load_policy on model::resolve_device(device): the PolicyLoader (model_agent.hpp) of checkpoint agents.
std::shared_ptr<BatchPolicy> checkpoint_policy(const std::string& path, const std::string& device, bool cpu_bf16 = false);

}  // namespace hydra::selfplay
