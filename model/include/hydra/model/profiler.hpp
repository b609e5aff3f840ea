#pragma once

// Where a device's time goes during some work: PyTorch's Kineto profiler (CUPTI on CUDA) around a
// callable, summed by kernel name and by a rough kind of kernel. `hydra bench learner --profile`
// uses it (docs/GPU.md). On CUDA the events are the device's kernels and copies, and `busy` is the
// union of their intervals: busy / wall below 1 is time the device waited on the host. On the CPU
// the events are operators, with inclusive times (an operator's children count in it too).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <torch/types.h>

namespace hydra::model {

struct ProfiledName {
  std::string name;
  std::int64_t calls = 0;
  double seconds = 0;
};

struct DeviceProfile {
  std::string device;          // "cuda" or "cpu"
  double wall_seconds = 0;     // the work, on the host's clock
  double busy_seconds = 0;     // CUDA: union of the kernels' and copies' intervals; CPU: 0
  std::int64_t events = 0;     // CUDA kernels and copies / CPU operators
  double event_seconds = 0;    // their durations summed
  std::vector<ProfiledName> top;    // the names that took longest, longest first
  std::vector<ProfiledName> kinds;  // CUDA: the same time by kind (convolution/GEMM, GroupNorm, ...)
  nlohmann::ordered_json to_json() const;
};

// The kind of a CUDA kernel from its name: "convolution/GEMM", "GroupNorm", "optimizer",
// "copy/cast", "reduction", "elementwise", "memcpy/memset" or "other". Names are PyTorch's and
// cuDNN's/cuBLAS's kernel names, so this is a reading aid, not a promise.
std::string kernel_kind(const std::string& name);

// Runs `work` under the profiler on `device` (CPU operators, plus CUDA kernels on CUDA), waits for
// the device, and sums the events. Writes the Chrome trace to `trace_file` unless it is empty.
DeviceProfile profile_device(const std::function<void()>& work, const torch::Device& device,
                             const std::string& trace_file = "", std::size_t top = 25);

}  // namespace hydra::model
