// torch_side::load() (torch_side.hpp): the table of hydra-torch, or, in hydra, hydra-torch
// (beside this executable) started in this process's place with the same arguments and the
// located LibTorch first on its library path.

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "hydra/common/error.hpp"
#include "torch_locate.hpp"
#include "torch_side.hpp"

namespace hydra::apps::torch_side {

const Commands& load() {
  if (const Commands* linked = linked_commands()) return *linked;
  const TorchLocation t = locate_torch();
  const std::filesystem::path full = executable_dir() / "hydra-torch";
  if (access(full.c_str(), X_OK) != 0)
    throw Error(full.string() + ": missing; hydra runs it for the commands that need LibTorch (rebuild, or unpack the whole bundle)");
  std::string path = t.lib.string();
  if (const char* old = std::getenv("LD_LIBRARY_PATH"); old && *old) path += std::string(":") + old;
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
  setenv("HYDRA_TORCH_FROM", t.from.c_str(), 1);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  char** argv = saved_argv();
  HYDRA_CHECK(argv != nullptr, "torch_side::load: the command line was not saved");
  execv(full.c_str(), argv);
  throw Error("cannot start " + full.string() + ": " + std::strerror(errno));
}

}  // namespace hydra::apps::torch_side
