// Checkpoint models as agents (selfplay/model_agent.hpp): legal play over many seeded games, the
// argmax of a network whose policy head is biased toward one action, reproducible evaluation of a
// checkpoint, and the agent's observation equal to one encoded from the seat's own event stream.

#include <unistd.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>
#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/cpu_bf16.hpp"
#include "hydra/model/network.hpp"
#include "hydra/selfplay/duplicate.hpp"
#include "one_game.hpp"
#include "hydra/selfplay/eval_report.hpp"
#include "hydra/selfplay/torch/inference.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/selfplay/rollout.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

namespace fs = std::filesystem;

const game::TableRules& rules() { return game::table_rules("tenhou"); }

// A cheap observation-dependent policy (no torch): logit[a] = sum of the observation's plane a
// (a < 85), so the choices vary with the game; masked softmax over the legal actions.
class PlanePolicy final : public BatchPolicy {
 public:
  void evaluate(const PolicyBatch& in, PolicyOutput out) override {
    for (int i = 0; i < in.n; ++i) {
      std::array<float, kActions> logits{};
      const float* o = in.obs + static_cast<std::ptrdiff_t>(i) * encoder::kObsSize;
      for (int a = 0; a < kActions; ++a)
        for (int t = 0; t < encoder::kTiles; ++t) logits[ix(a)] += o[a * encoder::kTiles + t];
      masked_softmax(logits.data(), in.legal[i], out.probs + static_cast<std::ptrdiff_t>(i) * kActions);
      out.value[i] = 0;
    }
  }
  std::int64_t version() const override { return 0; }
};

// Wraps an agent: checks every choice against the decision's mask and counts decisions, and
// checks the model agent's observation against an Observer fed only this seat's view of events.
class Checked final : public ObservingAgent {
 public:
  explicit Checked(std::unique_ptr<ModelAgent> inner) : inner_(std::move(inner)) {}
  std::string_view name() const override { return inner_->name(); }
  void start_game(game::Seat seat, const game::GameKey& key) override {
    inner_->start_game(seat, key);
    reference_.emplace(seat, rules());
  }
  void observe(const game::Event& e) override {
    inner_->observe(e);
    reference_->apply(e);
  }
  game::Action act(const game::PlayerView& view, const game::Decision& d) override {
    const game::Action a = inner_->act(view, d);
    ++decisions;
    if (!d.mask.test(a)) ++illegal;
    std::vector<float> full(static_cast<std::size_t>(encoder::kObsSize));
    reference_->encode_full(full.data());
    if (full != inner_->last_obs()) ++obs_mismatch;
    if (d.mask.test(target)) {
      ++target_legal;
      target_taken += a == target;
    }
    return a;
  }

  game::Action target{game::Action::kPass};
  long decisions = 0, illegal = 0, obs_mismatch = 0, target_legal = 0, target_taken = 0;

 private:
  std::unique_ptr<ModelAgent> inner_;
  std::optional<encoder::Observer> reference_;
};

struct Totals {
  long decisions = 0, illegal = 0, obs_mismatch = 0, target_legal = 0, target_taken = 0;
  std::vector<std::string> games;  // each game as mjai text
};

Totals play(const std::shared_ptr<BatchPolicy>& policy, int games, std::uint64_t master, ModelAgentOptions opts = {},
            game::Action target = game::Action(game::Action::kPass)) {
  Totals t;
  for (int g = 0; g < games; ++g) {
    std::array<std::unique_ptr<Checked>, 4> agents;
    std::array<game::Agent*, 4> seats{};
    for (std::size_t s = 0; s < 4; ++s) {
      agents[s] = std::make_unique<Checked>(std::make_unique<ModelAgent>(policy, rules(), "test", opts));
      agents[s]->target = target;
      seats[s] = agents[s].get();
    }
    game::GameResult r =
        testing::play_one_observed(rules(), game::game_key(game::MasterSeed{master}, static_cast<std::uint64_t>(g)), seats);
    for (const auto& a : agents) {
      t.decisions += a->decisions;
      t.illegal += a->illegal;
      t.obs_mismatch += a->obs_mismatch;
      t.target_legal += a->target_legal;
      t.target_taken += a->target_taken;
    }
    data::GameLog log;
    log.events = std::move(r.events);
    t.games.push_back(data::to_mjai_text(log));
  }
  return t;
}

config::ModelConfig tiny_model() {
  config::ModelConfig m;
  m.blocks = 1;
  m.channels = 32;
  m.policy_channels = 4;
  m.value_hidden = 16;
  m.grp_hidden = 16;
  m.tenpai_hidden = 8;
  return m;
}

struct TempDir {
  fs::path path;
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path = fs::temp_directory_path() / ("hydra_model_agent_" + std::to_string(::getpid()) + "_" + info->name());
    fs::create_directories(path);
  }
  // No remove_all in torch-linked binaries (LibTorch exports its own std::filesystem symbols).
  ~TempDir() {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path, ec)) fs::remove(entry.path(), ec);
    fs::remove(path, ec);
  }
};

fs::path write_checkpoint(const fs::path& dir, const config::ModelConfig& m, std::uint64_t init_seed) {
  config::Config cfg;
  cfg.model = m;
  model::HydraNet net(m);
  net->init_weights(init_seed);
  model::CheckpointData data;
  data.step = 7;
  data.config = config::to_json(cfg);
  const fs::path file = dir / "tiny.ckpt";
  model::save_checkpoint(file, data, *net);
  return file;
}

TEST(PickAction, ArgmaxTakesTheLowestOfTiesAndSamplingFollowsTheCumulativeSums) {
  std::array<float, kActions> p{};
  p[3] = 0.25f;
  p[7] = 0.5f;
  p[9] = 0.5f;  // not legal below
  p[20] = 0.25f;
  game::ActionMask mask;
  for (int a : {3, 7, 20, 30}) mask.set(game::Action(a));
  EXPECT_EQ(pick_action(p.data(), mask, std::nullopt).index(), 7);
  p[20] = 0.5f;  // a tie with 7: the lower index wins
  EXPECT_EQ(pick_action(p.data(), mask, std::nullopt).index(), 7);
  p[20] = 0.25f;
  // Legal mass 1.0: [0, 0.25) -> 3, [0.25, 0.75) -> 7, [0.75, 1) -> 20; 30 has none.
  EXPECT_EQ(pick_action(p.data(), mask, 0.0).index(), 3);
  EXPECT_EQ(pick_action(p.data(), mask, 0.2).index(), 3);
  EXPECT_EQ(pick_action(p.data(), mask, 0.3).index(), 7);
  EXPECT_EQ(pick_action(p.data(), mask, 0.74).index(), 7);
  EXPECT_EQ(pick_action(p.data(), mask, 0.8).index(), 20);
  EXPECT_EQ(pick_action(p.data(), mask, 0.999999).index(), 20);
}

TEST(ModelAgent, OnlyLegalActionsAndOwnObservationsOverManyGames) {
  auto policy = std::make_shared<PlanePolicy>();
  for (bool sample : {false, true}) {
    const Totals t = play(policy, 12, 41, ModelAgentOptions{sample, 1.0});
    EXPECT_GT(t.decisions, 12 * 200) << "sample " << sample;
    EXPECT_EQ(t.illegal, 0);
    EXPECT_EQ(t.obs_mismatch, 0);  // the incremental encoder equals a full encode of the seat's view
  }
}

TEST(ModelAgent, SamplingReplaysExactlyAndDiffersFromGreedy) {
  auto policy = std::make_shared<PlanePolicy>();
  const ModelAgentOptions sample{true, 1.0};
  const Totals a = play(policy, 2, 77, sample), b = play(policy, 2, 77, sample);
  EXPECT_EQ(a.games, b.games);
  const Totals greedy = play(policy, 2, 77);
  EXPECT_NE(greedy.games, a.games);
}

TEST(ModelAgent, ActingBeforeAnyEventIsAnInternalError) {
  ModelAgent agent(std::make_shared<PlanePolicy>(), rules(), "x");
  const game::PlayerView view(game::Seat(0), rules());
  game::ActionMask mask;
  mask.set(game::Action(0));
  EXPECT_THROW(agent.act(view, game::Decision{game::Seat(0), game::Phase::idle, mask}), InvariantError);
}

// A network whose policy head ignores the trunk (zero weights) and favours one action by its
// bias: the greedy agent takes that action every time it is legal, and plays legal moves
// otherwise.
TEST(ModelAgent, GreedyArgmaxFollowsABiasedPolicyHead) {
  torch::manual_seed(0);
  model::HydraNet net(tiny_model());
  net->init_weights(3);
  const game::Action favoured = game::Action::discard(game::Pai(game::TileType(27)));  // East
  {
    torch::NoGradGuard no_grad;
    net->policy->fc->weight.zero_();
    net->policy->fc->bias.zero_();
    net->policy->fc->bias[favoured.index()] = 5.0;
  }
  auto policy = std::make_shared<InferenceModel>(*net, torch::kCPU, 0);
  const Totals t = play(policy, 2, 5, {}, favoured);
  EXPECT_EQ(t.illegal, 0);
  EXPECT_GT(t.target_legal, 0);
  EXPECT_EQ(t.target_taken, t.target_legal);
}

TEST(ModelAgent, EvalOfACheckpointIsReproducible) {
  TempDir dir;
  const fs::path ckpt = write_checkpoint(dir.path, tiny_model(), 11);
  ModelAgents agents("cpu", rules(), {}, checkpoint_policy);
  EvalOptions o;
  o.challenger = ckpt.string();
  o.champion = "bot:random";
  o.seeds = 2;
  o.master = game::MasterSeed{123};
  o.make_agent = agents.factory();
  const EvalResult first = run_eval(o);
  EXPECT_TRUE(agents.any_model());
  EXPECT_EQ(first.games, 8u);
  const std::string report = report_json(o, first).dump();
  EXPECT_EQ(report_json(o, run_eval(o)).dump(), report);
  // A fresh factory (the checkpoint loaded again) gives the same report too.
  ModelAgents again("cpu", rules(), {}, checkpoint_policy);
  o.make_agent = again.factory();
  EXPECT_EQ(report_json(o, run_eval(o)).dump(), report);
}

// hydra eval plays model agents in lock step, batching decisions across games. With a policy
// whose rows depend on their own inputs only, that must give exactly the games of the
// one-decision-at-a-time reference (testing::play_seed_one_by_one), for any thread count.
TEST(ModelAgent, LockstepEvalEqualsOneAtATime) {
  auto challenger = std::make_shared<PlanePolicy>();
  auto champion = std::make_shared<PlanePolicy>();
  EvalOptions o;
  o.challenger = "plane-a";
  o.champion = "plane-b";
  o.seeds = 3;
  o.master = game::MasterSeed{31};
  o.make_agent = [&](const std::string& name) -> std::unique_ptr<game::Agent> {
    return std::make_unique<ModelAgent>(name == "plane-a" ? challenger : champion, rules(), name,
                                        ModelAgentOptions{name == "plane-b", 1.0});
  };
  const EvalResult r = run_eval(o);
  ASSERT_EQ(r.seeds.size(), 3u);
  for (std::uint64_t i = 0; i < 3; ++i) EXPECT_EQ(testing::play_seed_one_by_one(o, i).games, r.seeds[i].games) << "seed " << i;
  {
    const oneapi::tbb::global_control one(oneapi::tbb::global_control::max_allowed_parallelism, 1);
    EXPECT_EQ(report_json(o, run_eval(o)).dump(), report_json(o, r).dump());
  }
}

// --cpu-bf16 and a search's bf16=1: a checkpoint is loaded once per precision, the bf16 one with
// model.cpu_bf16_inference (model::CpuBf16Net in its evaluate()), and a bf16 eval replays exactly.
TEST(ModelAgents, Bf16CheckpointsLoadApartAndReplayExactly) {
  if (!model::CpuBf16Net::supported()) GTEST_SKIP() << "this CPU lacks AVX-512";
  TempDir dir;
  const fs::path ckpt = write_checkpoint(dir.path, tiny_model(), 11);
  std::vector<std::pair<std::string, bool>> loads;
  std::vector<std::shared_ptr<BatchPolicy>> loaded;
  const PolicyLoader counting = [&](const std::string& path, const std::string& device, bool cpu_bf16) {
    loads.emplace_back(path, cpu_bf16);
    loaded.push_back(checkpoint_policy(path, device, cpu_bf16));
    return loaded.back();
  };
  ModelAgents agents("cpu", rules(), {}, counting);
  (void)agents.make("search:" + ckpt.string() + ":walls=2:bf16=1");
  (void)agents.make("search:" + ckpt.string() + ":walls=2");
  ASSERT_EQ(loads.size(), 2u);  // the root in fp32 (shared by both), the play-outs' network in bf16
  EXPECT_EQ(loads[0], std::pair(ckpt.string(), false));
  EXPECT_EQ(loads[1], std::pair(ckpt.string(), true));
  const auto* fp32 = dynamic_cast<const InferenceModel*>(loaded[0].get());
  const auto* bf16 = dynamic_cast<const InferenceModel*>(loaded[1].get());
  ASSERT_TRUE(fp32 != nullptr && bf16 != nullptr);
  EXPECT_FALSE(fp32->model_config().cpu_bf16_inference);
  EXPECT_TRUE(bf16->model_config().cpu_bf16_inference);

  ModelAgentOptions low;
  low.cpu_bf16 = true;
  ModelAgents bf16_agents("cpu", rules(), low, checkpoint_policy);
  EvalOptions o;
  o.challenger = ckpt.string();
  o.champion = "bot:random";
  o.seeds = 2;
  o.master = game::MasterSeed{123};
  o.make_agent = bf16_agents.factory();
  const std::string report = report_json(o, run_eval(o)).dump();
  ModelAgents again("cpu", rules(), low, checkpoint_policy);
  o.make_agent = again.factory();
  EXPECT_EQ(report_json(o, run_eval(o)).dump(), report);
}

TEST(ModelAgents, NamesResolveToBotsOrCheckpoints) {
  ModelAgents agents("cpu", rules(), {}, checkpoint_policy);
  EXPECT_EQ(agents.make("bot:greedy")->name(), "greedy");
  EXPECT_FALSE(agents.any_model());
  try {
    (void)agents.make("no/such/model.ckpt");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no/such/model.ckpt"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hydra::selfplay
