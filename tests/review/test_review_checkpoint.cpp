// hydra review with a real checkpoint: loaded by checkpoint_policy (what torch_side::
// policy_loader hands `hydra eval` and `hydra review`), the review of a real game shows at every
// decision of every seat the action the checkpoint agent plays there, one act() at a time.

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "agent_replay.hpp"
#include "hydra/common/config.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/network.hpp"
#include "hydra/review/review.hpp"
#include "hydra/model/grp.hpp"
#include "hydra/selfplay/torch/inference.hpp"
#include "testdata.hpp"

namespace hydra::review {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("hydra_review_" + std::to_string(::getpid()));
    fs::create_directories(path);
  }
  // No remove_all in torch-linked binaries (LibTorch exports its own std::filesystem symbols).
  ~TempDir() {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path, ec)) fs::remove(entry.path(), ec);
    fs::remove(path, ec);
  }
};

fs::path write_checkpoint(const fs::path& dir, const std::string& kind) {
  config::Config cfg;
  cfg.model.blocks = 1;
  cfg.model.channels = 32;
  model::CheckpointData data;
  data.step = 9;
  data.config = config::to_json(cfg);
  const fs::path file = dir / (kind + ".ckpt");
  if (kind == "grp") {
    model::GrpNet net(cfg.model);
    data.kind = "grp";
    model::save_checkpoint(file, data, *net);
  } else {
    model::HydraNet net(cfg.model);
    net->init_weights(3);
    model::save_checkpoint(file, data, *net);
  }
  return file;
}

TEST(ReviewCheckpoint, TopActionIsTheCheckpointAgentsActionAtEveryDecisionOfARealGame) {
  HYDRA_REQUIRE_TESTDATA(dir, "tenhou_xml");
  const auto files = hydra::testing::files_ending_with(dir, ".xml");
  ASSERT_FALSE(files.empty());
  TempDir tmp;
  const std::shared_ptr<selfplay::BatchPolicy> policy = selfplay::checkpoint_policy(write_checkpoint(tmp.path, "net").string(), "cpu");
  EXPECT_EQ(policy->version(), 9);
  const game::TableRules& rules = game::table_rules("tenhou");
  const data::GameLog log = data::read_log(files.back());
  const Review r = review_game(log, files.back().string(), rules, *policy);
  const auto expected = hydra::testing::agent_decisions(log, rules, policy, {0, 1, 2, 3});
  ASSERT_EQ(r.decisions.size(), expected.size());
  ASSERT_GT(expected.size(), 200U);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Decision& d = r.decisions[i];
    ASSERT_EQ(d.seat, expected[i].seat);
    EXPECT_EQ(d.agent, expected[i].action) << "decision " << i;
    EXPECT_EQ(d.choices.front().action, expected[i].action) << "decision " << i;
    EXPECT_EQ(d.taken, expected[i].logged);
    EXPECT_NEAR(d.choices.front().prob, expected[i].probs[static_cast<std::size_t>(expected[i].action)], 1e-5);
    EXPECT_NEAR(d.taken_prob, expected[i].probs[static_cast<std::size_t>(expected[i].logged)], 1e-5);
    EXPECT_NEAR(d.value, expected[i].value, 1e-5);
  }
}

TEST(ReviewCheckpoint, ACheckpointOfAnotherKindIsOneErrorNamingTheFile) {
  TempDir tmp;
  const fs::path grp = write_checkpoint(tmp.path, "grp");
  try {
    (void)selfplay::checkpoint_policy(grp.string(), "cpu");
    ADD_FAILURE() << "a grp checkpoint loaded as a policy";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(grp.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a hydra_net policy"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hydra::review
