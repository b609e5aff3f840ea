// ModelAgents (model_agent.hpp): names to agents, checkpoints loaded once and shared.

#include <filesystem>

#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/inference.hpp"
#include "hydra/selfplay/model_agent.hpp"

namespace hydra::selfplay {

ModelAgents::ModelAgents(std::string device, const game::TableRules& rules, ModelAgentOptions options)
    : device_(std::move(device)), rules_(&rules), options_(options) {}

std::shared_ptr<BatchPolicy> ModelAgents::policy(const std::string& path) {
  const std::scoped_lock lock(mu_);
  auto it = loaded_.find(path);
  if (it != loaded_.end()) return it->second;
  if (!std::filesystem::is_regular_file(path))
    throw Error("'" + path + "': not a built-in agent (" + [] {
      std::string names;
      for (const std::string& n : bot_names()) names += (names.empty() ? "" : ", ") + n;
      return names;
    }() + ") and no checkpoint file of that name");
  std::shared_ptr<BatchPolicy> p = load_policy(path, resolve_device(device_));
  log::info("agent: checkpoint {} (step {}) on {}", path, p->version(), device_);
  loaded_.emplace(path, p);
  return p;
}

std::unique_ptr<game::Agent> ModelAgents::make(const std::string& name) {
  if (is_bot_name(name)) return make_bot(name);
  return std::make_unique<ModelAgent>(policy(name), *rules_, name, options_);
}

AgentFactory ModelAgents::factory() {
  return [this](const std::string& name) { return make(name); };
}

bool ModelAgents::any_model() const {
  const std::scoped_lock lock(mu_);
  return !loaded_.empty();
}

}  // namespace hydra::selfplay
