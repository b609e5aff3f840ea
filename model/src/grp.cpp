#include "hydra/model/grp.hpp"

#include <algorithm>
#include <numeric>

#include "hydra/common/error.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/model/network.hpp"
#include "hydra/common/index.hpp"

namespace hydra::model {
namespace {

std::array<Ranks, kRankPerms> make_permutations() {
  std::array<Ranks, kRankPerms> perms{};
  Ranks r{0, 1, 2, 3};
  for (auto& p : perms) {
    p = r;
    std::next_permutation(r.begin(), r.end());
  }
  return perms;
}

const std::array<Ranks, kRankPerms>& permutations() {
  static const auto perms = make_permutations();
  return perms;
}

}  // namespace

const Ranks& rank_permutation(int index) {
  HYDRA_CHECK(index >= 0 && index < kRankPerms, "rank permutation index out of range");
  return permutations()[ix(index)];
}

int permutation_index(const Ranks& ranks) { return game::rank_permutation_index(ranks); }

Ranks final_ranks(const std::array<int, 4>& scores) { return game::ranks(scores); }

std::array<float, kGrpFeatures> grp_features(const game::KyokuStart& s) {
  return {static_cast<float>(s.round), static_cast<float>(s.honba), static_cast<float>(s.riichi_sticks),
          s.scores[0] / 10000.0f, s.scores[1] / 10000.0f, s.scores[2] / 10000.0f, s.scores[3] / 10000.0f};
}

torch::Tensor grp_sequence(const std::vector<game::KyokuStart>& states) {
  auto out = torch::empty({1, static_cast<std::int64_t>(states.size()), kGrpFeatures});
  auto a = out.accessor<float, 3>();
  for (std::size_t t = 0; t < states.size(); ++t) {
    const auto f = grp_features(states[t]);
    for (int k = 0; k < kGrpFeatures; ++k) a[0][static_cast<std::int64_t>(t)][k] = f[k];
  }
  return out;
}

GrpNetImpl::GrpNetImpl(const config::ModelConfig& config) : config_(config) { reset(); }

void GrpNetImpl::reset() {
  gru = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(kGrpFeatures, config_.grp_rnn_hidden)
                                                  .num_layers(config_.grp_rnn_layers)
                                                  .batch_first(true)));
  head = register_module("head", torch::nn::Linear(config_.grp_rnn_hidden, kRankPerms));
}

torch::Tensor GrpNetImpl::forward(const torch::Tensor& sequences) {
  return head(std::get<0>(gru(sequences)));
}

torch::Tensor expected_points(const torch::Tensor& probs, const std::array<double, 4>& points) {
  // table[p][seat] = points of the rank that permutation p gives the seat.
  auto table = torch::empty({kRankPerms, 4}, torch::kDouble);
  auto a = table.accessor<double, 2>();
  for (int p = 0; p < kRankPerms; ++p)
    for (int seat = 0; seat < 4; ++seat) a[p][seat] = points[static_cast<std::size_t>(rank_permutation(p)[seat])];
  return torch::matmul(probs, table.to(probs.options()));
}

std::vector<std::array<double, 4>> kyoku_rewards(GrpNetImpl& grp, const std::vector<game::KyokuStart>& kyoku,
                                                 const std::array<int, 4>& final_scores,
                                                 const std::array<double, 4>& points) {
  if (kyoku.empty()) return {};
  torch::NoGradGuard no_grad;
  const auto device = grp.head->weight.device();
  const auto logits = grp.forward(grp_sequence(kyoku).to(device)).to(torch::kCPU, torch::kDouble)[0];
  const auto expect = expected_points(torch::softmax(logits, -1), points);  // [n,4]
  const auto e = expect.accessor<double, 2>();
  const auto ranks = final_ranks(final_scores);
  std::vector<std::array<double, 4>> rewards(kyoku.size());
  for (std::size_t t = 0; t < kyoku.size(); ++t) {
    for (int seat = 0; seat < 4; ++seat) {
      const double next = t + 1 < kyoku.size() ? e[static_cast<std::int64_t>(t + 1)][seat]
                                               : points[static_cast<std::size_t>(ranks[seat])];
      rewards[t][ix(seat)] = next - e[static_cast<std::int64_t>(t)][seat];
    }
  }
  return rewards;
}

}  // namespace hydra::model
