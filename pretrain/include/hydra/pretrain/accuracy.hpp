#pragma once

// Validation bookkeeping of behaviour cloning (docs/PRETRAIN.md): top-1 accuracy
// per decision type, and the majority-class baseline for discards that the model's discard
// accuracy has to beat. Torch-free: the trainer feeds it predicted and logged actions.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/data/dataset.hpp"
#include "hydra/common/index.hpp"

namespace hydra::pretrain {

inline constexpr int kTypes = data::kDecisionTypes;
// The spellings of data::DecisionType, in enum order (metric tags and reports).
inline constexpr std::array<std::string_view, kTypes> kTypeNames = {"discard", "riichi", "chi", "pon",
                                                                    "kan",     "agari",  "pass"};

class DecisionAccuracy {
 public:
  // One decision: the model's (or a bot's) choice, the logged action and the decision type.
  void add(int predicted, int logged, data::DecisionType type);
  // Records a discard decision for the baseline: its legal mask (bit a = action a) and the
  // logged discard.
  void add_discard(std::uint64_t legal, int logged);

  std::int64_t total(data::DecisionType t) const { return total_[idx(t)]; }
  std::int64_t correct(data::DecisionType t) const { return correct_[idx(t)]; }
  std::int64_t total() const;
  // correct / total of one type, or of every decision; NaN when there are none.
  double accuracy(data::DecisionType t) const;
  double accuracy() const;

  // The majority-class baseline for discards: rank the 37 discard actions by how often the
  // logged discards chose them, then predict for each decision the highest-ranked legal one.
  // (A constant guess would mostly name a tile the hand does not hold; this is the honest
  // "most popular tile" player.) NaN without discards.
  double discard_baseline() const;
  // The plain constant guess: the share of the single most frequent logged discard.
  double discard_constant_baseline() const;

  void merge(const DecisionAccuracy& other);
  nlohmann::ordered_json to_json() const;

 private:
  static std::size_t idx(data::DecisionType t) { return ix(t); }
  std::array<std::int64_t, kTypes> total_{}, correct_{};
  std::vector<std::uint64_t> discard_legal_;
  std::vector<std::int8_t> discard_logged_;
};

}  // namespace hydra::pretrain
