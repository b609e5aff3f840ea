// The training loop end to end on a tiny config (1 block x 32 channels, one-kyoku games, one
// thread): the same seed gives the same losses and the same games, a resumed run continues with
// the losses of the uninterrupted one, a stop request checkpoints and returns, and the metrics
// file of a resumed run reads as one run.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/stop.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/ppo/trainer.hpp"

namespace hydra::ppo {
namespace {

namespace fs = std::filesystem;

using Losses = std::map<std::int64_t, std::vector<std::pair<std::string, double>>>;

// Removes a directory tree one file at a time (remove_all is unsafe next to LibTorch's exports).
void remove_tree(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir)) {
    std::vector<fs::path> files, dirs;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      (e.is_directory() ? dirs : files).push_back(e.path());
    for (const auto& f : files) fs::remove(f, ec);
    for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) fs::remove(*it, ec);
    fs::remove(dir, ec);
  }
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("hydra_trainer_" + std::to_string(::getpid()) + "_" + name);
  remove_tree(dir);
  return dir;
}

// Run directories of this process, removed when the test program ends.
class TempDirs : public ::testing::Environment {
 public:
  void TearDown() override {
    for (const char* name : {"det_a", "det_b", "det_c", "whole", "split", "stop", "refuse", "stop_at", "short"})
      remove_tree(fs::temp_directory_path() / ("hydra_trainer_" + std::to_string(::getpid()) + "_" + name));
  }
};
[[maybe_unused]] const auto* const kTempDirs = ::testing::AddGlobalTestEnvironment(new TempDirs);

config::Config tiny(std::int64_t max_updates, const std::vector<std::string>& more = {}) {
  std::vector<std::string> sets = {
      "run.seed=2026",          "run.threads=1",           "run.device=cpu",
      "rules.length=kyoku",     "model.blocks=1",          "model.channels=32",
      "model.policy_channels=8", "model.value_hidden=32",  "model.grp_hidden=16",
      "model.tenpai_hidden=8",  "selfplay.games=4",        "selfplay.opp_self=0.5",
      "selfplay.opp_pool=0.25", "selfplay.opp_baseline=0.25", "selfplay.baseline=bot:random",
      "selfplay.pool_every=1",  "selfplay.pool_size=2",    "selfplay.refresh_every=3",
      "ppo.rollout_samples=96", "ppo.minibatch=48",        "ppo.epochs=2",
      "ppo.kl_anchor_start=0",  "train.checkpoint_every=2", "train.tensorboard=false",
      "train.max_updates=" + std::to_string(max_updates)};
  sets.insert(sets.end(), more.begin(), more.end());
  return config::load(std::nullopt, sets);
}

// Every loss and learner scalar of each update (timings excluded: they differ run to run).
Losses train(const fs::path& dir, config::Config cfg, bool resume, bool game_logs = false,
             const StopSignal* stop = nullptr, TrainResult* result = nullptr,
             std::int64_t stop_at = -1, StopSignal* stopper = nullptr, std::int64_t stop_at_update = 0) {
  Losses out;
  TrainOptions opt;
  opt.resume = resume;
  opt.run_dir = dir;
  opt.log_file = false;
  opt.progress = false;
  opt.write_game_logs = game_logs;
  opt.stop = stop;
  opt.stop_at = stop_at_update;
  opt.on_update = [&](std::int64_t step, const metrics::Scalars& scalars) {
    for (const auto& [tag, v] : scalars)
      if (tag.starts_with("loss/") || tag == "ppo/approx_kl" || tag == "ppo/clip_fraction" || tag == "ppo/samples" || tag == "ppo/lr" ||
          tag.starts_with("rank/") || tag == "selfplay/games" || tag == "selfplay/snapshot_version")
        out[step].emplace_back(tag, v);
    if (step == stop_at && stopper != nullptr) stopper->request();
  };
  Trainer trainer(std::move(cfg), std::move(opt));
  const TrainResult r = trainer.run();
  if (result != nullptr) *result = r;
  return out;
}

std::vector<std::int64_t> metric_steps(const fs::path& dir) {
  std::vector<std::int64_t> steps;
  std::ifstream in(dir / "metrics.jsonl");
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) steps.push_back(nlohmann::json::parse(line).at("step").get<std::int64_t>());
  return steps;
}

std::vector<fs::path> sorted_files(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().filename());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Trainer, SameSeedSameLossesAndSameGames) {
  const fs::path a = fresh_dir("det_a"), b = fresh_dir("det_b");
  const Losses la = train(a, tiny(3), false, true);
  const Losses lb = train(b, tiny(3), false, true);
  ASSERT_EQ(la.size(), 3u);
  EXPECT_EQ(la, lb);
  const auto files = sorted_files(a / "games");
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(files, sorted_files(b / "games"));
  for (const auto& f : files)
    EXPECT_EQ(data::read_text_file(a / "games" / f), data::read_text_file(b / "games" / f)) << f;
  // Another seed plays other games.
  const fs::path c = fresh_dir("det_c");
  const Losses lc = train(c, tiny(1, {"run.seed=2027"}), false, true);
  EXPECT_NE(data::read_text_file(a / "games" / files[0]), data::read_text_file(c / "games" / files[0]));
}

TEST(Trainer, ResumedRunComputesTheUninterruptedLosses) {
  // refresh_every 3, stopped after update 2: the checkpoint holds a stale actor snapshot
  // (version 0) and a pool of two, both of which the resume must restore. The schedules run to
  // train.max_updates, so both parts ask for 5.
  const fs::path whole = fresh_dir("whole"), split = fresh_dir("split");
  const Losses uninterrupted = train(whole, tiny(5), false);
  ASSERT_EQ(uninterrupted.size(), 5u);

  TrainResult first;
  Losses part1;
  {
    StopSignal stop;
    part1 = train(split, tiny(5), false, false, &stop, &first, 2, &stop);
  }
  EXPECT_EQ(first.step, 2);
  EXPECT_EQ(first.stop_reason, "signal");
  TrainResult second;
  const Losses part2 = train(split, tiny(5), true, false, nullptr, &second);
  EXPECT_EQ(second.start_step, 2);
  EXPECT_EQ(second.step, 5);
  ASSERT_EQ(part2.size(), 3u);
  for (std::int64_t step = 1; step <= 5; ++step) {
    const auto& got = step <= 2 ? part1.at(step) : part2.at(step);
    EXPECT_EQ(got, uninterrupted.at(step)) << "update " << step;
  }
  EXPECT_EQ(metric_steps(split), (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
}

TEST(Trainer, StopRequestCheckpointsAfterTheUpdateAndResumeContinues) {
  const fs::path dir = fresh_dir("stop");
  StopSignal stop;
  TrainResult r;
  train(dir, tiny(6, {"train.checkpoint_every=100"}), false, false, &stop, &r, 1, &stop);
  EXPECT_EQ(r.stop_reason, "signal");
  EXPECT_EQ(r.step, 1);
  ASSERT_FALSE(r.last_checkpoint.empty());
  EXPECT_EQ(r.last_checkpoint.filename(), "step-000000000001.ckpt");
  EXPECT_TRUE(fs::exists(dir / "checkpoints" / "latest"));

  // Records past the checkpoint (as after a kill) are dropped when the run resumes.
  {
    std::ofstream out(dir / "metrics.jsonl", std::ios::app);
    out << R"({"step": 2, "time": 0, "loss/policy": 9})" << "\n";
  }
  TrainResult r2;
  train(dir, tiny(3, {"train.checkpoint_every=100"}), true, false, nullptr, &r2);
  EXPECT_EQ(r2.start_step, 1);
  EXPECT_EQ(r2.step, 3);
  EXPECT_EQ(metric_steps(dir), (std::vector<std::int64_t>{1, 2, 3}));
}

TEST(Trainer, StopAtIsTheFirstUpdatesOfTheFullRun) {
  // --stop-at 2 of a 5-update run: its two updates are the full run's first two, learning rate
  // included, where a run of train.max_updates 2 anneals over 2 updates and learns otherwise.
  const fs::path whole = fresh_dir("whole"), dir = fresh_dir("stop_at"), two = fresh_dir("short");
  const Losses uninterrupted = train(whole, tiny(5, {"ppo.lr_floor=1e-6"}), false);
  TrainResult r;
  const Losses stopped = train(dir, tiny(5, {"ppo.lr_floor=1e-6"}), false, false, nullptr, &r, -1, nullptr, 2);
  EXPECT_EQ(r.stop_reason, "stop_at");
  EXPECT_EQ(r.step, 2);
  EXPECT_EQ(r.last_checkpoint.filename(), "step-000000000002.ckpt");
  ASSERT_EQ(stopped.size(), 2u);
  for (std::int64_t step = 1; step <= 2; ++step) EXPECT_EQ(stopped.at(step), uninterrupted.at(step)) << "update " << step;
  const Losses shortened = train(two, tiny(2, {"ppo.lr_floor=1e-6"}), false);
  EXPECT_NE(shortened.at(2), uninterrupted.at(2));

  // Resumed at or past its stop, the run says so and trains no further.
  TrainResult again;
  const Losses none = train(dir, tiny(5, {"ppo.lr_floor=1e-6"}), true, false, nullptr, &again, -1, nullptr, 2);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(again.step, 2);
  EXPECT_EQ(again.stop_reason, "stop_at");
}

TEST(Trainer, ResumeRefusesAChangedModel) {
  const fs::path dir = fresh_dir("refuse");
  train(dir, tiny(1), false);
  try {
    train(dir, tiny(2, {"model.channels=64"}), true);
    FAIL() << "resume with another model was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("model.channels: 32 in the run, 64 now"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hydra::ppo
