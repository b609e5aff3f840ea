#pragma once

// Lock-step batched self-play (docs/SELFPLAY.md). M concurrent games
// (config selfplay.games) in two groups that alternate: while one group's batch is evaluated on
// a dedicated inference thread, the other group is stepped on the CPU (hydra::parallel_for over
// its games). Stepping a game answers bot seats and forced moves directly and encodes every
// network decision into the group's preallocated batch; after the forward pass each action is
// sampled from the game-seat's own KDF stream. Torch-free: the networks come in as BatchPolicy.
//
//   Actors actors(cfg, master, learner, nullptr);
//   Rollout r = actors.collect(cfg.ppo.rollout_samples);   // whole games only
//   actors.set_learner(new_snapshot);                        // after a refresh
//   ActorStats s = actors.take_stats();

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/common/config.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::selfplay {

// Opponent kinds of a game (config selfplay.opp_self / opp_pool / opp_baseline).
enum class OpponentKind : std::uint8_t { self = 0, pool = 1, baseline = 2 };
inline constexpr int kOpponentKinds = 3;
const char* opponent_kind_name(OpponentKind k);  // "self", "pool", "baseline"

// Per-kyoku rewards of a finished game (a GRP: model::kyoku_rewards; the torch side provides
// it). rewards(kyoku, final)[t][seat] is the reward of `seat` for kyoku t. Called from the thread
// that runs collect(), never concurrently.
class KyokuRewardModel {
 public:
  virtual ~KyokuRewardModel() = default;
  virtual std::vector<std::array<double, 4>> rewards(const std::vector<game::KyokuStart>& kyoku,
                                                     const std::array<int, 4>& final_scores) = 0;
};

// Without a reward model: the kyoku's score change / kRewardScale, plus on the game's last
// kyoku the placement points of the final rank (3, 1, -1, -3). A seat's rewards over a game
// telescope to (final score - 25,000) / 10,000 + placement points.
inline constexpr double kRewardScale = 10000.0;
inline constexpr std::array<double, 4> kPlacementReward{3.0, 1.0, -1.0, -3.0};

struct KindStats {
  std::int64_t games = 0;          // games of this opponent kind finished
  std::int64_t learner_seats = 0;  // learner seat-games (4 per self game, 1 otherwise)
  std::int64_t learner_kyoku = 0;  // learner seat-kyoku (denominator of the rates below)
  std::int64_t wins = 0, deal_ins = 0, riichi = 0, calls = 0;  // learner seat-kyoku with one
  std::array<std::int64_t, 4> ranks{};  // histogram of the learner seats' final ranks

  double win_rate() const;
  double deal_in_rate() const;
  double riichi_rate() const;
  double call_rate() const;
  double average_rank() const;  // 1..4; 0 when no seats
};

struct ActorStats {
  std::int64_t games = 0;
  std::int64_t kyoku = 0;
  std::int64_t decisions = 0;          // every decision answered by an agent or the network
  std::int64_t network_decisions = 0;  // evaluated by a BatchPolicy (all models)
  std::int64_t learner_decisions = 0;  // stored in the rollout
  std::int64_t forced = 0;             // one legal action: taken without the network
  std::int64_t forward_passes = 0;     // BatchPolicy::evaluate calls
  std::array<KindStats, kOpponentKinds> kinds{};
  double engine_seconds = 0;     // stepping tables, bots, sampling (summed over worker threads)
  double encode_seconds = 0;     // encoding observations into the batches (summed over workers)
  double inference_seconds = 0;  // the inference thread inside evaluate()
  double wait_seconds = 0;       // collect()'s thread blocked until a group's batch was evaluated
  double wall_seconds = 0;       // inside collect()

  KindStats total() const;  // all kinds together
  nlohmann::ordered_json to_json() const;
};

class Actors {
 public:
  // `baseline` is null when config selfplay.baseline is a bot ("bot:..."); otherwise the policy
  // of that checkpoint. Throws hydra::Error for an invalid opponent mix or baseline name.
  Actors(const config::Config& cfg, game::MasterSeed master, std::shared_ptr<BatchPolicy> learner,
         std::shared_ptr<BatchPolicy> baseline);
  ~Actors();
  Actors(const Actors&) = delete;
  Actors& operator=(const Actors&) = delete;

  // Only between collects (nothing is in flight then).
  void set_learner(std::shared_ptr<BatchPolicy> p);
  void add_to_pool(std::shared_ptr<BatchPolicy> p);  // keeps the pool_size newest
  void set_reward_model(std::shared_ptr<KyokuRewardModel> m);  // null: score change + placement
  // Writes each game finished by later collects as DIR/game_<index>.json.gz (mjai); "" = off.
  void set_log_dir(const std::filesystem::path& dir);

  // Plays whole games: every slot starts a game (global index counter), a finished game's slot
  // starts another while fewer than `min_samples` learner decisions have been recorded in this
  // collect, and every started game finishes before it returns (nothing is in flight between
  // collects). Episodes come out ordered by game index, then seat, then kyoku. After an
  // exception the object is unusable (games stay half played): make a new one.
  Rollout collect(std::int64_t min_samples);

  ActorStats take_stats();  // since the last call

  // The next game index and the pool versions (pool snapshots themselves are the caller's: it
  // re-adds them with add_to_pool before restore()).
  nlohmann::ordered_json state() const;
  void restore(const nlohmann::json& state);
  std::int64_t next_game() const;
  std::size_t pool_size() const;

  std::function<void(std::int64_t games_done)> progress;  // called after each finished game

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hydra::selfplay
