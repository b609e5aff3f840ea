#include "hydra/model/run_context.hpp"

#include <system_error>

#include <ATen/Parallel.h>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/error.hpp"
#include "hydra/model/runtime.hpp"

namespace hydra::model {

void limit_torch_threads(int threads) {
  if (threads > 0) at::set_num_threads(threads);
}

RunContext::RunContext(int threads, const std::string& device) : tbb_(threads), device_(resolve_device(device)) {
  limit_torch_threads(threads);
}

void RunContext::own_run_dir(const std::filesystem::path& root) const {
  std::error_code ec;
  std::filesystem::create_directories(root / "checkpoints", ec);
  if (ec) throw Error(root.string() + ": cannot create the run directory: " + ec.message());
  remove_stale_temp_files(root);
  remove_stale_temp_files(root / "checkpoints");
  remove_orphan_sidecars(root / "checkpoints");
}

}  // namespace hydra::model
