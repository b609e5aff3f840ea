#pragma once

// Encoder self-checks over a whole game (`hydra replay --verify-encoder` and the tests): the
// events are fed to the four seats, and at every decision point of every seat (its view has a
// phase other than idle):
//   - the incremental observation equals the full encoding bit for bit;
//   - every value is finite and within its channel's documented range (layout.hpp);
//   - for each of the 5 non-identity suit permutations, fed the permuted events in lock step:
//     the seat's observation equals the permuted observation, its decision phase is the same and
//     its legal mask equals the permuted mask (so a permuted action is legal exactly when the
//     action is).

#include <optional>
#include <span>
#include <string>

#include "hydra/encoder/layout.hpp"
#include "hydra/game/event.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::encoder {

struct VerifyOptions {
  bool equivariance = true;  // run the 5 permuted streams too (6x the work)
};

struct VerifyReport {
  long events = 0;
  long decisions = 0;     // (event, seat) decision points checked
  long permuted = 0;      // permuted observations and masks compared
  std::string failure;    // the first failure, naming the event index and seat; empty if none
  bool ok() const { return failure.empty(); }
};

VerifyReport verify_encoder(std::span<const game::Event> events, const game::TableRules& rules,
                            const VerifyOptions& options = {});

// The first differing value of two observations ("channel 62 (safety) tile 5: 1 vs 0"), if any.
std::optional<std::string> first_difference(const float* a, const float* b);
// The first value outside its channel's documented range or not finite, if any.
std::optional<std::string> out_of_range(const float* obs);

}  // namespace hydra::encoder
