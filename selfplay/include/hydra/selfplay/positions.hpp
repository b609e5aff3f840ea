#pragma once

// Decision positions for `hydra check` and `hydra bench model|learner`: real positions from game logs when
// there are any, else from games the greedy bot plays against itself. Either way every position
// goes through data::extract_samples, the path pretraining samples take, so the observations,
// score contexts and legal masks are exactly what the network sees in training.

#include <cstdint>
#include <string>

#include "hydra/data/dataset.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::selfplay {

struct Positions {
  data::SampleBatch samples;
  std::string source;  // what they came from, for reports: "N logs under DIR" or "N greedy self-play games"
};

// `count` positions spread evenly over the decisions of the first logs (at most 8) of `data`
// (a log file or a folder searched recursively), or, when `data` is empty, of
// $HYDRA_TESTDATA/mjai when that folder exists, else of greedy self-play games of master seed
// `seed`. Logs that do not read are skipped with a warning; none readable is a hydra::Error
// naming the folder.
Positions load_positions(const std::string& data, std::size_t count, std::uint64_t seed, const game::TableRules& rules);

}  // namespace hydra::selfplay
