// torch_impl::check (torch_impl.hpp): `hydra check`, registered in apps/cmd_check.cpp.
//
// hydra check [--device D] [--config FILE] [--set K=V] [--model CKPT] [--data DIR]
//             [--positions N] [--seed S] [--json]
// The device self-test of ppo/device_check.hpp on real positions (logs, or greedy self-play games
// when there are none): each check prints its measured number and its threshold; exit 0 when all
// pass, 1 when one fails.

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/model/flops.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/model/run_context.hpp"
#include "hydra/ppo/device_check.hpp"
#include "hydra/selfplay/positions.hpp"
#include "torch_impl.hpp"

namespace hydra::apps {
namespace {

using Json = nlohmann::ordered_json;

void print_report(const std::vector<ppo::DeviceCheck>& checks, const Json& head, bool json) {
  const bool all = std::all_of(checks.begin(), checks.end(), [](const ppo::DeviceCheck& c) { return c.pass(); });
  if (json) {
    Json j = head;
    j["checks"] = Json::array();
    for (const auto& c : checks) {
      Json one{{"name", c.name}, {"what", c.what}, {"value", c.value}, {"threshold", c.threshold},
               {"compare", c.strict ? "<" : "<="}, {"pass", c.pass()}};
      if (!c.note.empty()) one["note"] = c.note;
      j["checks"].push_back(one);
    }
    j["passed"] = all;
    std::cout << json::dump(j, 2) << "\n";
    return;
  }
  std::printf("hydra check: %s (%s), model %dx%d, autocast %s\n", head["device"].get<std::string>().c_str(),
              head["device_name"].get<std::string>().c_str(), head["blocks"].get<int>(), head["channels"].get<int>(),
              head["autocast_in_training"].get<bool>() ? "bf16 in training" : "off in training (fp32)");
  std::printf("%lld positions from %s\n", head["positions"].get<long long>(), head["source"].get<std::string>().c_str());
  std::printf("%-20s %12s %14s  %-6s %s\n", "check", "measured", "threshold", "result", "what");
  for (const auto& c : checks) {
    std::printf("%-20s %12.4g %3s %-10.3g  %-6s %s\n", c.name.c_str(), c.value, c.strict ? "<" : "<=", c.threshold,
                c.pass() ? "pass" : "FAIL", c.what.c_str());
    if (!c.note.empty()) std::printf("%-20s %s\n", "", c.note.c_str());
  }
  std::printf("%s\n", all ? "all checks passed" : "SOME CHECKS FAILED");
}

}  // namespace

namespace torch_impl {

void check(const CheckFlags& f) {
  const config::Config cfg = ppo::device_check_config(f.model.load(), f.checkpoint);
  const model::RunContext context(f.model.threads, f.model.device);
  const torch::Device device = context.device();
  const auto& rules = game::table_rules(cfg.rules.preset);
  const selfplay::Positions positions = selfplay::load_positions(f.data, ix(f.positions), f.model.seed, rules);
  const auto count = static_cast<std::int64_t>(positions.samples.size());
  log::info("check: {} positions from {}; device {}; model {}x{}", count, positions.source, device.str(),
            cfg.model.blocks, cfg.model.channels);
  const auto checks = ppo::run_device_check(cfg, device, positions.samples, f.model.seed);

  const Json head{{"device", device.str()},
                  {"device_name", model::device_name(device.str())},
                  {"blocks", cfg.model.blocks},
                  {"channels", cfg.model.channels},
                  {"autocast_in_training", model::autocast_enabled(cfg.model, device.type())},
                  {"positions", count},
                  {"source", positions.source}};
  print_report(checks, head, f.model.json);
  std::string failed;
  for (const auto& c : checks)
    if (!c.pass()) failed += (failed.empty() ? "" : ", ") + c.name;
  if (!failed.empty()) throw Error("check: failed: " + failed);
}

}  // namespace torch_impl
}  // namespace hydra::apps
