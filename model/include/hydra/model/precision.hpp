#pragma once

// bf16 autocast for forward passes (docs/MODEL.md): on CUDA by default, optional on CPU.
// Parameters and optimizer state stay fp32; only the ops autocast lists (conv, linear, ...) run
// in bf16. Autocast state is per thread: enter the guard in the thread that runs the forward.

#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>

#include "hydra/common/config.hpp"

namespace hydra::model {

// Turns bf16 autocast on for `device` while alive (or does nothing when `enabled` is false) and
// restores the previous state, nesting like Python's torch.autocast.
class AutocastGuard {
 public:
  AutocastGuard(c10::DeviceType device, bool enabled);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  c10::DeviceType device_;
  bool active_;
  bool prev_enabled_ = false;
  c10::ScalarType prev_dtype_ = c10::ScalarType::Float;
};

// Whether the config asks for bf16 autocast on this device type.
bool autocast_enabled(const config::ModelConfig& config, c10::DeviceType device);

// The process-wide settings the config asks of a device: on CUDA with `cudnn_benchmark`, cuDNN's
// autotuner (each new convolution shape is timed once and its fastest algorithm kept). It is
// only ever switched on: a network loaded with a stored config does not switch it off.
void apply_device_settings(const config::ModelConfig& config, c10::DeviceType device);

}  // namespace hydra::model
