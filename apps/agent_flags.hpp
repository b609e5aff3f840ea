#pragma once

// The flags of every command that plays agents by name (eval, selfplay, bot; docs/EVAL.md): the
// device and the play mode of checkpoint agents, and the factory that makes the agents.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hydra/game/rules.hpp"
#include "hydra/selfplay/model_agent.hpp"

namespace hydra::apps {

struct AgentFlags {
  std::string device = "auto";          // --device of checkpoint agents
  selfplay::ModelAgentOptions options;  // --sample, --temperature

  void add_to(CLI::App& cmd);
  // The play mode of checkpoint agents in words, "argmax on device D" or "sampled at T=... on
  // device D" (part of an evaluation journal's identity besides the agents' names).
  std::string play_mode() const;
  // The factory of the agents `names`, each checked (a built-in bot, an external agent or a
  // checkpoint file; ModelAgents::is_checkpoint). With a checkpoint among them LibTorch comes
  // first (torch_side::require, which in hydra re-executes hydra-torch: call this before any
  // output), and its loader loads them; bots and external agents need no LibTorch.
  selfplay::ModelAgents make(const std::vector<std::string>& names, const game::TableRules& rules) const;
};

// Logs what each search agent (search:...) did over a run of `seconds`: its decisions, how many
// it searched and changed, its play-outs and their decisions, and the run's seconds per searched
// decision (all games in flight together, so a throughput, not one decision's latency).
void log_searches(const selfplay::ModelAgents& agents, double seconds);

}  // namespace hydra::apps
