#pragma once

// How often a built-in bot makes the human's choice: the greedy bot (selfplay::GreedyAgent)
// replays every logged game from each seat's PlayerView and is asked at every discard decision
// the log holds; its top-1 agreement with the logged discard is the reference the behaviour
// clone's discard accuracy is read against (docs/PRETRAIN.md).

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "hydra/data/dataset.hpp"
#include "hydra/pretrain/accuracy.hpp"

namespace hydra::pretrain {

struct Agreement {
  DecisionAccuracy accuracy;     // only the discard type is filled
  std::int64_t games = 0;
  std::vector<data::BadFile> bad;  // files that could not be read or replayed
};

// Discard decisions with a single legal action (the tsumogiri of a riichi hand) are forced, not
// chosen, and are left out, as the dataset leaves them out. Files are replayed in parallel, each
// Tenhou log under the rules of its lobby and date (data/log_rules.hpp), others under `rules`.
Agreement greedy_agreement(const std::vector<std::filesystem::path>& files, std::string_view rules = "tenhou");

}  // namespace hydra::pretrain
