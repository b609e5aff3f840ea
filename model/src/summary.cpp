#include "hydra/model/summary.hpp"

#include <cmath>
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

using Named = std::vector<std::pair<std::string, torch::Tensor>>;

Named named_tensors(torch::nn::Module& net) {
  Named out;
  for (const auto& p : net.named_parameters()) out.emplace_back(p.key(), p.value());
  for (const auto& b : net.named_buffers()) out.emplace_back(b.key(), b.value());
  return out;
}

struct Loaded {
  CheckpointData data;
  std::shared_ptr<torch::nn::Module> net;
};

// The network a checkpoint file holds, with its weights.
Loaded load_network(const fs::path& file) {
  Loaded l;
  l.data = load_checkpoint(file, nullptr, nullptr, {false});
  l.net = build(file, l.data);
  load_checkpoint(file, l.net.get(), nullptr, {false});
  return l;
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
  const Loaded loaded = load_network(result.source);
  const auto& data = loaded.data;
  const auto& net = loaded.net;
  Named tensors = named_tensors(*net);
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

namespace {

// Throws unless `other` holds the tensors of `first` (kind, names, shapes).
void check_same(const fs::path& first_file, const Loaded& first, const fs::path& file, const Loaded& other) {
  if (other.data.kind != first.data.kind)
    throw Error("merge: " + file.string() + " holds a " + other.data.kind + " network, " + first_file.string() +
                " a " + first.data.kind);
  const Named a = named_tensors(*first.net), b = named_tensors(*other.net);
  const auto shape = [](const torch::Tensor& t) { return c10::str(t.sizes()); };
  if (a.size() != b.size())
    throw Error("merge: " + file.string() + " has " + std::to_string(b.size()) + " tensors, " + first_file.string() +
                " " + std::to_string(a.size()) + " (another architecture)");
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].first != b[i].first || !a[i].second.sizes().equals(b[i].second.sizes()))
      throw Error("merge: " + file.string() + "'s tensor " + b[i].first + " " + shape(b[i].second) + " differs from " +
                  first_file.string() + "'s " + a[i].first + " " + shape(a[i].second) + " (another architecture)");
  }
}

}  // namespace

MergeResult merge_weights(const MergeOptions& o) {
  if (o.inputs.empty()) throw Error("merge: no checkpoints to merge");
  if (o.out.empty()) throw Error("merge: no --out file");
  if (!std::isfinite(o.scale) || o.scale <= 0) throw Error("merge: --scale must be a positive number");
  if (o.base.empty() && o.scale != 1.0) throw Error("merge: --scale needs --base (the network the inputs started from)");
  for (const auto& f : o.inputs)
    if (!fs::is_regular_file(f)) throw Error("merge: checkpoint '" + f.string() + "' is not a file");
  if (!o.base.empty() && !fs::is_regular_file(o.base))
    throw Error("merge: checkpoint '" + o.base.string() + "' is not a file");
  torch::NoGradGuard no_grad;
  const Loaded first = load_network(o.inputs.front());
  const Named target = named_tensors(*first.net);
  std::vector<torch::Tensor> sum;
  for (const auto& [name, t] : target) sum.push_back(t.to(torch::kDouble));
  for (std::size_t k = 1; k < o.inputs.size(); ++k) {
    const Loaded other = load_network(o.inputs[k]);
    check_same(o.inputs.front(), first, o.inputs[k], other);
    const Named b = named_tensors(*other.net);
    for (std::size_t i = 0; i < b.size(); ++i) sum[i] += b[i].second.to(torch::kDouble);
  }
  std::vector<torch::Tensor> reference;  // what the distance is measured from
  if (!o.base.empty()) {
    const Loaded base = load_network(o.base);
    check_same(o.inputs.front(), first, o.base, base);
    for (const auto& [name, t] : named_tensors(*base.net)) reference.push_back(t.to(torch::kDouble));
  } else {
    for (const auto& [name, t] : target) reference.push_back(t.to(torch::kDouble));
  }
  MergeResult r;
  r.kind = first.data.kind;
  double sq = 0;
  const auto n = static_cast<double>(o.inputs.size());
  for (std::size_t i = 0; i < target.size(); ++i) {
    const torch::Tensor& t = target[i].second;
    if (!t.is_floating_point()) continue;  // counters: the first input's
    const torch::Tensor mean = sum[i] / n;
    const torch::Tensor merged = o.base.empty() ? mean : reference[i] + o.scale * (mean - reference[i]);
    sq += (merged - reference[i]).square().sum().item<double>();
    t.copy_(merged.to(t.scalar_type()));
    ++r.tensors;
  }
  r.distance = std::sqrt(sq);
  r.parameters = count_parameters(*first.net);
  CheckpointData d;
  d.kind = first.data.kind;
  d.config = first.data.config;
  nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
  for (const auto& f : o.inputs) inputs.push_back(f.string());
  d.extra = {{"command", "merge"},
             {"inputs", inputs},
             {"base", o.base.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(o.base.string())},
             {"scale", o.scale}};
  save_checkpoint(o.out, d, *first.net);
  return r;
}

}  // namespace hydra::model

