#include "hydra/model/precision.hpp"

#include <ATen/Context.h>
#include <ATen/autocast_mode.h>

namespace hydra::model {

AutocastGuard::AutocastGuard(c10::DeviceType device, bool enabled) : device_(device), active_(enabled) {
  if (!active_) return;
  prev_enabled_ = at::autocast::is_autocast_enabled(device_);
  prev_dtype_ = at::autocast::get_autocast_dtype(device_);
  at::autocast::set_autocast_enabled(device_, true);
  at::autocast::set_autocast_dtype(device_, at::kBFloat16);
  at::autocast::increment_nesting();
}

AutocastGuard::~AutocastGuard() {
  if (!active_) return;
  // Leaving the outermost region drops the cached bf16 copies of the weights, as Python does.
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  at::autocast::set_autocast_enabled(device_, prev_enabled_);
  at::autocast::set_autocast_dtype(device_, prev_dtype_);
}

bool autocast_enabled(const config::ModelConfig& config, c10::DeviceType device) {
  if (device == c10::DeviceType::CUDA) return config.cuda_bf16;
  if (device == c10::DeviceType::CPU) return config.cpu_bf16;
  return false;
}

void apply_device_settings(const config::ModelConfig& config, c10::DeviceType device) {
  if (device == c10::DeviceType::CUDA && config.cudnn_benchmark) at::globalContext().setBenchmarkCuDNN(true);
}

}  // namespace hydra::model
