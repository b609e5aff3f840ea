// Per-type accuracy and the discard baselines on hand-built decisions and logits whose masked
// arg-max is known.

#include <gtest/gtest.h>

#include <cmath>

#include <torch/torch.h>

#include "hydra/pretrain/accuracy.hpp"
#include "hydra/pretrain/bc.hpp"
#include "hydra/common/index.hpp"

namespace hydra::pretrain {
namespace {

using data::DecisionType;

std::uint64_t bits(std::initializer_list<int> actions) {
  std::uint64_t b = 0;
  for (const int a : actions) b |= std::uint64_t{1} << a;
  return b;
}

TEST(Accuracy, DiscardBaselinesByHand) {
  DecisionAccuracy acc;
  // Logged discards: 5 of tile 3, 2 of tile 7, 1 of tile 30. Frequency order: 3, 7, 30, rest.
  for (int i = 0; i < 5; ++i) acc.add_discard(bits({3, 7, 30}), 3);   // baseline picks 3: hit x5
  acc.add_discard(bits({7, 30}), 7);                                  // picks 7: hit
  acc.add_discard(bits({3, 7}), 7);                                   // picks 3: miss
  acc.add_discard(bits({12, 30}), 30);                                // picks 30 (ranked above 12): hit
  EXPECT_DOUBLE_EQ(acc.discard_baseline(), 7.0 / 8.0);
  EXPECT_DOUBLE_EQ(acc.discard_constant_baseline(), 5.0 / 8.0);
  EXPECT_TRUE(std::isnan(DecisionAccuracy().discard_baseline()));
}

TEST(Accuracy, MergeAddsCountsAndBaselineDecisions) {
  DecisionAccuracy a, b;
  a.add(1, 1, DecisionType::discard);
  a.add_discard(bits({1, 2}), 1);
  b.add(2, 1, DecisionType::discard);
  b.add(45, 45, DecisionType::pass);
  b.add_discard(bits({1, 2}), 1);
  a.merge(b);
  EXPECT_EQ(a.total(DecisionType::discard), 2);
  EXPECT_EQ(a.correct(DecisionType::discard), 1);
  EXPECT_EQ(a.total(), 3);
  EXPECT_DOUBLE_EQ(a.accuracy(), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(a.discard_baseline(), 1.0);
  EXPECT_TRUE(std::isnan(a.accuracy(DecisionType::riichi)));
  const auto j = a.to_json();
  EXPECT_TRUE(j["by_type"]["riichi"]["accuracy"].is_null());
  EXPECT_EQ(j["by_type"]["pass"]["correct"], 1);
}

// Seven decisions, one per type, with logits whose arg-max is known; in rows 0 and 3 the largest
// logit is illegal, so only masking gives the right prediction.
TEST(Accuracy, TallyUsesTheMaskedArgmaxPerType) {
  data::SampleBatch b;
  const int n = 7;
  auto logits = torch::zeros({n, 46});
  b.legal.assign(ix(n) * 46, 0);
  const auto legal = [&](int row, std::initializer_list<int> actions) {
    for (const int a : actions) b.legal[ix(row) * 46 + ix(a)] = 1;
  };
  const auto logit = [&](int row, int a, float v) { logits[row][a] = v; };
  // row: type, legal actions, logits, logged action -> predicted
  legal(0, {2, 5, 9});  logit(0, 20, 9.f); logit(0, 5, 3.f); logit(0, 9, 1.f);   // discard: predicts 5, logged 5
  legal(1, {37, 4});    logit(1, 37, 2.f); logit(1, 4, 1.f);                     // riichi: predicts 37, logged 37
  legal(2, {38, 45});   logit(2, 45, 1.f); logit(2, 38, 0.5f);                   // chi: predicts 45, logged 38
  legal(3, {41, 45});   logit(3, 43, 5.f); logit(3, 41, 2.f);                    // pon: 43 illegal, predicts 41
  legal(4, {42, 45});   logit(4, 42, -1.f); logit(4, 45, -2.f);                  // kan: predicts 42
  legal(5, {43, 45});   logit(5, 45, 1.f);                                       // agari: predicts 45, logged 43
  legal(6, {41, 45});   logit(6, 45, 1.f);                                       // pass: predicts 45
  b.action = {5, 37, 38, 41, 42, 43, 45};
  b.type = {0, 1, 2, 3, 4, 5, 6};
  DecisionAccuracy acc;
  tally(logits, b, acc);
  const std::array<std::int64_t, 7> want = {1, 1, 0, 1, 1, 0, 1};
  for (int t = 0; t < 7; ++t) {
    const auto type = static_cast<DecisionType>(t);
    EXPECT_EQ(acc.total(type), 1) << kTypeNames[ix(t)];
    EXPECT_EQ(acc.correct(type), want[ix(t)]) << kTypeNames[ix(t)];
  }
  EXPECT_DOUBLE_EQ(acc.accuracy(), 5.0 / 7.0);
  // The one discard decision went to the baseline: legal {2, 5, 9}, logged 5 (the only one seen).
  EXPECT_DOUBLE_EQ(acc.discard_baseline(), 1.0);
}

}  // namespace
}  // namespace hydra::pretrain
