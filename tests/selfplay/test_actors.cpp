// Lock-step self-play actors with the torch-free test policy: rollout invariants, rewards that
// telescope to the final scores of the written logs, the opponent mix, snapshot versions, and
// byte-identical results across runs and thread counts.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <oneapi/tbb/global_control.h>

#include "hydra/common/config.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/selfplay/rollout.hpp"
#include "stored_probs.hpp"
#include "sanitized.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

namespace fs = std::filesystem;

config::Config small_config(int games, const std::string& length) {
  config::Config c;
  c.selfplay.games = games;
  c.rules.length = length;
  c.selfplay.opp_self = 1.0;
  c.selfplay.opp_pool = 0.0;
  c.selfplay.opp_baseline = 0.0;
  return c;
}

fs::path temp_dir(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() / ("hydra_actors_" + std::to_string(::getpid()) + "_" + tag);
  std::error_code ec;
  fs::create_directories(p, ec);
  for (const auto& e : fs::directory_iterator(p)) fs::remove(e.path());
  return p;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::map<std::string, std::string> read_dir(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out[e.path().filename().string()] = read_bytes(e.path());
  return out;
}

void remove_dir(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) fs::remove(e.path(), ec);
  fs::remove(dir, ec);
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool identical(const Rollout& a, const Rollout& b) {
  return same_bytes(a.obs, b.obs) && same_bytes(a.context, b.context) && same_bytes(a.legal, b.legal) &&
         same_bytes(a.action, b.action) && same_bytes(a.logp, b.logp) && same_bytes(a.value, b.value) &&
         same_bytes(a.reward, b.reward) && same_bytes(a.done, b.done) && same_bytes(a.opp_waits, b.opp_waits) &&
         same_bytes(a.version, b.version) && same_bytes(a.game, b.game) && same_bytes(a.seat, b.seat) &&
         same_bytes(a.paired, b.paired) && same_bytes(a.paired_advantage, b.paired_advantage) &&
         same_bytes(a.played_out, b.played_out) && same_bytes(a.action_value, b.action_value) &&
         a.games == b.games && a.kyoku == b.kyoku && a.all_decisions == b.all_decisions;
}

TEST(Half, RoundTripsEveryFiniteHalf) {
  for (std::uint32_t h = 0; h < 0x10000U; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    if ((bits & 0x7C00U) == 0x7C00U) continue;  // inf / nan
    ASSERT_EQ(to_half(from_half(bits)), bits) << h;
  }
}

TEST(Half, KnownValuesAndRoundingToNearestEven) {
  EXPECT_EQ(to_half(1.0f), 0x3C00);
  EXPECT_EQ(to_half(0.25f), 0x3400);
  EXPECT_EQ(to_half(-2.0f), 0xC000);
  EXPECT_EQ(to_half(65504.0f), 0x7BFF);
  EXPECT_EQ(from_half(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties to the even significand (1).
  EXPECT_EQ(to_half(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(from_half(to_half(0.1f)), 0.0999755859375f);
}

struct FinalInfo {
  std::array<int, 4> scores{};
  std::array<std::string, 4> names;
  int kyoku = 0;
};

std::map<std::int64_t, FinalInfo> read_logs(const fs::path& dir) {
  std::map<std::int64_t, FinalInfo> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();  // game_00000012.json.gz
    const std::int64_t index = std::stoll(name.substr(5, 8));
    const data::GameLog log = data::read_mjai(e.path());
    FinalInfo f;
    f.names = log.names;
    for (const game::Event& ev : log.events) {
      if (ev.type == game::EventType::end_game)
        for (std::size_t s = 0; s < 4; ++s) f.scores[s] = ev.scores[s];
      f.kyoku += ev.type == game::EventType::start_kyoku;
    }
    out[index] = f;
  }
  return out;
}

// The independent truth: rank from the final scores (ties to the seat nearer the first dealer).
int rank_of(const std::array<int, 4>& s, std::size_t seat) {
  int r = 0;
  for (std::size_t o = 0; o < 4; ++o)
    if (s[o] > s[seat] || (s[o] == s[seat] && o < seat)) ++r;
  return r;
}

TEST(Actors, RolloutInvariantsAndRewardsTelescopeToTheLoggedFinalScores) {
  const config::Config cfg = small_config(4, "tonpuusen");
  Actors actors(actors_config(cfg), game::MasterSeed{7}, std::make_shared<LinearTestPolicy>(1, 3), nullptr);
  const fs::path dir = temp_dir("invariants");
  actors.set_log_dir(dir);
  const Rollout r = actors.collect(200);
  ASSERT_GT(r.size(), 200U);
  r.check();
  const ActorStats st = actors.take_stats();
  EXPECT_EQ(st.games, r.games);
  EXPECT_EQ(st.learner_decisions, static_cast<std::int64_t>(r.size()));
  EXPECT_EQ(st.decisions, st.network_decisions + st.forced);  // no bots in pure self-play
  EXPECT_EQ(actors.next_game(), r.games);

  const auto logs = read_logs(dir);
  ASSERT_EQ(static_cast<std::int64_t>(logs.size()), r.games);

  // Obs values: finite and inside each channel's documented range.
  for (std::size_t i = 0; i < r.size(); ++i) {
    for (int c = 0; c < encoder::kChannels; ++c) {
      const auto range = encoder::channel_range(c);
      for (int t = 0; t < encoder::kTiles; ++t) {
        const float v = from_half(r.obs[i * encoder::kObsSize + static_cast<std::size_t>(c * encoder::kTiles + t)]);
        ASSERT_TRUE(std::isfinite(v));
        ASSERT_GE(v, range.lo) << "channel " << c;
        ASSERT_LE(v, range.hi) << "channel " << c;
      }
    }
    ASSERT_TRUE((r.legal[i] >> r.action[i]) & 1U);
    ASSERT_GE(std::popcount(r.legal[i]), 2) << "forced moves never reach the network";
    ASSERT_LT(r.logp[i], 1e-6f);
    ASSERT_EQ(r.version[i], 3);
    for (int o = 0; o < kOpponents; ++o) ASSERT_LT(r.opp_waits[i * kOpponents + ix(o)], std::uint64_t{1} << 34);
  }

  // Per (game, seat): contiguous, ordered by game then seat, done at the end, rewards sum to
  // (final - 25,000) / 10,000 + placement points.
  std::size_t i = 0;
  std::int64_t prev_game = -1;
  int seats_seen = 0;
  std::int64_t blocks = 0, whole = 0, unearned = 0;
  while (i < r.size()) {
    const std::int64_t g = r.game[i];
    const std::uint8_t s = r.seat[i];
    ASSERT_GE(g, prev_game);
    if (g != prev_game) seats_seen = 0;
    prev_game = g;
    ++seats_seen;
    double sum = 0;
    int episodes = 0;
    std::size_t j = i;
    for (; j < r.size() && r.game[j] == g && r.seat[j] == s; ++j) {
      sum += r.reward[j];
      episodes += r.done[j];
      if (!r.done[j]) {
        ASSERT_EQ(r.reward[j], 0.0f);
      }
    }
    ASSERT_EQ(r.done[j - 1], 1);
    const FinalInfo& f = logs.at(g);
    ASSERT_LE(episodes, f.kyoku);
    EXPECT_EQ(f.names[s], "hydra@v3");
    // A seat that decided in every kyoku holds every kyoku's reward, and they telescope; a kyoku
    // without its decision drops its reward (counted in the statistics).
    if (episodes == f.kyoku) {
      const double want = (f.scores[s] - 25000) / 10000.0 + std::array<double, 4>{3, 1, -1, -3}[static_cast<std::size_t>(rank_of(f.scores, s))];
      EXPECT_NEAR(sum, want, 1e-4) << "game " << g << " seat " << int(s);
      ++whole;
    }
    unearned += f.kyoku - episodes;
    ++blocks;
    i = j;
  }
  EXPECT_EQ(seats_seen, 4);  // self-play: all four seats record
  EXPECT_EQ(blocks, 4 * r.games);
  EXPECT_GT(whole, blocks / 2);
  EXPECT_EQ(st.unearned_kyoku, unearned);
  remove_dir(dir);
}

TEST(Actors, OpponentMixPoolAndBaselineGamesHaveOneLearnerSeat) {
  config::Config cfg = small_config(4, "kyoku");
  cfg.selfplay.opp_self = 0.0;
  cfg.selfplay.opp_pool = 0.5;
  cfg.selfplay.opp_baseline = 0.5;
  cfg.selfplay.baseline = "bot:greedy";
  Actors actors(actors_config(cfg), game::MasterSeed{3}, std::make_shared<LinearTestPolicy>(1, 9), nullptr);
  actors.set_pool({std::make_shared<LinearTestPolicy>(2, 4)});
  const fs::path dir = temp_dir("mix");
  actors.set_log_dir(dir);
  const Rollout r = actors.collect(60);
  r.check();
  const auto logs = read_logs(dir);
  const ActorStats st = actors.take_stats();
  EXPECT_GT(st.kinds[1].games, 0);
  EXPECT_GT(st.kinds[2].games, 0);
  EXPECT_EQ(st.kinds[0].games, 0);
  EXPECT_EQ(st.kinds[1].learner_seats + st.kinds[2].learner_seats, st.games);
  for (const auto& [g, f] : logs) {
    int learner = 0, pool = 0, bot = 0;
    for (const std::string& n : f.names) {
      learner += n == "hydra@v9";
      pool += n == "pool@v4";
      bot += n == "bot:greedy";
    }
    EXPECT_EQ(learner, 1) << g;
    EXPECT_TRUE(pool == 3 || bot == 3) << g;
  }
  for (std::size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r.version[i], 9);
    EXPECT_EQ(logs.at(r.game[i]).names[r.seat[i]], "hydra@v9");
  }
  remove_dir(dir);
}

TEST(Actors, NextCollectCarriesTheNewLearnerVersion) {
  const config::Config cfg = small_config(4, "kyoku");
  Actors actors(actors_config(cfg), game::MasterSeed{5}, std::make_shared<LinearTestPolicy>(1, 1), nullptr);
  const Rollout a = actors.collect(10);
  actors.set_learner(std::make_shared<LinearTestPolicy>(1, 2));
  const Rollout b = actors.collect(10);
  ASSERT_GT(a.size(), 0U);
  ASSERT_GT(b.size(), 0U);
  for (auto v : a.version) EXPECT_EQ(v, 1);
  for (auto v : b.version) EXPECT_EQ(v, 2);
  // Whole games only: the second collect continues with the next game index.
  EXPECT_EQ(b.game.front(), a.games);
}

// The progress of a long collect (hydra train's line a minute): with no interval, a report after
// every engine step, each counting up to what the collect returns, against its target.
TEST(Actors, ProgressCountsTheCollectsDecisionsAndGamesAsTheyGo) {
  const config::Config cfg = small_config(4, "kyoku");
  Actors actors(actors_config(cfg), game::MasterSeed{5}, std::make_shared<LinearTestPolicy>(1, 1), nullptr);
  std::vector<Actors::Progress> seen;
  actors.progress = [&](const Actors::Progress& p) { seen.push_back(p); };
  actors.progress_seconds = 0;
  const Rollout r = actors.collect(40);
  ASSERT_GT(seen.size(), 10U);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].target, 40);
    EXPECT_LE(seen[i].samples, static_cast<std::int64_t>(r.size()));
    EXPECT_LE(seen[i].games, r.games);
    EXPECT_GE(seen[i].seconds, 0.0);
    if (i > 0) {
      EXPECT_GE(seen[i].samples, seen[i - 1].samples);
      EXPECT_GE(seen[i].games, seen[i - 1].games);
    }
  }
  EXPECT_GT(seen.back().samples, 0);
  // An interval longer than the collect: no report.
  seen.clear();
  actors.progress_seconds = 3600;
  (void)actors.collect(40);
  EXPECT_TRUE(seen.empty());
}

struct RunResult {
  Rollout rollout;
  std::map<std::string, std::string> logs;
  nlohmann::ordered_json state;
  ActorStats stats;
};

RunResult run_once(const std::string& tag, bool augment, std::size_t threads, bool privileged = false,
                   int play_outs = 0, double min_prob = -1, double sigmas = 0) {
  config::Config cfg = small_config(hydra::testing::sized(6, 3), "tonpuusen");
  cfg.selfplay.play_out_sigmas = sigmas;
  cfg.selfplay.augment = augment;
  if (privileged) cfg.ppo.critic = "privileged";
  if (play_outs > 0) {
    cfg.ppo.advantage = "rollout";
    cfg.selfplay.play_outs = play_outs;
  }
  if (min_prob >= 0) {
    cfg.ppo.policy_gradient = "expected";
    cfg.selfplay.play_out_min_prob = min_prob;
  }
  cfg.selfplay.opp_self = 0.5;
  cfg.selfplay.opp_pool = 0.25;
  cfg.selfplay.opp_baseline = 0.25;
  cfg.selfplay.max_batch = 5;  // several forward passes per batch
  oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, threads);
  Actors actors(actors_config(cfg), game::MasterSeed{11}, std::make_shared<LinearTestPolicy>(1, 1), nullptr);
  actors.set_pool({std::make_shared<LinearTestPolicy>(2, 0)});
  const fs::path dir = temp_dir(tag);
  actors.set_log_dir(dir);
  RunResult out;
  out.rollout = actors.collect(hydra::testing::sized(300, 100));
  out.logs = read_dir(dir);
  out.state = actors.state();
  out.stats = actors.take_stats();
  remove_dir(dir);
  return out;
}

// A rollout without its play-outs' advantages: what a run without play-outs stores.
Rollout without_pairs(Rollout r) {
  r.paired.clear();
  r.paired_advantage.clear();
  r.played_out.clear();
  r.action_value.clear();
  return r;
}

TEST(Actors, ByteIdenticalAcrossRunsAndThreadCounts) {
  for (bool augment : {false, true}) {
    const RunResult a = run_once("det_a", augment, 1);
    const RunResult b = run_once("det_b", augment, 1);
    const RunResult c = run_once("det_c", augment, 2);
    ASSERT_GT(a.rollout.size(), 0U);
    EXPECT_TRUE(identical(a.rollout, b.rollout));
    EXPECT_TRUE(identical(a.rollout, c.rollout));
    EXPECT_EQ(a.logs, b.logs);
    EXPECT_EQ(a.logs, c.logs);
    EXPECT_EQ(a.state, c.state);
    EXPECT_EQ(a.logs.size(), ix(a.rollout.games));
  }
}

// The privileged planes are stored for the learner's critic and reach nothing the actors play:
// with them on, every game, every stored field the policy produced and every log is the same
// byte for byte.
TEST(Actors, PrivilegedPlanesChangeNothingThePolicyPlays) {
  const RunResult plain = run_once("priv_off", true, 1);
  const RunResult priv = run_once("priv_on", true, 1, true);
  EXPECT_TRUE(plain.rollout.priv.empty());
  ASSERT_EQ(priv.rollout.priv.size(), priv.rollout.size() * hydra::encoder::kPrivilegedSize);
  EXPECT_TRUE(identical(plain.rollout, priv.rollout));
  EXPECT_EQ(plain.logs, priv.logs);
  // And they are not empty: every decision sees three concealed opponent hands.
  for (std::size_t i = 0; i < priv.rollout.size(); ++i) {
    float tiles = 0;
    for (int c = hydra::encoder::priv::kHands; c < hydra::encoder::priv::kHands + 12; ++c)
      for (int t = 0; t < 34; ++t)
        tiles += from_half(priv.rollout.priv[i * hydra::encoder::kPrivilegedSize + static_cast<std::size_t>(c * 34 + t)]);
    ASSERT_GE(tiles, 3.0f) << "decision " << i;
  }
}

// Greedy play-outs (ppo.advantage = rollout) copy the table at a learner decision and play the
// kyoku out with bot:greedy, after the action played and after the bot's own choice: nothing the
// policy plays changes, the advantages are the same at any thread count, decisions where the
// action was the bot's own carry 0 without a play-out, and more walls per pair play more
// decisions on other walls (so other advantages) for the same pairs. Games with a bot seat pair
// too: a play-out copies no agent.
TEST(Actors, GreedyPlayOutsChangeNothingThePolicyPlays) {
  const RunResult plain = run_once("play_off", true, 1);
  const RunResult one = run_once("play_1", true, 1, false, 1);
  const RunResult three = run_once("play_3", true, 1, false, 3);
  const RunResult threads = run_once("play_3t", true, 2, false, 3);
  for (const RunResult* run : {&one, &three}) {
    const Rollout& r = run->rollout;
    ASSERT_EQ(r.paired.size(), r.size());
    r.check();
    EXPECT_TRUE(identical(plain.rollout, without_pairs(r)));
    EXPECT_EQ(plain.logs, run->logs);
  }
  EXPECT_TRUE(identical(three.rollout, threads.rollout));
  EXPECT_EQ(three.stats.branch_decisions, threads.stats.branch_decisions);

  const Rollout& r = three.rollout;
  std::int64_t pairs = 0, nonzero = 0, differ = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    pairs += r.paired[i];
    if (!r.paired[i]) {
      EXPECT_EQ(r.paired_advantage[i], 0.0f) << "decision " << i;
    }
    nonzero += r.paired_advantage[i] != 0.0f;
    differ += r.paired_advantage[i] != one.rollout.paired_advantage[i];
  }
  EXPECT_EQ(three.stats.paired, pairs);
  EXPECT_EQ(three.stats.branches, one.stats.branches);  // the same decisions differ from the bot's
  EXPECT_GT(three.stats.branches, 0);
  EXPECT_LE(nonzero, three.stats.branches);
  EXPECT_GT(nonzero, 0);
  EXPECT_GT(differ, 0);
  // Three walls per pair, two play-outs each: about three times the decisions of one wall.
  EXPECT_GT(three.stats.branch_decisions, 2 * one.stats.branch_decisions);
  // Every game pairs its eligible decisions (the table's only pending one), the bot games too:
  // all but some responses to a discard that two seats could claim.
  EXPECT_GT(pairs, static_cast<std::int64_t>(r.size()) * 9 / 10);
}

// The expected form plays out every action the policy gives at least play_out_min_prob beside the
// greedy choice, on the same walls as the sampled form: where the sampled form played a out, the
// two forms agree on Q(a) - Q(g) to the bit; the games themselves are those of a run without
// play-outs, at one thread or two.
TEST(Actors, PlayOutsOfEveryLikelyActionAgreeWithThoseOfTheActionPlayed) {
  constexpr double kMin = 0.1;
  const RunResult plain = run_once("every_off", true, 1);
  const RunResult sampled = run_once("every_sampled", true, 1, false, 2);
  const RunResult every = run_once("every_on", true, 1, false, 2, kMin);
  const RunResult threads = run_once("every_t", true, 2, false, 2, kMin);
  const Rollout& r = every.rollout;
  r.check();
  ASSERT_EQ(r.played_out.size(), r.size());
  EXPECT_TRUE(sampled.rollout.played_out.empty());
  EXPECT_TRUE(identical(plain.rollout, without_pairs(r)));
  EXPECT_EQ(plain.logs, every.logs);
  EXPECT_TRUE(identical(r, threads.rollout));

  // The policy's probabilities at every stored decision (the actors evaluated these very
  // observations), tempered as the actors sample (T = 1 here).
  LinearTestPolicy policy(1, 1);
  const std::vector<float> probs = hydra::testing::stored_probs(r, policy);
  std::int64_t agree = 0, several = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (!r.paired[i]) {
      EXPECT_EQ(r.played_out[i], 0U) << "decision " << i;
      continue;
    }
    // Every likely action is played out, and besides them at most the greedy choice (a margin of
    // 1e-5 keeps the renormalisation's rounding out of the comparison).
    int likely = 0, maybe = 0;
    for (int a = 0; a < kActions; ++a) {
      if (!((r.legal[i] >> a) & 1U)) continue;
      const double p = probs[i * kActions + ix(a)];
      maybe += p >= kMin * (1 - 1e-5);
      if (p >= kMin * (1 + 1e-5)) {
        ++likely;
        EXPECT_TRUE((r.played_out[i] >> a) & 1U) << "decision " << i << " action " << a;
      }
    }
    const int count = std::popcount(r.played_out[i]);
    EXPECT_GE(count, std::max(likely, 1));
    EXPECT_LE(count, maybe + 1);
    several += count >= 3;
    for (int a = 0; a < kActions; ++a) {
      if (!((r.played_out[i] >> a) & 1U)) {
        EXPECT_EQ(r.action_value[i * kActions + ix(a)], 0.0f);
      }
    }
    // The sampled form played the action taken against g on the same two walls.
    const float q = sampled.rollout.paired_advantage[i];
    if (q != 0.0f && ((r.played_out[i] >> r.action[i]) & 1U)) {
      EXPECT_EQ(r.action_value[i * kActions + ix(r.action[i])], q) << "decision " << i;
      EXPECT_EQ(r.paired_advantage[i], q);
      ++agree;
    }
  }
  EXPECT_GT(agree, 0);
  EXPECT_GT(several, 0);  // decisions with two actions played out beside g
  EXPECT_GT(every.stats.branch_decisions, sampled.stats.branch_decisions);
}

// selfplay.play_out_sigmas gates each action value on its walls' spread: the games are those of
// the run without it, and each value is the ungated one to the bit or 0; a wider gate keeps a
// subset of a narrower one's values, and zeroes some that the walls cannot tell from 0.
TEST(Actors, GatedActionValuesAreTheUngatedOnesOrZero) {
  constexpr double kMin = 0.1;
  const RunResult open = run_once("gate_off", true, 1, false, 4, kMin);
  const RunResult narrow = run_once("gate_half", true, 1, false, 4, kMin, 0.5);
  const RunResult wide = run_once("gate_two", true, 2, false, 4, kMin, 2.0);
  for (const RunResult* run : {&narrow, &wide}) {
    run->rollout.check();
    EXPECT_TRUE(identical(without_pairs(open.rollout), without_pairs(run->rollout)));
    EXPECT_EQ(open.logs, run->logs);
    EXPECT_EQ(open.rollout.played_out, run->rollout.played_out);
  }
  const auto& v = open.rollout.action_value;
  const auto& vn = narrow.rollout.action_value;
  const auto& vw = wide.rollout.action_value;
  ASSERT_EQ(v.size(), vw.size());
  std::int64_t values = 0, kept_narrow = 0, kept_wide = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == 0.0f) {
      EXPECT_EQ(vn[i], 0.0f);
      EXPECT_EQ(vw[i], 0.0f);
      continue;
    }
    ++values;
    EXPECT_TRUE(vn[i] == v[i] || vn[i] == 0.0f) << i;
    EXPECT_TRUE(vw[i] == v[i] || vw[i] == 0.0f) << i;
    if (vw[i] != 0.0f) {
      EXPECT_EQ(vn[i], v[i]) << i;  // what two standard errors keep, half of one keeps
    }
    kept_narrow += vn[i] != 0.0f;
    kept_wide += vw[i] != 0.0f;
  }
  EXPECT_GT(values, 0);
  EXPECT_GT(kept_wide, 0);
  EXPECT_LT(kept_wide, kept_narrow);
  EXPECT_LT(kept_narrow, values);
}

TEST(Actors, AugmentationStoresPermutedActionsThatAreLegalInThePermutedMask) {
  // With augmentation on, the stored action is legal in the stored (permuted) mask, and some
  // seats play under a non-identity permutation: their stored masks differ from an unpermuted
  // run of the same games.
  const RunResult plain = run_once("aug_plain", false, 1);
  const RunResult perm = run_once("aug_perm", true, 1);
  plain.rollout.check();
  perm.rollout.check();
  EXPECT_FALSE(same_bytes(plain.rollout.legal, perm.rollout.legal));
}

TEST(Actors, LowTemperaturePlaysTheMostLikelyActionAndLogpIsTheTemperedPolicy) {
  config::Config cfg = small_config(4, "kyoku");
  cfg.selfplay.temperature = 0.01;
  auto policy = std::make_shared<LinearTestPolicy>(1, 1);
  Actors actors(actors_config(cfg), game::MasterSeed{13}, policy, nullptr);
  const Rollout r = actors.collect(100);
  std::vector<float> obs(r.obs.size());
  from_half(r.obs.data(), obs.data(), obs.size());
  std::vector<float> probs(r.size() * kActions), value(r.size());
  LinearTestPolicy fresh(1, 1);
  const auto legal = r.legal_masks();
  fresh.evaluate(PolicyBatch{obs.data(), r.context.data(), legal.data(), static_cast<int>(r.size())},
                 PolicyOutput{probs.data(), value.data()});
  std::size_t argmax = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const float* p = probs.data() + i * kActions;
    argmax += std::max_element(p, p + kActions) - p == r.action[i];
    // The stored log-probability is the behaviour policy's: p^(1/T) renormalised over the legal
    // actions, computed here directly in long double.
    long double sum = 0;
    for (int a = 0; a < kActions; ++a)
      if ((r.legal[i] >> a) & 1U) sum += std::pow(static_cast<long double>(p[a]), 100.0L);
    const long double want = std::log(std::pow(static_cast<long double>(p[r.action[i]]), 100.0L) / sum);
    EXPECT_NEAR(r.logp[i], static_cast<double>(want), 1e-4 * (1.0 + std::abs(static_cast<double>(want))));
    EXPECT_FLOAT_EQ(r.value[i], value[i]);
  }
  // p^100 renormalised: only near-ties (ratio above ~0.95) can pick another action.
  EXPECT_GE(static_cast<double>(argmax), 0.95 * static_cast<double>(r.size()));
}

TEST(Actors, StateRestoresTheGameCounter) {
  const config::Config cfg = small_config(4, "kyoku");
  Actors a(actors_config(cfg), game::MasterSeed{9}, std::make_shared<LinearTestPolicy>(1, 1), nullptr);
  (void)a.collect(20);
  const auto state = a.state();
  const Rollout next = a.collect(20);
  Actors b(actors_config(cfg), game::MasterSeed{9}, std::make_shared<LinearTestPolicy>(1, 1), nullptr);
  b.restore(nlohmann::json::parse(state.dump()));
  const Rollout resumed = b.collect(20);
  EXPECT_TRUE(identical(next, resumed));
}

TEST(Actors, RejectsAnUnknownBotAndACheckpointBaselineWithoutAPolicy) {
  config::Config cfg = small_config(4, "kyoku");
  cfg.selfplay.baseline = "bot:nope";
  EXPECT_THROW(Actors(actors_config(cfg), game::MasterSeed{1}, std::make_shared<LinearTestPolicy>(1), nullptr), Error);
  cfg.selfplay.baseline = "some/checkpoint.ckpt";
  cfg.selfplay.opp_baseline = 0.5;
  EXPECT_THROW(Actors(actors_config(cfg), game::MasterSeed{1}, std::make_shared<LinearTestPolicy>(1), nullptr), Error);
}

}  // namespace
}  // namespace hydra::selfplay
