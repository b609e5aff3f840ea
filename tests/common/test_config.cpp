#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"

namespace hydra::config {
namespace {

// Expects parse() to throw hydra::Error whose message contains every fragment.
void expect_error(std::string_view text, const std::vector<std::string>& sets,
                  const std::vector<std::string>& fragments) {
  try {
    parse(text, "cfg/test.json", sets);
    FAIL() << "expected a config error for: " << text;
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const auto& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
  }
}

TEST(Config, DefaultsMatchTheSpec) {
  const Config c = load(std::nullopt);
  EXPECT_EQ(c.model.blocks, 40);     // docs/MODEL.md: N=40
  EXPECT_EQ(c.model.channels, 256);  // C=256
  EXPECT_EQ(c.rules.preset, "tenhou");
  EXPECT_EQ(c.run.device, "auto");
  EXPECT_FALSE(c.run.seed.has_value());
}

TEST(Config, ReadsValuesAndAllowsComments) {
  const Config c = parse(R"({
    // a line comment
    "run": {"seed": 18446744073709551615, "device": "cpu"},  /* block comment */
    "model": {"blocks": 4, "channels": 64}
  })", "x.json");
  EXPECT_EQ(c.run.seed.value(), 18446744073709551615ULL);
  EXPECT_EQ(c.run.device, "cpu");
  EXPECT_EQ(c.model.blocks, 4);
  EXPECT_EQ(c.model.channels, 64);
  EXPECT_EQ(c.rules.length, "hanchan");  // untouched keys keep their defaults
}

TEST(Config, MisspeltKeyNamesKeyFileAndSuggestion) {
  expect_error(R"({"model": {"blcks": 4}})", {}, {"cfg/test.json", "unknown key 'model.blcks'", "did you mean 'model.blocks'"});
  expect_error(R"({"modle": {}})", {}, {"cfg/test.json", "unknown key 'modle'", "'model'"});
}

TEST(Config, WrongTypeNamesKeyAndType) {
  expect_error(R"({"model": {"blocks": "four"}})", {}, {"cfg/test.json", "model.blocks", "expected an integer", "\"four\""});
  expect_error(R"({"model": {"cpu_bf16": 1}})", {}, {"model.cpu_bf16", "expected true or false"});
  expect_error(R"({"model": 3})", {}, {"model", "expected an object"});
  expect_error(R"({"run": {"seed": -1}})", {}, {"run.seed", "must not be negative"});
}

TEST(Config, OutOfRangeAndChoices) {
  expect_error(R"({"model": {"blocks": 0}})", {}, {"model.blocks", "out of range [1, 256]"});
  expect_error(R"({"run": {"device": "tpu"}})", {}, {"run.device", "'tpu' is not one of: auto, cpu, cuda"});
  expect_error(R"({"model": {"channels": 48}})", {}, {"model.channels", "multiple of 32"});
}

TEST(Config, SyntaxErrorNamesFileLineAndColumn) {
  expect_error("{\n  \"model\": {\n    \"blocks\": 4,,\n  }\n}", {}, {"cfg/test.json", "line 3"});
}

TEST(Config, SetOverridesFileAndNamesItselfInErrors) {
  const Config c = parse(R"({"model": {"blocks": 4}})", "x.json",
                         {"model.blocks=8", "run.device=cpu", "run.seed=7", "run.name=\"a b\""});
  EXPECT_EQ(c.model.blocks, 8);
  EXPECT_EQ(c.run.device, "cpu");
  EXPECT_EQ(c.run.seed.value(), 7u);
  EXPECT_EQ(c.run.name, "a b");
  const Config n = parse(R"({"run": {"seed": 5}})", "x.json", {"run.seed=null"});
  EXPECT_FALSE(n.run.seed.has_value());
  expect_error("{}", {"model.blokcs=8"}, {"--set model.blokcs=8", "unknown key 'model.blokcs'"});
  expect_error("{}", {"model.blocks=999"}, {"--set model.blocks=999", "out of range"});
  expect_error("{}", {"model.blocks"}, {"expected key.path=value"});
  expect_error(R"({"model": {"blocks": 4}})", {"model.blocks.x=1"}, {"'model.blocks' is not a section"});
  expect_error("{}", {"model.blocks.x=1"}, {"model.blocks", "expected an integer, got an object"});
}

// Errors about what only a --set brought in name that flag, never the file or the defaults.
TEST(Config, ErrorsBlameTheSetFlagThatCausedThem) {
  expect_error("{}", {"nosuch.key=1"}, {"config error in '--set nosuch.key=1': unknown key 'nosuch'"});
  expect_error("{}", {"selfplay.opp_self=0.9"},
               {"config error in '--set selfplay.opp_self=0.9': selfplay.opp_self + opp_pool + opp_baseline"});
  // The sum involves the flag and the file: both are named.
  expect_error(R"({"selfplay": {"opp_pool": 0.5}})", {"selfplay.opp_self=0.9"},
               {"config error in '--set selfplay.opp_self=0.9' and 'cfg/test.json': selfplay.opp_self"});
  expect_error(R"({"selfplay": {"opp_pool": 0.5}})", {}, {"config error in 'cfg/test.json': selfplay.opp_self"});
  expect_error("{}", {"ppo.minibatch=8192"}, {"config error in '--set ppo.minibatch=8192': ppo.minibatch (8192)"});
  // The expected policy gradient takes its action values from play-outs; the privileged critic is
  // GAE's baseline. Retired values name their retirement.
  expect_error("{}", {"ppo.policy_gradient=\"expected\""},
               {"config error in '--set ppo.policy_gradient=\"expected\"'", "set ppo.advantage to rollout",
                "Retired estimators"});
  expect_error(R"({"ppo": {"advantage": "rollout"}})", {"ppo.critic=\"privileged\""},
               {"'--set ppo.critic=\"privileged\"' and 'cfg/test.json'", "ppo.critic = privileged is the baseline of GAE"});
  expect_error("{}", {"ppo.advantage=\"paired\""}, {"ppo.advantage", "'paired' was retired", "one of: gae, rollout"});
  expect_error("{}", {"ppo.critic=\"observed\""}, {"ppo.critic", "'observed' was retired", "one of: value_head, privileged"});
  EXPECT_EQ(parse(R"({"ppo": {"advantage": "rollout", "policy_gradient": "expected"}})", "x.json", {}).ppo.policy_gradient,
            "expected");
  // Only the expected form has decisions without action advantages to thin; a share is in (0, 1].
  expect_error(R"({"ppo": {"advantage": "rollout"}})", {"ppo.unplayed_share=0.25"},
               {"config error in '--set ppo.unplayed_share=0.25'", "only the expected policy gradient has"});
  expect_error(R"({"ppo": {"advantage": "rollout", "policy_gradient": "expected"}})", {"ppo.unplayed_share=0"},
               {"ppo.unplayed_share"});
  EXPECT_EQ(parse(R"({"ppo": {"advantage": "rollout", "policy_gradient": "expected", "unplayed_share": 0.25}})",
                  "x.json", {})
                .ppo.unplayed_share,
            0.25);
  // One estimator type per valid combination, chosen where the config is parsed.
  EXPECT_EQ(hydra::config::estimator(parse("{}", "x.json", {}).ppo), hydra::config::Estimator::gae);
  EXPECT_EQ(hydra::config::estimator(parse(R"({"ppo": {"critic": "privileged"}})", "x.json", {}).ppo),
            hydra::config::Estimator::privileged_gae);
  EXPECT_EQ(hydra::config::estimator(parse(R"({"ppo": {"advantage": "rollout"}})", "x.json", {}).ppo),
            hydra::config::Estimator::play_outs);
  EXPECT_EQ(hydra::config::estimator(
                parse(R"({"ppo": {"advantage": "rollout", "policy_gradient": "expected"}})", "x.json", {}).ppo),
            hydra::config::Estimator::play_outs_expected);
  // Who plays the play-outs: bot:greedy or a network; never another bot or an external process,
  // and `start` only where the run has one.
  expect_error("{}", {"selfplay.play_out_agent=\"bot:random\""},
               {"'--set selfplay.play_out_agent=\"bot:random\"'", "the bot that plays out is bot:greedy"});
  expect_error("{}", {"selfplay.play_out_agent=\"mjai:./bot\""}, {"an external agent cannot play out"});
  expect_error("{}", {"selfplay.play_out_agent=\"\""}, {"selfplay.play_out_agent: '': bot:greedy, or a network"});
  expect_error("{}", {"selfplay.play_out_agent=\"agent\""}, {"selfplay.play_out_agent: 'agent': bot:greedy"});
  {
    using hydra::config::loads_checkpoint;
    using hydra::config::play_out_player;
    EXPECT_TRUE(loads_checkpoint(play_out_player("start")));
    EXPECT_TRUE(loads_checkpoint(play_out_player("runs/a.ckpt")));
    for (const char* word : {"bot:greedy", "snapshot", "agent"}) EXPECT_FALSE(loads_checkpoint(play_out_player(word))) << word;
  }
  expect_error("{}", {"selfplay.play_out_agent=\"start\""},
               {"selfplay.play_out_agent = start plays with the run's start, ppo.init, which is not set"});
  // A cut play-out is scored by its agent's value head, which must estimate the final placement
  // points: bot:greedy has none, and the snapshot's learns the kyoku's GRP returns.
  expect_error("{}", {"selfplay.play_out_depth=8"},
               {"config error in '--set selfplay.play_out_depth=8': ", "play_out_agent 'bot:greedy' has no value head"});
  expect_error(R"({"selfplay": {"play_out_agent": "snapshot"}})", {"selfplay.play_out_depth=8"},
               {"'--set selfplay.play_out_depth=8' and 'cfg/test.json'", "whose value head learns the kyoku's GRP returns"});
  EXPECT_EQ(parse(R"({"selfplay": {"play_out_agent": "start", "play_out_depth": 8}, "ppo": {"init": "bc.ckpt"}})",
                  "x.json", {})
                .selfplay.play_out_depth,
            8);
  expect_error("{}", {"selfplay.play_out_depth=-1"}, {"selfplay.play_out_depth"});
  // A greedy tail hands a network's play-out to bot:greedy after the depth: no value head is read,
  // so the snapshot may play it; it needs a depth and a network.
  EXPECT_EQ(parse(R"({"selfplay": {"play_out_agent": "snapshot", "play_out_depth": 8, "play_out_tail": "bot:greedy"}})",
                  "x.json", {})
                .selfplay.play_out_tail,
            "bot:greedy");
  expect_error(R"({"selfplay": {"play_out_agent": "snapshot"}})", {"selfplay.play_out_tail=\"bot:greedy\""},
               {"play_out_tail = bot:greedy hands a network's play-out", "which is 0: set play_out_depth > 0"});
  expect_error(R"({"selfplay": {"play_out_depth": 8}})", {"selfplay.play_out_tail=\"bot:greedy\""},
               {"but play_out_agent is bot:greedy already"});
  expect_error("{}", {"selfplay.play_out_tail=\"greedy\""},
               {"'--set selfplay.play_out_tail=\"greedy\"'", "selfplay.play_out_tail: 'greedy': value"});
  // The gate on action values weighs a mean against the spread of its walls: one wall has none.
  EXPECT_DOUBLE_EQ(parse("{}", "x.json", {"selfplay.play_out_sigmas=2"}).selfplay.play_out_sigmas, 2.0);
  expect_error(R"({"selfplay": {"play_outs": 1}})", {"selfplay.play_out_sigmas=2"},
               {"'--set selfplay.play_out_sigmas=2' and 'cfg/test.json'", "selfplay.play_outs is 1: set play_outs >= 2"});
  expect_error("{}", {"selfplay.play_out_sigmas=-1"}, {"selfplay.play_out_sigmas"});
  // The gate by the decision's kind: booleans, both open by default.
  EXPECT_TRUE(parse("{}", "x.json", {}).selfplay.play_out_calls);
  EXPECT_TRUE(parse("{}", "x.json", {}).selfplay.play_out_riichi);
  EXPECT_FALSE(parse("{}", "x.json", {"selfplay.play_out_calls=false"}).selfplay.play_out_calls);
  EXPECT_FALSE(parse(R"({"selfplay": {"play_out_riichi": false}})", "x.json", {}).selfplay.play_out_riichi);
  expect_error(R"({"selfplay": {"play_out_calls": "no"}})", {}, {"cfg/test.json", "selfplay.play_out_calls"});
  // Other seats played by another agent leave the deciding seat to a network: the agent must be one.
  EXPECT_EQ(parse(R"({"selfplay": {"play_out_agent": "snapshot", "play_out_others": "start"}, "ppo": {"init": "bc.ckpt"}})",
                  "x.json", {})
                .selfplay.play_out_others,
            "start");
  using hydra::config::play_out_player;
  using hydra::config::PlayOutPlayer;
  EXPECT_EQ(play_out_player(
                parse(R"({"selfplay": {"play_out_agent": "start", "play_out_others": "small.ckpt"}, "ppo": {"init": "bc.ckpt"}})",
                      "x.json", {})
                    .selfplay.play_out_others),
            PlayOutPlayer::checkpoint);
  EXPECT_EQ(play_out_player(parse("{}", "x.json", {}).selfplay.play_out_others), PlayOutPlayer::agent);
  expect_error(R"({"selfplay": {"play_out_agent": "snapshot"}})", {"selfplay.play_out_others=\"start\""},
               {"selfplay.play_out_others = start plays with the run's start, ppo.init, which is not set"});
  expect_error(R"({"selfplay": {"play_out_agent": "snapshot"}})", {"selfplay.play_out_others=\"snapshot\""},
               {"selfplay.play_out_others: 'snapshot': agent"});
  EXPECT_EQ(parse(R"({"selfplay": {"play_out_agent": "snapshot", "play_out_others": "bot:greedy"}})", "x.json", {})
                .selfplay.play_out_others,
            "bot:greedy");
  expect_error("{}", {"selfplay.play_out_others=\"bot:greedy\""}, {"leaves the deciding seat to a network, but play_out_agent is bot:greedy:"});
  expect_error(R"({"selfplay": {"play_out_agent": "snapshot"}})", {"selfplay.play_out_others=\"greedy\""},
               {"'--set selfplay.play_out_others=\"greedy\"'", "selfplay.play_out_others: 'greedy': agent"});
  EXPECT_EQ(play_out_player(parse("{}", "x.json", {}).selfplay.play_out_agent), PlayOutPlayer::greedy);
  EXPECT_EQ(play_out_player(parse(R"({"selfplay": {"play_out_agent": "snapshot"}})", "x.json", {}).selfplay.play_out_agent),
            PlayOutPlayer::snapshot);
  EXPECT_EQ(play_out_player(
                parse(R"({"selfplay": {"play_out_agent": "start"}, "ppo": {"init": "bc.ckpt"}})", "x.json", {}).selfplay.play_out_agent),
            PlayOutPlayer::start);
  EXPECT_EQ(play_out_player(parse(R"({"selfplay": {"play_out_agent": "runs/a.ckpt"}})", "x.json", {}).selfplay.play_out_agent),
            PlayOutPlayer::checkpoint);
  try {
    (void)load(std::nullopt, {"selfplay.opp_pool=0"});
    FAIL() << "the shares do not sum to 1";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'--set selfplay.opp_pool=0'"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("<defaults>"), std::string::npos) << e.what();
  }
}

TEST(Config, ADirectoryIsNoConfigFile) {
  try {
    (void)load(std::filesystem::temp_directory_path());
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}

TEST(Config, RoundTripsThroughJson) {
  const Config c = parse(R"({"model": {"blocks": 6}, "run": {"seed": 3}})", "x.json");
  const auto text = to_json(c).dump();
  const Config d = parse(text, "roundtrip");
  EXPECT_EQ(to_json(d).dump(), text);
  EXPECT_EQ(d.model.blocks, 6);
}

TEST(Config, MissingFileIsAClearError) {
  try {
    load(std::filesystem::path("no/such/config.json"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no/such/config.json"), std::string::npos);
  }
}

TEST(Config, ShippedConfigsAreValid) {
  for (const auto& entry : std::filesystem::directory_iterator(HYDRA_SOURCE_DIR "/configs")) {
    if (entry.path().extension() != ".json") continue;
    EXPECT_NO_THROW(load(entry.path())) << entry.path();
  }
}

}  // namespace
}  // namespace hydra::config
