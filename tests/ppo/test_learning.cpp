// Controlled learning problems with a known answer, through the real Learner, the real inference
// snapshot the actors play with and real self-play rollouts (docs/PPO.md "Tests"):
// - a contextual bandit whose optimal policy is known is learned;
// - a reward rigged on one seat raises that seat's chosen actions' log-probabilities and lowers
//   every other seat's;
// - rewards, episode ends and GAE targets land on the seat, kyoku and decision the game log says,
//   under suit-permutation augmentation, with forced moves skipped;
// - the value warm-up teaches the value head the normalised return scale and leaves the policy;
// - the entropy target and the default KL anchor of a fine-tuning run.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "hydra/common/error.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/losses.hpp"
#include "hydra/ppo/gae.hpp"
#include "hydra/ppo/learner.hpp"
#include "hydra/ppo/loss.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/torch/inference.hpp"
#include "hydra/common/index.hpp"

using hydra::ix;

namespace {

namespace fs = std::filesystem;
using hydra::config::Config;
using hydra::game::MasterSeed;
using hydra::ppo::Learner;
using hydra::ppo::learner_config;
using hydra::selfplay::InferenceModel;
using hydra::selfplay::Rollout;
constexpr std::size_t kObs = hydra::encoder::kObsSize;

Config tiny_config() {
  Config c;
  c.model.blocks = 1;
  c.model.channels = 32;
  c.ppo.minibatch = 64;
  c.train.max_updates = 100;
  return c;
}

fs::path temp_path(const std::string& tag) {
  return fs::temp_directory_path() / ("hydra-learning-" + std::to_string(::getpid()) + "-" + tag);
}

// A file (and its .sha256) or a flat folder. Not fs::remove_all: the copy libtorch exports can
// win the symbol lookup and crash.
void remove_path(const fs::path& p) {
  std::error_code ec;
  if (fs::is_directory(p, ec))
    for (const auto& e : fs::directory_iterator(p, ec)) fs::remove(e.path(), ec);
  fs::remove(p, ec);
  fs::remove(p.string() + ".sha256", ec);
}

// ---- synthetic one-decision episodes played by the real inference snapshot ------------------

// A decision whose observation is all zeros except tiles 8c .. 8c+3 of the closed-hand plane
// (c = `context`). Not a whole plane: a plane constant over the tiles is removed by GroupNorm
// when a group holds one channel (the 32-channel test network).
struct Situation {
  int context = 0;
  hydra::game::ActionMask legal;
};

void light(int context, float* obs, std::uint16_t* half) {
  for (int t = 8 * context; t < 8 * context + 4; ++t) {
    obs[t] = 1.0f;
    if (half) half[t] = 0x3C00;  // 1.0 in binary16
  }
}

// Plays `n` one-decision episodes: situation i % size, the action sampled from `actor` (the
// inference snapshot the self-play actors use), its log-probability and value recorded as the
// actors record them, the reward from `reward(context, action)`.
template <class Reward>
Rollout play(InferenceModel& actor, const std::vector<Situation>& situations, int n, std::mt19937_64& rng,
             const Reward& reward) {
  const auto un = ix(n);
  std::vector<float> obs(un * kObs, 0.0f), ctx(un * 16, 0.0f), probs(un * 46), value(un);
  Rollout r;
  r.obs.assign(un * kObs, 0);
  for (std::size_t i = 0; i < un; ++i) {
    const Situation& s = situations[i % situations.size()];
    light(s.context, obs.data() + i * kObs, r.obs.data() + i * kObs);
    r.legal.push_back(s.legal.bits());
  }
  const auto legal = r.legal_masks();
  actor.evaluate(hydra::selfplay::PolicyBatch{obs.data(), ctx.data(), legal.data(), n},
                 hydra::selfplay::PolicyOutput{probs.data(), value.data()});
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  r.context = ctx;
  for (std::size_t i = 0; i < un; ++i) {
    const float* p = probs.data() + i * 46;
    const double u = u01(rng);
    double acc = 0;
    int chosen = -1;
    for (int a = 0; a < 46; ++a) {
      if (!legal[i].test(hydra::game::Action(a))) continue;
      chosen = a;
      acc += p[a];
      if (u < acc) break;
    }
    r.action.push_back(static_cast<std::int16_t>(chosen));
    r.logp.push_back(std::log(p[chosen]));
    r.value.push_back(value[i]);
    r.reward.push_back(static_cast<float>(reward(situations[i % situations.size()].context, chosen)));
    r.done.push_back(1);
    for (int o = 0; o < 3; ++o) r.opp_waits.push_back(0);
    r.version.push_back(0);
  }
  r.all_decisions = n;
  return r;
}

// Probabilities of the snapshot for each situation.
std::vector<std::array<float, 46>> policy_of(InferenceModel& actor, const std::vector<Situation>& situations) {
  std::vector<std::array<float, 46>> out(situations.size());
  for (std::size_t k = 0; k < situations.size(); ++k) {
    std::vector<float> obs(kObs, 0.0f), ctx(16, 0.0f);
    light(situations[k].context, obs.data(), nullptr);
    float value = 0;
    actor.evaluate(hydra::selfplay::PolicyBatch{obs.data(), ctx.data(), &situations[k].legal, 1},
                   hydra::selfplay::PolicyOutput{out[k].data(), &value});
  }
  return out;
}

TEST(PpoLearning, ContextualBanditReachesItsOptimalPolicy) {
  // Four situations (light(c)), legal actions 0-3 and pass. The optimal action in situation c
  // is c (reward 1); c + 1 mod 4 pays 0.5, the rest 0. Expected reward of the uniform start 0.3,
  // of the optimal policy 1.
  Config cfg = tiny_config();
  cfg.ppo.lr = 1e-3;
  cfg.ppo.lr_floor = 1e-3;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{11});
  InferenceModel actor(learner.net(), torch::kCPU, 0);
  const hydra::game::ActionMask legal(0xFULL | (std::uint64_t{1} << 45));
  const std::vector<Situation> situations{{0, legal}, {1, legal}, {2, legal}, {3, legal}};
  const auto reward = [](int c, int a) { return a == c ? 1.0 : a == (c + 1) % 4 ? 0.5 : 0.0; };
  std::mt19937_64 rng(5);
  double first = 0, last = 0;
  for (int u = 0; u < 40; ++u) {
    const Rollout r = play(actor, situations, 256, rng, reward);
    double mean = 0;
    for (float x : r.reward) mean += x;
    mean /= static_cast<double>(r.size());
    if (u == 0) first = mean;
    last = mean;
    learner.update(r);
    actor.publish(learner.net(), u + 1);
  }
  EXPECT_LT(first, 0.45);
  EXPECT_GT(last, 0.85) << "mean reward of the last rollout";
  const auto p = policy_of(actor, situations);
  for (int c = 0; c < 4; ++c) {
    const auto& row = p[ix(c)];
    EXPECT_GT(row[ix(c)], 0.85f) << "situation " << c;
    EXPECT_EQ(std::max_element(row.begin(), row.end()) - row.begin(), c) << "situation " << c;
  }
}

// ---- real self-play rollouts ---------------------------------------------------------------

// Reward 1 for one seat in every kyoku, 0 for the others.
class RiggedSeat final : public hydra::selfplay::KyokuRewardModel {
 public:
  explicit RiggedSeat(int seat) : seat_(seat) {}
  std::vector<std::array<double, 4>> rewards(const std::vector<hydra::game::KyokuStart>& kyoku,
                                             const std::array<int, 4>&) override {
    std::vector<std::array<double, 4>> out(kyoku.size(), std::array<double, 4>{});
    for (auto& r : out) r[ix(seat_)] = 1.0;
    return out;
  }

 private:
  int seat_;
};

// A reward that names its kyoku and seat: 10 (seat + 1) + kyoku + 1.
class NamedReward final : public hydra::selfplay::KyokuRewardModel {
 public:
  static double of(std::size_t kyoku, std::size_t seat) { return 10.0 * static_cast<double>(seat + 1) + static_cast<double>(kyoku + 1); }
  std::vector<std::array<double, 4>> rewards(const std::vector<hydra::game::KyokuStart>& kyoku,
                                             const std::array<int, 4>&) override {
    std::vector<std::array<double, 4>> out(kyoku.size());
    for (std::size_t k = 0; k < kyoku.size(); ++k)
      for (std::size_t s = 0; s < 4; ++s) out[k][s] = of(k, s);
    return out;
  }
};

Config selfplay_config(int games, const std::string& length) {
  Config c = tiny_config();
  c.selfplay.games = games;
  c.selfplay.augment = true;
  c.selfplay.opp_self = 1.0;
  c.selfplay.opp_pool = 0.0;
  c.selfplay.opp_baseline = 0.0;
  c.rules.length = length;
  return c;
}

TEST(PpoLearning, RiggedRewardOnOneSeatRaisesOnlyThatSeatsChosenActions) {
  // Pure self-play, every seat the learner, suit permutations on. Seat 2 earns 1 per kyoku, the
  // others 0: after one update the log-probabilities of seat 2's chosen actions rise on average
  // and every other seat's fall (normalised advantages: positive on seat 2's rows only).
  Config cfg = selfplay_config(4, "kyoku");
  cfg.ppo.lr = 1e-3;
  cfg.ppo.lr_floor = 1e-3;
  cfg.ppo.entropy_start = cfg.ppo.entropy_end = 0;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{21});
  auto actor = std::make_shared<InferenceModel>(learner.net(), torch::kCPU, 0);
  hydra::selfplay::Actors actors(hydra::selfplay::actors_config(cfg), MasterSeed{21}, actor, nullptr);
  actors.set_reward_model(std::make_shared<RiggedSeat>(2));
  const Rollout r = actors.collect(400);
  ASSERT_GE(r.size(), 400U);
  const auto before = learner.log_probs(r);
  // The actors recorded exactly what the learner computes (ratio 1 at the start).
  EXPECT_TRUE(torch::allclose(before, torch::tensor(r.logp), 0.0, 1e-5));
  learner.update(r);
  const auto after = learner.log_probs(r);
  std::array<double, 4> delta{}, count{};
  for (std::size_t i = 0; i < r.size(); ++i) {
    const auto row = static_cast<std::int64_t>(i);
    delta[r.seat[i]] += (after[row] - before[row]).item<double>();
    count[r.seat[i]] += 1;
  }
  for (std::size_t s = 0; s < 4; ++s) {
    ASSERT_GT(count[s], 0) << "seat " << s;
    delta[s] /= count[s];
  }
  EXPECT_GT(delta[2], 0.0);
  for (std::size_t s : {0U, 1U, 3U}) EXPECT_LT(delta[s], 0.0) << "seat " << s << " (seat 2: " << delta[2] << ")";
}

// One game's kyoku as the log tells them: (round index, honba) and the start scores.
struct LoggedKyoku {
  int round = 0, honba = 0;
  std::array<int, 4> scores{};
};

std::map<std::int64_t, std::vector<LoggedKyoku>> read_kyoku(const fs::path& dir) {
  std::map<std::int64_t, std::vector<LoggedKyoku>> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::int64_t index = std::stoll(e.path().filename().string().substr(5, 8));  // game_00000012.json.gz
    for (const hydra::game::Event& ev : hydra::data::read_mjai(e.path()).events) {
      if (ev.type != hydra::game::EventType::start_kyoku) continue;
      LoggedKyoku k;
      // E1 = 0 ... E4 = 3, S1 = 4 ...: the wind's place after East (tile types 27-30) times 4.
      k.round = (ev.bakaze.index() - 27) * 4 + ev.kyoku - 1;
      k.honba = ev.honba;
      for (std::size_t s = 0; s < 4; ++s) k.scores[s] = ev.scores[s];
      out[index].push_back(k);
    }
  }
  return out;
}

TEST(PpoLearning, RewardsAndEpisodeEndsLandOnTheSeatKyokuAndDecisionOfTheLog) {
  // Tonpuusen self-play with suit permutations, rewards naming (kyoku, seat). Every stored
  // decision is matched to the log independently of the actors' bookkeeping: its kyoku by the
  // (round, honba) its score context shows, its seat by the scores it sees (relative order) against
  // the log's kyoku start. Then: episodes never cross a kyoku, each ends at the seat's last
  // decision of that kyoku and carries that kyoku's reward alone; kyoku without a decision of the
  // seat are dropped and counted.
  const Config cfg = selfplay_config(2, "tonpuusen");
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{31});
  auto actor = std::make_shared<InferenceModel>(learner.net(), torch::kCPU, 0);
  hydra::selfplay::Actors actors(hydra::selfplay::actors_config(cfg), MasterSeed{31}, actor, nullptr);
  actors.set_reward_model(std::make_shared<NamedReward>());
  const fs::path dir = temp_path("logs");
  remove_path(dir);
  actors.set_log_dir(dir);
  const Rollout r = actors.collect(1);
  ASSERT_GT(r.size(), 0U);
  r.check();
  const auto logs = read_kyoku(dir);
  ASSERT_EQ(static_cast<std::int64_t>(logs.size()), r.games);

  std::vector<int> kyoku_of(r.size());
  std::size_t discards = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const auto& kyoku = logs.at(r.game[i]);
    const float* ctx = r.context.data() + i * 16;
    const int round = static_cast<int>(std::lround(ctx[14] * 8.0f));
    const int honba = static_cast<int>(std::lround(ctx[15] * 10.0f));
    int k = -1;
    for (std::size_t j = 0; j < kyoku.size(); ++j)
      if (kyoku[j].round == round && kyoku[j].honba == honba) k = static_cast<int>(j);
    ASSERT_GE(k, 0) << "decision " << i << ": round " << round << " honba " << honba << " not in the log";
    kyoku_of[i] = k;
    // The seat: the scores it sees (self first) are the kyoku's start scores rotated to that
    // seat, give or take riichi deposits made in the kyoku (1,000 each).
    const std::size_t s = r.seat[i];
    for (std::size_t j = 0; j < 4; ++j)
      ASSERT_NEAR(ctx[j] * 100000.0, kyoku[ix(k)].scores[(s + j) % 4], 1000.5)
          << "decision " << i << " seat " << s;
    // Forced moves never reach the rollout.
    ASSERT_GE(std::popcount(r.legal[i]), 2);
    // Augmented observation and action agree: a discarded tile is in the (permuted) hand or is
    // the (permuted) drawn tile.
    const int a = r.action[i];
    const auto plane = [&](int channel, int tile) {
      return hydra::selfplay::from_half(r.obs[i * kObs + static_cast<std::size_t>(channel * 34 + tile)]);
    };
    if (a < 34) {
      ++discards;
      EXPECT_TRUE(plane(hydra::encoder::ch::kHand, a) > 0 || plane(hydra::encoder::ch::kDrawn, a) > 0)
          << "decision " << i << " discards tile " << a << " it does not hold";
    }
  }
  EXPECT_GT(discards, r.size() / 2);

  // Episodes per (game, seat) block.
  std::size_t i = 0;
  std::size_t episodes = 0;
  std::int64_t unearned = 0, blocks = 0;
  while (i < r.size()) {
    const std::int64_t g = r.game[i];
    const std::size_t s = r.seat[i];
    const std::size_t nk = logs.at(g).size();
    int prev_kyoku = -1;
    std::size_t j = i;
    for (; j < r.size() && r.game[j] == g && r.seat[j] == s; ++j) {
      const bool last_of_block = j + 1 == r.size() || r.game[j + 1] != g || r.seat[j + 1] != s;
      const bool ends_kyoku = last_of_block || kyoku_of[j + 1] != kyoku_of[j];
      ASSERT_EQ(r.done[j], ends_kyoku ? 1 : 0) << "decision " << j;
      if (j > i) {
        ASSERT_GE(kyoku_of[j], kyoku_of[j - 1]) << "decision " << j;
      }
      if (!ends_kyoku) {
        ASSERT_EQ(r.reward[j], 0.0f) << "decision " << j;
        continue;
      }
      ++episodes;
      double want = 0;
      // Only this kyoku's reward: a kyoku in which the seat never decided gives its reward to
      // no episode (it is counted in unearned_kyoku instead).
      want += NamedReward::of(static_cast<std::size_t>(kyoku_of[j]), s);
      unearned += kyoku_of[j] - prev_kyoku - 1;
      if (last_of_block) unearned += static_cast<std::int64_t>(nk) - 1 - kyoku_of[j];
      ASSERT_NEAR(r.reward[j], want, 1e-3) << "decision " << j << " game " << g << " seat " << s;
      prev_kyoku = kyoku_of[j];
    }
    i = j;
    ++blocks;
  }
  EXPECT_GT(episodes, 4 * ix(r.games));
  // Every seat is the learner's: a (game, seat) without any stored decision left all its kyoku
  // unearned. The actors' count of dropped rewards is the log's.
  ASSERT_EQ(blocks, 4 * r.games) << "every seat of every game decided at least once";
  EXPECT_EQ(actors.take_stats().unearned_kyoku, unearned);

  // GAE on the real rollout: an episode's last decision is not bootstrapped (its return is its
  // reward), and no episode's targets depend on another episode's values.
  std::vector<float> adv(r.size()), ret(r.size());
  hydra::ppo::compute_gae(r.reward, r.value, r.done, 1.0, 0.95, adv, ret);
  for (std::size_t k = 0; k < r.size(); ++k)
    if (r.done[k]) {
      EXPECT_FLOAT_EQ(ret[k], r.reward[k]);
    }
  std::vector<float> value = r.value;
  for (std::size_t k = 0; k + 1 < r.size(); ++k)
    if (r.done[k]) value[k + 1] += 100.0f;  // every episode's first value
  std::vector<float> adv2(r.size()), ret2(r.size());
  hydra::ppo::compute_gae(r.reward, value, r.done, 1.0, 0.95, adv2, ret2);
  for (std::size_t k = 0; k < r.size(); ++k) {
    const bool first = k == 0 || r.done[k - 1];
    if (!first) {
      // A later decision of the episode: its targets do not see the changed first values.
      EXPECT_EQ(adv[k], adv2[k]) << k;
      EXPECT_EQ(ret[k], ret2[k]) << k;
    }
  }
  remove_path(dir);
}

// ---- fine-tuning from a checkpoint -----------------------------------------------------------

fs::path save_net(Learner& learner, const std::string& tag) {
  const fs::path file = temp_path(tag + ".ckpt");
  hydra::model::CheckpointData data;
  hydra::model::save_checkpoint(file, data, learner.net());
  return file;
}

TEST(PpoLearning, ValueWarmupLearnsTheNormalisedReturnScaleAndLeavesThePolicy) {
  // A "BC" network whose value head knows nothing of PPO's returns. Returns are +3 in situation
  // 0 and -3 in situation 1, whatever the action: the running return std is 3, so the targets
  // the value head sees are +1 and -1. During the warm-up only the value head moves: the policy
  // the actors play and every non-value weight stay bit for bit; afterwards the policy moves.
  Config cfg = tiny_config();
  cfg.ppo.lr = 3e-3;
  cfg.ppo.lr_floor = 3e-3;
  Learner bc(learner_config(cfg), torch::kCPU, MasterSeed{41});
  const fs::path file = save_net(bc, "bc");
  cfg.ppo.init = file.string();
  cfg.ppo.value_warmup = 20;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{42});
  EXPECT_TRUE(learner.has_anchor()) << "a run from ppo.init anchors to it by default";
  EXPECT_EQ(learner.value_warmup_updates(), 20);
  InferenceModel actor(learner.net(), torch::kCPU, 0);
  const hydra::game::ActionMask legal(0xFULL);
  const std::vector<Situation> situations{{0, legal}, {1, legal}};
  std::mt19937_64 rng(3);
  const auto reward = [](int c, int) { return c == 0 ? 3.0 : -3.0; };
  const Rollout probe = play(actor, situations, 64, rng, reward);
  const auto logp0 = learner.log_probs(probe);
  std::vector<torch::Tensor> frozen0;
  for (const auto& p : learner.net().named_parameters())
    if (p.key().rfind("value.", 0) != 0) frozen0.push_back(p.value().clone());
  for (int u = 0; u < 20; ++u) {
    const auto s = learner.update(play(actor, situations, 256, rng, reward));
    ASSERT_TRUE(s.value_warmup) << u;
    EXPECT_NEAR(s.approx_kl, 0.0, 1e-6) << u;
    EXPECT_EQ(s.kl_anchor, 0.0) << u;
    if (u == 19) {
      EXPECT_NEAR(s.reward_std, 3.0, 1e-3);
    }
  }
  EXPECT_TRUE(torch::equal(learner.log_probs(probe), logp0)) << "the warm-up moved the policy";
  std::size_t k = 0;
  for (const auto& p : learner.net().named_parameters())
    if (p.key().rfind("value.", 0) != 0) {
      EXPECT_TRUE(torch::equal(p.value(), frozen0[k++])) << p.key();
    }
  actor.publish(learner.net(), 20);
  {
    std::vector<float> obs(2 * kObs, 0.0f), ctx(32, 0.0f), probs(2 * 46), value(2);
    light(0, obs.data(), nullptr);
    light(1, obs.data() + kObs, nullptr);
    const hydra::game::ActionMask legals[2] = {legal, legal};
    actor.evaluate(hydra::selfplay::PolicyBatch{obs.data(), ctx.data(), legals, 2},
                   hydra::selfplay::PolicyOutput{probs.data(), value.data()});
    EXPECT_NEAR(value[0], 1.0, 0.25) << "V(situation 0) in normalised return units";
    EXPECT_NEAR(value[1], -1.0, 0.25) << "V(situation 1) in normalised return units";
  }
  const auto after = learner.update(play(actor, situations, 256, rng, reward));
  EXPECT_FALSE(after.value_warmup);
  EXPECT_GT(after.kl_anchor_coef, 0.0);
  EXPECT_FALSE(torch::equal(learner.log_probs(probe), logp0)) << "after the warm-up the policy learns";

  cfg.ppo.anchor = "none";
  EXPECT_FALSE(Learner(learner_config(cfg), torch::kCPU, MasterSeed{43}).has_anchor());
  cfg.ppo.entropy_target = -0.5;
  EXPECT_THROW(Learner(learner_config(cfg), torch::kCPU, MasterSeed{43}), hydra::Error);
  remove_path(file);
}

TEST(PpoLoss, EntropyTargetStopsTheBonusAboveIt) {
  // Two rows, four legal actions each; the gradient of the total with respect to the logits
  // equals the plain bonus's below the target and the bonus-free loss's above it.
  const auto logits0 = torch::tensor({{0.5f, 0.1f, -0.3f, 0.2f}, {1.0f, -1.0f, 0.0f, 0.3f}});
  const auto legal = torch::ones({2, 4}, torch::kBool);
  const auto grad_of = [&](double coef, double target, const torch::Tensor& anchor) {
    auto logits = logits0.clone().requires_grad_(true);
    hydra::ppo::LossInput in;
    in.out.policy = logits;
    in.out.value = torch::zeros({2, 1});
    in.legal = legal;
    in.action = torch::tensor({0, 1}, torch::kLong);
    in.old_logp = hydra::model::masked_log_softmax(logits0, legal).gather(1, in.action.unsqueeze(1)).squeeze(1);
    in.advantage = torch::tensor({1.0f, -1.0f});
    in.returns = torch::zeros({2});
    in.anchor_logits = anchor;
    hydra::ppo::LossSettings s;
    s.entropy_coef = coef;
    s.entropy_target = target;
    s.kl_anchor_coef = 0;
    const auto t = hydra::ppo::ppo_loss(in, s);
    t.total.backward();
    return std::make_pair(logits.grad().clone(), t);
  };
  const auto none = grad_of(0.0, 0.0, {}).first;
  const auto with_bonus = grad_of(0.5, 0.0, {});
  const auto plain = with_bonus.first;
  const double h = with_bonus.second.entropy.item<double>();
  EXPECT_FALSE(torch::allclose(none, plain));
  EXPECT_TRUE(torch::allclose(grad_of(0.5, h + 0.1, {}).first, plain)) << "below the target: the plain bonus";
  EXPECT_TRUE(torch::allclose(grad_of(0.5, h - 0.1, {}).first, none)) << "above the target: no bonus gradient";
  // -1: the anchor's entropy is the target. A uniform anchor (entropy ln 4 > h) keeps the bonus,
  // a peaked one (entropy below h) switches it off.
  const auto uniform = grad_of(0.5, -1.0, torch::zeros({2, 4}));
  EXPECT_NEAR(uniform.second.entropy_target.item<double>(), std::log(4.0), 1e-6);
  EXPECT_TRUE(torch::allclose(uniform.first, plain));
  const auto peaked = torch::tensor({{9.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 9.0f, 0.0f, 0.0f}});
  EXPECT_TRUE(torch::allclose(grad_of(0.5, -1.0, peaked).first, none));
}

}  // namespace

// ---- the critics: one observation, two actions, a coin ----------------------------------------

namespace {

// One observation (a closed-hand pattern) with actions 0 and 1 legal. A decision plays a = 0 with
// probability p and earns 0.3 [a = 0] + z, z = +-1 a fair coin; with `show_coin` the privileged
// planes show z (opponent 1's hand plane, tile 0), otherwise the rollout carries none.
struct CoinProblem {
  std::vector<float> obs = std::vector<float>(kObs, 0.0f);
  torch::Tensor x, ctx, legal;  // the observation as the network reads it, [1,...]

  CoinProblem() {
    for (int t = 0; t < 4; ++t) obs[ix(t)] = 1.0f;
    x = torch::from_blob(obs.data(), {1, hydra::encoder::kChannels, hydra::encoder::kTiles}).clone();
    ctx = torch::zeros({1, 16});
    legal = torch::zeros({1, 46}, torch::kBool).index_put_({0, torch::indexing::Slice(0, 2)}, true);
  }
  // log pi(a) of the network on the observation (with autograd).
  torch::Tensor log_prob(hydra::model::HydraNetImpl& net, int a) const {
    return hydra::model::masked_log_softmax(net.forward(x, ctx).policy, legal)[0][a];
  }
  Rollout rollout(std::size_t n, double p, std::mt19937_64& rng, bool show_coin) const {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<std::uint16_t> half(kObs);
    hydra::selfplay::to_half(obs.data(), half.data(), kObs);
    Rollout r;
    for (std::size_t i = 0; i < n; ++i) {
      const int a = u(rng) < p ? 0 : 1;
      const double z = u(rng) < 0.5 ? -1.0 : 1.0;
      r.obs.insert(r.obs.end(), half.begin(), half.end());
      if (show_coin) {
        std::vector<std::uint16_t> priv(hydra::encoder::kPrivilegedSize, 0);
        if (z > 0) priv[hydra::encoder::priv::kHands * 34] = hydra::selfplay::to_half(1.0f);
        r.priv.insert(r.priv.end(), priv.begin(), priv.end());
      }
      r.context.insert(r.context.end(), 16, 0.0f);
      r.legal.push_back(0b11);
      r.action.push_back(static_cast<std::int16_t>(a));
      r.logp.push_back(static_cast<float>(std::log(a == 0 ? p : 1 - p)));
      r.value.push_back(0.0f);
      r.reward.push_back(static_cast<float>(0.3 * (a == 0) + z));
      r.done.push_back(1);
      r.opp_waits.insert(r.opp_waits.end(), 3, 0);
      r.version.push_back(0);
    }
    return r;
  }
};

// A small critic that learns fast, raw rewards, Monte Carlo returns, no entropy bonus, a policy
// that stays where it is.
Config coin_config(const std::string& critic) {
  Config cfg = tiny_config();
  cfg.ppo.critic = critic;
  cfg.ppo.critic_blocks = 1;
  cfg.ppo.critic_channels = 32;
  cfg.ppo.critic_lr = 3e-3;
  cfg.ppo.lr = cfg.ppo.lr_floor = 0.0;
  cfg.ppo.reward_norm = false;
  cfg.ppo.lambda = 1.0;
  cfg.ppo.entropy_start = cfg.ppo.entropy_end = 0.0;
  cfg.ppo.minibatch = 128;
  return cfg;
}

}  // namespace

// ---- the privileged critic -----------------------------------------------------------------

// One observation, two legal actions, reward 0.3 [a = 0] + z with z = +-1 a coin the policy
// cannot see but the privileged planes show (opponent 1's hand plane, tile 0). The critic learns
// E[R | z]; as a baseline it removes z from every advantage. Per decision the policy gradient is
// (R - b) grad log pi(a), and grad log pi(a) takes one of two vectors v_0, v_1 (one observation),
// so the rollout's mean gradient and per-decision variance follow from sums of R - b per action:
// with the critic the mean gradient equals the one with the best baseline the policy could see
// (a constant; E_a grad log pi(a) = 0) within its standard error, and the variance falls by the
// share of R that z explains.
TEST(PrivilegedCritic, CutsThePolicyGradientVarianceAndLeavesItsMean) {
  Config cfg = coin_config("privileged");  // the policy stays where it is; only the critic learns
  cfg.ppo.epochs = 2;
  Learner learner(learner_config(cfg), torch::kCPU, MasterSeed{41});
  ASSERT_TRUE(learner.has_critic());

  const CoinProblem coin;
  // The policy's probabilities and v_a = grad log pi(a) for a = 0, 1.
  auto& net = learner.net();
  std::array<std::vector<torch::Tensor>, 2> v;
  double p0 = 0;
  for (int a = 0; a < 2; ++a) {
    const auto logp = coin.log_prob(net, a);
    if (a == 0) p0 = std::exp(logp.item<double>());
    v[ix(a)] = torch::autograd::grad({logp}, net.parameters(), {}, false, false, true);
  }
  ASSERT_GT(p0, 0.2);
  ASSERT_LT(p0, 0.8);

  std::mt19937_64 rng(9);
  const auto make = [&](std::size_t n) { return coin.rollout(n, p0, rng, /*show_coin=*/true); };
  for (int k = 0; k < 40; ++k) learner.update(make(512));

  const Rollout test = make(8192);
  const auto b = learner.critic_values(test);
  const auto n = static_cast<double>(test.size());
  // Mean gradient = c_0 v_0 + c_1 v_1 with c_a = sum over decisions taking a of (R - b) / N; the
  // per-decision second moment = (s_0 |v_0|^2 + s_1 |v_1|^2) / N with s_a the sum of (R - b)^2.
  double v00 = 0, v11 = 0, v01 = 0;
  for (std::size_t i = 0; i < v[0].size(); ++i) {
    if (!v[0][i].defined()) continue;
    v00 += v[0][i].pow(2).sum().item<double>();
    v11 += v[1][i].pow(2).sum().item<double>();
    v01 += (v[0][i] * v[1][i]).sum().item<double>();
  }
  struct Moments { double c0 = 0, c1 = 0, s0 = 0, s1 = 0; };
  // The best baseline without privileged input is a constant here (every observation is the
  // same, so that is what the policy's own value head can learn at most): the mean reward.
  double mean_reward = 0;
  for (const float r : test.reward) mean_reward += r / n;
  const auto moments = [&](bool with_critic) {
    Moments m;
    for (std::size_t i = 0; i < test.size(); ++i) {
      const double w = test.reward[i] - (with_critic ? b[static_cast<std::int64_t>(i)].item<double>() : mean_reward);
      (test.action[i] == 0 ? m.c0 : m.c1) += w / n;
      (test.action[i] == 0 ? m.s0 : m.s1) += w * w / n;
    }
    return m;
  };
  const Moments plain = moments(false), critic = moments(true);
  const auto sq = [&](double c0, double c1) { return c0 * c0 * v00 + c1 * c1 * v11 + 2 * c0 * c1 * v01; };
  const double var_plain = plain.s0 * v00 + plain.s1 * v11 - sq(plain.c0, plain.c1);
  const double var_critic = critic.s0 * v00 + critic.s1 * v11 - sq(critic.c0, critic.c1);
  std::printf("per-decision gradient variance: the best unprivileged baseline %.4g, privileged critic %.4g (%.1fx smaller)\n", var_plain,
              var_critic, var_plain / var_critic);
  EXPECT_GT(var_plain / var_critic, 5.0) << "the critic removes z (most of the reward's variance)";
  // The two mean gradients differ by the baselines' difference times grad log pi(a), whose
  // expectation is 0: within 3 standard errors of the unprivileged mean (its variance / N).
  const double diff = sq(plain.c0 - critic.c0, plain.c1 - critic.c1);
  const double se2 = var_plain / n;
  std::printf("|mean gradient difference|^2 %.4g, squared standard error of the mean %.4g, |mean|^2 %.4g\n", diff, se2,
              sq(critic.c0, critic.c1));
  EXPECT_LT(diff, 9.0 * se2);
}
