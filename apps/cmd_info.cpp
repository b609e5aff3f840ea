// hydra info: what this binary was built with and what the machine offers. Without --torch (or
// --model) it loads no LibTorch: it names the LibTorch hydra would run with (torch_locate.hpp);
// with --torch (and in hydra-torch) the loaded LibTorch adds CUDA and cuDNN availability.

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <thread>

#include <nlohmann/json.hpp>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/version.h>

#include "commands.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/build_info.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "torch_locate.hpp"
#include "torch_side.hpp"

namespace hydra::apps {
namespace {

// Nvidia GPUs the driver shows (/proc/driver/nvidia/gpus), seen without LibTorch or CUDA.
int nvidia_gpus() {
  std::error_code ec;
  int n = 0;
  for (std::filesystem::directory_iterator it("/proc/driver/nvidia/gpus", ec), end; !ec && it != end; it.increment(ec)) ++n;
  return n;
}

}  // namespace

void register_info(CLI::App& app) {
  auto* info = app.add_subcommand("info", "Print versions, build and device information");
  auto json = std::make_shared<bool>(false);
  info->add_flag("--json", *json, "machine-readable output");
  auto model_config = std::make_shared<std::string>();
  info->add_option("--model", *model_config, "print the parameter counts of the networks this config builds");
  auto torch = std::make_shared<bool>(false);
  info->add_flag("--torch", *torch, "load LibTorch and add CUDA and cuDNN availability and devices");
  info->callback([json, model_config, torch] {
    if (!model_config->empty()) {
      torch_side::require();
      torch_side::load().info_model(*model_config, *json);
      return;
    }
    if (*torch) torch_side::require();
    nlohmann::ordered_json j;
    j["hydra"] = build::version();
    j["git_revision"] = build::git_revision();
    j["build_type"] = build::build_type();
    j["compiler"] = build::compiler();
    j["sanitizers"] = build::sanitizers();
    j["libtorch_build"] = build_torch_version();
    j["libtorch_loaded"] = torch_side::linked();
    if (!torch_side::linked()) {
      try {
        const TorchLocation t = locate_torch();
        j["libtorch"] = t.version;
        j["libtorch_cuda_build"] = t.cuda.empty() ? "none" : t.cuda;
        j["libtorch_dir"] = t.dir.string();
        j["libtorch_from"] = t.from;
      } catch (const Error& e) {
        j["libtorch"] = std::string("unusable: ") + e.what();
      }
    } else {
      // What this process actually runs with, whatever the lookup above would choose now.
      torch_side::load().runtime_info(j);
      j["libtorch_dir"] = std::filesystem::path(mapped_libtorch()).parent_path().parent_path().string();
      const char* from = std::getenv("HYDRA_TORCH_FROM");
      j["libtorch_from"] = from && *from ? from : "the run path of hydra-torch";
    }
    j["nvidia_gpus"] = nvidia_gpus();
    j["tbb"] = TBB_VERSION_STRING;
    j["tbb_concurrency"] = tbb::info::default_concurrency();
    j["hardware_threads"] = std::thread::hardware_concurrency();
    if (*json) {
      std::cout << json::dump(j, 2) << "\n";
      return;
    }
    for (const auto& [key, value] : j.items())
      std::cout << key << std::string(22 - std::min<std::size_t>(21, key.size()), ' ')
                << (value.is_string() ? value.get<std::string>() : json::dump(value)) << "\n";
  });
}

}  // namespace hydra::apps
