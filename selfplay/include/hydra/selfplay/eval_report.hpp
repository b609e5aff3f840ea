#pragma once

// The evaluation report: every metric of eval_stats.hpp for the challenger, the champion and
// their paired difference, as a JSON document and as a text table. Both depend only on the
// options and the results (no timings), so the same seed gives byte-identical reports.

#include <string>

#include <nlohmann/json.hpp>

#include "hydra/selfplay/duplicate.hpp"

namespace hydra::selfplay {

nlohmann::ordered_json report_json(const EvalOptions& options, const EvalResult& result);
std::string report_table(const EvalOptions& options, const EvalResult& result);

}  // namespace hydra::selfplay
