#pragma once

// TensorBoard event file output, private to hydra_common: the generated protobuf code stays in
// tensorboard_writer.cpp, so no header that torch translation units could see includes it.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "hydra/common/metrics.hpp"

namespace hydra::metrics {

class EventFileWriter {
 public:
  // Creates DIR/events.out.tfevents.<unix time>.<host>[.<n>] and writes the file_version record.
  // With `restart_step`, a SessionLog START at that step follows, so TensorBoard drops the points
  // of steps >= restart_step that earlier files of the same run hold.
  EventFileWriter(const std::filesystem::path& dir, std::optional<std::int64_t> restart_step);
  ~EventFileWriter();
  EventFileWriter(const EventFileWriter&) = delete;
  EventFileWriter& operator=(const EventFileWriter&) = delete;

  void write_scalars(std::int64_t step, double wall_time, const Scalars& scalars);
  const std::filesystem::path& path() const { return path_; }

 private:
  void write_record(const std::string& data);

  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
};

double unix_time_now();

}  // namespace hydra::metrics
