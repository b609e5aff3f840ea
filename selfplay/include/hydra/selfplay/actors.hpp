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
#include "hydra/selfplay/actor_stats.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/selfplay/rewards.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::selfplay {

// What the actors read of a run's config.
struct ActorsConfig {
  config::RulesConfig rules;
  config::SelfplayConfig selfplay;
  // The run's advantage estimator (from the ppo section): what the actors collect beyond the
  // trajectories (collector.hpp).
  config::Estimator estimator = config::Estimator::gae;
};
ActorsConfig actors_config(const config::Config& cfg);

class Actors {
 public:
  // `baseline` is null when cfg.selfplay.baseline is a bot ("bot:..."); otherwise the policy
  // of that checkpoint. Throws hydra::Error for an invalid opponent mix or baseline name.
  Actors(const ActorsConfig& cfg, game::MasterSeed master, std::shared_ptr<BatchPolicy> learner,
         std::shared_ptr<BatchPolicy> baseline);
  ~Actors();
  Actors(const Actors&) = delete;
  Actors& operator=(const Actors&) = delete;

  // Only between collects (nothing is in flight then).
  void set_learner(std::shared_ptr<BatchPolicy> p);
  // The opponent pool's policies, oldest first. The caller owns the pool (the trainer keeps the
  // snapshots' weights for its checkpoints and drops the oldest beyond selfplay.pool_size); the
  // actors only read this list, so there is one owner and one size limit.
  void set_pool(std::vector<std::shared_ptr<BatchPolicy>> pool);
  // The network of selfplay.play_out_agent = start or a checkpoint path (snapshot plays out with
  // the learner's policy, bot:greedy with none); before the first collect().
  void set_play_out_policy(std::shared_ptr<BatchPolicy> p);
  // The network of selfplay.play_out_others = start or a checkpoint path (the other seats of a
  // play-out); before the first collect().
  void set_play_out_others_policy(std::shared_ptr<BatchPolicy> p);
  void set_reward_model(std::shared_ptr<KyokuRewardModel> m);  // null: score change + placement
  // Writes each game finished by later collects as DIR/game_<index>.json.gz (mjai); "" = off.
  void set_log_dir(const std::filesystem::path& dir);
  // Where an external baseline (selfplay.baseline = mjai:... or mjai.app:...) keeps its stderr
  // logs (default: mjai-logs in the working folder); before the first collect().
  void set_external_log_dir(const std::filesystem::path& dir);

  // Plays whole games: every slot starts a game (global index counter), a finished game's slot
  // starts another while fewer than `min_samples` learner decisions have been recorded in this
  // collect, and every started game finishes before it returns (nothing is in flight between
  // collects). Episodes come out ordered by game index, then seat, then kyoku. After an
  // exception the object is unusable (games stay half played): make a new one.
  Rollout collect(std::int64_t min_samples);

  ActorStats take_stats();  // since the last call

  // The next game index and the pool versions (the pool itself is the caller's: it sets it again
  // with set_pool before restore()).
  nlohmann::ordered_json state() const;
  void restore(const nlohmann::json& state);
  std::int64_t next_game() const;
  std::size_t pool_size() const;

  // Where a collect stands: its games finished so far, its learner decisions recorded (it ends
  // once `samples` >= `target` and its games have finished) and its seconds so far.
  struct Progress {
    std::int64_t games = 0;
    std::int64_t samples = 0;
    std::int64_t target = 0;
    double seconds = 0;
  };
  // Called from the thread that runs collect(), at most once per `progress_seconds` of a collect
  // (the first after that long): a long collect's progress line (hydra train).
  std::function<void(const Progress&)> progress;
  double progress_seconds = 60;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hydra::selfplay
