#include "agent_flags.hpp"

#include <fmt/format.h>

#include "flag_checks.hpp"
#include "hydra/common/log.hpp"
#include "hydra/selfplay/search.hpp"
#include "torch_side.hpp"

namespace hydra::apps {

void AgentFlags::add_to(CLI::App& cmd) {
  cmd.add_option("--device", device, "device of checkpoint agents: auto, cpu or cuda")->capture_default_str();
  cmd.add_flag("--sample", options.sample, "checkpoint agents sample from their policy instead of taking the argmax");
  cmd.add_option("--temperature", options.temperature, "sampling temperature (with --sample)")
      ->check(number_in(0.0, kMaxTemperature, true))
      ->capture_default_str();
  cmd.add_flag("--cpu-bf16", options.cpu_bf16,
               "checkpoint agents on the CPU run their policy in bf16 (model.cpu_bf16_inference; about three times "
               "faster on CPUs with AMX, docs/MODEL.md): a player of its own, close to the fp32 one");
}

std::string AgentFlags::play_mode() const {
  return (options.sample ? fmt::format("sampled at T={}", options.temperature) : std::string("argmax")) +
         " on device " + device + (options.cpu_bf16 ? " in bf16" : "");
}

selfplay::ModelAgents AgentFlags::make(const std::vector<std::string>& names, const game::TableRules& rules) const {
  bool models = false;
  for (const std::string& name : names) models |= selfplay::ModelAgents::is_checkpoint(name);
  if (models) torch_side::require();
  if (!models) return selfplay::ModelAgents(device, rules, options, nullptr);
  return selfplay::ModelAgents(device, rules, options, torch_side::load().policy_loader, torch_side::load().reward_loader);
}

void log_searches(const selfplay::ModelAgents& agents, double seconds) {
  for (const auto& [name, c] : agents.search_counters()) {
    const auto searched = c->searched.load();
    const auto longest = c->longest_us.load();
    const auto extended = c->extended.load();
    log::info("{}: {} decisions, {} searched ({} changed{}), {} play-outs of {} decisions; {:.3f} s of the run per "
              "searched decision{}",
              name, c->decisions.load(), searched, c->changed.load(),
              extended > 0 ? fmt::format(", {} with more deals, {:.1f} deals a search", extended,
                                         static_cast<double>(c->deals.load()) / static_cast<double>(searched))
                           : std::string(),
              c->play_outs.load(),
              c->play_out_decisions.load(),
              searched > 0 ? seconds / static_cast<double>(searched) : 0.0,
              longest > 0 ? fmt::format(", the longest {:.3f} s", static_cast<double>(longest) * 1e-6) : std::string());
  }
}

}  // namespace hydra::apps
