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

void adamw_step(torch::optim::AdamW& optimizer, bool fused) {
  if (!fused) {
    optimizer.step();
    return;
  }
  torch::NoGradGuard no_grad;
  auto& state = optimizer.state();
  for (auto& group : optimizer.param_groups()) {
    const auto& o = static_cast<const torch::optim::AdamWOptions&>(group.options());
    if (o.amsgrad()) throw Error("adamw_step: amsgrad is not supported by the fused step");
    std::vector<torch::Tensor> params, grads, avgs, sqs, steps;
    // The kernel reads one float step count per parameter; parameters at the same count share
    // one scalar tensor (usually all of a group).
    std::vector<std::pair<std::int64_t, torch::Tensor>> counts;
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      auto& slot = state[p.unsafeGetTensorImpl()];
      if (!slot) {
        auto fresh = std::make_unique<torch::optim::AdamWParamState>();
        fresh->step(0);
        fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        slot = std::move(fresh);
      }
      auto& st = static_cast<torch::optim::AdamWParamState&>(*slot);
      st.step(st.step() + 1);
      auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == st.step(); });
      if (it == counts.end()) {
        counts.emplace_back(st.step(), torch::full({}, static_cast<double>(st.step()),
                                                   torch::TensorOptions().dtype(torch::kFloat).device(p.device())));
        it = std::prev(counts.end());
      }
      params.push_back(p);
      grads.push_back(p.grad());
      avgs.push_back(st.exp_avg());
      sqs.push_back(st.exp_avg_sq());
      steps.push_back(it->second);
    }
    if (params.empty()) continue;
    at::_fused_adamw_(params, grads, avgs, sqs, /*max_exp_avg_sqs=*/{}, steps, o.lr(), std::get<0>(o.betas()),
                      std::get<1>(o.betas()), o.weight_decay(), o.eps(), /*amsgrad=*/false, /*maximize=*/false);
  }
}

void adamw_step(torch::optim::AdamW& optimizer) {
  bool cuda = false;
  for (const auto& group : optimizer.param_groups())
    for (const auto& p : group.params()) cuda = cuda || p.is_cuda();
  adamw_step(optimizer, cuda);
}

torch::Tensor clip_gradients(const std::vector<torch::Tensor>& params, double max_norm) {
  std::vector<torch::Tensor> grads;
  grads.reserve(params.size());
  for (const auto& p : params)
    if (p.grad().defined()) grads.push_back(p.grad().detach());
  if (grads.empty()) return torch::zeros({});
  const auto norms = at::_foreach_norm(grads, 2);
  const auto total = torch::stack(norms).to(torch::kFloat).norm(2);
  if (max_norm > 0) {
    const auto coef = (max_norm / (total + 1e-6)).clamp_max(1.0);
    at::_foreach_mul_(grads, coef.to(grads.front().scalar_type()));
  }
  return total;
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
