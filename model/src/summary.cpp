#include "hydra/model/summary.hpp"

#include <memory>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/grp.hpp"
#include "hydra/model/network.hpp"

namespace hydra::model {
namespace {

namespace fs = std::filesystem;

// The network a checkpoint holds, rebuilt from its stored config.
std::shared_ptr<torch::nn::Module> build(const fs::path& file, const CheckpointData& data) {
  const config::Config config = stored_config(file, data);
  if (data.kind == "hydra_net") return std::make_shared<HydraNetImpl>(config.model);
  if (data.kind == "grp") return std::make_shared<GrpNetImpl>(config.model);
  throw Error("checkpoint '" + file.string() + "': unknown network kind '" + data.kind + "'");
}

}  // namespace

NetworkSummary summarize(const config::ModelConfig& config) {
  NetworkSummary s;
  HydraNetImpl net(config);
  for (const auto& [name, n] : component_parameters(net)) s.components.push_back({name, n});
  s.per_block = net.blocks->is_empty() ? 0 : count_parameters(*net.blocks[0]);
  s.total = count_parameters(net);
  s.grp_model = count_parameters(GrpNetImpl(config));
  return s;
}

ExportResult export_weights(const fs::path& checkpoint, const fs::path& out) {
  ExportResult result;
  if (!fs::exists(checkpoint)) throw Error("checkpoint '" + checkpoint.string() + "' does not exist");
  if (fs::is_directory(checkpoint)) {
    const auto found = CheckpointDir(checkpoint, 0).load_latest(nullptr, nullptr, {false}, &result.source);
    if (!found) throw Error("no checkpoint in directory '" + checkpoint.string() + "'");
  } else {
    result.source = checkpoint;
  }
  auto data = load_checkpoint(result.source, nullptr, nullptr, {false});
  const auto net = build(result.source, data);
  load_checkpoint(result.source, net.get(), nullptr, {false});
  std::vector<std::pair<std::string, torch::Tensor>> tensors;
  for (const auto& p : net->named_parameters()) tensors.emplace_back(p.key(), p.value());
  for (const auto& b : net->named_buffers()) tensors.emplace_back(b.key(), b.value());
  result.tensors = static_cast<std::int64_t>(tensors.size());
  // Not a weight: the observation layout the network was trained on (scripts/model_reference.py
  // checks and removes it before a strict load).
  tensors.emplace_back(std::string(kExportEncoderVersion), torch::tensor(std::int64_t{encoder::kVersion}));
  save_tensor_dict(out, tensors);
  result.kind = data.kind;
  result.step = data.step;
  result.parameters = count_parameters(*net);
  return result;
}

}  // namespace hydra::model
