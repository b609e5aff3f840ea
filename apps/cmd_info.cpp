// hydra info: what this binary was built with and what the machine offers.

#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/version.h>

#include "commands.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/build_info.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/model/runtime.hpp"
#include "hydra/model/summary.hpp"

namespace hydra::apps {
namespace {

// hydra info --model CONFIG: parameter counts of the networks that config builds.
void print_model(const std::string& config_file, bool json) {
  const auto config = config::load(config_file);
  const auto s = model::summarize(config.model);
  nlohmann::ordered_json j;
  j["config"] = config_file;
  j["blocks"] = config.model.blocks;
  j["channels"] = config.model.channels;
  for (const auto& c : s.components) j["components"][c.name] = c.parameters;
  j["per_block"] = s.per_block;
  j["total"] = s.total;
  j["grp_model"] = s.grp_model;
  if (json) {
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  std::cout << "SE-ResNet " << config.model.blocks << " blocks x " << config.model.channels << " channels ("
            << config_file << ")\n";
  for (const auto& c : s.components)
    std::cout << "  " << c.name << std::string(14 - std::min<std::size_t>(13, c.name.size()), ' ') << c.parameters
              << (c.name == "blocks" ? " (" + std::to_string(s.per_block) + " per block)" : "") << "\n";
  std::cout << "  total         " << s.total << "\n";
  std::cout << "GRP model (GRU " << config.model.grp_rnn_layers << " x " << config.model.grp_rnn_hidden << ")  "
            << s.grp_model << "\n";
}

}  // namespace

void register_info(CLI::App& app) {
  auto* info = app.add_subcommand("info", "Print versions, build and device information");
  auto json = std::make_shared<bool>(false);
  info->add_flag("--json", *json, "machine-readable output");
  auto model_config = std::make_shared<std::string>();
  info->add_option("--model", *model_config, "print the parameter counts of the networks this config builds");
  info->callback([json, model_config] {
    if (!model_config->empty()) {
      print_model(*model_config, *json);
      return;
    }
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
      std::cout << json::dump(j, 2) << "\n";
      return;
    }
    for (const auto& [key, value] : j.items())
      std::cout << key << std::string(22 - std::min<std::size_t>(21, key.size()), ' ')
                << (value.is_string() ? value.get<std::string>() : json::dump(value)) << "\n";
  });
}

}  // namespace hydra::apps
