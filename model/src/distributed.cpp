#include "hydra/model/distributed.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include <torch/torch.h>

#if HYDRA_WITH_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#if HYDRA_WITH_NCCL
// The wheel's headers declare the NCCL group only for builds that have it, as libtorch_cuda does.
#define USE_C10D_NCCL 1
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif
#if HYDRA_WITH_GLOO || HYDRA_WITH_NCCL
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#endif

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

namespace hydra::model {
namespace {

// A whole-string integer in [lo, hi], or a hydra::Error naming the variable.
int env_int(const char* name, const char* text, long lo, long hi) {
  const std::string_view s(text);
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (s.empty() || end != text + s.size() || v < lo || v > hi)
    throw Error(std::string("distributed: environment variable ") + name + "='" + text + "' is not an integer in [" +
                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(v);
}

}  // namespace

DistEnv DistEnv::from_environment(const std::function<const char*(const char*)>& get_in) {
  const std::function<const char*(const char*)> get = get_in ? get_in : [](const char* n) { return std::getenv(n); };
  const char* rank = get("RANK");
  const char* world = get("WORLD_SIZE");
  DistEnv env;
  if (rank == nullptr && world == nullptr) return env;
  if (rank == nullptr || world == nullptr)
    throw Error(std::string("distributed: ") + (rank == nullptr ? "RANK" : "WORLD_SIZE") + " is not set but " +
                (rank == nullptr ? "WORLD_SIZE" : "RANK") +
                " is: a rank needs both (torchrun and srun set them; so does hydra train --nproc)");
  env.world_size = env_int("WORLD_SIZE", world, 1, 1 << 20);
  env.rank = env_int("RANK", rank, 0, env.world_size - 1);
  const char* local = get("LOCAL_RANK");
  env.local_rank = local != nullptr ? env_int("LOCAL_RANK", local, 0, env.world_size - 1) : env.rank;
  const char* local_world = get("LOCAL_WORLD_SIZE");
  env.local_world_size = local_world != nullptr ? env_int("LOCAL_WORLD_SIZE", local_world, 1, env.world_size) : 1;
  if (!env.distributed()) return env;
  const char* addr = get("MASTER_ADDR");
  const char* port = get("MASTER_PORT");
  if (addr == nullptr || *addr == '\0')
    throw Error("distributed: MASTER_ADDR is not set: WORLD_SIZE=" + std::to_string(env.world_size) +
                " needs the address of rank 0's rendezvous (torchrun sets it)");
  if (port == nullptr) throw Error("distributed: MASTER_PORT is not set: the rendezvous needs rank 0's port");
  env.master_addr = addr;
  env.master_port = env_int("MASTER_PORT", port, 1, 65535);
  const char* agent_store = get("TORCHELASTIC_USE_AGENT_STORE");
  env.launcher_store = agent_store != nullptr && std::string_view(agent_store) == "True";
  return env;
}

int local_gpu(const DistEnv& env) { return env.local_rank % static_cast<int>(torch::cuda::device_count()); }

bool gloo_available() { return HYDRA_WITH_GLOO != 0; }
bool nccl_available() { return HYDRA_WITH_NCCL != 0; }

FaultPlan FaultPlan::parse(const char* text) {
  FaultPlan plan;
  if (text == nullptr || *text == '\0') return plan;
  const std::string s(text);
  const auto bad = [&s]() {
    return Error("distributed: HYDRA_FAULT='" + s +
                 "' is not RANK:all_reduce:N:KILL or RANK:all_reduce:N:STOP (a rank, the N-th gradient sum, a signal)");
  };
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t at = s.find(':'); ; at = s.find(':', from)) {
    parts.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) break;
    from = at + 1;
  }
  if (parts.size() != 4 || parts[1] != "all_reduce" || (parts[3] != "KILL" && parts[3] != "STOP")) throw bad();
  for (const int i : {0, 2}) {
    if (parts[ix(i)].empty() || parts[ix(i)].size() > 9 ||
        parts[ix(i)].find_first_not_of("0123456789") != std::string::npos)
      throw bad();
  }
  plan.rank = std::stoi(parts[0]);
  plan.nth = std::stoi(parts[2]);
  if (plan.nth < 1) throw bad();
  plan.signal = parts[3] == "KILL" ? SIGKILL : SIGSTOP;
  return plan;
}

#if HYDRA_WITH_GLOO || HYDRA_WITH_NCCL

namespace {

constexpr auto kBeat = std::chrono::milliseconds(500);   // how often a rank says it is alive
constexpr auto kSilence = std::chrono::seconds(4);       // a rank silent this long stopped answering
constexpr auto kBeatStoreTimeout = std::chrono::seconds(5);

std::string beat_key(int rank) { return "hydra/alive/" + std::to_string(rank); }

}  // namespace

// Every rank counts up a key of the rendezvous store twice a second on a connection of its own
// (c10d's TCPStore: nothing home-made on the wire). When a collective fails, a rank reads every
// other rank's count twice, kSilence apart: a rank whose count did not move died or was stopped,
// and the error names it. A store that cannot be reached names its host: rank 0, or the launcher
// (DistEnv::launcher_store, torchrun's agent), which is then ending the run.
class Liveness {
 public:
  explicit Liveness(const DistEnv& env)
      : rank_(env.rank), size_(env.world_size), launcher_store_(env.launcher_store) {
    c10d::TCPStoreOptions opts;
    opts.port = static_cast<std::uint16_t>(env.master_port);
    opts.isServer = false;
    opts.waitWorkers = false;
    opts.timeout = kBeatStoreTimeout;
    client_ = c10::make_intrusive<c10d::TCPStore>(env.master_addr, opts);
    thread_ = std::thread([this] { run(); });
  }
  ~Liveness() {
    {
      const std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Liveness(const Liveness&) = delete;
  Liveness& operator=(const Liveness&) = delete;

  // Which ranks stopped answering, as a sentence for an error; blocks for kSilence.
  std::string who_stopped() {
    try {
      const auto before = counts();
      std::this_thread::sleep_for(kSilence);
      const auto after = counts();
      std::vector<int> silent;
      for (int r = 0; r < size_; ++r)
        if (r != rank_ && after[ix(r)] == before[ix(r)]) silent.push_back(r);
      const std::string of = " of " + std::to_string(size_);
      if (silent.empty())
        return "every other rank still answers, so one hung past the timeout or the ranks disagreed";
      std::string names;
      for (const int r : silent) names += (names.empty() ? "" : ", ") + std::to_string(r);
      return (silent.size() == 1 ? "rank " : "ranks ") + names + of + " stopped answering (no heartbeat for " +
             std::to_string(kSilence.count()) + " s: died or stopped)";
    } catch (const std::exception&) {
      if (launcher_store_)
        return "the launcher's rendezvous store cannot be reached (torchrun hosts it and is ending the run), so "
               "which rank stopped answering is not known here: torchrun's own report names the process that exited";
      return "rank 0 of " + std::to_string(size_) +
             " stopped answering (its rendezvous store cannot be reached: died or stopped)";
    }
  }

 private:
  std::vector<std::int64_t> counts() {
    std::vector<std::int64_t> out(ix(size_), 0);
    for (int r = 0; r < size_; ++r)
      if (r != rank_) out[ix(r)] = client_->add(beat_key(r), 0);
    return out;
  }

  void run() {
    std::unique_lock lock(mu_);
    while (!stop_) {
      lock.unlock();
      try {
        client_->add(beat_key(rank_), 1);
      } catch (const std::exception&) {  // the store is gone (rank 0 ended or died): nothing to tell
        return;
      }
      lock.lock();
      cv_.wait_for(lock, kBeat, [this] { return stop_; });
    }
  }

  int rank_;
  int size_;
  bool launcher_store_;
  c10::intrusive_ptr<c10d::TCPStore> client_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

struct ProcessGroup::Impl {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::Backend> group;
  std::unique_ptr<Liveness> liveness;  // set once the group has formed, so every collective has it
  FaultPlan fault;
  std::atomic<int> sums{0};  // gradient sums started (for `fault`)
  // Where the backend's tensors live: NCCL moves those of its GPU, Gloo host tensors. Tensors
  // elsewhere travel through there and come back.
  torch::Device device = torch::kCPU;

  at::Tensor on_device(const at::Tensor& t) const { return t.device() == device ? t : t.to(device); }

  // Waits for a collective; c10d's errors (a peer gone, a timeout) become one hydra::Error that
  // names the ranks that stopped answering.
  void finish(const c10::intrusive_ptr<c10d::Work>& work, const char* what) const;
};

namespace {

// The message of a c10d error without the C++ stack trace c10::Error appends (one line for the
// user: "hydra: error: ...").
std::string message_of(const std::exception& e) {
  const auto* c10 = dynamic_cast<const c10::Error*>(&e);
  std::string text = c10 != nullptr ? c10->what_without_backtrace() : e.what();
  const std::size_t trace = text.find("\nException raised from");
  if (trace != std::string::npos) text.resize(trace);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

void ProcessGroup::Impl::finish(const c10::intrusive_ptr<c10d::Work>& work, const char* what) const {
  try {
    work->wait();
  } catch (const std::exception& e) {
    const std::string cause = message_of(e);
    throw Error(std::string("distributed: ") + what + " failed: " + liveness->who_stopped() + " (c10d: " + cause + ")");
  }
}

ProcessGroup::ProcessGroup(const DistEnv& env, const std::string& backend, std::chrono::milliseconds timeout)
    : impl_(std::make_unique<Impl>()), rank_(env.rank), size_(env.world_size) {
  if (!(backend == "gloo" && gloo_available()) && !(backend == "nccl" && nccl_available()))
    throw Error("distributed: backend '" + backend + "' is not available in this build (" +
                (gloo_available() ? std::string("gloo") : std::string()) +
                (gloo_available() && nccl_available() ? " and " : "") + (nccl_available() ? "nccl" : "") +
                " are; gloo needs Debian's libgloo-dev at configure time, nccl a CUDA LibTorch)");
  if (backend == "nccl" && !torch::cuda::is_available())
    throw Error("distributed: backend 'nccl' needs a CUDA device, and this machine has none (use gloo)");
  impl_->fault = FaultPlan::parse(std::getenv("HYDRA_FAULT"));
  try {
    c10d::TCPStoreOptions opts;
    opts.port = static_cast<std::uint16_t>(env.master_port);
    opts.isServer = env.rank == 0;
    opts.numWorkers = static_cast<std::size_t>(env.world_size);
    opts.timeout = timeout;
    impl_->store = c10::make_intrusive<c10d::TCPStore>(env.master_addr, opts);
    if (backend == "gloo") {
#if HYDRA_WITH_GLOO
      auto options = c10d::ProcessGroupGloo::Options::create_default(timeout);
      impl_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(impl_->store, env.rank, env.world_size, options);
#endif
    } else {
#if HYDRA_WITH_NCCL
      impl_->device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(local_gpu(env)));
      auto options = c10d::ProcessGroupNCCL::Options::create();
      options->timeout = timeout;
      impl_->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(impl_->store, env.rank, env.world_size, options);
#endif
    }
    impl_->liveness = std::make_unique<Liveness>(env);
  } catch (const std::exception& e) {
    std::string why = message_of(e);
    if (env.rank == 0 && (why.find("EADDRINUSE") != std::string::npos || why.find("address already in use") != std::string::npos))
      why = "MASTER_PORT " + std::to_string(env.master_port) + " is already in use by another process; choose a free port (" +
            why + ")";
    throw Error("distributed: rank " + std::to_string(env.rank) + " of " + std::to_string(env.world_size) +
                " could not join the group at " + env.master_addr + ":" + std::to_string(env.master_port) + ": " + why);
  }
}

ProcessGroup::~ProcessGroup() = default;

void ProcessGroup::all_reduce_sum(const std::vector<at::Tensor>& tensors) {
  // One flat buffer per dtype, in the tensors' order.
  std::map<c10::ScalarType, std::vector<std::size_t>> by_type;
  for (std::size_t i = 0; i < tensors.size(); ++i) by_type[tensors[i].scalar_type()].push_back(i);
  for (const auto& [type, index] : by_type) {
    std::vector<at::Tensor> flat;
    flat.reserve(index.size());
    for (const std::size_t i : index) flat.push_back(tensors[i].detach().reshape({-1}));
    std::vector<at::Tensor> buffer{impl_->on_device(torch::cat(flat))};
    impl_->finish(impl_->group->allreduce(buffer), "all_reduce");
    std::int64_t offset = 0;
    for (const std::size_t i : index) {
      const std::int64_t n = tensors[i].numel();
      tensors[i].detach().copy_(buffer[0].slice(0, offset, offset + n).view(tensors[i].sizes()));
      offset += n;
    }
  }
}

struct ProcessGroup::Pending::State {
  c10::intrusive_ptr<c10d::Work> work;
  at::Tensor target;  // the caller's tensor
  at::Tensor staged;  // what the backend reduces: the target, or its copy on the backend's device
  const ProcessGroup::Impl* impl = nullptr;
};

ProcessGroup::Pending ProcessGroup::all_reduce_sum_async(const at::Tensor& tensor) {
  HYDRA_CHECK(tensor.is_contiguous(), "all_reduce_sum_async: a contiguous tensor");
  Pending p;
  p.state_ = std::make_unique<Pending::State>();
  p.state_->target = tensor.detach();
  p.state_->staged = impl_->on_device(p.state_->target);
  std::vector<at::Tensor> buffer{p.state_->staged};
  p.state_->work = impl_->group->allreduce(buffer);
  p.state_->impl = impl_.get();
  if (impl_->fault.rank == rank_ && ++impl_->sums == impl_->fault.nth) std::raise(impl_->fault.signal);
  return p;
}

void ProcessGroup::Pending::wait() {
  if (!state_) return;
  const auto state = std::move(state_);
  state->impl->finish(state->work, "all_reduce");
  if (!state->staged.is_same(state->target)) state->target.copy_(state->staged);
}

ProcessGroup::Pending::~Pending() {
  if (!state_) return;
  try {
    state_->work->wait();
  } catch (...) {  // NOLINT(bugprone-empty-catch): a pending sum dropped on an error path
  }
}

void ProcessGroup::broadcast(const std::vector<at::Tensor>& tensors, int root) {
  for (const auto& t : tensors) {
    std::vector<at::Tensor> one{impl_->on_device(t.detach())};
    c10d::BroadcastOptions opts;
    opts.rootRank = root;
    impl_->finish(impl_->group->broadcast(one, opts), "broadcast");
    if (one[0].device() != t.device()) t.detach().copy_(one[0]);
  }
}

std::vector<at::Tensor> ProcessGroup::all_gather(const at::Tensor& tensor) {
  std::vector<at::Tensor> in{impl_->on_device(tensor.contiguous())};
  std::vector<std::vector<at::Tensor>> out(1);
  for (int r = 0; r < size_; ++r) out[0].push_back(torch::empty_like(in[0]));
  impl_->finish(impl_->group->allgather(out, in), "all_gather");
  if (in[0].device() != tensor.device())
    for (auto& t : out[0]) t = t.to(tensor.device());
  return out[0];
}

std::vector<std::string> ProcessGroup::all_gather_bytes(const std::string& bytes) {
  const auto lengths = all_gather_int(static_cast<std::int64_t>(bytes.size()));
  const std::int64_t longest = *std::max_element(lengths.begin(), lengths.end());
  auto mine = torch::zeros({std::max<std::int64_t>(longest, 1)}, torch::kUInt8);
  std::copy(bytes.begin(), bytes.end(), mine.data_ptr<std::uint8_t>());
  const auto all = all_gather(mine);
  std::vector<std::string> out;
  for (int r = 0; r < size_; ++r) {
    const auto* p = all[ix(r)].data_ptr<std::uint8_t>();
    out.emplace_back(p, p + lengths[ix(r)]);
  }
  return out;
}

void ProcessGroup::barrier() { impl_->finish(impl_->group->barrier(), "barrier"); }

#else  // neither Gloo headers nor NCCL at configure time

struct ProcessGroup::Impl {};

ProcessGroup::ProcessGroup(const DistEnv& env, const std::string& backend, std::chrono::milliseconds)
    : rank_(env.rank), size_(env.world_size) {
  throw Error("distributed: backend '" + backend +
              "' is not in this build: it was configured without Gloo's headers (Debian's libgloo-dev; "
              "scripts/setup.sh installs it)");
}
ProcessGroup::~ProcessGroup() = default;
struct ProcessGroup::Pending::State {};
ProcessGroup::Pending ProcessGroup::all_reduce_sum_async(const at::Tensor&) { return {}; }
void ProcessGroup::Pending::wait() {}
ProcessGroup::Pending::~Pending() = default;
void ProcessGroup::all_reduce_sum(const std::vector<at::Tensor>&) {}
void ProcessGroup::broadcast(const std::vector<at::Tensor>&, int) {}
std::vector<at::Tensor> ProcessGroup::all_gather(const at::Tensor& t) { return {t}; }
std::vector<std::string> ProcessGroup::all_gather_bytes(const std::string& b) { return {b}; }
void ProcessGroup::barrier() {}

#endif

std::vector<std::int64_t> ProcessGroup::all_gather_int(std::int64_t value) {
  std::vector<std::int64_t> out;
  for (const auto& t : all_gather(torch::tensor({value}, torch::kInt64))) out.push_back(t.item<std::int64_t>());
  return out;
}

ProcessGroup::Pending::Pending() = default;
ProcessGroup::Pending::Pending(Pending&&) noexcept = default;
ProcessGroup::Pending& ProcessGroup::Pending::operator=(Pending&&) noexcept = default;

}  // namespace hydra::model
