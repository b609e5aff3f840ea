#include "hydra/common/metrics.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "tensorboard_writer.hpp"

namespace hydra::metrics {
namespace {

std::string errno_text() { return std::strerror(errno); }

// Keeps the records of steps <= last_step, in a temporary file renamed over the original, so a
// crash at any moment leaves either the old file or the new one, never half of each. A torn last
// line (a crash mid-write) is dropped too.
void truncate_after(const std::filesystem::path& file, std::int64_t last_step) {
  std::ifstream in(file);
  if (!in) return;  // nothing written yet
  const std::filesystem::path tmp = temp_path_for(file);
  auto fail = [&](const std::string& why) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);  // a full disk must not stay full of the partial copy
    throw Error(why);
  };
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) fail("cannot write " + tmp.string());
    std::string line;
    for (int line_no = 1; std::getline(in, line); ++line_no) {
      nlohmann::json record;
      try {
        record = json::parse(line);
      } catch (const json::ParseError&) {
        record = nullptr;
      }
      if (!record.is_object()) {
        if (in.peek() == std::char_traits<char>::eof()) break;
        fail(file.string() + ":" + std::to_string(line_no) + ": not a JSON object");
      }
      const auto step = record.find("step");
      if (step == record.end() || !step->is_number_integer())
        fail(file.string() + ":" + std::to_string(line_no) + ": no integer 'step'");
      if (step->get<std::int64_t>() <= last_step) out << line << '\n';
    }
    out.flush();
    if (!out) fail("cannot write " + tmp.string() + ": " + errno_text());
  }
  fsync_path(tmp);
  crash_point("metrics:truncated");
  if (std::rename(tmp.c_str(), file.c_str()) != 0) fail("cannot replace " + file.string() + ": " + errno_text());
  fsync_path(file.parent_path().empty() ? "." : file.parent_path());
}

double steady_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

struct MetricsWriter::Impl {
  std::filesystem::path jsonl_path;
  std::FILE* jsonl = nullptr;
  std::unique_ptr<EventFileWriter> events;
  std::filesystem::path no_events;

  ~Impl() {
    if (jsonl != nullptr) std::fclose(jsonl);
  }
};

MetricsWriter::MetricsWriter(const std::filesystem::path& run_dir, bool tensorboard,
                             std::optional<std::int64_t> resume_step)
    : impl_(std::make_unique<Impl>()) {
  std::error_code ec;
  std::filesystem::create_directories(run_dir, ec);
  if (ec) throw Error("cannot create run directory " + run_dir.string() + ": " + ec.message());
  impl_->jsonl_path = run_dir / "metrics.jsonl";
  if (resume_step) truncate_after(impl_->jsonl_path, *resume_step);
  impl_->jsonl = std::fopen(impl_->jsonl_path.c_str(), "a");
  if (impl_->jsonl == nullptr)
    throw Error("cannot open " + impl_->jsonl_path.string() + ": " + errno_text());
  if (tensorboard) {
    const std::optional<std::int64_t> restart =
        resume_step ? std::optional<std::int64_t>(*resume_step + 1) : std::nullopt;
    impl_->events = std::make_unique<EventFileWriter>(run_dir / "tb", restart);
  }
}

MetricsWriter::~MetricsWriter() = default;

void MetricsWriter::write(std::int64_t step, const Scalars& scalars) {
  const double now = unix_time_now();
  nlohmann::ordered_json record;
  record["step"] = step;
  record["time"] = now;
  for (const auto& [tag, value] : scalars) {
    if (tag == "step" || tag == "time")
      throw Error("metrics tag '" + tag + "' clashes with the record's own field");
    // JSON has no NaN or infinity: they are written as null, which readers see as "no value".
    record[tag] = value;
  }
  const std::string line = json::dump(record) + "\n";
  if (std::fwrite(line.data(), 1, line.size(), impl_->jsonl) != line.size() ||
      std::fflush(impl_->jsonl) != 0)
    throw Error("cannot write " + impl_->jsonl_path.string() + ": " + errno_text());
  if (impl_->events) impl_->events->write_scalars(step, now, scalars);
}

const std::filesystem::path& MetricsWriter::jsonl_path() const { return impl_->jsonl_path; }

const std::filesystem::path& MetricsWriter::event_path() const {
  return impl_->events ? impl_->events->path() : impl_->no_events;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto s = static_cast<std::int64_t>(std::llround(seconds));
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%llds", static_cast<long long>(s));
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%lldm%02llds", static_cast<long long>(s / 60),
                  static_cast<long long>(s % 60));
  else if (s < 86400)
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", static_cast<long long>(s / 3600),
                  static_cast<long long>(s % 3600 / 60));
  else
    std::snprintf(buf, sizeof buf, "%lldd%02lldh", static_cast<long long>(s / 86400),
                  static_cast<long long>(s % 86400 / 3600));
  return buf;
}

Progress::Progress(std::int64_t total, Clock clock)
    : clock_(clock ? std::move(clock) : Clock(steady_seconds)),
      total_(total),
      start_(clock_()),
      last_time_(start_) {}

double Progress::elapsed_seconds() const { return clock_() - start_; }

std::string Progress::line(std::int64_t done) {
  const double now = clock_();
  const double interval = now - last_time_;
  const double elapsed = now - start_;
  // The recent rate reacts to slowdowns; the ETA uses the overall rate, which is steadier.
  const double rate = interval > 0 ? static_cast<double>(done - last_done_) / interval
                      : elapsed > 0 ? static_cast<double>(done) / elapsed
                                    : 0.0;
  last_time_ = now;
  last_done_ = done;

  char buf[96];
  std::string out;
  if (total_ > 0) {
    std::snprintf(buf, sizeof buf, "%lld/%lld (%.1f%%)", static_cast<long long>(done),
                  static_cast<long long>(total_),
                  100.0 * static_cast<double>(done) / static_cast<double>(total_));
    out = buf;
  } else {
    out = std::to_string(done);
  }
  std::snprintf(buf, sizeof buf, " %.1f/s", rate);
  out += buf;
  if (total_ > 0) {
    const double overall = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
    const double left = static_cast<double>(total_ - done);
    out += " ETA " + (done >= total_ ? std::string("0s")
                      : overall > 0  ? format_duration(left / overall)
                                     : std::string("?"));
  }
  return out;
}

}  // namespace hydra::metrics
