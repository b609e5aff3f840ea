#include "hydra/model/profiler.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include <torch/csrc/autograd/profiler_kineto.h>
#include <torch/cuda.h>

#include "hydra/common/error.hpp"

namespace hydra::model {
namespace {

namespace kp = torch::autograd::profiler;
namespace pi = torch::profiler::impl;

bool has(const std::string& s, std::initializer_list<const char*> parts) {
  return std::any_of(parts.begin(), parts.end(), [&](const char* p) { return s.find(p) != std::string::npos; });
}

// A readable kernel name: no leading "void ", no argument list, at most 120 characters.
std::string short_name(std::string name) {
  if (name.starts_with("void ")) name.erase(0, 5);
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    else if (name[i] == '>') --depth;
    else if (name[i] == '(' && depth == 0 && i > 0 && name.compare(i, 11, "(anonymous ") != 0) {
      name.resize(i);
      break;
    }
  }
  if (name.size() > 120) name = name.substr(0, 117) + "...";
  return name;
}

std::vector<ProfiledName> ranked(const std::map<std::string, ProfiledName>& by, std::size_t top) {
  std::vector<ProfiledName> out;
  out.reserve(by.size());
  for (const auto& [name, p] : by) out.push_back(p);
  std::sort(out.begin(), out.end(), [](const ProfiledName& a, const ProfiledName& b) {
    return a.seconds != b.seconds ? a.seconds > b.seconds : a.name < b.name;
  });
  if (out.size() > top) out.resize(top);
  return out;
}

}  // namespace

std::string kernel_kind(const std::string& name) {
  if (has(name, {"Memcpy", "Memset", "memcpy", "memset"})) return "memcpy/memset";
  if (has(name, {"GroupNorm", "group_norm", "RowwiseMoments", "FusedParams", "InternalGradients", "GammaBeta"}))
    return "GroupNorm";
  if (has(name, {"gemm", "xmma", "cutlass", "conv", "cudnn", "wgmma", "sm90_", "sm80_", "nchwToNhwc", "nhwcToNchw"}))
    return "convolution/GEMM";
  if (has(name, {"adam", "multi_tensor", "foreach"})) return "optimizer";
  if (has(name, {"copy_kernel", "direct_copy", "cast"})) return "copy/cast";
  if (has(name, {"reduce_kernel", "Reduce"})) return "reduction";
  if (has(name, {"elementwise", "vectorized"})) return "elementwise";
  return "other";
}

nlohmann::ordered_json DeviceProfile::to_json() const {
  const auto list = [](const std::vector<ProfiledName>& v) {
    auto a = nlohmann::ordered_json::array();
    for (const auto& p : v) a.push_back({{"name", p.name}, {"calls", p.calls}, {"seconds", p.seconds}});
    return a;
  };
  nlohmann::ordered_json j{{"device", device},
                           {"wall_seconds", wall_seconds},
                           {"busy_seconds", busy_seconds},
                           {"busy_fraction", wall_seconds > 0 ? busy_seconds / wall_seconds : 0.0},
                           {"events", events},
                           {"event_seconds", event_seconds}};
  if (!kinds.empty()) j["kinds"] = list(kinds);
  j["top"] = list(top);
  return j;
}

DeviceProfile profile_device(const std::function<void()>& work, const torch::Device& device,
                             const std::string& trace_file, std::size_t top) {
  const bool cuda = device.is_cuda();
  // Kineto probes for GPUs when it starts and logs a failed probe as an ERROR line; on a CPU run
  // that line is noise. Its own variable quiets it unless the user set one.
  if (!cuda) ::setenv("KINETO_LOG_LEVEL", "5", /*overwrite=*/0);
  std::set<pi::ActivityType> activities{pi::ActivityType::CPU};
  if (cuda) activities.insert(pi::ActivityType::CUDA);
  const pi::ProfilerConfig config(pi::ProfilerState::KINETO);
  kp::prepareProfiler(config, activities);
  kp::enableProfiler(config, activities);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    work();
    if (cuda) torch::cuda::synchronize();
  } catch (...) {
    kp::disableProfiler();
    throw;
  }
  DeviceProfile p;
  p.device = cuda ? "cuda" : "cpu";
  p.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto result = kp::disableProfiler();
  if (!result) throw Error("profiler: no result (was another profiler running?)");

  std::map<std::string, ProfiledName> by_name, by_kind;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  const auto want = cuda ? c10::DeviceType::CUDA : c10::DeviceType::CPU;
  for (const auto& e : result->events()) {
    if (e.deviceType() != want) continue;
    const std::string name = e.name();
    // On the CPU, the runtime's own calls (cudaLaunchKernel and the like) are not operators.
    if (!cuda && !name.starts_with("aten::")) continue;
    const double s = static_cast<double>(e.durationNs()) * 1e-9;
    ++p.events;
    p.event_seconds += s;
    const auto add = [s](std::map<std::string, ProfiledName>& by, std::string key) {
      auto& n = by[key];
      n.name = std::move(key);
      ++n.calls;
      n.seconds += s;
    };
    add(by_name, short_name(name));
    if (cuda) {
      add(by_kind, kernel_kind(name));
      spans.emplace_back(e.startNs(), e.endNs());
    }
  }
  // The union of the device's intervals: kernels on several streams may overlap.
  std::sort(spans.begin(), spans.end());
  std::uint64_t busy = 0, lo = 0, hi = 0;
  bool open = false;
  for (const auto& [a, b] : spans) {
    if (!open || a > hi) {
      if (open) busy += hi - lo;
      lo = a;
      hi = b;
      open = true;
    } else {
      hi = std::max(hi, b);
    }
  }
  if (open) busy += hi - lo;
  p.busy_seconds = static_cast<double>(busy) * 1e-9;
  p.top = ranked(by_name, top);
  p.kinds = ranked(by_kind, by_kind.size());
  if (!trace_file.empty()) result->save(trace_file);
  return p;
}

}  // namespace hydra::model
