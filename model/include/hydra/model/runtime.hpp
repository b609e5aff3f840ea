#pragma once

// What LibTorch can do in this process, and which device a run uses. The header stays free of
// torch includes so that apps/ and other light code can ask without compiling LibTorch headers.

#include <string>
#include <string_view>

namespace hydra::model {

struct RuntimeInfo {
  std::string torch_version;     // e.g. 2.11.0
  std::string cuda_build;        // CUDA version LibTorch was built with, "" for a CPU build
  std::string cudnn_build;       // cuDNN version LibTorch was built with, "" when none
  bool cuda_available = false;   // a usable CUDA device is present now
  int cuda_devices = 0;
  bool cudnn_available = false;
  int intraop_threads = 0;       // torch's CPU threads
};

RuntimeInfo runtime_info();

// The one device resolution of every command and run.device: "cpu", "cuda", "cuda:N" or "auto"
// (cuda when a CUDA device is available, else cpu). Returns the name to build a torch::Device
// from ("auto" resolved); anything else, CUDA names without CUDA and a cuda:N beyond the machine's
// devices are a hydra::Error naming the device.
std::string resolve_device(std::string_view name);

}  // namespace hydra::model
