// hydra info: what this binary was built with and what the machine offers.

#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/version.h>

#include "commands.hpp"
#include "hydra/common/build_info.hpp"
#include "hydra/model/runtime.hpp"

namespace hydra::apps {

void register_info(CLI::App& app) {
  auto* info = app.add_subcommand("info", "Print versions, build and device information");
  auto json = std::make_shared<bool>(false);
  info->add_flag("--json", *json, "machine-readable output");
  info->callback([json] {
    const auto rt = model::runtime_info();
    nlohmann::ordered_json j;
    j["hydra"] = build::version();
    j["git_revision"] = build::git_revision();
    j["build_type"] = build::build_type();
    j["compiler"] = build::compiler();
    j["sanitizers"] = build::sanitizers();
    j["libtorch"] = rt.torch_version;
    j["libtorch_cuda_build"] = rt.cuda_build;
    j["libtorch_cudnn_build"] = rt.cudnn_build;
    j["cuda_available"] = rt.cuda_available;
    j["cuda_devices"] = rt.cuda_devices;
    j["cudnn_available"] = rt.cudnn_available;
    j["torch_cpu_threads"] = rt.intraop_threads;
    j["tbb"] = TBB_VERSION_STRING;
    j["tbb_concurrency"] = tbb::info::default_concurrency();
    j["hardware_threads"] = std::thread::hardware_concurrency();
    if (*json) {
      std::cout << j.dump(2) << "\n";
      return;
    }
    for (const auto& [key, value] : j.items())
      std::cout << key << std::string(22 - std::min<std::size_t>(21, key.size()), ' ')
                << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
  });
}

}  // namespace hydra::apps
