#pragma once

// Shared by the harnesses. What every log harness does with a log its reader accepted: what `hydra convert` and
// `hydra replay --check` do next. A finding is an exception other than hydra::Error, a signal, a
// sanitizer report, or one of the aborts below (text leaving Hydra that is not UTF-8, a replay
// that ended in an internal error).

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "hydra/common/text.hpp"
#include "hydra/data/game_log.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/data/replay.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/shanten.hpp"

namespace hydra::fuzz {

// A refused input (hydra::Error): the expected outcome. With HYDRA_FUZZ_VERBOSE set (the
// regression driver, by hand) the message is printed, so a reproducer's message can be read.
inline bool verbose() {
  static const bool on = std::getenv("HYDRA_FUZZ_VERBOSE") != nullptr;
  return on;
}
inline void refused(const std::exception& e) {
  if (verbose()) std::fprintf(stderr, "  refused: %s\n", e.what());
}
inline void replied(const std::string& reply) {
  if (verbose()) std::fprintf(stderr, "  reply: %s\n", reply.c_str());
}

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
  std::abort();
}

inline void use_log(const data::GameLog& log) {
  const game::TableRules& rules = game::rules_preset("tenhou");
  if (!text::valid_utf8(data::to_mjai_text(log))) finding("the mjai text written for this log is not UTF-8");
  const data::ReplayReport r = data::check_game(log, rules, "fuzz");
  if (verbose())
    std::fprintf(stderr, "  read %zu events; replay --check: %s %s\n", log.events.size(),
                 std::string(data::to_string(r.status)).c_str(), r.message.c_str());
  if (r.message.find("internal error") != std::string::npos) finding(r.message);
}

}  // namespace hydra::fuzz

// Called once before the first input (by libFuzzer, and by the regression driver): builds what
// Hydra builds on first use (the shanten tables, the rules presets), so that one-time work is not
// charged to an input's time limit.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  (void)hydra::game::rules_preset("tenhou");
  const hydra::game::TileCounts counts{3, 3, 3, 3, 2};  // 14 tiles: 111m222m333m444m55m
  (void)hydra::game::shanten_best(counts);
  return 0;
}
