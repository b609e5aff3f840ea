// ObsBatch: observations written into one preallocated [N, 85, 34] buffer.

#include "hydra/encoder/batch.hpp"

#include <cstdlib>
#include <new>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {

void ObsBatch::FreeAligned::operator()(float* p) const { std::free(p); }

ObsBatch::ObsBatch(int capacity) : capacity_(capacity) {
  HYDRA_CHECK(capacity > 0, "a batch needs room for at least one observation");
  // The base is cache-line aligned (a slot is 11,560 bytes, so later slots are 8-byte aligned);
  // aligned_alloc wants the size rounded up to the alignment.
  const std::size_t bytes = (ix(capacity) * kObsSize * sizeof(float) + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, bytes);
  if (p == nullptr) throw std::bad_alloc();
  owned_.reset(static_cast<float*>(p));
  data_ = owned_.get();
}

ObsBatch::ObsBatch(float* buffer, int capacity) : data_(buffer), capacity_(capacity) {
  HYDRA_CHECK(buffer != nullptr && capacity > 0, "a batch needs a buffer");
}

float* ObsBatch::next() {
  HYDRA_CHECK(size_ < capacity_, "observation batch is full");
  return slot(size_++);
}

int ObsBatch::add(Encoder& enc, const game::PlayerView& view, SuitPerm perm) {
  float* dst = next();
  if (perm.identity()) enc.encode_into(view, dst);
  else perm.apply(enc.encode(view).v.data(), dst);
  return size_ - 1;
}

int ObsBatch::add_full(const game::PlayerView& view, const Book& book) {
  encode_full(view, book, next());
  return size_ - 1;
}

}  // namespace hydra::encoder
