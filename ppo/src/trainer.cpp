#include "hydra/ppo/trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <type_traits>
#include <utility>

#include <torch/torch.h>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/stop.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/network.hpp"
#include "hydra/model/run_context.hpp"
#include "hydra/ppo/health.hpp"
#include "hydra/ppo/learner.hpp"
#include "hydra/ppo/trainer_report.hpp"
#include "hydra/ppo/trainer_run.hpp"
#include "hydra/selfplay/actors.hpp"
#include "hydra/selfplay/external_agent.hpp"
#include "hydra/selfplay/torch/grp_rewards.hpp"
#include "hydra/selfplay/torch/inference.hpp"

namespace hydra::ppo {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A frozen copy of the learner's weights behind a policy: the actors' current snapshot or a
// pool entry. `weights` is a CPU copy kept so a checkpoint can save it (the InferenceModel
// holds its own copy on the device and does not hand it out).
struct FrozenPolicy {
  std::int64_t version = 0;
  model::HydraNet weights{nullptr};
  std::shared_ptr<selfplay::InferenceModel> policy;
};

model::HydraNet cpu_copy(const model::HydraNetImpl& net) {
  torch::NoGradGuard no_grad;
  return model::HydraNet(std::dynamic_pointer_cast<model::HydraNetImpl>(net.clone(torch::kCPU)));
}

// The master seed of this rank's actors: the run's own for rank 0 (so a world of one plays the
// games of a single process), a child of it for every other rank, so no two ranks play the same
// walls.
game::MasterSeed actor_master(std::uint64_t seed, int rank) {
  const game::MasterSeed master{seed};
  if (rank == 0) return master;
  return game::MasterSeed{game::u64(game::stream_key(master, game::labels::rank, {static_cast<std::uint64_t>(rank)}).bytes())};
}

// What a collect of every rank adds up to: the actors' counts summed in rank order (ActorStats is
// plain numbers, so its bytes travel as they are between ranks of one build) and the rollouts' sizes.
struct Collected {
  selfplay::ActorStats stats;
  std::int64_t samples = 0;
};
static_assert(std::is_trivially_copyable_v<Collected>);

Collected combine(model::ProcessGroup* group, const Collected& mine) {
  if (group == nullptr) return mine;
  std::string bytes(sizeof(Collected), '\0');
  std::memcpy(bytes.data(), &mine, sizeof(Collected));
  Collected all;
  for (const std::string& b : group->all_gather_bytes(bytes)) {
    HYDRA_CHECK(b.size() == sizeof(Collected), "a rank sent collect statistics of another size");
    Collected one;
    std::memcpy(&one, b.data(), sizeof(Collected));
    all.stats += one.stats;
    all.samples += one.samples;
  }
  return all;
}

bool any_checkpoint(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".ckpt") return true;
  return false;
}

}  // namespace

struct Trainer::Impl {
  TrainOptions opt;
  PreparedRun run;
  std::unique_ptr<model::RunContext> context;  // threads and device, for the trainer's lifetime
  torch::Device device{torch::kCPU};
  std::unique_ptr<Learner> learner;
  FrozenPolicy current;              // what the learner's seats play with
  std::deque<FrozenPolicy> pool;     // newest last, at most selfplay.pool_size
  std::shared_ptr<selfplay::BatchPolicy> baseline;
  std::shared_ptr<selfplay::BatchPolicy> play_out;  // selfplay.play_out_agent = start or a checkpoint
  std::shared_ptr<selfplay::BatchPolicy> play_out_others;  // selfplay.play_out_others = start or a checkpoint
  std::unique_ptr<selfplay::Actors> actors;
  std::unique_ptr<model::CheckpointDir> checkpoints;
  std::unique_ptr<metrics::MetricsWriter> metrics;

  // Run totals, saved in checkpoints (extra["trainer"]).
  std::int64_t games_total = 0;
  std::int64_t samples_total = 0;
  double best_rank = 0;          // lowest checkpoint-window rank vs the baseline; 0 = none yet
  // Learner ranks vs the baseline since the last checkpoint (chooses `best`).
  double window_rank_sum = 0;
  std::int64_t window_rank_n = 0;
  std::int64_t last_saved_step = -1;
  metrics::Scalars last_scalars;

  const config::Config& cfg() const { return run.config; }
  model::ProcessGroup* group() const { return context->group(); }
  bool writes() const { return context->writes(); }
  game::MasterSeed actors_master() const { return actor_master(run.seed, context->env().rank); }

  FrozenPolicy make_snapshot(std::int64_t version, bool keep_weights) {
    FrozenPolicy s;
    s.version = version;
    s.policy = std::make_shared<selfplay::InferenceModel>(learner->net(), device, version);
    if (keep_weights) s.weights = cpu_copy(learner->net());
    return s;
  }

  // The trainer owns the pool; the actors read its policies (Actors::set_pool).
  void add_pool(FrozenPolicy s) {
    pool.push_back(std::move(s));
    while (pool.size() > static_cast<std::size_t>(cfg().selfplay.pool_size)) pool.pop_front();
    std::vector<std::shared_ptr<selfplay::BatchPolicy>> policies;
    for (const FrozenPolicy& f : pool) policies.push_back(f.policy);
    actors->set_pool(std::move(policies));
  }

  void make_actors() {
    actors = std::make_unique<selfplay::Actors>(selfplay::actors_config(cfg()), actors_master(), current.policy, baseline);
    if (play_out) actors->set_play_out_policy(play_out);
    if (play_out_others) actors->set_play_out_others_policy(play_out_others);
  }
  void start_fresh();
  void resume();
  fs::path save_checkpoint(std::int64_t step);
};

void Trainer::Impl::start_fresh() {
  // Anything that draws from torch's global generator starts from the run's seed; the streams
  // the loop itself uses are KDF children of the master seed (learner, actors).
  torch::manual_seed(game::u64(game::stream_key(game::MasterSeed{run.seed}, game::labels::network_init, {1}).bytes()));
  learner = std::make_unique<Learner>(learner_config(cfg()), device, game::MasterSeed{run.seed});
  if (group() != nullptr) learner->set_group(group());  // rank 0's weights everywhere
  current = make_snapshot(0, cfg().selfplay.refresh_every > 1);
  make_actors();
  // The pool starts with the initial network so pool games have an opponent from update 1.
  add_pool(make_snapshot(0, true));
  if (writes()) metrics = std::make_unique<metrics::MetricsWriter>(run.paths.root, cfg().train.tensorboard, std::int64_t{0});
}

void Trainer::Impl::resume() {
  learner = std::make_unique<Learner>(learner_config(cfg()), device, game::MasterSeed{run.seed});
  fs::path file;
  std::optional<model::CheckpointData> data =
      checkpoints->load_latest(&learner->net(), &learner->optimizer(), {}, &file);
  if (!data) throw Error("--resume: no checkpoint in " + checkpoints->dir().string());
  const std::string name = file.string();
  std::string refused;
  for (const ConfigChange& c : config_changes(data->config, nlohmann::json(config::to_json(cfg()))))
    if (!resume_may_differ(c.key)) refused += "\n  " + c.key + ": " + c.saved + " in the checkpoint, " + c.now + " now";
  if (!refused.empty())
    throw Error("--resume: " + name + " was written with a config that differs in keys that change the training:" + refused);
  learner->restore_state(*data);
  // Every rank read the same checkpoint; the group also checks their master seeds agree.
  if (group() != nullptr) learner->set_group(group());

  const nlohmann::json& t = data->extra.at("trainer");
  games_total = t.at("games").get<std::int64_t>();
  samples_total = t.at("samples").get<std::int64_t>();
  best_rank = t.at("best_rank").get<double>();
  const std::int64_t current_version = t.at("snapshot_version").get<std::int64_t>();
  if (current_version == data->step) {
    current = make_snapshot(current_version, cfg().selfplay.refresh_every > 1);
  } else {
    current.version = current_version;
    current.weights = model::HydraNet(cfg().model);
    model::load_prefixed(*current.weights, "snapshot/", *data, name);
    current.policy = std::make_shared<selfplay::InferenceModel>(*current.weights, device, current_version);
  }
  make_actors();
  const nlohmann::json& versions = t.at("pool_versions");
  for (std::size_t i = 0; i < versions.size(); ++i) {
    FrozenPolicy s;
    s.version = versions[i].get<std::int64_t>();
    s.weights = model::HydraNet(cfg().model);
    model::load_prefixed(*s.weights, "pool/" + std::to_string(i) + "/", *data, name);
    s.policy = std::make_shared<selfplay::InferenceModel>(*s.weights, device, s.version);
    add_pool(std::move(s));
  }
  actors->restore(data->extra.at("actors"));
  last_saved_step = data->step;
  if (writes()) metrics = std::make_unique<metrics::MetricsWriter>(run.paths.root, cfg().train.tensorboard, data->step);
  const int saved_world = t.contains("world_size") ? t.at("world_size").get<int>() : 1;
  log::info("train: resumed from {} at update {} ({} games played so far; written by {} rank(s), now {})", name,
            data->step, games_total, saved_world, context->env().world_size);
}

fs::path Trainer::Impl::save_checkpoint(std::int64_t step) {
  // Every rank comes here at the same step. The actors' next game index is the largest of any
  // rank's, so a resumed rank (in a world of any size) never replays a wall of its stream.
  nlohmann::ordered_json actor_state = actors->state();
  if (group() != nullptr) {
    const auto next = group()->all_gather_int(actors->next_game());
    actor_state["next_game"] = *std::max_element(next.begin(), next.end());
  }
  bool is_best = false;
  if (window_rank_n > 0) {
    const double rank = window_rank_sum / static_cast<double>(window_rank_n);
    is_best = best_rank == 0 || rank < best_rank;
    if (is_best) best_rank = rank;
  }
  window_rank_sum = 0;
  window_rank_n = 0;
  last_saved_step = step;
  if (!writes()) return {};

  model::CheckpointData data;
  learner->save_state(data);
  HYDRA_CHECK(data.step == step, "learner state step differs from the trainer's");
  data.config = config::to_json(cfg());
  data.metrics = nlohmann::ordered_json::object();
  for (const auto& [k, v] : last_scalars) data.metrics[k] = v;
  data.extra["actors"] = actor_state;
  nlohmann::ordered_json versions = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < pool.size(); ++i) {
    versions.push_back(pool[i].version);
    model::save_prefixed(*pool[i].weights, "pool/" + std::to_string(i) + "/", data);
  }
  if (current.version != step) model::save_prefixed(*current.weights, "snapshot/", data);

  data.extra["trainer"] = {{"games", games_total},
                           {"samples", samples_total},
                           {"best_rank", best_rank},
                           {"snapshot_version", current.version},
                           {"pool_versions", versions},
                           {"world_size", context->env().world_size}};
  const fs::path file = checkpoints->save(data, learner->net(), &learner->optimizer(), is_best);
  log::info("train: checkpoint {} (update {}){}", file.string(), step, is_best ? ", best so far" : "");
  return file;
}

Trainer::Trainer(config::Config config, TrainOptions options) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.opt = std::move(options);
  // The ranks meet first (a world of one makes no group): they agree on the run before any file
  // is touched, and only rank 0 writes (the others log errors only).
  m.context = std::make_unique<model::RunContext>(config.run.threads, config.run.device, m.opt.ranks,
                                                  model::RunContext::Ranks{config.run.dist_backend, config.run.dist_timeout});
  if (!m.writes()) log::set_level("error");
  m.context->agree_on_given_seed(config.run.seed, "train");  // before any file is touched
  const fs::path dir = m.opt.run_dir.empty() ? fs::path(config.run.dir) : m.opt.run_dir;
  // The writing rank becomes the directory's one writer before it reads or writes anything
  // there: a live run in it is an error naming that process (a --resume of a directory that does
  // not exist makes none, prepare_run refuses it).
  if (m.writes() && !(m.opt.resume && !fs::exists(dir))) m.context->own_run_dir(dir, "train");
  m.run = prepare_run(std::move(config), dir, m.opt.resume, any_checkpoint(dir / "checkpoints"), m.writes());
  if (m.group() != nullptr) {  // rank 0's master seed (given or drawn) becomes every rank's
    m.run.config.run.seed = m.run.seed;
    m.context->agree_on_config(m.run.config, "train", "--config, --set and --run-dir");
    m.run.seed = *m.run.config.run.seed;
    m.run.seed_drawn = m.run.seed_drawn && m.writes();
  }
  if (m.opt.log_file && m.writes()) log::add_file(m.run.paths.log());
  const config::Config& cfg = m.run.config;

  m.device = m.context->device();
  if (cfg.selfplay.baseline.rfind("bot:", 0) != 0 && !selfplay::is_external_name(cfg.selfplay.baseline)) m.baseline = selfplay::load_policy(cfg.selfplay.baseline, m.device);
  m.play_out = selfplay::play_out_policy(cfg, m.device);
  m.play_out_others = selfplay::play_out_others_policy(cfg, m.device);
  m.checkpoints = std::make_unique<model::CheckpointDir>(m.run.paths.checkpoints(), cfg.checkpoint.keep);

  log::info("train: run '{}' in {}, master seed {}{}, device {}, model {}x{}{}", cfg.run.name,
            m.run.paths.root.string(), m.run.seed, m.run.seed_drawn ? " (drawn)" : "", m.device.str(),
            cfg.model.blocks, cfg.model.channels,
            m.group() != nullptr ? ", " + std::to_string(m.group()->size()) + " ranks" : std::string());
  if (m.opt.resume) m.resume();
  else m.start_fresh();
  if (!cfg.selfplay.grp.empty()) m.actors->set_reward_model(std::make_shared<selfplay::GrpRewardModel>(cfg.selfplay.grp));
  // Rank 0 writes into the run directory itself, another rank into a folder of its own there.
  const std::string own = m.writes() ? std::string() : "rank-" + std::to_string(m.context->env().rank);
  if (m.opt.write_game_logs) m.actors->set_log_dir(m.run.paths.root / "games" / own);
  m.actors->set_external_log_dir(m.run.paths.root / "mjai-logs" / own);  // an external baseline's stderr
  // A collect of network play-outs on a CPU can take half an hour: a line a minute while it runs.
  if (m.opt.progress)
    m.actors->progress = [&m](const selfplay::Actors::Progress& p) {
      log::info("train: update {} collecting: {} of {} learner decisions, {} games finished, {:.0f} s",
                m.learner->updates() + 1, p.samples, p.target, p.games, p.seconds);
    };
}

Trainer::~Trainer() = default;

const config::Config& Trainer::config() const { return impl_->cfg(); }

TrainResult Trainer::run() {
  Impl& m = *impl_;
  const config::Config& cfg = m.cfg();
  TrainResult result;
  result.run_dir = m.run.paths.root;
  result.seed = m.run.seed;
  result.start_step = m.learner->updates();
  std::int64_t step = result.start_step;
  const std::int64_t max_updates = cfg.train.max_updates;
  const auto session_start = Clock::now();
  TrainingHealth health(cfg.train.health_window);
  if (step >= max_updates) log::info("train: the run is already at update {} of {}", step, max_updates);
  const auto at_stop = [&] { return m.opt.stop_at > 0 && step >= m.opt.stop_at; };
  if (at_stop() && step < max_updates) log::info("train: the run is already at update {} (--stop-at {})", step, m.opt.stop_at);

  while (step < max_updates && !at_stop()) {
    const auto t0 = Clock::now();
    const selfplay::Rollout rollout = m.actors->collect(cfg.ppo.rollout_samples);
    const double collect_seconds = seconds_since(t0);
    const auto t1 = Clock::now();
    const UpdateStats stats = m.learner->update(rollout);
    const double update_seconds = seconds_since(t1);
    step = m.learner->updates();
    // Every rank's games count (summed over the ranks in a data-parallel run).
    const Collected collected =
        combine(m.group(), Collected{m.actors->take_stats(), static_cast<std::int64_t>(rollout.size())});
    const selfplay::ActorStats& actor_stats = collected.stats;
    m.games_total += actor_stats.games;
    m.samples_total += collected.samples;

    if (step % cfg.selfplay.refresh_every == 0) {
      m.current.policy->publish(m.learner->net(), step);
      m.current.version = step;
      if (cfg.selfplay.refresh_every > 1) m.current.weights = cpu_copy(m.learner->net());
    }
    if (step % cfg.selfplay.pool_every == 0) m.add_pool(m.make_snapshot(step, true));

    metrics::Scalars scalars = stats.scalars();
    for (auto& kv : actor_scalars(actor_stats, collect_seconds, update_seconds)) scalars.push_back(std::move(kv));
    scalars.emplace_back("selfplay/games_total", static_cast<double>(m.games_total));
    scalars.emplace_back("selfplay/snapshot_version", static_cast<double>(m.current.version));
    const auto& baseline_kind = actor_stats.kinds[static_cast<std::size_t>(selfplay::OpponentKind::baseline)];
    for (std::size_t r = 0; r < baseline_kind.ranks.size(); ++r) {
      m.window_rank_sum += static_cast<double>(baseline_kind.ranks[r]) * static_cast<double>(r + 1);
      m.window_rank_n += baseline_kind.ranks[r];
    }
    m.last_scalars = scalars;
    for (const std::string& w : health.observe(step, scalars)) log::warn("train: {}", w);
    if (m.opt.on_update) m.opt.on_update(step, scalars);

    const double elapsed = seconds_since(session_start);
    const double per_update = elapsed / static_cast<double>(step - result.start_step);
    // train.max_minutes bounds the session: the next update starts only if it is expected to end
    // in time (at the session's mean time per update), so a run does not overrun its budget by
    // most of an update.
    const double budget = cfg.train.max_minutes * 60.0;
    const bool out_of_time = cfg.train.max_minutes > 0 && elapsed + per_update > budget;
    if (step % cfg.train.log_every == 0 || step == max_updates) {
      if (m.metrics) m.metrics->write(step, scalars);
      // The run ends at max_updates (or --stop-at) or at the last update that fits in
      // train.max_minutes, whichever comes first.
      const std::int64_t last = m.opt.stop_at > 0 ? std::min(max_updates, m.opt.stop_at) : max_updates;
      double updates_left = static_cast<double>(last - step);
      if (cfg.train.max_minutes > 0)
        updates_left = out_of_time ? 0.0 : std::min(updates_left, std::floor((budget - elapsed) / per_update));
      if (m.opt.progress) log::info("{}", progress_line(step, last, scalars, per_update * updates_left));
    }

    std::string reason;
    if (step >= max_updates) reason = "max_updates";
    else if (at_stop()) reason = "stop_at";
    else if (m.opt.stop != nullptr && m.opt.stop->requested()) reason = "signal";
    else if (out_of_time) reason = "max_minutes";
    reason = m.context->agree_on_stop(reason);  // the ranks stop together
    if (step % cfg.train.checkpoint_every == 0 || !reason.empty()) result.last_checkpoint = m.save_checkpoint(step);
    if (!reason.empty()) {
      result.stop_reason = reason;
      break;
    }
  }
  result.step = step;
  if (result.stop_reason.empty()) result.stop_reason = step < max_updates && at_stop() ? "stop_at" : "max_updates";
  log::info("train: stopped at update {} ({}) after {}; games played {}, samples {}", step, result.stop_reason,
            human_duration(seconds_since(session_start)), m.games_total, m.samples_total);
  log::flush();
  return result;
}

}  // namespace hydra::ppo
