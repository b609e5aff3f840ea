#pragma once

// What the checkpoint agent of `hydra eval` plays at every decision of a logged game, found
// without review/: the decisions from data::extract_samples, each seat's ModelAgent fed with the
// log's events and asked with act(), one decision at a time (the path of `hydra bot`). Also the
// policy evaluated directly on the extractor's own observation rows.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "hydra/data/dataset.hpp"
#include "hydra/data/game_log.hpp"
#include "hydra/game/view.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/rollout.hpp"
#include "hydra/common/index.hpp"

namespace hydra::testing {

struct AgentDecision {
  int seat = 0;
  int action = 0;               // ModelAgent::act
  int logged = 0;               // the log's action
  std::vector<float> probs;     // the policy on the extractor's observation row (46)
  float value = 0;
};

inline std::vector<AgentDecision> agent_decisions(const data::GameLog& log, const game::TableRules& rules,
                                                  const std::shared_ptr<selfplay::BatchPolicy>& policy,
                                                  const std::vector<int>& seats) {
  data::SampleBatch samples;
  data::ExtractStats stats;
  data::extract_samples(log, "game", samples, rules, &stats);
  std::vector<std::size_t> rows;
  for (std::size_t row = 0; row < samples.size(); ++row)
    if (std::find(seats.begin(), seats.end(), stats.sample_seat[row]) != seats.end()) rows.push_back(row);
  std::stable_sort(rows.begin(), rows.end(),
                   [&](std::size_t a, std::size_t b) { return stats.sample_observed[a] < stats.sample_observed[b]; });

  std::vector<std::unique_ptr<selfplay::ModelAgent>> agents(4);
  std::vector<std::unique_ptr<game::PlayerView>> views(4);
  for (const int s : seats) {
    agents[ix(s)] = std::make_unique<selfplay::ModelAgent>(policy, rules, "agent");
    agents[ix(s)]->start_game(game::Seat(s), game::GameKey{});
    views[ix(s)] = std::make_unique<game::PlayerView>(game::Seat(s), rules);
  }
  std::vector<AgentDecision> out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    for (const int s : seats) {
      agents[ix(s)]->observe(log.events[i]);
      views[ix(s)]->apply(log.events[i]);
    }
    for (; next < rows.size() && stats.sample_observed[rows[next]] == static_cast<int>(i); ++next) {
      const std::size_t row = rows[next];
      const int s = stats.sample_seat[row];
      const game::ActionMask mask = samples.legal_mask(row);
      const game::PlayerView& v = *views[ix(s)];
      const game::Decision d{game::Seat(s), v.phase(), mask};
      AgentDecision a;
      a.seat = s;
      a.action = agents[ix(s)]->act(v, d).index();
      a.logged = static_cast<int>(samples.action[row]);
      a.probs.resize(selfplay::kActions);
      selfplay::PolicyBatch in;
      in.obs = samples.obs.data() + row * static_cast<std::size_t>(encoder::kObsSize);
      in.context = samples.context.data() + row * static_cast<std::size_t>(data::kSampleContext);
      in.legal = &mask;
      in.n = 1;
      policy->evaluate(in, selfplay::PolicyOutput{a.probs.data(), &a.value});
      out.push_back(std::move(a));
    }
  }
  return out;
}

}  // namespace hydra::testing
