#include "hydra/model/optim.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "hydra/common/error.hpp"

namespace hydra::model {

std::unique_ptr<torch::optim::AdamW> make_adamw(torch::nn::Module& net, const AdamWSettings& s) {
  std::vector<torch::Tensor> decay, no_decay;
  for (const auto& p : net.parameters()) (p.dim() >= 2 ? decay : no_decay).push_back(p);
  const auto options = [&](double wd) {
    return std::make_unique<torch::optim::AdamWOptions>(
        torch::optim::AdamWOptions(s.lr).betas({s.beta1, s.beta2}).eps(s.eps).weight_decay(wd));
  };
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(decay, options(s.weight_decay));
  groups.emplace_back(no_decay, options(0.0));
  return std::make_unique<torch::optim::AdamW>(std::move(groups),
                                               torch::optim::AdamWOptions(s.lr).betas({s.beta1, s.beta2}).eps(s.eps));
}

void set_lr(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

WarmupCosine WarmupCosine::spec(std::int64_t total, double peak, double floor) {
  return {peak, floor, std::max<std::int64_t>(1, total / 20), std::max<std::int64_t>(1, total)};
}

double WarmupCosine::lr(std::int64_t step) const {
  if (step < warmup) return peak * static_cast<double>(step + 1) / static_cast<double>(warmup);
  if (step >= total) return floor;
  const double span = static_cast<double>(std::max<std::int64_t>(1, total - warmup));
  const double progress = static_cast<double>(step - warmup) / span;
  return floor + 0.5 * (peak - floor) * (1.0 + std::cos(std::numbers::pi * progress));
}

nlohmann::ordered_json WarmupCosine::to_json() const {
  return {{"kind", "warmup_cosine"}, {"peak", peak}, {"floor", floor}, {"warmup", warmup}, {"total", total}};
}

WarmupCosine WarmupCosine::from_json(const nlohmann::json& j) {
  try {
    if (j.at("kind").get<std::string>() != "warmup_cosine") throw Error("scheduler kind is not warmup_cosine");
    return {j.at("peak").get<double>(), j.at("floor").get<double>(), j.at("warmup").get<std::int64_t>(),
            j.at("total").get<std::int64_t>()};
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("malformed scheduler state: ") + e.what());
  }
}

}  // namespace hydra::model
