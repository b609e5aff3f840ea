// The training run directory: config.json and seeds.json of a new run, and what a resume accepts.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/ppo/trainer_run.hpp"

namespace hydra::ppo {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("hydra_trainer_run_" + std::to_string(::getpid()) + "_" + name);
  std::error_code ec;
  for (const char* sub : {"checkpoints/step-000000000001.ckpt", "checkpoints", "config.json", "seeds.json", ""})
    fs::remove(dir / sub, ec);  // one by one: remove_all is unsafe next to LibTorch
  return dir;
}

class TempDirs : public ::testing::Environment {
 public:
  void TearDown() override {
    for (const char* name : {"new", "occupied", "empty", "resume", "refuse"}) fresh_dir(name);
  }
};
[[maybe_unused]] const auto* const kTempDirs = ::testing::AddGlobalTestEnvironment(new TempDirs);

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(TrainerRun, ResumeMayChangeOnlyBoundsReportingAndPlace) {
  for (const char* key : {"train.max_updates", "train.max_minutes", "train.log_every", "train.checkpoint_every",
                          "train.tensorboard", "checkpoint.keep", "run.dir", "run.name", "run.device", "run.threads",
                          "run.log_level", "pretrain.batch"})
    EXPECT_TRUE(resume_may_differ(key)) << key;
  for (const char* key : {"run.seed", "model.blocks", "ppo.lr", "ppo.rollout_samples", "selfplay.games",
                          "selfplay.baseline", "rules.preset", "trainer.x", "run.directory"})
    EXPECT_FALSE(resume_may_differ(key)) << key;
}

TEST(TrainerRun, ConfigChangesListsEveryDifferingLeaf) {
  const nlohmann::json a = {{"x", {{"a", 1}, {"b", "s"}}}, {"y", 2}, {"gone", true}};
  const nlohmann::json b = {{"x", {{"a", 1}, {"b", "t"}}}, {"y", 3}, {"new", nullptr}};
  const auto c = config_changes(a, b);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].key, "new");  // `now` order: new, x.a (same), x.b, y; then keys only in saved
  EXPECT_EQ(c[0].saved, "(absent)");
  EXPECT_EQ(c[1].key, "x.b");
  EXPECT_EQ(c[1].saved, "\"s\"");
  EXPECT_EQ(c[1].now, "\"t\"");
  EXPECT_EQ(c[2].key, "y");
  EXPECT_EQ(c[3].key, "gone");
  EXPECT_EQ(c[3].now, "(absent)");
  EXPECT_TRUE(config_changes(a, a).empty());
}

TEST(TrainerRun, SeedsFileHoldsTheKdfStreamKeys) {
  const auto j = seeds_json(42, true);
  EXPECT_EQ(j["master_seed"], 42u);
  EXPECT_EQ(j["drawn"], true);
  ASSERT_EQ(j["streams"].size(), game::labels::all.size());
  // Independent truth: SHA-256(LE64(42) || "exploration"), spelled out byte by byte.
  std::string bytes(8, '\0');
  bytes[0] = 42;
  bytes += "exploration";
  EXPECT_EQ(j["streams"]["exploration"], game::to_hex(game::sha256(bytes)));
}

TEST(TrainerRun, NewRunWritesEffectiveConfigAndDrawsAMissingSeed) {
  const fs::path dir = fresh_dir("new");
  config::Config cfg = config::load(std::nullopt, {"model.blocks=2", "run.seed=null"});
  const PreparedRun run = prepare_run(cfg, dir, /*resume=*/false, /*has_checkpoint=*/false);
  EXPECT_TRUE(run.seed_drawn);
  ASSERT_TRUE(run.config.run.seed.has_value());
  EXPECT_EQ(*run.config.run.seed, run.seed);
  EXPECT_EQ(run.config.run.dir, dir.string());
  const auto saved = read_json(dir / "config.json");
  EXPECT_EQ(saved["run"]["seed"], run.seed);
  EXPECT_EQ(saved["model"]["blocks"], 2);
  // The saved config loads back into the same effective config.
  EXPECT_EQ(nlohmann::json(config::to_json(config::load(dir / "config.json"))), saved);
  const auto seeds = read_json(dir / "seeds.json");
  EXPECT_EQ(seeds["master_seed"], run.seed);
  EXPECT_EQ(seeds["drawn"], true);
  EXPECT_TRUE(fs::is_directory(dir / "checkpoints"));
}

TEST(TrainerRun, NewRunRefusesADirectoryWithCheckpoints) {
  const fs::path dir = fresh_dir("occupied");
  const std::string msg = error_of([&] { prepare_run(config::load(std::nullopt), dir, false, true); });
  EXPECT_NE(msg.find("already holds checkpoints: pass --resume"), std::string::npos) << msg;
}

TEST(TrainerRun, ResumeRefusesARunWithoutCheckpoint) {
  const fs::path dir = fresh_dir("empty");
  const std::string msg = error_of([&] { prepare_run(config::load(std::nullopt), dir, true, false); });
  EXPECT_NE(msg.find("holds no checkpoint"), std::string::npos) << msg;
}

TEST(TrainerRun, ResumeTakesTheSavedSeedAndAllowsNewBounds) {
  const fs::path dir = fresh_dir("resume");
  prepare_run(config::load(std::nullopt, {"run.seed=77", "train.max_updates=10"}), dir, false, false);
  const PreparedRun run =
      prepare_run(config::load(std::nullopt, {"run.seed=null", "train.max_updates=20"}), dir, true, true);
  EXPECT_EQ(run.seed, 77u);
  EXPECT_FALSE(run.seed_drawn);
  ASSERT_EQ(run.resume_changes.size(), 1u);
  EXPECT_EQ(run.resume_changes[0].key, "train.max_updates");
  EXPECT_EQ(read_json(dir / "config.json")["train"]["max_updates"], 20);
  EXPECT_EQ(read_json(dir / "seeds.json")["master_seed"], 77u);
}

TEST(TrainerRun, ResumeRefusesChangesThatMatterNamingEach) {
  const fs::path dir = fresh_dir("refuse");
  prepare_run(config::load(std::nullopt, {"run.seed=5"}), dir, false, false);
  const std::string msg = error_of([&] {
    prepare_run(config::load(std::nullopt, {"model.blocks=3", "ppo.lr=0.5", "train.max_updates=3"}), dir, true, true);
  });
  EXPECT_NE(msg.find("model.blocks: 40 in the run, 3 now"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ppo.lr: 0.0001 in the run, 0.5 now"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("train.max_updates"), std::string::npos) << msg;
  const std::string seed_msg = error_of([&] { prepare_run(config::load(std::nullopt, {"run.seed=6"}), dir, true, true); });
  EXPECT_NE(seed_msg.find("run.seed: 5 in the run, 6 now"), std::string::npos) << seed_msg;
}

}  // namespace
}  // namespace hydra::ppo
