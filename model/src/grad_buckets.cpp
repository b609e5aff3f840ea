#include "hydra/model/grad_buckets.hpp"

#include <map>
#include <mutex>

#include <torch/torch.h>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

namespace hydra::model {
namespace {

struct Bucket {
  std::vector<std::size_t> params;  // indices into Impl::params, in arrival order
  at::Tensor flat;                  // their gradients, end to end
  std::size_t arrived = 0;           // of its parameters (all trainable: a layout is per trainable set)
  ProcessGroup::Pending sum;
};

struct Slot {
  std::size_t bucket = 0;
  std::int64_t offset = 0;  // in the bucket's flat tensor
};

// The buckets of one set of trainable parameters.
struct Layout {
  std::vector<Bucket> buckets;
  std::map<std::size_t, Slot> slots;  // parameter index -> place
  std::size_t next = 0;               // the first bucket not yet started
};

}  // namespace

struct GradientBuckets::Impl {
  ProcessGroup* group = nullptr;
  std::vector<at::Tensor> params;
  std::size_t bucket_bytes = 0;
  std::map<std::vector<bool>, Layout> layouts;  // by which parameters are trainable

  // The pass in flight.
  std::mutex mu;
  std::vector<bool> trainable;
  Layout* layout = nullptr;          // null: learning this set's arrival order
  std::vector<std::size_t> arrival;  // learning: parameter indices as their gradients came
  std::vector<bool> arrived;
  std::vector<std::pair<std::size_t, unsigned>> hooks;  // parameter index, hook handle

  void start_ready_buckets() {
    while (layout->next < layout->buckets.size()) {
      Bucket& b = layout->buckets[layout->next];
      if (b.arrived < b.params.size()) return;
      b.sum = group->all_reduce_sum_async(b.flat);
      ++layout->next;
    }
  }

  void on_gradient(std::size_t i, const at::Tensor& grad) {
    const std::lock_guard lock(mu);
    if (arrived[i]) return;  // once per pass (autograd sums a leaf's uses before its hook)
    arrived[i] = true;
    if (layout == nullptr) {
      arrival.push_back(i);
      return;
    }
    const Slot& s = layout->slots.at(i);
    Bucket& b = layout->buckets[s.bucket];
    const std::int64_t n = params[i].numel();
    b.flat.slice(0, s.offset, s.offset + n).copy_(grad.reshape({-1}));
    ++b.arrived;
    start_ready_buckets();
  }

  // Rank 0's arrival order (the parameters that got no gradient after, last registered first),
  // cut into buckets.
  Layout build(const std::vector<bool>& train) {
    std::vector<std::int64_t> order;
    std::vector<bool> seen(params.size(), false);
    for (const std::size_t i : arrival) {
      order.push_back(static_cast<std::int64_t>(i));
      seen[i] = true;
    }
    for (std::size_t i = params.size(); i-- > 0;)
      if (train[i] && !seen[i]) order.push_back(static_cast<std::int64_t>(i));
    auto shared = torch::tensor(order, torch::kInt64);
    group->broadcast({shared}, 0);
    Layout out;
    std::size_t bytes = 0;
    for (std::int64_t k = 0; k < shared.size(0); ++k) {
      const auto i = static_cast<std::size_t>(shared[k].item<std::int64_t>());
      HYDRA_CHECK(i < params.size() && train[i], "gradient buckets: the ranks train different parameters");
      const at::Tensor& p = params[i];
      const bool fresh = out.buckets.empty() || bytes >= bucket_bytes ||
                         params[out.buckets.back().params.front()].scalar_type() != p.scalar_type() ||
                         params[out.buckets.back().params.front()].device() != p.device();
      if (fresh) {
        out.buckets.emplace_back();
        bytes = 0;
      }
      Bucket& b = out.buckets.back();
      std::int64_t offset = 0;
      for (const std::size_t j : b.params) offset += params[j].numel();
      out.slots[i] = Slot{out.buckets.size() - 1, offset};
      b.params.push_back(i);
      bytes += static_cast<std::size_t>(p.numel()) * p.element_size();
    }
    for (Bucket& b : out.buckets) {
      std::int64_t n = 0;
      for (const std::size_t j : b.params) n += params[j].numel();
      const at::Tensor& first = params[b.params.front()];
      b.flat = torch::empty({n}, first.options().requires_grad(false));
    }
    return out;
  }

  void remove_hooks() {
    for (const auto& [i, handle] : hooks) params[i].remove_hook(handle);
    hooks.clear();
  }
};

void broadcast_module(ProcessGroup& group, torch::nn::Module& module, int root) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> state;
  for (const auto& p : module.parameters()) state.push_back(p);
  for (const auto& b : module.buffers()) state.push_back(b);
  group.broadcast(state, root);
}

GradientBuckets::GradientBuckets(ProcessGroup& group, std::vector<at::Tensor> params, std::size_t bucket_bytes)
    : impl_(std::make_unique<Impl>()) {
  impl_->group = &group;
  impl_->params = std::move(params);
  impl_->bucket_bytes = std::max<std::size_t>(bucket_bytes, 1);
}

GradientBuckets::~GradientBuckets() { impl_->remove_hooks(); }

void GradientBuckets::arm() {
  Impl& m = *impl_;
  m.remove_hooks();
  m.trainable.assign(m.params.size(), false);
  for (std::size_t i = 0; i < m.params.size(); ++i) m.trainable[i] = m.params[i].requires_grad();
  const auto found = m.layouts.find(m.trainable);
  m.layout = found == m.layouts.end() ? nullptr : &found->second;
  m.arrival.clear();
  m.arrived.assign(m.params.size(), false);
  if (m.layout != nullptr) {
    m.layout->next = 0;
    for (Bucket& b : m.layout->buckets) b.arrived = 0;
  }
  for (std::size_t i = 0; i < m.params.size(); ++i) {
    if (!m.trainable[i]) continue;
    // This pass's gradient starts afresh, as zero_grad(set_to_none) leaves it.
    m.params[i].mutable_grad() = at::Tensor();
    const unsigned handle = m.params[i].register_hook([&m, i](const at::Tensor& g) { m.on_gradient(i, g); });
    m.hooks.emplace_back(i, handle);
  }
}

void GradientBuckets::finish() {
  Impl& m = *impl_;
  m.remove_hooks();
  if (m.layout == nullptr) {
    // The learning pass: one flat sum, then this set's buckets.
    std::vector<at::Tensor> grads;
    for (std::size_t i = 0; i < m.params.size(); ++i) {
      if (!m.trainable[i]) continue;
      at::Tensor& p = m.params[i];
      if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
      grads.push_back(p.grad());
    }
    m.group->all_reduce_sum(grads);
    m.layouts.emplace(m.trainable, m.build(m.trainable));
    return;
  }
  Layout& l = *m.layout;
  {
    const std::lock_guard lock(m.mu);
    // Parameters without a gradient this pass count as zero; their buckets start now, in order.
    for (Bucket& b : l.buckets) {
      if (b.arrived == b.params.size()) continue;
      for (const std::size_t i : b.params)
        if (!m.arrived[i]) {
          const Slot& s = l.slots.at(i);
          b.flat.slice(0, s.offset, s.offset + m.params[i].numel()).zero_();
          m.arrived[i] = true;
          ++b.arrived;
        }
    }
    m.start_ready_buckets();
  }
  for (Bucket& b : l.buckets) b.sum.wait();
  for (const Bucket& b : l.buckets)
    for (const std::size_t i : b.params) {
      const Slot& s = l.slots.at(i);
      at::Tensor& p = m.params[i];
      // A tensor of its own, not a view of the bucket: optimizers detach gradients in place.
      p.mutable_grad() = b.flat.slice(0, s.offset, s.offset + p.numel()).view(p.sizes()).clone();
    }
}

std::size_t GradientBuckets::buckets() const {
  return impl_->layout == nullptr ? 0 : impl_->layout->buckets.size();
}

}  // namespace hydra::model
