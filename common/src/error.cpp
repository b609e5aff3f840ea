#include "hydra/common/error.hpp"

#include <string>

namespace hydra {

void invariant_failed(const char* expr, const char* file, int line, const std::string& msg) {
  throw InvariantError(std::string("invariant failed: ") + expr + " at " + file + ":" +
                       std::to_string(line) + (msg.empty() ? "" : ": " + msg));
}

}  // namespace hydra
