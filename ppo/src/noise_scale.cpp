// The gradient noise scale of an update (noise_scale.hpp).

#include "noise_scale.hpp"

#include <cmath>

#include "hydra/common/index.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/ppo/loss.hpp"
#include "passes.hpp"

namespace hydra::ppo {

// McCandlish et al., "An Empirical Model of Large-Batch Training" (2018), appendix A: with
// per-decision gradients x_i of mean G and covariance Sigma, a mean over b decisions has
// E|g_b|^2 = |G|^2 + tr(Sigma) / b. Chunk means g_k (K chunks of b = N / K) and the whole
// rollout's mean g_N give the unbiased estimates
//   |G|^2     = (N |g_N|^2 - b mean_k |g_k|^2) / (N - b)
//   tr(Sigma) = (mean_k |g_k|^2 - |g_N|^2) / (1 / b - 1 / N).
// Both need independent chunks. The four seats of a self-play game are zero-sum and share one
// wall, so a chunk holds whole games (cut at the first game boundary after ppo.noise_batch
// decisions; consecutive decisions when the rollout does not name its games). Cross-check: the
// chunks split alternately into two halves of different games, whose mean gradients g_A and g_B
// are independent, so <g_A, g_B> is another unbiased estimate of |G|^2 (ppo/grad_signal_halves)
// and their cosine says directly how much two halves of one rollout agree. With row weights
// (ppo.unplayed_share) a row counts as the decisions it stands for: in the chunks' sizes, the cut,
// and each chunk's weighted mean.
void measure_gradient_noise(model::HydraNetImpl& net, const RolloutTensors& data, const std::vector<std::int64_t>& games,
                            const NoiseSettings& settings, UpdateStats& stats) {
  const torch::Device device = settings.device;
  const std::int64_t rows_n = data.size();
  // at[i]: the decisions rows [0, i) stand for.
  std::vector<double> at(ix(rows_n) + 1, 0.0);
  {
    const auto w = data.weight.defined() ? data.weight.to(torch::kDouble).cpu().contiguous() : torch::Tensor();
    for (std::int64_t i = 0; i < rows_n; ++i)
      at[ix(i) + 1] = at[ix(i)] + (w.defined() ? w.data_ptr<double>()[i] : 1.0);
  }
  const double n = at.back();
  std::vector<std::int64_t> cuts{0};
  const bool by_game = static_cast<std::int64_t>(games.size()) == rows_n;
  for (std::int64_t i = 1; i < rows_n; ++i)
    if (at[ix(i)] - at[ix(cuts.back())] >= settings.noise_batch &&
        (!by_game || games[ix(i)] != games[static_cast<std::size_t>(i - 1)]))
      cuts.push_back(i);
  // A short tail joins the chunk before it.
  if (cuts.size() > 1 && n - at[ix(cuts.back())] < settings.noise_batch / 2) cuts.pop_back();
  cuts.push_back(rows_n);
  const auto chunks = static_cast<std::int64_t>(cuts.size()) - 1;
  if (chunks < 2) return;
  std::vector<torch::Tensor> params;
  for (const auto& p : net.parameters())
    if (p.requires_grad()) params.push_back(p);
  const auto adv = data.action_advantage.defined() ? data.action_advantage
                                                  : normalize_advantages(data.advantage, settings.adv_clip, data.weight);
  std::vector<torch::Tensor> sum(params.size()), half_a(params.size()), half_b(params.size());
  double size_a = 0;
  for (std::int64_t k = 0; k < chunks; k += 2) size_a += at[ix(cuts[static_cast<std::size_t>(k + 1)])] - at[ix(cuts[ix(k)])];
  const double size_b = n - size_a;
  // Sums stay on the device (float64): one host sync for the whole measurement.
  auto chunk_sq = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(device));
  double inv_b = 0;  // mean over chunks of 1 / chunk size
  const auto add = [](torch::Tensor& acc, const torch::Tensor& g) { acc = acc.defined() ? acc + g : g; };
  for (std::int64_t k = 0; k < chunks; ++k) {
    const std::int64_t lo = cuts[ix(k)], hi = cuts[static_cast<std::size_t>(k + 1)];
    const auto idx = torch::arange(lo, hi, torch::TensorOptions().dtype(torch::kLong).device(device));
    const auto b = data.select(idx);
    const auto logits = tempered(forward(net, b, device.type(), settings.autocast).policy.to(torch::kFloat),
                                 settings.temperature);
    const auto logp_all = model::masked_log_softmax(logits, b.legal);
    // The policy term at ratio 1: -A log pi(a) of the sampled action, or the loss's own expected
    // surrogate (pi_old is the network as it stands, so every ratio is 1 and nothing is clipped).
    const auto surrogate =
        data.action_advantage.defined()
            ? expected_surrogate(logp_all, b.legal, adv.slice(0, lo, hi), b.old_probs, settings.clip)
            : adv.slice(0, lo, hi) * logp_all.gather(1, b.action.unsqueeze(1)).squeeze(1);
    const auto loss = -model::weighted_mean(surrogate, b.weight);
    const auto grads = torch::autograd::grad({loss}, params, {}, /*retain_graph=*/false, /*create_graph=*/false,
                                             /*allow_unused=*/true);
    const double rows = at[ix(hi)] - at[ix(lo)];
    inv_b += 1.0 / rows / static_cast<double>(chunks);
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (!grads[i].defined()) continue;
      const auto g = grads[i].detach().to(torch::kDouble);
      chunk_sq += g.pow(2).sum() / static_cast<double>(chunks);
      add(sum[i], (rows / n) * g);
      if (k % 2 == 0) add(half_a[i], (rows / size_a) * g);
      else add(half_b[i], (rows / size_b) * g);
    }
  }
  auto mean_sq = torch::zeros_like(chunk_sq), dot = torch::zeros_like(chunk_sq);
  auto sq_a = torch::zeros_like(chunk_sq), sq_b = torch::zeros_like(chunk_sq);
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (sum[i].defined()) mean_sq += sum[i].pow(2).sum();
    if (half_a[i].defined() && half_b[i].defined()) {
      dot += (half_a[i] * half_b[i]).sum();
      sq_a += half_a[i].pow(2).sum();
      sq_b += half_b[i].pow(2).sum();
    }
  }
  const auto sums = torch::stack({chunk_sq, mean_sq, dot, sq_a, sq_b}).cpu();
  const double small_sq = sums[0].item<double>(), big = sums[1].item<double>();
  // Chunks of unequal size b_k: E mean_k |g_k|^2 = |G|^2 + tr(Sigma) h with h = mean_k 1 / b_k
  // (h = 1 / b for equal chunks gives the formulas above).
  const double inv_n = 1.0 / n;
  stats.grad_noise = (small_sq - big) / (inv_b - inv_n);
  stats.grad_signal = (inv_b * big - inv_n * small_sq) / (inv_b - inv_n);
  stats.grad_signal_halves = sums[2].item<double>();
  const double norms = std::sqrt(sums[3].item<double>() * sums[4].item<double>());
  stats.grad_cos_halves = norms > 0 ? sums[2].item<double>() / norms : 0.0;
  stats.noise_chunks = chunks;
  stats.noise_measured = true;
}

}  // namespace hydra::ppo
