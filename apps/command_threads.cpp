#include "command_threads.hpp"

#include "flag_checks.hpp"
#include "torch_side.hpp"

namespace hydra::apps {

CommandThreads::CommandThreads(int threads) : tbb_(threads) {
  // In hydra, a command with a network has re-executed hydra-torch before it gets here.
  if (torch_side::linked()) torch_side::load().limit_torch_threads(threads);
}

CLI::Option* add_threads_flag(CLI::App& cmd, int& threads, const std::string& help) {
  return cmd.add_option("--threads", threads, help)->check(integer_in(0, kMaxThreads))->capture_default_str();
}

}  // namespace hydra::apps
