#pragma once

// Run metrics for `hydra train`, `hydra pretrain` and `hydra grp`: one JSON object per record in
// RUN_DIR/metrics.jsonl and, when enabled, TensorBoard scalar summaries in
// RUN_DIR/tb/events.out.tfevents.<unix time>.<host> (Event/Summary protobuf records from the
// schema in common/proto, written with libprotobuf in TFRecord framing with masked CRC32C).
// Every record is flushed when written, so a crash or kill -9 loses nothing already written.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hydra::metrics {

using Scalars = std::vector<std::pair<std::string, double>>;

class MetricsWriter {
 public:
  // Opens (creates) RUN_DIR/metrics.jsonl for appending. With `resume_step`, records of later
  // steps (written after the checkpoint the run resumes from) are dropped first, atomically, so a
  // resumed run's metrics read as one uninterrupted run. Errors name the file.
  MetricsWriter(const std::filesystem::path& run_dir, bool tensorboard,
                std::optional<std::int64_t> resume_step = std::nullopt);
  ~MetricsWriter();
  MetricsWriter(const MetricsWriter&) = delete;
  MetricsWriter& operator=(const MetricsWriter&) = delete;

  // One record {"step": step, "time": unix seconds, "tag": value, ...}; tags may contain '/'
  // (e.g. "loss/policy"), which TensorBoard groups by.
  void write(std::int64_t step, const Scalars& scalars);

  const std::filesystem::path& jsonl_path() const;
  // The TensorBoard event file, empty when TensorBoard output is off.
  const std::filesystem::path& event_path() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads a TensorBoard event file back (for tests and `hydra`'s own checks): every scalar as
// (step, tag, value) in file order. Checks each record's length and data CRCs; throws
// hydra::Error naming the file and the record on a mismatch.
struct EventScalar {
  std::int64_t step = 0;
  std::string tag;
  double value = 0;
};
std::vector<EventScalar> read_event_scalars(const std::filesystem::path& file);

// CRC-32C (Castagnoli) of `size` bytes, and TFRecord's masked form of it
// (((crc >> 15) | (crc << 17)) + 0xa282ead8), which the event files frame each record with.
std::uint32_t crc32c(const void* data, std::size_t size);
std::uint32_t masked_crc32c(const void* data, std::size_t size);

// A progress meter for long loops: rate over the last interval and an ETA from the overall rate.
// line() returns e.g. "1200/5000 (24.0%) 35.2/s ETA 1m48s".
class Progress {
 public:
  using Clock = std::function<double()>;  // seconds since any fixed origin
  // total <= 0: unknown, no percentage or ETA. `clock` defaults to the steady clock (tests pass
  // a fake one).
  explicit Progress(std::int64_t total, Clock clock = {});
  std::string line(std::int64_t done);
  double elapsed_seconds() const;

 private:
  Clock clock_;
  std::int64_t total_;
  double start_;
  double last_time_;
  std::int64_t last_done_ = 0;
};

// A duration for humans: "45s", "1m48s", "2h03m", "3d04h"; "?" when not finite or negative.
std::string format_duration(double seconds);

}  // namespace hydra::metrics
