#pragma once

// Small configs, random batches and a scratch-folder remover shared by the model tests.

#include <filesystem>

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/model/network.hpp"

namespace hydra::model::testing {

// Not std::filesystem::remove_all: the torch wheel's libtorch.so exports its own, which the
// dynamic linker prefers over libstdc++'s and which crashes (a null call) in these tests.
inline void remove_tree(const std::filesystem::path& dir) {
  if (!std::filesystem::exists(dir)) return;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_directory()) remove_tree(entry.path());
    else std::filesystem::remove(entry.path());
  }
  std::filesystem::remove(dir);
}

// The smallest network GroupNorm(32) allows, with small heads: fast enough for gradient checks.
inline config::ModelConfig tiny_config(int blocks = 1) {
  config::ModelConfig c;
  c.blocks = blocks;
  c.channels = 32;
  c.se_ratio = 8;
  c.policy_channels = 4;
  c.value_hidden = 8;
  c.grp_hidden = 8;
  c.tenpai_hidden = 8;
  return c;
}

struct Batch {
  torch::Tensor obs, ctx;
  Targets targets;
};

// Observation planes in [0,1] with the sparsity of real ones, at least one legal action per row
// (row 0 has exactly one), targets drawn from the legal actions.
inline Batch random_batch(int b, torch::Dtype dtype = torch::kFloat) {
  const auto f = torch::TensorOptions().dtype(dtype);
  Batch batch;
  batch.obs = torch::bernoulli(torch::full({b, kObsChannels, kTiles}, 0.3, f));
  batch.ctx = torch::rand({b, kScoreContext}, f);
  auto legal = torch::rand({b, kActions}) < 0.4;
  legal[0].fill_(false);
  legal[0][45] = true;
  legal.select(1, 0).fill_(true);
  legal[0][0] = false;
  batch.targets.legal = legal;
  // A legal target per row: the arg-max of random scores over legal actions.
  batch.targets.action = torch::rand({b, kActions}).masked_fill(legal.logical_not(), -1.0).argmax(1);
  batch.targets.value = torch::randn({b}, f);
  batch.targets.grp = torch::randint(kRankPerms, {b}, torch::kLong);
  batch.targets.tenpai = torch::bernoulli(torch::full({b, kOpponents}, 0.3, f));
  batch.targets.danger = torch::bernoulli(torch::full({b, kOpponents, kTiles}, 0.1, f));
  return batch;
}

}  // namespace hydra::model::testing
