// ModelAgents (model_agent.hpp): names to agents, checkpoints loaded once (by the loader it was
// given) and shared. Torch-free.

#include <filesystem>

#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/search.hpp"

namespace hydra::selfplay {

ModelAgents::ModelAgents(std::string device, const game::TableRules& rules, ModelAgentOptions options,
                         PolicyLoader loader, RewardLoader rewards)
    : device_(std::move(device)),
      rules_(&rules),
      options_(options),
      loader_(std::move(loader)),
      reward_loader_(std::move(rewards)) {}

bool ModelAgents::is_checkpoint(const std::string& name) { return !files_of(name).empty(); }

std::vector<std::string> ModelAgents::files_of(const std::string& name) {
  if (is_search_name(name)) {
    const SearchName s = parse_search_name(name);
    std::vector<std::string> files;
    // Every file the search reads, named in the error by the option that gave it.
    auto need_file = [&](const std::string& option, const std::string& path, const char* what) {
      if (!std::filesystem::is_regular_file(path))
        throw Error("'" + name + "': " + option + path + " is no file (" + what + ")");
      files.push_back(path);
    };
    need_file("", s.checkpoint, "the checkpoint searched");
    if (!s.options.continuation.empty() && !s.options.greedy())
      need_file("continuation=", s.options.continuation, "the checkpoint that plays on");
    if (s.options.network_others()) need_file("others=", s.options.others, "the checkpoint of the other seats");
    if (!s.options.grp.empty()) need_file("grp=", s.options.grp, "a GRP checkpoint of hydra grp");
    return files;
  }
  if (is_bot_name(name) || is_external_name(name)) return {};
  if (!std::filesystem::is_regular_file(name))
    throw Error("'" + name + "': not a built-in agent (" + [] {
      std::string names;
      for (const std::string& n : bot_names()) names += (names.empty() ? "" : ", ") + n;
      return names;
    }() + "), no external agent (mjai:COMMAND, mjai.app:COMMAND) and no checkpoint file of that name");
  return {name};
}

std::shared_ptr<BatchPolicy> ModelAgents::policy(const std::string& path, bool cpu_bf16) {
  const std::scoped_lock lock(mu_);
  auto it = loaded_.find({path, cpu_bf16});
  if (it != loaded_.end()) return it->second;
  (void)is_checkpoint(path);
  HYDRA_CHECK(loader_ != nullptr, "ModelAgents: a checkpoint agent without a policy loader");
  std::shared_ptr<BatchPolicy> p = loader_(path, device_, cpu_bf16);
  log::info("agent: checkpoint {} (step {}) on {}{}", path, p->version(), device_, cpu_bf16 ? ", bf16 on the CPU" : "");
  loaded_.emplace(std::pair{path, cpu_bf16}, p);
  return p;
}

void ModelAgents::set_external(ExternalOptions options) {
  const std::scoped_lock lock(mu_);
  external_ = std::make_unique<ExternalAgents>(std::move(options), *rules_);
}

std::unique_ptr<game::Agent> ModelAgents::make(const std::string& name) {
  if (is_bot_name(name)) return make_bot(name);
  if (is_search_name(name)) {
    const SearchName s = parse_search_name(name);
    std::shared_ptr<BatchPolicy> p = policy(s.checkpoint, options_.cpu_bf16);
    // With bf16=1 the play-outs' networks run the bf16 CPU forward; the decision itself is the
    // agents' precision.
    const bool play_out_bf16 = options_.cpu_bf16 || s.options.bf16;
    std::shared_ptr<BatchPolicy> c = s.options.greedy() ? nullptr
                                     : policy(s.options.continuation.empty() ? s.checkpoint : s.options.continuation,
                                              play_out_bf16);
    std::shared_ptr<BatchPolicy> others =
        s.options.network_others() ? policy(s.options.others, play_out_bf16) : nullptr;
    std::shared_ptr<SearchCounters> counters;
    std::shared_ptr<SearchReward> reward;
    {
      const std::scoped_lock lock(mu_);
      auto& slot = searches_[name];
      if (!slot) slot = std::make_shared<SearchCounters>();
      counters = slot;
      if (!s.options.grp.empty()) {
        auto& r = rewards_[s.options.grp];
        if (!r) {
          if (reward_loader_ == nullptr)
            throw Error("'" + name + "': grp= needs the GRP loader of LibTorch, which this command was not given");
          r = std::make_shared<SearchReward>();
          try {
            r->model = reward_loader_(s.options.grp);
          } catch (const Error& e) {
            throw Error("'" + name + "': grp=" + s.options.grp + ": " + e.what());
          }
          log::info("agent: GRP {} rewards the searches of {}", s.options.grp, name);
        }
        reward = r;
      }
    }
    return std::make_unique<SearchAgent>(std::move(p), std::move(c), *rules_, name, s.options, std::move(counters),
                                         std::move(reward), std::move(others));
  }
  if (is_external_name(name)) {
    {
      const std::scoped_lock lock(mu_);
      if (!external_) external_ = std::make_unique<ExternalAgents>(ExternalOptions{}, *rules_);
    }
    return external_->make(name);
  }
  return std::make_unique<ModelAgent>(policy(name, options_.cpu_bf16), *rules_, name, options_);
}

AgentFactory ModelAgents::factory() {
  return [this](const std::string& name) { return make(name); };
}

std::vector<std::pair<std::string, std::shared_ptr<const SearchCounters>>> ModelAgents::search_counters() const {
  const std::scoped_lock lock(mu_);
  return {searches_.begin(), searches_.end()};
}

bool ModelAgents::any_model() const {
  const std::scoped_lock lock(mu_);
  return !loaded_.empty();
}

}  // namespace hydra::selfplay
