#include "hydra/model/runtime.hpp"

#include <charconv>
#include <string>

#include <ATen/Version.h>
#include <torch/torch.h>

#include "hydra/common/error.hpp"

namespace hydra::model {
namespace {

// at::show_config() is the stable way to ask what LibTorch was built with; its "Build settings"
// line holds "CUDA_VERSION=13.0, CUDNN_VERSION=9.19.0, ..." (absent in CPU builds).
std::string build_setting(const std::string& config, const std::string& key) {
  const auto at = config.find(key + "=");
  if (at == std::string::npos) return "";
  const auto begin = at + key.size() + 1;
  const auto end = config.find_first_of(", \n", begin);
  return config.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

}  // namespace

RuntimeInfo runtime_info() {
  RuntimeInfo info;
  info.torch_version = TORCH_VERSION;
  const std::string config = at::show_config();
  info.cuda_build = build_setting(config, "CUDA_VERSION");
  info.cudnn_build = build_setting(config, "CUDNN_VERSION");
  info.cuda_available = torch::cuda::is_available();
  info.cuda_devices = info.cuda_available ? static_cast<int>(torch::cuda::device_count()) : 0;
  info.cudnn_available = info.cuda_available && torch::cuda::cudnn_is_available();
  info.intraop_threads = at::get_num_threads();
  return info;
}

std::string resolve_device(std::string_view name) {
  const std::string quoted = "device '" + std::string(name) + "': ";
  if (name == "cpu") return "cpu";
  if (name == "auto") return torch::cuda::is_available() ? "cuda" : "cpu";
  int index = -1;
  if (name.starts_with("cuda:")) {
    const std::string_view digits = name.substr(5);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty() || index < 0) index = -2;
  } else if (name != "cuda") {
    index = -2;
  }
  if (index == -2) throw Error(quoted + "expected cpu, cuda, cuda:N or auto");
  if (!torch::cuda::is_available()) throw Error(quoted + "CUDA is not available in this build or machine (use cpu or auto)");
  const auto count = static_cast<int>(torch::cuda::device_count());
  if (index >= count) throw Error(quoted + "this machine has " + std::to_string(count) + " CUDA device(s)");
  return std::string(name);
}

}  // namespace hydra::model
