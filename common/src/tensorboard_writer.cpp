#include <unistd.h>

#include <array>
#include <bit>
#include <boost/crc.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>

#include "hydra/common/error.hpp"
#include "proto/tensorboard_event.pb.h"
#include "tensorboard_writer.hpp"
#include "hydra/common/index.hpp"

namespace hydra::metrics {
namespace {

namespace pb = hydra::tensorboard;

// TFRecord stores the length and the CRCs little-endian; x86 and ARM Linux are little-endian,
// and this check keeps a big-endian port from writing unreadable files silently.
static_assert(std::endian::native == std::endian::little, "event files are little-endian");

std::string host_name() {
  std::array<char, 256> buf{};
  if (gethostname(buf.data(), buf.size() - 1) != 0 || buf[0] == '\0') return "localhost";
  return std::string(buf.data());
}

template <class T>
void append_le(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <class T>
T read_le(const std::string& in, std::size_t at) {
  T value;
  std::memcpy(&value, in.data() + at, sizeof(T));
  return value;
}

}  // namespace

std::uint32_t crc32c(const void* data, std::size_t size) {
  boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true> crc;
  crc.process_bytes(data, size);
  return crc.checksum();
}

std::uint32_t masked_crc32c(const void* data, std::size_t size) {
  const std::uint32_t crc = crc32c(data, size);
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

double unix_time_now() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

EventFileWriter::EventFileWriter(const std::filesystem::path& dir,
                                 std::optional<std::int64_t> restart_step) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create TensorBoard directory " + dir.string() + ": " + ec.message());
  const double now = unix_time_now();
  const std::string base =
      "events.out.tfevents." + std::to_string(static_cast<std::int64_t>(now)) + "." + host_name();
  // Two writers in the same second (a quick restart) must not share a file: "x" opens only new
  // files.
  for (int n = 0; n < 1000 && file_ == nullptr; ++n) {
    path_ = dir / (n == 0 ? base : base + "." + std::to_string(n));
    file_ = std::fopen(path_.c_str(), "wbx");
    if (file_ == nullptr && errno != EEXIST)
      throw Error("cannot create TensorBoard event file " + path_.string() + ": " +
                  std::strerror(errno));
  }
  if (file_ == nullptr) throw Error("cannot create a new TensorBoard event file in " + dir.string());

  pb::Event version;
  version.set_wall_time(now);
  version.set_file_version("brain.Event:2");
  write_record(version.SerializeAsString());
  if (restart_step) {
    pb::Event start;
    start.set_wall_time(now);
    start.set_step(*restart_step);
    start.mutable_session_log()->set_status(pb::SessionLog::START);
    write_record(start.SerializeAsString());
  }
}

EventFileWriter::~EventFileWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void EventFileWriter::write_scalars(std::int64_t step, double wall_time, const Scalars& scalars) {
  pb::Event event;
  event.set_wall_time(wall_time);
  event.set_step(step);
  pb::Summary* summary = event.mutable_summary();
  for (const auto& [tag, value] : scalars) {
    pb::Summary::Value* v = summary->add_value();
    v->set_tag(tag);
    v->set_simple_value(static_cast<float>(value));
  }
  write_record(event.SerializeAsString());
}

void EventFileWriter::write_record(const std::string& data) {
  std::string record;
  record.reserve(data.size() + 16);
  append_le<std::uint64_t>(record, data.size());
  append_le<std::uint32_t>(record, masked_crc32c(record.data(), sizeof(std::uint64_t)));
  record += data;
  append_le<std::uint32_t>(record, masked_crc32c(data.data(), data.size()));
  if (std::fwrite(record.data(), 1, record.size(), file_) != record.size() ||
      std::fflush(file_) != 0)
    throw Error("cannot write TensorBoard event file " + path_.string() + ": " +
                std::strerror(errno));
}

std::vector<EventScalar> read_event_scalars(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::error_code ec;
  const auto file_size = std::filesystem::file_size(file, ec);
  if (!in || ec) throw Error("cannot open TensorBoard event file " + file.string());
  std::string bytes(ix(file_size), '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    throw Error("cannot read TensorBoard event file " + file.string());

  std::vector<EventScalar> scalars;
  std::size_t at = 0;
  for (int record = 0; at < bytes.size(); ++record) {
    const auto fail = [&](const std::string& what) {
      throw Error("TensorBoard event file " + file.string() + ": record " +
                  std::to_string(record) + " at byte " + std::to_string(at) + ": " + what);
    };
    if (bytes.size() - at < 12) fail("truncated header");
    const auto length = read_le<std::uint64_t>(bytes, at);
    if (read_le<std::uint32_t>(bytes, at + 8) != masked_crc32c(bytes.data() + at, 8))
      fail("length CRC mismatch");
    if (length > bytes.size() - at - 12 || bytes.size() - at - 12 - length < 4)
      fail("truncated data (length " + std::to_string(length) + ")");
    const std::size_t data_at = at + 12;
    const auto size = ix(length);
    if (read_le<std::uint32_t>(bytes, data_at + size) !=
        masked_crc32c(bytes.data() + data_at, size))
      fail("data CRC mismatch");
    pb::Event event;
    if (!event.ParseFromArray(bytes.data() + data_at, static_cast<int>(size)))
      fail("not an Event protobuf");
    if (record == 0 && event.file_version().rfind("brain.Event:", 0) != 0)
      fail("the first record is not a brain.Event file_version");
    if (event.has_summary())
      for (const auto& v : event.summary().value())
        if (v.has_simple_value()) scalars.push_back({event.step(), v.tag(), v.simple_value()});
    at = data_at + size + 4;
  }
  return scalars;
}

}  // namespace hydra::metrics
