// torch_side.hpp in `hydra`, the executable without LibTorch: every entry point re-executes
// hydra-torch (beside this executable) with the same arguments and the located LibTorch first on
// its library path. Nothing has been written when that happens: the commands call these before
// any output.

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

#include "hydra/common/error.hpp"
#include "torch_locate.hpp"
#include "torch_side.hpp"

namespace hydra::apps::torch_side {

bool linked() { return false; }

void require() {
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
  HYDRA_CHECK(argv != nullptr, "torch_side::require: the command line was not saved");
  execv(full.c_str(), argv);
  throw Error("cannot start " + full.string() + ": " + std::strerror(errno));
}

void train(const TrainFlags&) { require(); }
void pretrain(const PretrainFlags&) { require(); }
void grp(const GrpFlags&) { require(); }
void export_weights(const std::string&, const std::string&) { require(); }
void info_model(const std::string&, bool) { require(); }
void runtime_info(nlohmann::ordered_json&) { require(); }
void check(const CheckFlags&) { require(); }
void bench_model(const BenchModelFlags&) { require(); }
void bench_learner(const BenchLearnerFlags&) { require(); }
void bench_selfplay(const BenchSelfplayFlags&) { require(); }
void bench_pretrain(const BenchPretrainFlags&) { require(); }
selfplay::PolicyLoader policy_loader(int) {
  // Commands decide before they start (ModelAgents::is_checkpoint) and call require() first.
  return [](const std::string& path, const std::string&) -> std::shared_ptr<selfplay::BatchPolicy> {
    throw std::logic_error("checkpoint agent '" + path + "' in hydra without LibTorch: torch_side::require() was not called");
  };
}

}  // namespace hydra::apps::torch_side
