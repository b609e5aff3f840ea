#include "hydra/common/config.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "config_validate.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"

namespace hydra::config {

namespace detail {

void validate(const Config& config, const std::function<std::string(const std::string& key)>& origin_of) {
  // "config error in 'a.json' and '--set x=1': " for the sources of `keys`.
  auto in = [&](std::initializer_list<const char*> keys) {
    std::vector<std::string> sources;
    for (const char* key : keys) {
      std::string o = origin_of(key);
      if (std::find(sources.begin(), sources.end(), o) == sources.end()) sources.push_back(std::move(o));
    }
    if (sources.size() > 1) std::erase(sources, std::string("'<defaults>'"));
    std::string text = "config error in ";
    for (std::size_t i = 0; i < sources.size(); ++i) text += (i == 0 ? "" : " and ") + sources[i];
    return text + ": ";
  };
  if (config.model.channels % 32 != 0)
    throw Error(in({"model.channels"}) + "model.channels: " + std::to_string(config.model.channels) +
                " must be a multiple of 32 (GroupNorm(32))");
  if (config.ppo.value_lambda < 0 && config.ppo.value_lambda != -1.0)
    throw Error(in({"ppo.value_lambda"}) + "ppo.value_lambda: " + std::to_string(config.ppo.value_lambda) +
                ": expected -1 (ppo.lambda) or a lambda in [0, 1]");
  if (config.ppo.critic_channels % 32 != 0)
    throw Error(in({"ppo.critic_channels"}) + "ppo.critic_channels: " + std::to_string(config.ppo.critic_channels) +
                " must be a multiple of 32 (GroupNorm(32))");
  if (config.ppo.policy_gradient == "expected" && config.ppo.advantage == "gae")
    throw Error(in({"ppo.policy_gradient", "ppo.advantage"}) +
                "ppo.policy_gradient = expected needs action values from greedy play-outs: set ppo.advantage to "
                "rollout (a critic's action values were retired, docs/PPO.md \"Retired estimators\")");
  if (config.ppo.unplayed_share < 1.0 && config::estimator(config.ppo) != Estimator::play_outs_expected)
    throw Error(in({"ppo.unplayed_share"}) + "ppo.unplayed_share = " + std::to_string(config.ppo.unplayed_share) +
                " thins the decisions that carry no action advantage, which only the expected policy gradient has: "
                "set ppo.advantage = rollout and ppo.policy_gradient = expected, or ppo.unplayed_share = 1");
  if (config.ppo.critic == "privileged" && config.ppo.advantage == "rollout")
    throw Error(in({"ppo.critic", "ppo.advantage"}) +
                "ppo.critic = privileged is the baseline of GAE; with ppo.advantage = rollout the play-outs give "
                "the advantages and no critic is read: set ppo.critic to value_head or ppo.advantage to gae");
  const auto& sp = config.selfplay;
  const double shares = sp.opp_self + sp.opp_pool + sp.opp_baseline;
  if (shares < 1.0 - 1e-9 || shares > 1.0 + 1e-9)
    throw Error(in({"selfplay.opp_self", "selfplay.opp_pool", "selfplay.opp_baseline"}) +
                "selfplay.opp_self + opp_pool + opp_baseline = " + std::to_string(shares) + ", must be 1");
  // A play-out player's name at `key` (selfplay.play_out_agent, play_out_others): bot:greedy, start
  // (ppo.init, which must be set), a checkpoint path, or a word of its own; `reserved` are words it
  // may not be, `values` what it may be.
  auto check_player = [&](const char* key, const std::string& value, std::initializer_list<std::string_view> reserved,
                          const std::string& values) {
    const bool bot = value.rfind("bot:", 0) == 0 && value != "bot:greedy";
    const bool external = value.rfind("mjai", 0) == 0 && value.find(':') != std::string::npos;
    if (value.empty() || bot || external || std::ranges::find(reserved, value) != reserved.end())
      throw Error(in({key}) + key + ": '" + value + "': " +
                  (bot        ? "the bot that plays out is bot:greedy; "
                   : external ? "an external agent cannot play out; "
                              : "") +
                  values);
    if (value == "start" && config.ppo.init.empty())
      throw Error(in({key, "ppo.init"}) + key + " = start plays with the run's start, ppo.init, which is not set");
  };
  check_player("selfplay.play_out_agent", sp.play_out_agent, {"agent"},
               "bot:greedy, or a network: snapshot, start or a checkpoint path");
  check_player("selfplay.play_out_others", sp.play_out_others, {"snapshot", "greedy"},
               "agent (the play-out agent plays every seat), bot:greedy, start or a checkpoint path (they play the "
               "other seats)");
  const PlayOutPlayer agent = play_out_player(sp.play_out_agent);
  const PlayOutPlayer others = play_out_player(sp.play_out_others);
  if (sp.play_out_tail != "value" && sp.play_out_tail != "bot:greedy")
    throw Error(in({"selfplay.play_out_tail"}) + "selfplay.play_out_tail: '" + sp.play_out_tail +
                "': value (the agent's value head scores the cut) or bot:greedy (bot:greedy plays on)");
  if (greedy_tail(sp) && sp.play_out_depth == 0)
    throw Error(in({"selfplay.play_out_tail", "selfplay.play_out_depth"}) +
                "selfplay.play_out_tail = bot:greedy hands a network's play-out to bot:greedy after "
                "selfplay.play_out_depth decisions, which is 0: set play_out_depth > 0");
  if (greedy_tail(sp) && agent == PlayOutPlayer::greedy)
    throw Error(in({"selfplay.play_out_tail", "selfplay.play_out_agent"}) +
                "selfplay.play_out_tail = bot:greedy follows a network's first decisions, but play_out_agent is "
                "bot:greedy already: use snapshot, start or a checkpoint path");
  if (others != PlayOutPlayer::agent && agent == PlayOutPlayer::greedy)
    throw Error(in({"selfplay.play_out_others", "selfplay.play_out_agent"}) + "selfplay.play_out_others = " +
                sp.play_out_others + " leaves the deciding seat to a network, but play_out_agent is "
                "bot:greedy: use snapshot, start or a checkpoint path");
  if (sp.play_out_depth > 0 && !greedy_tail(sp) && (agent == PlayOutPlayer::greedy || agent == PlayOutPlayer::snapshot))
    throw Error(in({"selfplay.play_out_depth", "selfplay.play_out_agent"}) + "selfplay.play_out_depth = " +
                std::to_string(sp.play_out_depth) + " scores a cut play-out by its agent's value head, which must "
                "estimate the final placement points: play_out_agent '" + sp.play_out_agent +
                (agent == PlayOutPlayer::snapshot
                     ? "' is the learner, whose value head learns the kyoku's GRP returns; use start or a BC "
                       "checkpoint, or selfplay.play_out_tail = bot:greedy"
                     : "' has no value head; use start or a BC checkpoint"));
  if (sp.play_out_sigmas > 0 && sp.play_outs < 2)
    throw Error(in({"selfplay.play_out_sigmas", "selfplay.play_outs"}) +
                "selfplay.play_out_sigmas weighs an action's value against the spread of its walls, but "
                "selfplay.play_outs is 1: set play_outs >= 2");
  if (config.ppo.minibatch > config.ppo.rollout_samples)
    throw Error(in({"ppo.minibatch", "ppo.rollout_samples"}) + "ppo.minibatch (" +
                std::to_string(config.ppo.minibatch) + ") exceeds ppo.rollout_samples (" +
                std::to_string(config.ppo.rollout_samples) + ")");
}

}  // namespace detail

Estimator estimator(const PpoConfig& ppo) {
  if (ppo.advantage == "rollout") return ppo.policy_gradient == "expected" ? Estimator::play_outs_expected : Estimator::play_outs;
  return ppo.critic == "privileged" ? Estimator::privileged_gae : Estimator::gae;
}

PlayOutPlayer play_out_player(const std::string& name) {
  if (name == "bot:greedy") return PlayOutPlayer::greedy;
  if (name == "snapshot") return PlayOutPlayer::snapshot;
  if (name == "agent") return PlayOutPlayer::agent;
  if (name == "start") return PlayOutPlayer::start;
  return PlayOutPlayer::checkpoint;
}

bool loads_checkpoint(PlayOutPlayer player) {
  return player == PlayOutPlayer::start || player == PlayOutPlayer::checkpoint;
}

bool greedy_tail(const SelfplayConfig& sp) { return sp.play_out_tail == "bot:greedy"; }

const char* estimator_name(Estimator e) {
  switch (e) {
    case Estimator::gae: return "gae";
    case Estimator::privileged_gae: return "privileged-gae";
    case Estimator::play_outs: return "play-outs";
    case Estimator::play_outs_expected: return "play-outs-expected";
  }
  return "?";
}

void validate(const Config& config, std::string_view origin) {
  // Built piecewise: GCC 12 reports a false -Wrestrict on `"'" + std::string(...) + "'"`.
  std::string quoted = "'";
  quoted += origin;
  quoted += "'";
  detail::validate(config, [&quoted](const std::string&) { return quoted; });
}

}  // namespace hydra::config
