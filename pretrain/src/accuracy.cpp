#include "hydra/pretrain/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

namespace hydra::pretrain {
namespace {

constexpr int kDiscardActions = 37;  // 0-33 tile types, 34-36 red fives

double ratio(std::int64_t num, std::int64_t den) {
  return den == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(num) / static_cast<double>(den);
}

std::array<std::int64_t, kDiscardActions> counts(const std::vector<std::int8_t>& logged) {
  std::array<std::int64_t, kDiscardActions> c{};
  for (const std::int8_t a : logged) ++c[ix(a)];
  return c;
}

}  // namespace

void DecisionAccuracy::add(int predicted, int logged, data::DecisionType type) {
  HYDRA_CHECK(static_cast<int>(type) < kTypes, "decision type out of range");
  ++total_[idx(type)];
  correct_[idx(type)] += predicted == logged;
}

void DecisionAccuracy::add_discard(std::uint64_t legal, int logged) {
  HYDRA_CHECK(logged >= 0 && logged < kDiscardActions, "a discard decision needs a discard action");
  discard_legal_.push_back(legal);
  discard_logged_.push_back(static_cast<std::int8_t>(logged));
}

std::int64_t DecisionAccuracy::total() const { return std::accumulate(total_.begin(), total_.end(), std::int64_t{0}); }

double DecisionAccuracy::accuracy(data::DecisionType t) const { return ratio(correct_[idx(t)], total_[idx(t)]); }

double DecisionAccuracy::accuracy() const {
  return ratio(std::accumulate(correct_.begin(), correct_.end(), std::int64_t{0}), total());
}

double DecisionAccuracy::discard_baseline() const {
  const auto c = counts(discard_logged_);
  std::array<int, kDiscardActions> rank{};
  std::iota(rank.begin(), rank.end(), 0);
  // Most frequent first; equal counts by action index, so the baseline is deterministic.
  std::stable_sort(rank.begin(), rank.end(), [&](int a, int b) {
    return c[ix(a)] > c[ix(b)];
  });
  std::int64_t hits = 0;
  for (std::size_t i = 0; i < discard_logged_.size(); ++i) {
    for (const int a : rank) {
      if ((discard_legal_[i] >> a) & 1U) {
        hits += a == discard_logged_[i];
        break;
      }
    }
  }
  return ratio(hits, static_cast<std::int64_t>(discard_logged_.size()));
}

double DecisionAccuracy::discard_constant_baseline() const {
  const auto c = counts(discard_logged_);
  return ratio(*std::max_element(c.begin(), c.end()), static_cast<std::int64_t>(discard_logged_.size()));
}

void DecisionAccuracy::merge(const DecisionAccuracy& other) {
  for (std::size_t t = 0; t < total_.size(); ++t) {
    total_[t] += other.total_[t];
    correct_[t] += other.correct_[t];
  }
  discard_legal_.insert(discard_legal_.end(), other.discard_legal_.begin(), other.discard_legal_.end());
  discard_logged_.insert(discard_logged_.end(), other.discard_logged_.begin(), other.discard_logged_.end());
}

nlohmann::ordered_json DecisionAccuracy::to_json() const {
  // NaN is not JSON: a type without decisions reports null.
  const auto num = [](double v) { return std::isnan(v) ? nlohmann::ordered_json() : nlohmann::ordered_json(v); };
  nlohmann::ordered_json by_type = nlohmann::ordered_json::object();
  for (int t = 0; t < kTypes; ++t) {
    const auto type = static_cast<data::DecisionType>(t);
    by_type[std::string(kTypeNames[ix(t)])] = {
        {"decisions", total(type)}, {"correct", correct(type)}, {"accuracy", num(accuracy(type))}};
  }
  return {{"decisions", total()},
          {"accuracy", num(accuracy())},
          {"by_type", by_type},
          {"discard_baseline", num(discard_baseline())},
          {"discard_constant_baseline", num(discard_constant_baseline())}};
}

}  // namespace hydra::pretrain
