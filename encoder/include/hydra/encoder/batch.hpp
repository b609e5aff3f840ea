#pragma once

// A batch of observations in one contiguous [N, 85, 34] float buffer, filled slot by slot (one
// observation per decision, optionally under a suit permutation), then cleared. The buffer is
// allocated once (or supplied by the caller) and never grows. Used by the encoder's benchmark
// (tests/bench/bench_encoder.cpp) and property tests to time and check batched encoding; the
// self-play actors and the arena lay out their own per-policy batches (selfplay/).

#include <cstddef>
#include <memory>

#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/encoder.hpp"

namespace hydra::encoder {

class ObsBatch {
 public:
  // Owns a 64-byte aligned buffer of `capacity` observations.
  explicit ObsBatch(int capacity);
  // Writes into `buffer` (capacity * kObsSize floats, owned by the caller, outliving the batch).
  ObsBatch(float* buffer, int capacity);

  int size() const { return size_; }
  int capacity() const { return capacity_; }
  bool full() const { return size_ == capacity_; }
  void clear() { size_ = 0; }
  float* data() { return data_; }
  const float* data() const { return data_; }
  float* slot(int i) { return data_ + static_cast<std::ptrdiff_t>(i) * kObsSize; }
  const float* slot(int i) const { return data_ + static_cast<std::ptrdiff_t>(i) * kObsSize; }

  // Appends the seat's observation (incremental: only dirty groups are rewritten in the encoder,
  // then one copy into the slot) under suit permutation `perm`; returns the slot index.
  // Throws InvariantError when full.
  int add(Encoder& enc, const game::PlayerView& view, SuitPerm perm = {});
  // Appends an observation encoded from scratch straight into the slot (no kept planes).
  int add_full(const game::PlayerView& view, const Book& book);

 private:
  float* next();

  struct FreeAligned {
    void operator()(float* p) const;
  };
  std::unique_ptr<float, FreeAligned> owned_;
  float* data_ = nullptr;
  int capacity_ = 0;
  int size_ = 0;
};

}  // namespace hydra::encoder
