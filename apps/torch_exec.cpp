// torch_side.hpp in `hydra`, the executable without LibTorch: no table, so torch_side::load()
// (torch_side.cpp) re-executes hydra-torch, which has one (apps/torch/commands.cpp).

#include "torch_side.hpp"

namespace hydra::apps::torch_side {

const Commands* linked_commands() { return nullptr; }

}  // namespace hydra::apps::torch_side
