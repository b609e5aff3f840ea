// The Dataset stream over real logs: determinism across thread counts and chunk sizes, the
// shuffle buffer's bound, one epoch delivering every sample of its split exactly once, the
// augmentation as a suit permutation of the plain stream, the file split, the shards of ranks, and bad files (each
// kind reported once with its file and line while the good files still produce their samples).

#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/encoder/augment.hpp"
#include "testdata.hpp"

namespace hydra::data {
namespace {

namespace fs = std::filesystem;
using encoder::kObsSize;

DatasetOptions options(const fs::path& dir, std::uint64_t seed) {
  DatasetOptions o;
  o.inputs = {dir.string()};
  o.val_fraction = 0.0;
  o.seed = game::MasterSeed{seed};
  o.shuffle_buffer = 400;
  o.files_in_flight = 2;
  return o;
}

// The first n mjai games, as a folder of their own (copies in a temp folder).
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) {
    path = fs::temp_directory_path() / ("hydra_dataset_" + tag + "_" + std::to_string(::getpid()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::vector<fs::path> first_games(const fs::path& dir, std::size_t n) {
  auto files = collect_log_files({dir});
  files.resize(std::min(n, files.size()));
  return files;
}

SampleBatch read_n(Dataset& d, std::size_t n, std::size_t batch) {
  SampleBatch all, b;
  while (all.size() < n && d.next(b, std::min(batch, n - all.size())) > 0)
    for (std::size_t i = 0; i < b.size(); ++i) all.append(b, i);
  return all;
}

void expect_same(const SampleBatch& a, const SampleBatch& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(a.obs == b.obs);
  EXPECT_TRUE(a.context == b.context);
  EXPECT_TRUE(a.legal == b.legal);
  EXPECT_TRUE(a.action == b.action);
  EXPECT_TRUE(a.value == b.value);
  EXPECT_TRUE(a.grp == b.grp);
  EXPECT_TRUE(a.tenpai == b.tenpai);
  EXPECT_TRUE(a.danger == b.danger);
  EXPECT_TRUE(a.type == b.type);
}

// The samples of a batch as a sorted multiset of row summaries.
std::vector<std::tuple<std::int64_t, std::int64_t, float, double, int>> keys(const SampleBatch& b) {
  std::vector<std::tuple<std::int64_t, std::int64_t, float, double, int>> k;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const double obs = std::accumulate(b.obs.begin() + static_cast<std::ptrdiff_t>(i * ix(kObsSize)),
                                       b.obs.begin() + static_cast<std::ptrdiff_t>((i + 1) * ix(kObsSize)), 0.0);
    const int legal = std::accumulate(b.legal.begin() + static_cast<std::ptrdiff_t>(i * 46),
                                      b.legal.begin() + static_cast<std::ptrdiff_t>((i + 1) * 46), 0);
    k.emplace_back(b.action[i], b.grp[i], b.value[i], obs, legal);
  }
  std::sort(k.begin(), k.end());
  return k;
}

TEST(Dataset, SameSeedSameStreamWhateverThreadsAndChunks) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  TempDir tmp("det");
  for (const auto& f : first_games(dir, 3)) fs::copy_file(f, tmp.path / f.filename());
  std::array<SampleBatch, 3> runs;
  const std::array<std::pair<int, int>, 3> setups{{{1, 1}, {2, 3}, {4, 8}}};  // threads, files in flight
  for (std::size_t k = 0; k < setups.size(); ++k) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, ix(setups[k].first));
    DatasetOptions o = options(tmp.path, 7);
    o.files_in_flight = setups[k].second;
    Dataset d(o);
    runs[k] = read_n(d, 2500, 256);  // more than one epoch of 3 games
    EXPECT_GE(d.report().passes_read, 1);
  }
  ASSERT_EQ(runs[0].action.size(), 2500U);
  expect_same(runs[0], runs[1]);
  expect_same(runs[0], runs[2]);
  // Another seed: another order.
  Dataset other(options(tmp.path, 8));
  const SampleBatch o = read_n(other, 2500, 256);
  EXPECT_FALSE(o.action == runs[0].action);
}

TEST(Dataset, OneEpochIsEverySampleOnceAndTheBufferStaysBounded) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  TempDir tmp("epoch");
  SampleBatch expected;
  for (const auto& f : first_games(dir, 4)) {
    fs::copy_file(f, tmp.path / f.filename());
    extract_samples(read_log(f), f.string(), expected);
  }
  DatasetOptions o = options(tmp.path, 3);
  o.repeat = false;
  o.augment = false;
  Dataset d(o);
  const SampleBatch got = read_n(d, 1U << 30, 100);
  const DatasetReport r = d.report();
  EXPECT_EQ(r.passes_read, 1);
  EXPECT_EQ(r.files_total, 4);
  EXPECT_EQ(r.files_read, 4);
  EXPECT_EQ(r.samples, static_cast<std::int64_t>(expected.size()));
  EXPECT_EQ(r.buffer_peak, o.shuffle_buffer);
  EXPECT_TRUE(r.bad.empty());
  EXPECT_GT(r.seconds_gunzip + r.seconds_parse, 0.0);
  EXPECT_GT(r.seconds_replay, 0.0);
  EXPECT_GT(r.seconds_encode, 0.0);
  // The same multiset of samples, in another order.
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_FALSE(got.action == expected.action);
  EXPECT_TRUE(keys(got) == keys(expected));
  SampleBatch none;
  EXPECT_EQ(d.next(none, 10), 0U);
}

// Data-parallel ranks (docs/DISTRIBUTED.md): the shards of one pass read every file of the split
// exactly once between them, each pass in another split of the files, and their samples together
// are one unsharded pass's.
TEST(Dataset, ShardsReadEachFileExactlyOncePerEpoch) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  TempDir tmp("shards");
  SampleBatch expected;
  for (const auto& f : first_games(dir, 5)) {
    fs::copy_file(f, tmp.path / f.filename());
    extract_samples(read_log(f), f.string(), expected);
  }
  constexpr int kShards = 2;
  std::vector<std::set<fs::path>> first_pass(kShards);
  for (std::int64_t epoch = 0; epoch < 3; ++epoch) {
    std::multiset<fs::path> read;
    for (int s = 0; s < kShards; ++s) {
      DatasetOptions o = options(tmp.path, 11);
      o.shard_index = s;
      o.shard_count = kShards;
      const Dataset d(o);
      const auto files = d.epoch_files(epoch);
      EXPECT_GE(files.size(), 2U);  // 5 files: 3 and 2
      read.insert(files.begin(), files.end());
      if (epoch == 0) first_pass[ix(s)].insert(files.begin(), files.end());
      if (epoch == 2) {
        EXPECT_NE(std::set<fs::path>(files.begin(), files.end()), first_pass[ix(s)]) << "shard " << s;
      }
    }
    const auto all = Dataset(options(tmp.path, 11)).files();
    EXPECT_EQ(read, std::multiset<fs::path>(all.begin(), all.end())) << "epoch " << epoch;
  }

  // What the shards actually read in one pass: every file once, every sample once.
  SampleBatch together;
  std::int64_t files_read = 0;
  for (int s = 0; s < kShards; ++s) {
    DatasetOptions o = options(tmp.path, 11);
    o.shard_index = s;
    o.shard_count = kShards;
    o.repeat = false;
    o.augment = false;
    Dataset d(o);
    const SampleBatch got = read_n(d, 1U << 30, 64);
    for (std::size_t i = 0; i < got.size(); ++i) together.append(got, i);
    EXPECT_EQ(d.report().passes_read, 1);
    EXPECT_EQ(d.report().files_total, 5);  // the split's
    files_read += d.report().files_read;
  }
  EXPECT_EQ(files_read, 5);
  EXPECT_TRUE(keys(together) == keys(expected));

  DatasetOptions bad = options(tmp.path, 11);
  bad.shard_index = 2;
  bad.shard_count = 2;
  EXPECT_THROW(Dataset{bad}, Error);
}

TEST(Dataset, AugmentationIsASuitPermutationOfThePlainStream) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  TempDir tmp("aug");
  for (const auto& f : first_games(dir, 2)) fs::copy_file(f, tmp.path / f.filename());
  DatasetOptions o = options(tmp.path, 11);
  o.augment = false;
  Dataset plain_ds(o);
  o.augment = true;
  Dataset aug_ds(o);
  const SampleBatch plain = read_n(plain_ds, 1500, 500), aug = read_n(aug_ds, 1500, 500);
  ASSERT_EQ(plain.size(), aug.size());
  std::array<int, encoder::kNumSuitPerms> used{};
  std::vector<float> permuted(ix(kObsSize));
  for (std::size_t i = 0; i < plain.size(); ++i) {
    int found = -1;
    for (int k = 0; k < encoder::kNumSuitPerms && found < 0; ++k) {
      encoder::SuitPerm::nth(k).apply(plain.obs.data() + i * ix(kObsSize), permuted.data());
      if (std::equal(permuted.begin(), permuted.end(), aug.obs.begin() + static_cast<std::ptrdiff_t>(i * ix(kObsSize))))
        found = k;
    }
    ASSERT_GE(found, 0) << "sample " << i << " is no suit permutation of the plain one";
    ++used[ix(found)];
    const encoder::SuitPerm p = encoder::SuitPerm::nth(found);
    // Ambiguous observations (symmetric in suits) would fit several permutations; the label
    // checks hold for the one found whenever the action and mask are suit-free or agree.
    EXPECT_EQ(aug.legal[i * 46 + ix(static_cast<int>(aug.action[i]))], 1);
    for (int a = 0; a < 46; ++a) {
      EXPECT_EQ(aug.legal[i * 46 + ix(p(game::Action(a)).index())], plain.legal[i * 46 + ix(a)]);
    }
    EXPECT_EQ(aug.action[i], p(game::Action(static_cast<int>(plain.action[i]))).index());
    for (int k = 0; k < 3; ++k)
      for (int t = 0; t < 34; ++t)
        EXPECT_EQ(aug.danger[i * 102 + ix(k * 34 + p(game::TileType(t)).index())], plain.danger[i * 102 + ix(k * 34 + t)]);
    EXPECT_EQ(aug.value[i], plain.value[i]);
    EXPECT_EQ(aug.grp[i], plain.grp[i]);
  }
  for (int k = 0; k < encoder::kNumSuitPerms; ++k) EXPECT_GT(used[ix(k)], 100) << "permutation " << k;
}

TEST(Dataset, SplitByFileIsSeededDisjointAndIndependentOfTheFolderPath) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  auto split = [&](const fs::path& input, std::uint64_t seed, bool validation) {
    DatasetOptions o = options(input, seed);
    o.val_fraction = 0.5;
    o.validation = validation;
    std::set<std::string> names;
    const Dataset d(o);
    for (const auto& f : d.files()) names.insert(f.filename().string());
    return names;
  };
  const auto train = split(dir, 1, false), val = split(dir, 1, true);
  EXPECT_EQ(train.size() + val.size(), 34U);
  for (const auto& v : val) EXPECT_EQ(train.count(v), 0U) << v;
  EXPECT_GT(val.size(), 5U);
  EXPECT_GT(train.size(), 5U);
  EXPECT_EQ(split(dir.parent_path() / "." / "mjai", 1, true), val);
  EXPECT_NE(split(dir, 2, true), val);
  // Globs list files too.
  DatasetOptions g = options(dir, 1);
  g.inputs = {(dir / "2010*.json.gz").string()};
  const Dataset globbed(g);
  EXPECT_GT(globbed.files().size(), 0U);
  for (const auto& f : globbed.files()) EXPECT_EQ(f.filename().string().rfind("2010", 0), 0U) << f;
  g.inputs = {(dir / "nothing*.json.gz").string()};
  EXPECT_THROW(Dataset{g}, Error);
  g.inputs = {(dir / "missing.json.gz").string()};
  EXPECT_THROW(Dataset{g}, Error);
}

std::string gunzip(const fs::path& f) { return read_text_file(f); }

void write_text(const fs::path& f, const std::string& s) {
  std::ofstream out(f, std::ios::binary);
  out << s;
}

std::string replace_line(const std::string& text, int line_no, const std::string& line) {
  std::string out;
  std::size_t pos = 0;
  for (int n = 1; pos < text.size(); ++n) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out += n == line_no ? line : text.substr(pos, end - pos);
    out += '\n';
    pos = end + 1;
  }
  return out;
}

TEST(Dataset, BadFilesAreReportedOnceWithFileAndLineAndTheStreamGoesOn) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  HYDRA_REQUIRE_TESTDATA(other, "other_rules/mjai");
  TempDir tmp("bad");
  const auto games = first_games(dir, 3);
  SampleBatch expected;
  for (const auto& f : games) {
    fs::copy_file(f, tmp.path / f.filename());
    extract_samples(read_log(f), f.string(), expected);
  }
  std::string good_gz(static_cast<std::size_t>(fs::file_size(games[0])), '\0');
  std::ifstream(games[0], std::ios::binary).read(good_gz.data(), static_cast<std::streamsize>(good_gz.size()));
  // Corrupt gzip: bytes in the middle of the deflate stream overwritten.
  std::string corrupt = good_gz;
  for (std::size_t i = corrupt.size() / 2; i < corrupt.size() / 2 + 64; ++i) corrupt[i] = static_cast<char>(0x55 ^ i);
  write_text(tmp.path / "corrupt.json.gz", corrupt);
  // Truncated: the first half of the file.
  write_text(tmp.path / "truncated.json.gz", good_gz.substr(0, good_gz.size() / 2));
  const std::string text = gunzip(games[0]);
  // Broken JSON on line 7.
  write_text(tmp.path / "broken.json", replace_line(text, 7, R"({"type":"dahai","actor":)"));
  // An illegal event on line 4: seat 0 discards East, which it does not hold (it held N).
  ASSERT_NE(text.find(R"({"type":"dahai","actor":0,"pai":"N","tsumogiri":false})"), std::string::npos);
  write_text(tmp.path / "illegal.json", replace_line(text, 4, R"({"type":"dahai","actor":0,"pai":"E","tsumogiri":false})"));
  // Unsupported rules: a three-player game.
  fs::copy_file(other / "dnovikoff_sanma.mjson", tmp.path / "sanma.mjson");

  DatasetOptions o = options(tmp.path, 5);
  o.augment = false;
  Dataset d(o);
  const SampleBatch got = read_n(d, 3 * expected.size(), 300);  // three epochs
  const DatasetReport r = d.report();
  EXPECT_EQ(got.size(), 3 * expected.size());
  EXPECT_GE(r.passes_read, 2);
  EXPECT_EQ(r.files_total, 8);
  std::map<std::string, std::string> bad;
  for (const BadFile& b : r.bad) {
    EXPECT_EQ(bad.count(fs::path(b.file).filename().string()), 0U) << "reported twice: " << b.file;
    bad[fs::path(b.file).filename().string()] = b.reason;
  }
  ASSERT_EQ(bad.size(), 5U);
  auto has = [&](const std::string& file, const std::string& what) {
    ASSERT_EQ(bad.count(file), 1U) << file;
    EXPECT_NE(bad[file].find(what), std::string::npos) << bad[file];
  };
  has("corrupt.json.gz", (tmp.path / "corrupt.json.gz").string() + ":");
  has("truncated.json.gz", (tmp.path / "truncated.json.gz").string() + ":");
  has("broken.json", (tmp.path / "broken.json").string() + ":7:");
  has("illegal.json", (tmp.path / "illegal.json").string() + ":4:");
  has("sanma.mjson", "sanma.mjson");
  for (const auto& [file, reason] : bad) std::cout << reason << "\n";
}

}  // namespace
}  // namespace hydra::data
