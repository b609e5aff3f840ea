#pragma once

// Checkpoint models as agents (docs/EVAL.md): anywhere an agent is named - `hydra eval`,
// `hydra bot`, `hydra selfplay` - a name without the "bot:" prefix is a hydra_net checkpoint.
//
// A ModelAgent keeps its own encoder::Observer (a view and an encoder) for its seat, fed with
// every event through ObservingAgent::observe (play.hpp), and at a decision evaluates the
// policy on that observation, its score context and the decision's legal mask. It plays the
// argmax of the masked policy (ties: the lowest action index) or, with `sample`, draws from it
// (optionally tempered) with the KDF stream (game key, "exploration", seat), so a game replays
// exactly either way. act() evaluates one decision; `hydra eval` batches the decisions of many
// games through prepare()/finish() (BatchedAgent, play.hpp). Agents of one checkpoint share its
// policy, whose evaluate() is safe from several threads.
//
// This header and ModelAgents are torch-free: checkpoints are loaded by the PolicyLoader the
// factory is given (checkpoint_policy of inference.hpp in the torch library), so `hydra` names
// agents and plays built-in bots without LibTorch (docs/ARCHITECTURE.md "LibTorch on demand").

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/encoder/encoder.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/selfplay/play.hpp"
#include "hydra/selfplay/external_agent.hpp"
#include "hydra/selfplay/policy.hpp"

namespace hydra::selfplay {

struct ModelAgentOptions {
  bool sample = false;       // false: greedy argmax
  double temperature = 1.0;  // sampling only: probabilities ^ (1 / temperature), renormalised
  bool cpu_bf16 = false;     // checkpoints on the CPU run the bf16 forward (model.cpu_bf16_inference)
};

class ModelAgent final : public BatchedAgent {
 public:
  ModelAgent(std::shared_ptr<BatchPolicy> policy, const game::TableRules& rules, std::string name,
             ModelAgentOptions options = {});

  std::string_view name() const override { return name_; }
  void start_game(game::Seat seat, const game::GameKey& key) override;
  void observe(const game::Event& e) override;
  game::Action act(const game::PlayerView& view, const game::Decision& d) override;
  BatchPolicy* policy() const override { return policy_.get(); }
  void prepare(const game::PlayerView& view, const game::Decision& d, float* obs, float* context,
               game::ActionMask* legal) override;
  game::Action finish(const game::Decision& d, const float* probs) override;

  // The seat's view and encoder, as of the last event observed (a search starts from them);
  // InvariantError before start_game.
  const encoder::Observer& observer() const;

  // The policy's masked probabilities (46) at a decision, as act() reads them before it picks;
  // valid until the next call.
  const float* probabilities(const game::PlayerView& view, const game::Decision& d);

  // The observation of the last decision act() evaluated (tests).
  const std::vector<float>& last_obs() const { return obs_; }

 private:
  void apply(const game::Event& e);

  std::shared_ptr<BatchPolicy> policy_;
  const game::TableRules* rules_;
  std::string name_;
  ModelAgentOptions options_;
  std::optional<game::Seat> seat_;
  std::optional<encoder::Observer> observer_;
  // The game's events so far: a host may send start_game before the agent learns its seat.
  std::vector<game::Event> events_;
  game::EventType prev_ = game::EventType::none;
  game::Xoshiro256ss rng_{game::Digest{}};
  std::vector<float> obs_, context_, probs_;
  float value_ = 0;
};

// Picks from masked probabilities: the argmax (lowest index on ties) when `u` is empty, else
// sample_action (policy.hpp) at temperature 1: the action whose cumulative probability first
// exceeds u * total (u in [0, 1)).
game::Action pick_action(const float* probs, const game::ActionMask& mask, std::optional<double> u);

// Loads a checkpoint as a policy on a device ("cpu", "cuda", "auto"), on the CPU in bf16 where
// asked (model.cpu_bf16_inference); the torch library's checkpoint_policy (inference.hpp) is the
// real one.
using PolicyLoader =
    std::function<std::shared_ptr<BatchPolicy>(const std::string& path, const std::string& device, bool cpu_bf16)>;

struct SearchCounters;  // search.hpp
struct SearchReward;    // search.hpp
class KyokuRewardModel;  // rewards.hpp
// The loader of a GRP reward model (GrpRewardModel of the torch library), for search:...:grp=.
using RewardLoader = std::function<std::shared_ptr<KyokuRewardModel>(const std::string& path)>;

// Agents by name for eval, bot, selfplay and the trainer's baseline: "bot:..." names are
// make_bot's, "search:..." search agents (search.hpp), "mjai:..." and "mjai.app:..." external processes (external_agent.hpp, their
// processes kept by this object); any other name is a checkpoint path, loaded once with `loader`
// on `device` and shared by every agent made from it. Thread-safe.
class ModelAgents {
 public:
  // `rewards` loads the GRP of a search agent's `grp` option (none: such an agent is an Error).
  ModelAgents(std::string device, const game::TableRules& rules, ModelAgentOptions options, PolicyLoader loader,
              RewardLoader rewards = nullptr);
  // Options of external agents (default ExternalOptions); before the first make().
  void set_external(ExternalOptions options);
  std::unique_ptr<game::Agent> make(const std::string& name);
  // An AgentFactory (play.hpp) calling make() on this object, which must outlive it.
  AgentFactory factory();
  bool any_model() const;  // whether make() has loaded a checkpoint
  // What the search agents made so far did (search.hpp), by agent name.
  std::vector<std::pair<std::string, std::shared_ptr<const SearchCounters>>> search_counters() const;

  // Whether `name` is a checkpoint (not a built-in bot), checked without loading anything: a
  // name that is neither a bot name nor an existing file is an Error, as make() would throw.
  static bool is_checkpoint(const std::string& name);
  // The files `name` loads, each checked to exist as is_checkpoint() checks it: a checkpoint's
  // path, or a search's checkpoint, continuation, others and GRP; none for bots and external agents.
  static std::vector<std::string> files_of(const std::string& name);

 private:
  // The checkpoint at `path`, loaded once per precision.
  std::shared_ptr<BatchPolicy> policy(const std::string& path, bool cpu_bf16);

  std::string device_;
  const game::TableRules* rules_;
  ModelAgentOptions options_;
  PolicyLoader loader_;
  mutable std::mutex mu_;
  std::map<std::pair<std::string, bool>, std::shared_ptr<BatchPolicy>> loaded_;  // by (path, cpu_bf16)
  std::map<std::string, std::shared_ptr<SearchCounters>> searches_;
  RewardLoader reward_loader_;
  std::map<std::string, std::shared_ptr<SearchReward>> rewards_;  // by GRP path
  std::unique_ptr<ExternalAgents> external_;
};

}  // namespace hydra::selfplay
