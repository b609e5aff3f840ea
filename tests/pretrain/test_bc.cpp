// Behaviour-cloning steps on a tiny synthetic batch: every loss term falls and the policy comes
// to name the logged action; the step follows the configured schedule; data-parallel ranks step
// as one learner on the union of their batches.

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include <gtest/gtest.h>

#include <torch/torch.h>

#include "hydra/encoder/layout.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/distributed.hpp"
#include "ranks.hpp"
#include "hydra/pretrain/bc.hpp"
#include "hydra/common/index.hpp"

namespace hydra::pretrain {
namespace {

// n decisions with random observations, 4 legal actions each (the logged one among them) and
// random labels, drawn from torch's generator seeded here.
data::SampleBatch synthetic_batch(int n) {
  torch::manual_seed(11);
  data::SampleBatch b;
  const auto un = ix(n);
  const auto obs = torch::rand({n * encoder::kObsSize});
  b.obs.assign(obs.data_ptr<float>(), obs.data_ptr<float>() + obs.numel());
  const auto ctx = torch::rand({n * 16});
  b.context.assign(ctx.data_ptr<float>(), ctx.data_ptr<float>() + ctx.numel());
  b.legal.assign(un * 46, 0);
  const auto acts = torch::randint(0, 46, {n, 4}, torch::kLong);
  const auto pick = torch::randint(0, 4, {n}, torch::kLong);
  const auto grp = torch::randint(0, 24, {n}, torch::kLong);
  const auto tenpai = torch::randint(0, 2, {n * 3}).to(torch::kFloat);
  const auto danger = torch::randint(0, 2, {n * 3 * 34}).to(torch::kFloat);
  const float places[4] = {3.f, 1.f, -1.f, -3.f};
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 4; ++k) b.legal[ix(i) * 46 + static_cast<std::size_t>(acts[i][k].item<std::int64_t>())] = 1;
    const std::int64_t a = acts[i][pick[i].item<std::int64_t>()].item<std::int64_t>();
    b.action.push_back(a);
    b.type.push_back(static_cast<std::uint8_t>(data::decision_type(static_cast<int>(a))));
    b.value.push_back(places[i % 4]);
    b.grp.push_back(grp[i].item<std::int64_t>());
  }
  b.tenpai.assign(tenpai.data_ptr<float>(), tenpai.data_ptr<float>() + tenpai.numel());
  b.danger.assign(danger.data_ptr<float>(), danger.data_ptr<float>() + danger.numel());
  b.searched.assign(un * 46, 0);  // no search
  b.search_value.assign(un * 46, 0.0F);
  return b;
}

config::Config tiny_config() {
  config::Config cfg;
  cfg.model.blocks = 1;
  cfg.model.channels = 32;
  cfg.model.policy_channels = 8;
  cfg.model.value_hidden = 32;
  cfg.model.grp_hidden = 32;
  cfg.model.tenpai_hidden = 16;
  cfg.pretrain.lr = 3e-3;
  cfg.pretrain.lr_floor = 1e-4;
  cfg.pretrain.warmup = 0.0;
  cfg.pretrain.grad_clip = 1.0;
  return cfg;
}

TEST(Bc, LossFallsOnATinyBatch) {
  const data::SampleBatch batch = synthetic_batch(16);
  const config::Config cfg = tiny_config();
  BcLearner learner(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 80, 3);
  const StepStats first = learner.step(batch);
  EXPECT_DOUBLE_EQ(first.lr, 3e-3);  // no warmup: the peak at step 0
  EXPECT_GT(first.grad_norm, 0.0);
  StepStats last = first;
  for (int i = 1; i < 80; ++i) last = learner.step(batch);
  EXPECT_EQ(learner.steps(), 80);
  std::printf("bc: loss %.4f -> %.4f, policy %.4f -> %.4f, accuracy %.3f -> %.3f\n", first.loss.total, last.loss.total,
              first.loss.policy, last.loss.policy, first.accuracy, last.accuracy);
  EXPECT_LT(last.loss.total, 0.5 * first.loss.total);
  EXPECT_LT(last.loss.policy, 0.5 * first.loss.policy);
  EXPECT_LT(last.loss.value, first.loss.value);
  EXPECT_LT(last.loss.grp, first.loss.grp);
  EXPECT_LT(last.loss.tenpai, first.loss.tenpai);
  EXPECT_LT(last.loss.danger, first.loss.danger);
  EXPECT_GE(last.accuracy, 0.9);
  // The schedule ends at the floor.
  EXPECT_NEAR(last.lr, cfg.pretrain.lr_floor, 1e-5);
}

// pretrain.teacher: a teacher with the network's own weights. Where every logged action is its
// argmax the target is the network's own distribution, so with the other losses off the gradient
// is zero (to float rounding); where every logged action differs from its argmax the target is the
// logged action: the plain cross-entropy, times pretrain.correction_weight.
TEST(Bc, ATeachersOwnChoicesGiveNoGradientAndItsCorrectionsThePlainLoss) {
  config::Config cfg = tiny_config();
  cfg.model.w_value = cfg.model.w_grp = cfg.model.w_tenpai = cfg.model.w_danger = 0.0;
  const auto file = std::filesystem::temp_directory_path() / "hydra-bc-teacher.ckpt";
  BcLearner plain(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 10, 3);
  model::save_checkpoint(file, {}, *plain.net());
  cfg.pretrain.teacher = file.string();
  cfg.pretrain.correction_weight = 2.0;

  data::SampleBatch batch = synthetic_batch(16);
  {
    const BcBatch t = to_tensors(batch, torch::Device(torch::kCPU));
    torch::NoGradGuard no_grad;
    plain.net()->eval();
    const auto argmax = model::masked_logits(plain.net()->forward(t.obs, t.context).policy, t.targets.legal).argmax(1);
    for (std::size_t i = 0; i < batch.size(); ++i) batch.action[i] = argmax[static_cast<std::int64_t>(i)].item<std::int64_t>();
  }
  BcLearner kept(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 10, 3);
  ASSERT_NE(kept.teacher(), nullptr);
  const StepStats s = kept.step(batch);
  EXPECT_EQ(s.corrected, 0.0);
  EXPECT_EQ(s.accuracy, 1.0);
  EXPECT_LT(s.grad_norm, 1e-5);

  // Every logged action moved to another legal one: all corrected, weight 2 on the plain loss.
  for (std::size_t i = 0; i < batch.size(); ++i) {
    for (int a = 0; a < model::kActions; ++a) {
      if (batch.legal[i * model::kActions + ix(a)] != 0 && a != batch.action[i]) {
        batch.action[i] = a;
        break;
      }
    }
  }
  BcLearner corrected(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 10, 3);
  const BcBatch t = to_tensors(batch, torch::Device(torch::kCPU));
  double plain_loss = 0;
  {
    torch::NoGradGuard no_grad;
    plain_loss = model::policy_loss(corrected.net()->forward(t.obs, t.context).policy, t.targets.legal, t.targets.action)
                     .item<double>();
  }
  const StepStats c = corrected.step(batch);
  EXPECT_EQ(c.corrected, 1.0);
  EXPECT_NEAR(c.loss.policy, 2.0 * plain_loss, 1e-5);
  EXPECT_GT(c.grad_norm, 1e-2);
  std::filesystem::remove(file);
  std::filesystem::remove(file.string() + ".sha256");
}

// Validation::SearchRegret, by hand: five rows, the network's choice set by its logits. Row 0
// plays the logged (searched) action: regret 0; row 1 a candidate worth 0.2 less; row 2 an action
// the search did not play out (not covered); row 3 has no search (not counted); row 4 a candidate
// worth 0.1 more than the search's own choice (a negative regret).
TEST(Bc, TheSearchRegretIsTheSearchsValueOfItsChoiceMinusTheNetworks) {
  data::SampleBatch b = synthetic_batch(5);
  std::vector<std::array<std::int64_t, 2>> legal_pairs;  // two legal actions of each row
  for (std::size_t i = 0; i < 5; ++i) {
    std::array<std::int64_t, 2> two{-1, -1};
    int found = 0;
    for (int a = 0; a < model::kActions && found < 2; ++a)
      if (b.legal[i * model::kActions + ix(a)] != 0) two[ix(found++)] = a;
    legal_pairs.push_back(two);
  }
  auto logits = torch::full({5, model::kActions}, -5.0F);
  const auto note = [&](std::size_t row, std::int64_t action, float value) {
    b.searched[row * model::kActions + ix(action)] = 1;
    b.search_value[row * model::kActions + ix(action)] = value;
  };
  // Each row logs its first legal action; the network picks the one its logit raises.
  for (std::size_t i = 0; i < 5; ++i) b.action[i] = legal_pairs[i][0];
  note(0, legal_pairs[0][0], 0.4F), note(0, legal_pairs[0][1], 0.1F);
  logits[0][legal_pairs[0][0]] = 3.0F;
  note(1, legal_pairs[1][0], 0.3F), note(1, legal_pairs[1][1], 0.1F);
  logits[1][legal_pairs[1][1]] = 3.0F;
  note(2, legal_pairs[2][0], 0.5F);
  logits[2][legal_pairs[2][1]] = 3.0F;
  logits[3][legal_pairs[3][1]] = 3.0F;
  note(4, legal_pairs[4][0], -0.2F), note(4, legal_pairs[4][1], -0.1F);
  logits[4][legal_pairs[4][1]] = 3.0F;
  const BcBatch t = to_tensors(b, torch::Device(torch::kCPU));
  const auto [regret, covered] = search_regret(logits, t);
  Validation::SearchRegret r;
  r.add(regret, covered, t.searched.any(1));
  EXPECT_EQ(r.searched, 4);
  EXPECT_EQ(r.covered, 3);
  // Regrets 0, 0.2 and -0.1: mean 1/30, sample variance 0.07/3, its standard error sqrt(0.07/9).
  EXPECT_NEAR(r.mean(), 0.1 / 3.0, 1e-6);
  EXPECT_NEAR(r.standard_error(), std::sqrt(0.07 / 9.0), 1e-6);
  Validation v;
  v.search = r;
  EXPECT_EQ(v.to_json()["search_regret"]["covered"], 3);
  EXPECT_TRUE(std::isnan(Validation::SearchRegret{}.mean()));

  // A teacher that plays every row's logged action has regret 0 where covered (all four searched
  // rows), so the network's gain over it, paired on the rows both cover, is minus its regret.
  auto teacher = torch::full({5, model::kActions}, -5.0F);
  for (std::int64_t i = 0; i < 5; ++i) teacher[i][b.action[ix(i)]] = 3.0F;
  const auto [teacher_regret, teacher_covered] = search_regret(teacher, t);
  EXPECT_EQ(teacher_covered.sum().item<std::int64_t>(), 4);
  EXPECT_EQ(teacher_regret.abs().sum().item<double>(), 0.0);
  Validation::SearchRegret gain;
  gain.add(teacher_regret - regret, covered & teacher_covered, t.searched.any(1));
  EXPECT_EQ(gain.covered, 3);
  EXPECT_NEAR(gain.mean(), -0.1 / 3.0, 1e-6);
}

// pretrain.search_temperature: the teacher's mass on a search's candidates is shared out by
// exp(value / T), by hand; the other actions and the rows without a search keep the teacher's
// probabilities. A learner of the teacher itself gets no gradient where every candidate's value is
// the same, and one where they differ; the option needs a teacher.
TEST(Bc, SearchValuesReweightTheTeachersCandidatesByHand) {
  const double T = 0.05;
  auto probs = torch::zeros({2, 46});
  probs[0][3] = 0.5;
  probs[0][7] = 0.3;
  probs[0][9] = 0.2;
  probs[1][3] = 0.6;
  probs[1][9] = 0.4;
  auto searched = torch::zeros({2, 46}, torch::kBool);
  auto values = torch::zeros({2, 46});
  searched[0][3] = searched[0][7] = true;
  values[0][3] = 0.25;
  values[0][7] = 0.25 + std::log(2.0) * T;  // twice the weight of action 3
  const auto t = search_target(probs, searched, values, T);
  EXPECT_NEAR(t[0][3].item<double>(), 0.8 * 0.5 / 1.1, 1e-6);
  EXPECT_NEAR(t[0][7].item<double>(), 0.8 * 0.6 / 1.1, 1e-6);
  EXPECT_NEAR(t[0][9].item<double>(), 0.2, 1e-7);
  EXPECT_TRUE(torch::equal(t[1], probs[1]));
  EXPECT_NEAR(t.sum(1)[0].item<double>(), 1.0, 1e-6);

  config::Config cfg = tiny_config();
  cfg.model.w_value = cfg.model.w_grp = cfg.model.w_tenpai = cfg.model.w_danger = 0.0;
  cfg.pretrain.search_temperature = T;
  EXPECT_THROW(
      {
        try {
          BcLearner none(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 10, 3);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("needs pretrain.teacher"), std::string::npos) << e.what();
          throw;
        }
      },
      Error);
  const auto file = std::filesystem::temp_directory_path() / "hydra-bc-search-teacher.ckpt";
  {
    BcLearner plain(cfg.model, config::PretrainConfig{}, torch::Device(torch::kCPU), 10, 3);
    model::save_checkpoint(file, {}, *plain.net());
  }
  cfg.pretrain.teacher = file.string();
  data::SampleBatch batch = synthetic_batch(16);
  BcLearner probe(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 10, 3);
  {
    const BcBatch b = to_tensors(batch, torch::Device(torch::kCPU));
    torch::NoGradGuard no_grad;
    probe.teacher()->eval();
    const auto argmax = model::masked_logits(probe.teacher()->forward(b.obs, b.context).policy, b.targets.legal).argmax(1);
    for (std::size_t i = 0; i < batch.size(); ++i) batch.action[i] = argmax[static_cast<std::int64_t>(i)].item<std::int64_t>();
  }
  // Every legal action of every row searched, all of one value: the teacher's own policy.
  batch.searched = batch.legal;
  std::fill(batch.search_value.begin(), batch.search_value.end(), 0.5F);
  BcLearner same(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 10, 3);
  const StepStats a = same.step(batch);
  EXPECT_EQ(a.searched, 1.0);
  EXPECT_EQ(a.corrected, 0.0);
  EXPECT_LT(a.grad_norm, 1e-5);
  // Values that differ move the target off the teacher's policy.
  for (std::size_t k = 0; k < batch.search_value.size(); ++k) batch.search_value[k] = static_cast<float>(k % 7) * 0.02F;
  BcLearner moved(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 10, 3);
  const StepStats b = moved.step(batch);
  EXPECT_GT(b.grad_norm, 1e-3);
  std::filesystem::remove(file);
  std::filesystem::remove(file.string() + ".sha256");
}

TEST(Bc, ValidationTalliesEveryDecisionOfTheBatch) {
  // validate() over a Dataset is exercised by the CLI tests; here the tally of one forward pass
  // agrees with the learner's own top-1 on the same batch.
  const data::SampleBatch batch = synthetic_batch(16);
  const config::Config cfg = tiny_config();
  BcLearner learner(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 40, 5);
  for (int i = 0; i < 40; ++i) learner.step(batch);
  torch::NoGradGuard no_grad;
  learner.net()->eval();
  const BcBatch t = to_tensors(batch, torch::Device(torch::kCPU));
  const auto out = learner.net()->forward(t.obs, t.context);
  DecisionAccuracy acc;
  tally(out.policy, batch, acc);
  EXPECT_EQ(acc.total(), 16);
  const double direct =
      model::masked_logits(out.policy, t.targets.legal).argmax(1).eq(t.targets.action).to(torch::kDouble).mean().item<double>();
  EXPECT_DOUBLE_EQ(acc.accuracy(), direct);
}


std::vector<torch::Tensor> weights_of(BcLearner& l) {
  std::vector<torch::Tensor> w;
  for (const auto& p : l.net()->parameters()) w.push_back(p.detach().clone());
  return w;
}

double relative_gap(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (a[i] - b[i]).pow(2).sum().item<double>();
    norm += b[i].pow(2).sum().item<double>();
  }
  return std::sqrt(diff / norm);
}

data::SampleBatch rows(const data::SampleBatch& src, std::size_t from, std::size_t to) {
  data::SampleBatch out;
  for (std::size_t i = from; i < to; ++i) out.append(src, i);
  return out;
}

// hydra pretrain as ranks (docs/DISTRIBUTED.md): rank 0's weights everywhere, one step of two
// ranks on their batches (of unequal size) is one step of one learner on the union, and the
// replicas stay bit-identical.
TEST(Bc, TwoRanksStepAsOneLearnerOnTheUnionOfTheirBatches) {
  if (!model::gloo_available()) GTEST_SKIP() << "built without Gloo's headers (libgloo-dev)";
  const data::SampleBatch both = synthetic_batch(24);
  const std::array<data::SampleBatch, 2> part{rows(both, 0, 10), rows(both, 10, 24)};
  const config::Config cfg = tiny_config();
  constexpr int kSteps = 3;
  BcLearner one(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 40, 3);
  std::vector<std::vector<torch::Tensor>> single;
  std::vector<StepStats> single_stats;
  for (int k = 0; k < kSteps; ++k) {
    single_stats.push_back(one.step(both));
    single.push_back(weights_of(one));
  }

  std::array<std::vector<std::vector<torch::Tensor>>, 2> ranks;
  std::array<std::vector<StepStats>, 2> rank_stats;
  testing::on_ranks(2, std::chrono::seconds(60), [&](int r, model::ProcessGroup& group) {
    BcLearner replica(cfg.model, cfg.pretrain, torch::Device(torch::kCPU), 40, r == 0 ? 3 : 4);  // rank 1 other weights
    replica.set_group(&group);
    for (int k = 0; k < kSteps; ++k) {
      rank_stats[ix(r)].push_back(replica.step(part[ix(r)]));
      ranks[ix(r)].push_back(weights_of(replica));
    }
  });

  const double first = relative_gap(ranks[0][0], single[0]), last = relative_gap(ranks[0][kSteps - 1], single[kSteps - 1]);
  std::printf("bc ranks: relative gap to one learner %.2e after 1 step, %.2e after %d\n", first, last, kSteps);
  EXPECT_LT(first, 1e-6);
  EXPECT_LT(last, 1e-5);
  for (int r = 0; r < 2; ++r) {
    const StepStats& s = rank_stats[ix(r)][0];
    EXPECT_EQ(s.samples, 24);
    EXPECT_NEAR(s.loss.total, single_stats[0].loss.total, 1e-5);
    EXPECT_NEAR(s.loss.policy, single_stats[0].loss.policy, 1e-6);
    EXPECT_NEAR(s.accuracy, single_stats[0].accuracy, 1e-12);
    EXPECT_NEAR(s.grad_norm, single_stats[0].grad_norm, 1e-5 * single_stats[0].grad_norm);
  }
  for (int k = 0; k < kSteps; ++k)
    for (std::size_t i = 0; i < ranks[0][ix(k)].size(); ++i)
      EXPECT_TRUE(torch::equal(ranks[0][ix(k)][i], ranks[1][ix(k)][i])) << "step " << k << " tensor " << i;
}

}  // namespace
}  // namespace hydra::pretrain
