#include "hydra/common/metrics.hpp"

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

using hydra::ix;

namespace fs = std::filesystem;
using hydra::metrics::MetricsWriter;

namespace {

class MetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir = fs::temp_directory_path() /
          ("hydra_metrics_" + std::to_string(::getpid()) + "_" + info->name());
    clear();
  }
  void TearDown() override { clear(); }
  void clear() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path dir;
};

std::vector<nlohmann::json> read_jsonl(const fs::path& file) {
  std::ifstream in(file);
  std::vector<nlohmann::json> records;
  std::string line;
  while (std::getline(in, line)) records.push_back(nlohmann::json::parse(line));
  return records;
}

std::string read_bytes(const fs::path& file) {
  std::string bytes(static_cast<std::size_t>(fs::file_size(file)), '\0');
  std::ifstream in(file, std::ios::binary);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

std::uint64_t u64_at(const std::string& s, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(s[at + i])} << (8 * i);
  return v;
}
std::uint32_t u32_at(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<unsigned char>(s[at + i])} << (8 * i);
  return v;
}

}  // namespace

// Published CRC-32C check values: the catalogue's "123456789" and RFC 3720 (iSCSI) B.4.
TEST(Crc32c, KnownVectors) {
  EXPECT_EQ(hydra::metrics::crc32c("123456789", 9), 0xE3069283u);
  std::vector<unsigned char> bytes(32, 0x00);
  EXPECT_EQ(hydra::metrics::crc32c(bytes.data(), bytes.size()), 0x8A9136AAu);
  std::fill(bytes.begin(), bytes.end(), 0xFF);
  EXPECT_EQ(hydra::metrics::crc32c(bytes.data(), bytes.size()), 0x62A8AB43u);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i);
  EXPECT_EQ(hydra::metrics::crc32c(bytes.data(), bytes.size()), 0x46DD794Eu);
  // ((0xE3069283 >> 15) | (0xE3069283 << 17)) + 0xa282ead8, worked by hand, mod 2^32.
  EXPECT_EQ(hydra::metrics::masked_crc32c("123456789", 9), 0xC78AB0E5u);
}

TEST_F(MetricsTest, JsonlHasOneFlushedObjectPerRecord) {
  MetricsWriter writer(dir, false);
  writer.write(1, {{"loss/policy", 2.5}, {"lr", 0.001}});
  // Read while the writer is still open: every record must already be on disk.
  auto records = read_jsonl(dir / "metrics.jsonl");
  ASSERT_EQ(records.size(), 1u);
  writer.write(2, {{"loss/policy", 2.25}});
  records = read_jsonl(writer.jsonl_path());
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["step"], 1);
  EXPECT_DOUBLE_EQ(records[0]["loss/policy"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(records[0]["lr"].get<double>(), 0.001);
  EXPECT_GT(records[0]["time"].get<double>(), 1.6e9);  // unix seconds, after 2020
  EXPECT_EQ(records[1]["step"], 2);
  EXPECT_FALSE(records[1].contains("lr"));
  EXPECT_TRUE(writer.event_path().empty());
  EXPECT_FALSE(fs::exists(dir / "tb"));
}

TEST_F(MetricsTest, ReservedTagIsAnError) {
  MetricsWriter writer(dir, false);
  EXPECT_THROW(writer.write(1, {{"step", 1.0}}), hydra::Error);
}

TEST_F(MetricsTest, ResumeDropsLaterStepsAndATornLine) {
  {
    MetricsWriter writer(dir, false);
    for (int step = 1; step <= 5; ++step) writer.write(step, {{"x", step * 10.0}});
  }
  {
    std::ofstream torn(dir / "metrics.jsonl", std::ios::app);
    torn << R"({"step": 6, "x": 6)";  // a crash mid-write
  }
  {
    MetricsWriter writer(dir, false, 3);
    writer.write(4, {{"x", 41.0}});
  }
  const auto records = read_jsonl(dir / "metrics.jsonl");
  ASSERT_EQ(records.size(), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(records[ix(i)]["step"], i + 1);
  EXPECT_EQ(records[3]["step"], 4);
  EXPECT_DOUBLE_EQ(records[3]["x"].get<double>(), 41.0);
  EXPECT_FALSE(fs::exists(dir / "metrics.jsonl.tmp"));
}

TEST_F(MetricsTest, ResumeRejectsACorruptMiddleLine) {
  fs::create_directories(dir);
  std::ofstream(dir / "metrics.jsonl") << "{\"step\": 1}\nnot json\n{\"step\": 2}\n";
  try {
    MetricsWriter writer(dir, false, 5);
    FAIL() << "expected an error";
  } catch (const hydra::Error& e) {
    EXPECT_NE(std::string(e.what()).find("metrics.jsonl:2"), std::string::npos) << e.what();
  }
}

TEST_F(MetricsTest, EventFileReadsBackEveryScalar) {
  fs::path event_file;
  {
    MetricsWriter writer(dir, true);
    event_file = writer.event_path();
    writer.write(10, {{"loss/value", 0.75}, {"entropy", 1.5}});
    writer.write(20, {{"loss/value", 0.5}});
  }
  EXPECT_EQ(event_file.parent_path(), dir / "tb");
  EXPECT_EQ(event_file.filename().string().rfind("events.out.tfevents.", 0), 0u);
  const auto scalars = hydra::metrics::read_event_scalars(event_file);
  ASSERT_EQ(scalars.size(), 3u);
  EXPECT_EQ(scalars[0].step, 10);
  EXPECT_EQ(scalars[0].tag, "loss/value");
  EXPECT_EQ(scalars[0].value, 0.75);
  EXPECT_EQ(scalars[1].tag, "entropy");
  EXPECT_EQ(scalars[1].value, 1.5);
  EXPECT_EQ(scalars[2].step, 20);
  EXPECT_EQ(scalars[2].value, 0.5);
}

// The bytes of the file, decoded by hand from the TFRecord framing and the protobuf wire format
// (field numbers of tensorflow's event.proto and summary.proto), independently of libprotobuf.
TEST_F(MetricsTest, EventRecordsMatchHandEncodedBytes) {
  fs::path event_file;
  {
    MetricsWriter writer(dir, true);
    event_file = writer.event_path();
    writer.write(3, {{"loss", 0.5}});
  }
  const std::string bytes = read_bytes(event_file);

  // Record 0: Event{wall_time (field 1, 64-bit) = W, file_version (field 3, bytes) = "brain.Event:2"}
  // = 0x09 W[8] 0x1a 0x0d "brain.Event:2": 24 bytes.
  ASSERT_GE(bytes.size(), 12u + 24u + 4u);
  EXPECT_EQ(u64_at(bytes, 0), 24u);
  EXPECT_EQ(u32_at(bytes, 8), hydra::metrics::masked_crc32c(bytes.data(), 8));
  std::string expected0 = "\x09" + bytes.substr(13, 8) + "\x1a\x0d" + "brain.Event:2";
  EXPECT_EQ(bytes.substr(12, 24), expected0);
  double wall_time = 0;
  std::memcpy(&wall_time, bytes.data() + 13, 8);
  EXPECT_GT(wall_time, 1.6e9);
  EXPECT_EQ(u32_at(bytes, 36), hydra::metrics::masked_crc32c(bytes.data() + 12, 24));

  // Record 1: Event{wall_time, step (field 2, varint) = 3, summary (field 5) = Summary{value
  // (field 1) = Value{tag (field 1) = "loss", simple_value (field 2, 32-bit) = 0.5f}}}.
  // Value: 0a 04 'loss' 15 00 00 00 3f (11 bytes); Summary: 0a 0b Value (13 bytes);
  // Event: 09 W[8] 10 03 2a 0d Summary (26 bytes).
  const std::size_t r1 = 40;
  ASSERT_EQ(bytes.size(), r1 + 12 + 26 + 4);
  EXPECT_EQ(u64_at(bytes, r1), 26u);
  EXPECT_EQ(u32_at(bytes, r1 + 8), hydra::metrics::masked_crc32c(bytes.data() + r1, 8));
  const std::string expected1 = "\x09" + bytes.substr(r1 + 13, 8) +
                                std::string("\x10\x03\x2a\x0d\x0a\x0b\x0a\x04loss\x15\x00\x00\x00\x3f", 17);
  EXPECT_EQ(bytes.substr(r1 + 12, 26), expected1);
  EXPECT_EQ(u32_at(bytes, r1 + 38), hydra::metrics::masked_crc32c(bytes.data() + r1 + 12, 26));
}

TEST_F(MetricsTest, ReaderRejectsACorruptRecord) {
  fs::path event_file;
  {
    MetricsWriter writer(dir, true);
    event_file = writer.event_path();
    writer.write(1, {{"a", 1.0}});
  }
  std::string bytes = read_bytes(event_file);
  bytes[bytes.size() - 6] ^= 0x01;  // inside the last record's data
  std::ofstream(event_file, std::ios::binary | std::ios::trunc) << bytes;
  try {
    hydra::metrics::read_event_scalars(event_file);
    FAIL() << "expected an error";
  } catch (const hydra::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("record 1"), std::string::npos) << what;
    EXPECT_NE(what.find("data CRC"), std::string::npos) << what;
  }
}

// A resumed run starts a new event file whose SessionLog START (field 7, status 1) at
// resume_step + 1 tells TensorBoard to drop the older files' points from that step on.
TEST_F(MetricsTest, ResumeStartsANewEventFileWithSessionStart) {
  fs::path first;
  fs::path second;
  {
    MetricsWriter writer(dir, true);
    first = writer.event_path();
    writer.write(1, {{"a", 1.0}});
  }
  {
    MetricsWriter writer(dir, true, 7);
    second = writer.event_path();
  }
  EXPECT_NE(first, second);
  const std::string bytes = read_bytes(second);
  const std::size_t r1 = 12 + 24 + 4;
  // Event: 09 W[8] 10 08 3a 02 08 01 (15 bytes).
  ASSERT_EQ(bytes.size(), r1 + 12 + 15 + 4);
  EXPECT_EQ(u64_at(bytes, r1), 15u);
  EXPECT_EQ(bytes.substr(r1 + 12 + 9, 6), std::string("\x10\x08\x3a\x02\x08\x01", 6));
  EXPECT_TRUE(hydra::metrics::read_event_scalars(second).empty());
}

TEST(Progress, FormatsCountPercentRateAndEta) {
  double now = 100.0;
  hydra::metrics::Progress progress(5000, [&] { return now; });
  now = 134.0;  // 1200 done in 34 s; 3800 left at 1200/34 per second = 107.7 s
  EXPECT_EQ(progress.line(1200), "1200/5000 (24.0%) 35.3/s ETA 1m48s");
  now = 144.0;  // the rate is the last interval's: 100 in 10 s; the ETA stays overall
  EXPECT_EQ(progress.line(1300), "1300/5000 (26.0%) 10.0/s ETA 2m05s");
  EXPECT_DOUBLE_EQ(progress.elapsed_seconds(), 44.0);
  now = 150.0;
  EXPECT_EQ(progress.line(5000), "5000/5000 (100.0%) 616.7/s ETA 0s");
}

TEST(Progress, UnknownTotalHasNoPercentOrEta) {
  double now = 0.0;
  hydra::metrics::Progress progress(0, [&] { return now; });
  EXPECT_EQ(progress.line(0), "0 0.0/s");
  now = 4.0;
  EXPECT_EQ(progress.line(10), "10 2.5/s");
}

TEST(Progress, FormatsDurations) {
  using hydra::metrics::format_duration;
  EXPECT_EQ(format_duration(0), "0s");
  EXPECT_EQ(format_duration(59.4), "59s");
  EXPECT_EQ(format_duration(108), "1m48s");
  EXPECT_EQ(format_duration(3600 + 3 * 60 + 10), "1h03m");
  EXPECT_EQ(format_duration(2 * 86400 + 5 * 3600), "2d05h");
  EXPECT_EQ(format_duration(-1), "?");
  EXPECT_EQ(format_duration(std::nan("")), "?");
}
