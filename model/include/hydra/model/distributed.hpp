#pragma once

// torch.distributed from C++ (docs/DISTRIBUTED.md): the ranks of a run as torchrun, Slurm's srun
// or `hydra train --nproc` start them, and one process group over c10d's TCPStore rendezvous
// (ProcessGroupGloo on CPUs; the wheel's LibTorch holds the code, Debian's libgloo-dev the
// headers). Nothing here is home-made transport: every collective is c10d's.
//
//   const auto env = model::DistEnv::from_environment();   // RANK, WORLD_SIZE, ... or one process
//   model::ProcessGroup group(env, "gloo", std::chrono::seconds(300));
//   group.all_reduce_sum(grads);

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "hydra/common/local_port.hpp"

namespace hydra::model {

// Where this process stands in a run of several.
struct DistEnv {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  int local_world_size = 1;  // ranks on this machine (LOCAL_WORLD_SIZE; torchrun and --nproc set it)
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  // The launcher hosts the rendezvous store at MASTER_PORT, not rank 0 (torchrun:
  // TORCHELASTIC_USE_AGENT_STORE=True; c10d's TCPStore on rank 0 then joins it as a client).
  bool launcher_store = false;

  bool distributed() const { return world_size > 1; }

  // From RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT, as torchrun sets them. None
  // of RANK and WORLD_SIZE set: one process (world size 1). Otherwise RANK and WORLD_SIZE are both
  // required, MASTER_ADDR and MASTER_PORT too when WORLD_SIZE > 1, LOCAL_RANK defaults to RANK;
  // a missing or malformed variable (not a number, RANK outside [0, WORLD_SIZE), a port outside
  // 1..65535) is a hydra::Error naming it. LOCAL_WORLD_SIZE defaults to 1. `get` reads a variable (null when unset); tests give
  // their own.
  static DistEnv from_environment(const std::function<const char*(const char*)>& get = nullptr);
};

// The GPU of a rank on its machine, one per local rank as torchrun's --nproc-per-node hands them
// out: LOCAL_RANK modulo the visible devices (the machine must have one).
int local_gpu(const DistEnv& env);

// A free port for a rendezvous of local ranks (common/local_port.hpp).
using hydra::free_local_port;

// Whether this build has the Gloo backend (Debian's libgloo-dev headers were found at configure
// time); without it a world size above 1 is a clear error.
bool gloo_available();
// Whether this build has the NCCL backend (a CUDA LibTorch and the wheel's nccl.h).
bool nccl_available();

// A fault to inject, for the fault tests (docs/DISTRIBUTED.md "Faults"): HYDRA_FAULT=R:all_reduce:N:SIG
// makes rank R send itself SIGKILL or SIGSTOP right after it handed its N-th gradient sum (from 1)
// to the backend, so that it dies or stops in the middle of a gradient all-reduce. Unset: none.
struct FaultPlan {
  int rank = -1;  // no rank
  int nth = 0;
  int signal = 0;
  // A malformed value is a hydra::Error naming HYDRA_FAULT and the form it takes.
  static FaultPlan parse(const char* text);
};

// One c10d process group of every rank of `env`: rank 0 hosts the TCPStore at MASTER_ADDR:
// MASTER_PORT, every rank connects to it, then the backend's group forms. `timeout` bounds the
// rendezvous and every collective: a rank that died or hangs ends the others' next collective
// with a hydra::Error naming the operation and the ranks that stopped answering: every rank beats
// a heartbeat key of the store twice a second, and a failed collective reads the others' beats
// over 4 s (a rank that died or was stopped with SIGSTOP is silent). Backends: "gloo" (CPU
// tensors) and "nccl" (the GPU LOCAL_RANK picks; tensors on the host travel through it and come
// back where they were).
class ProcessGroup {
 public:
  ProcessGroup(const DistEnv& env, const std::string& backend, std::chrono::milliseconds timeout);
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  // In place, every tensor summed over the ranks (contiguous tensors of the same shapes and
  // types on every rank). The tensors travel as one flat buffer per dtype, so a model's gradients
  // are one collective, not one per parameter.
  void all_reduce_sum(const std::vector<at::Tensor>& tensors);
  // A sum over the ranks that runs while the caller goes on (on Gloo's threads, on NCCL's
  // stream): started by all_reduce_sum_async, finished by wait(), after which the tensor given
  // (contiguous, the same shape and type on every rank) holds the sum. Every rank must start its
  // sums in the same order. Destroying a pending sum without wait() waits for it, errors dropped.
  class Pending {
   public:
    Pending();
    Pending(Pending&&) noexcept;
    Pending& operator=(Pending&&) noexcept;
    ~Pending();
    // Errors as all_reduce_sum's; a second wait (or one on a default-constructed Pending) returns.
    void wait();

   private:
    friend class ProcessGroup;
    struct State;
    std::unique_ptr<State> state_;
  };
  Pending all_reduce_sum_async(const at::Tensor& tensor);
  // In place, rank `root`'s values everywhere.
  void broadcast(const std::vector<at::Tensor>& tensors, int root);
  // Every rank's `tensor` (same shape everywhere), in rank order.
  std::vector<at::Tensor> all_gather(const at::Tensor& tensor);
  // Every rank's bytes (any length), in rank order: for small records such as statistics.
  std::vector<std::string> all_gather_bytes(const std::string& bytes);
  // Every rank's number, in rank order (counts, seeds as their 64 bits).
  std::vector<std::int64_t> all_gather_int(std::int64_t value);
  void barrier();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace hydra::model
