#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

#include "hydra/data/convert.hpp"
#include "hydra/common/text.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/data/replay.hpp"
#include "hydra/data/tenhou.hpp"
#include "hydra/data/text_file.hpp"
#include "testdata.hpp"

namespace hydra::data {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("hydra_test_convert_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

TEST(Convert, OutputNamesDropLogExtensions) {
  EXPECT_EQ(converted_name("a/2010081709gm-00a9-0000-fe3371ad.xml"), "2010081709gm-00a9-0000-fe3371ad.json.gz");
  EXPECT_EQ(converted_name("b.json.gz"), "b.json.gz");
  EXPECT_EQ(converted_name("c.mjson"), "c.json.gz");
}

// Each format is recognised by content, the converted file reads back as the same game, and
// inputs that fail leave nothing behind in the output folder.
TEST(Convert, EveryFormatConvertsAndFailuresWriteNothing) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  const fs::path root = dir.parent_path();
  const fs::path xml = dir / "2010081709gm-00a9-0000-fe3371ad.xml";
  const fs::path t6 = root / "tenhou6" / "reviewer_double_ron.json";
  const fs::path mjai = root / "mjai" / "2010081709gm-00a9-0000-fe3371ad.json.gz";
  EXPECT_EQ(detect_format(xml), LogFormat::tenhou_xml);
  EXPECT_EQ(detect_format(t6), LogFormat::tenhou6);
  EXPECT_EQ(detect_format(mjai), LogFormat::mjai);

  TempDir out;
  const ConvertResult r = convert_file(xml, out.path);
  ASSERT_EQ(r.status, ConvertResult::Status::ok) << r.message;
  EXPECT_FALSE(first_difference(read_mjai(r.output), read_tenhou_xml(xml)));

  const ConvertResult sanma = convert_file(root / "other_rules" / "xml" / "dnovikoff_sanma2.xml", out.path);
  EXPECT_EQ(sanma.status, ConvertResult::Status::unsupported);
  EXPECT_NE(sanma.message.find("3-player"), std::string::npos) << sanma.message;
  const ConvertResult cut = convert_file(root / "other_rules" / "xml" / "mjx_upd-aft-ron3.xml", out.path);
  EXPECT_EQ(cut.status, ConvertResult::Status::failed);
  int files = 0;
  for (const auto& f : fs::directory_iterator(out.path)) {
    EXPECT_EQ(f.path().filename(), r.output.filename());  // no output or temp file of the failures
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST(Convert, FoldersAreSearchedAndSorted) {
  HYDRA_REQUIRE_TESTDATA(dir, "other_rules");
  const auto files = collect_log_files({dir});
  EXPECT_EQ(files.size(), 12u);
  EXPECT_TRUE(std::is_sorted(files.begin(), files.end()));
  EXPECT_THROW(collect_log_files({dir / "no_such_folder"}), Error);
}

// Damaged copies of real logs (cut at many places, bytes overwritten) are rejected with
// hydra::Error or still read; nothing else may escape (no crash, no other exception type).
TEST(Convert, DamagedLogsFailCleanly) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  const fs::path root = dir.parent_path();
  TempDir out;
  std::uint64_t rng = 0x9E3779B97F4A7C15ULL;
  auto next = [&rng](std::size_t n) {  // a fixed LCG: the same damage on every run
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((rng >> 33) % n);
  };
  int rejected = 0, read = 0;
  for (const fs::path& src : {dir / "2010081709gm-00a9-0000-fe3371ad.xml", root / "tenhou6" / "reviewer_confusing_nakis_0.json",
                              root / "tenhou6" / "2010081709gm-00a9-0000-fe3371ad.json"}) {
    const std::string text = read_text_file(src);
    for (int trial = 0; trial < 60; ++trial) {
      std::string bad = text;
      if (trial % 2 == 0) {
        bad.resize(next(bad.size()));
      } else {
        for (int k = 0; k < 3; ++k) bad[next(bad.size())] = "0123456789,\"[]{}<>/ p"[next(22)];
      }
      const fs::path f = out.path / ("damaged" + src.extension().string());
      std::ofstream(f, std::ios::binary) << bad;
      try {
        read_log(f);
        ++read;
      } catch (const Error&) {
        ++rejected;
      }
    }
  }
  EXPECT_GT(rejected, 90);  // cuts and most flips break the log
  EXPECT_EQ(rejected + read, 180);
}

// One catch ladder for every file of a batch (guard_file): a rule the presets do not play, a
// broken file and a bug each become the file's fault, and the encoder verification of
// `hydra replay --verify-encoder` reports a broken file as check_file does.
TEST(Convert, EachFileFaultIsSortedOnce) {
  EXPECT_FALSE(guard_file("a.json", [] {}));
  const auto unsupported = guard_file("a.json", [] { throw UnsupportedRule("a.json: unsupported rule: sanma"); });
  ASSERT_TRUE(unsupported);
  EXPECT_TRUE(unsupported->unsupported);
  EXPECT_EQ(unsupported->message, "a.json: unsupported rule: sanma");
  const auto broken = guard_file("a.json", [] { throw Error("a.json:3: broken"); });
  ASSERT_TRUE(broken);
  EXPECT_FALSE(broken->unsupported);
  EXPECT_EQ(broken->message, "a.json:3: broken");
  const auto bug = guard_file("a.json", [] { throw std::out_of_range("vector"); });
  ASSERT_TRUE(bug);
  EXPECT_FALSE(bug->unsupported);
  EXPECT_EQ(bug->message, "a.json: internal error: vector");

  TempDir out;
  const fs::path bad = out.path / "bad.json";
  std::ofstream(bad, std::ios::binary) << "not a log\n";
  const ReplayReport checked = check_file(bad, game::rules_preset("tenhou"));
  const ReplayReport verified = verify_encoder_file(bad, game::rules_preset("tenhou"));
  EXPECT_EQ(checked.status, ReplayStatus::error);
  EXPECT_EQ(verified.status, ReplayStatus::error);
  EXPECT_EQ(verified.message, checked.message);
  EXPECT_EQ(verified.file, bad.string());
}

// Issue reproducers, written as small synthetic files (tests/fuzz/regressions/): a number out of
// double's range fails its own file with the place, in convert and in replay --check alike; a
// Tenhou name that is not UTF-8 once %-decoded converts (as replay --check reads it) and the
// written log is UTF-8, the bad bytes replaced.
TEST(Convert, NumbersOutOfRangeAndNamesNotUtf8AreHandledPerFile) {
  TempDir out;
  const fs::path t6 = out.path / "overflow.json";
  std::ofstream(t6, std::ios::binary) << "{\"name\":[\"a\",\"b\",\"c\",\"d\"],\"rule\":{\"disp\":\"x\",\"aka\":1},\n"
                                         "\"log\":[[[0,0,0],[25000,25000,25000,1e999]]]}\n";
  const ConvertResult bad = convert_file(t6, out.path / "converted");
  EXPECT_EQ(bad.status, ConvertResult::Status::failed);
  EXPECT_NE(bad.message.find(t6.string() + ":2: broken JSON: column 36: number out of range: 1e999"), std::string::npos)
      << bad.message;
  const ReplayReport checked = check_file(t6, game::rules_preset("tenhou"));
  EXPECT_EQ(checked.status, ReplayStatus::error);
  EXPECT_EQ(checked.message, bad.message);

  const fs::path xml = fs::path(HYDRA_SOURCE_DIR) / "tests/fuzz/regressions/tenhou_xml/invalid_utf8_name.xml";
  EXPECT_EQ(check_file(xml, game::rules_preset("tenhou")).status, ReplayStatus::pass);
  const ConvertResult ok = convert_file(xml, out.path);
  ASSERT_EQ(ok.status, ConvertResult::Status::ok) << ok.message;
  const std::string written = read_text_file(ok.output);
  EXPECT_TRUE(text::valid_utf8(written));
  // %FF%FE%80name: three invalid bytes, three replacements; %E3%81%82 stays; %C3 is cut short.
  EXPECT_NE(written.find("\"names\":[\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDname\",\"A\",\"\xE3\x81\x82\",\"\xEF\xBF\xBD\"]"),
            std::string::npos)
      << written.substr(0, 200);
}

}  // namespace
}  // namespace hydra::data
