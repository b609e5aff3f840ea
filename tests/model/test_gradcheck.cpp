// Finite differences vs autograd in double precision, through the whole network and every loss,
// and through the GRU reward predictor. A directional derivative along a random direction per
// parameter tensor (and per input) checks every entry of that tensor at once; the 4-point
// central stencil with h = 1e-5 has truncation error ~h^4 and round-off ~1e-16 / h, far below
// the 1e-6 relative tolerance. The step is that small because max-pool and ReLU make the loss
// only piecewise smooth: a step of 1e-3 along a GroupNorm weight crosses a kink for these seeds.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "hydra/model/grp.hpp"
#include "hydra/model/losses.hpp"
#include "model_fixtures.hpp"

namespace hydra::model {
namespace {

constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-6;

// d/dt f(x + t v) at t = 0, by the 4-point stencil; x is restored afterwards.
double numeric_directional(const std::function<double()>& f, torch::Tensor x, const torch::Tensor& v) {
  torch::NoGradGuard no_grad;
  auto at = [&](double t) {
    x.add_(v, t);
    const double y = f();
    x.sub_(v, t);
    return y;
  };
  return (-at(2 * kStep) + 8 * at(kStep) - 8 * at(-kStep) + at(-2 * kStep)) / (12 * kStep);
}

// Checks the gradient of `loss` w.r.t. each named tensor. Returns the worst relative error.
double check_gradients(const std::function<torch::Tensor()>& loss,
                       const std::vector<std::pair<std::string, torch::Tensor>>& tensors) {
  for (const auto& [name, t] : tensors) t.mutable_grad() = torch::Tensor();
  loss().backward();
  const auto value = [&] { return loss().item<double>(); };
  double worst = 0.0;
  for (const auto& [name, t] : tensors) {
    // A unit direction keeps the probe step small in every coordinate, so it stays on one side
    // of the kinks (max-pool arg-max, ReLU) that a larger step could cross. Half of it points
    // along autograd's gradient so the derivative probed is never tiny beside the round-off
    // (~1e-16 |L| / h); the random half still exposes a gradient that is wrong in direction.
    auto v = torch::randn_like(t);
    v = v / v.norm();
    if (const double g = t.grad().norm().item<double>(); g > 0) {
      v = v + t.grad() / g;
      // A one-element tensor whose random sign opposes the gradient's would cancel to 0.
      if (v.norm().item<double>() < 1e-3) v = t.grad() / g;
    }
    v = v / v.norm();
    const double analytic = (t.grad() * v).sum().item<double>();
    const double numeric = numeric_directional(value, t, v);
    const double rel = std::abs(analytic - numeric) / std::max({std::abs(analytic), std::abs(numeric), 1e-12});
    worst = std::max(worst, rel);
    EXPECT_LT(rel, kTolerance) << name << ": autograd " << analytic << " vs finite differences " << numeric;
  }
  return worst;
}

std::vector<std::pair<std::string, torch::Tensor>> parameters_of(torch::nn::Module& m) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (auto& p : m.named_parameters()) out.emplace_back(p.key(), p.value());
  return out;
}

class NetworkGradients : public ::testing::Test {
 protected:
  void SetUp() override {
    torch::manual_seed(4);
    net = HydraNet(cfg);
    net->init_weights(5);
    // Give the 0.01-gain heads and GroupNorm affine parameters generic values: derivatives
    // through a near-zero layer would be tiny and prove little.
    {
      torch::NoGradGuard no_grad;
      for (auto& p : net->parameters()) p.add_(torch::randn_like(p) * 0.3);
    }
    net->to(torch::kDouble);
    batch = testing::random_batch(3, torch::kDouble);
    batch.obs = batch.obs + 0.1 * torch::randn_like(batch.obs);  // off the binary lattice
    batch.obs.requires_grad_();
    batch.ctx.requires_grad_();
  }
  config::ModelConfig cfg = testing::tiny_config(2);
  HydraNet net{nullptr};
  testing::Batch batch;
};

TEST_F(NetworkGradients, TotalLossThroughEveryParameterAndInput) {
  auto tensors = parameters_of(*net);
  tensors.emplace_back("input obs", batch.obs);
  tensors.emplace_back("input score context", batch.ctx);
  const double worst = check_gradients(
      [&] { return compute_losses(net->forward(batch.obs, batch.ctx), batch.targets, cfg).total; }, tensors);
  std::printf("whole network, weighted loss: worst relative error %.2e over %zu tensors\n", worst, tensors.size());
}

TEST_F(NetworkGradients, EachLossTermSeparately) {
  const auto tensors = parameters_of(*net);
  const auto& t = batch.targets;
  batch.targets.danger_weight = torch::bernoulli(torch::full({3, kOpponents, 1}, 0.7)).to(torch::kDouble);
  batch.targets.danger_weight[0].fill_(1.0);
  const std::vector<std::pair<std::string, std::function<torch::Tensor(const Outputs&)>>> terms = {
      {"masked policy CE", [&](const Outputs& o) { return policy_loss(o.policy, t.legal, t.action); }},
      {"value MSE", [&](const Outputs& o) { return value_loss(o.value, t.value); }},
      {"GRP CE", [&](const Outputs& o) { return grp_loss(o.grp, t.grp); }},
      {"tenpai BCE", [&](const Outputs& o) { return bce_loss(o.tenpai, t.tenpai); }},
      {"danger focal BCE", [&](const Outputs& o) {
         return focal_loss(o.danger, t.danger, cfg.focal_alpha, cfg.focal_gamma, t.danger_weight);
       }}};
  for (const auto& [name, term] : terms) {
    SCOPED_TRACE(name);
    // Only the tensors a term depends on have a gradient; the others would check 0 == 0.
    std::vector<std::pair<std::string, torch::Tensor>> used;
    const auto grads = torch::autograd::grad({term(net->forward(batch.obs, batch.ctx))},
                                             [&] {
                                               std::vector<torch::Tensor> ts;
                                               for (const auto& p : tensors) ts.push_back(p.second);
                                               return ts;
                                             }(),
                                             {}, false, false, /*allow_unused=*/true);
    for (std::size_t i = 0; i < tensors.size(); ++i)
      if (grads[i].defined() && grads[i].abs().max().item<double>() > 0) used.push_back(tensors[i]);
    EXPECT_GT(used.size(), 2u);
    const double worst = check_gradients([&] { return term(net->forward(batch.obs, batch.ctx)); }, used);
    std::printf("%-16s: worst relative error %.2e over %zu tensors\n", name.c_str(), worst, used.size());
  }
}

TEST(GrpGradients, GruAndCrossEntropy) {
  torch::manual_seed(6);
  config::ModelConfig cfg;
  cfg.grp_rnn_hidden = 8;
  GrpNet grp(cfg);
  grp->to(torch::kDouble);
  auto seq = torch::randn({2, 5, kGrpFeatures}, torch::kDouble).requires_grad_();
  const auto target = torch::tensor({3, 20}, torch::kLong);
  auto tensors = parameters_of(*grp);
  tensors.emplace_back("input sequence", seq);
  // Loss over every prefix, as GRP training pairs each prefix with the final ranking.
  const double worst = check_gradients(
      [&] {
        const auto logits = grp->forward(seq);  // [2,5,24]
        return grp_loss(logits.reshape({-1, kRankPerms}), target.repeat_interleave(5));
      },
      tensors);
  std::printf("GRU + GRP CE: worst relative error %.2e over %zu tensors\n", worst, tensors.size());
}

}  // namespace
}  // namespace hydra::model
