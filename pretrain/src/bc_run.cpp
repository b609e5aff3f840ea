// `hydra pretrain`: the behaviour-cloning run loop and the eval-only path (run.hpp).

#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/ranges.h>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/metrics.hpp"
#include "hydra/common/stop.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/run_context.hpp"
#include "hydra/pretrain/agreement.hpp"
#include "hydra/pretrain/bc.hpp"
#include "hydra/pretrain/run.hpp"
#include "run_common.hpp"
#include "hydra/common/index.hpp"

namespace hydra::pretrain {

data::DatasetOptions dataset_options(const config::Config& cfg, game::MasterSeed seed, bool validation) {
  data::DatasetOptions o;
  o.inputs = cfg.pretrain.data;
  o.validation = validation;
  o.val_fraction = cfg.pretrain.val_fraction;
  o.seed = seed;
  o.augment = validation ? false : cfg.pretrain.augment;
  o.shuffle_buffer = cfg.pretrain.shuffle_buffer;
  o.repeat = !validation;
  o.rules = cfg.rules.preset;
  return o;
}

namespace {

// extra[key] of a checkpoint, or `fallback` when it is missing or null (how JSON holds a NaN or
// an infinity).
double number_or(const nlohmann::ordered_json& extra, const char* key, double fallback) {
  const auto it = extra.find(key);
  return it == extra.end() || it->is_null() ? fallback : it->get<double>();
}

namespace fs = std::filesystem;

// What every rank of a run must be given alike.
constexpr std::string_view kSameFlags = "--config, --set, --data and --run-dir";

// Greedy agreement replays whole games on the CPU: a sample of the held-out files is enough.
constexpr std::size_t kGreedyFiles = 500;

// The held-out split, or nullopt (with a warning) when it holds no file.
std::unique_ptr<data::Dataset> open_validation(const config::Config& cfg, game::MasterSeed seed) {
  if (cfg.pretrain.val_fraction <= 0) return nullptr;
  try {
    auto ds = std::make_unique<data::Dataset>(dataset_options(cfg, seed, true));
    if (!ds->files().empty()) return ds;
  } catch (const Error& e) {
    log::warn("pretrain: no validation: {}", e.what());
    return nullptr;
  }
  log::warn("pretrain: the validation split (pretrain.val_fraction {}) holds no file: no validation", cfg.pretrain.val_fraction);
  return nullptr;
}

// `other`: what the second network is (the run's teacher, or --against).
void log_validation(std::int64_t step, const Validation& v, double greedy, std::string_view other = "the teacher") {
  const auto& a = v.accuracy;
  log::info("pretrain: validation at step {}: {} samples, loss {:.4f} (policy {:.4f}), top-1 {:.4f}", step, v.samples,
            v.loss.total, v.loss.policy, a.accuracy());
  std::string types;
  for (int t = 0; t < kTypes; ++t) {
    const auto type = static_cast<data::DecisionType>(t);
    if (a.total(type) > 0)
      types += fmt::format(" {} {:.4f} ({})", kTypeNames[ix(t)], a.accuracy(type), a.total(type));
  }
  log::info("pretrain: accuracy by type:{}", types);
  if (const auto& t = v.teacher)
    log::info("pretrain: against {}: matches {} of {} decisions where the log keeps its argmax, {} of {} where the log corrects it",
              other, t->kept_matched, t->kept, t->corrected_matched, t->corrected);
  if (const auto& s = v.search)
    log::info("pretrain: against the search's values: its choice is one of the candidates at {} of {} searched decisions; "
              "there the search's choice is worth {:.5f} +- {:.5f} more a decision",
              s->covered, s->searched, s->mean(), s->standard_error());
  if (const auto& g = v.search_gain)
    log::info("pretrain: by the search's values the network gains {:.5f} +- {:.5f} a searched decision over {} "
              "(whose regret is {:.5f}; {} decisions both cover)",
              g->mean(), g->standard_error(), other, v.teacher_search->mean(), g->covered);
  log::info("pretrain: discards: model {:.4f}, majority-class baseline {:.4f} (constant guess {:.4f}){}",
            a.accuracy(data::DecisionType::discard), a.discard_baseline(), a.discard_constant_baseline(),
            std::isnan(greedy) ? std::string() : fmt::format(", greedy bot {:.4f}", greedy));
}

}  // namespace

RunSummary run_pretrain(config::Config cfg, const RunOptions& options) {
  if (cfg.pretrain.data.empty()) throw Error("pretrain: no data: pass --data DIR or set pretrain.data");
  if (options.max_steps) cfg.train.max_updates = *options.max_steps;
  const std::int64_t total = cfg.train.max_updates;
  // The ranks meet first (a world of one makes no group); only rank 0 writes, the others log
  // errors only.
  model::RunContext context(cfg.run.threads, cfg.run.device, options.ranks,
                                  {cfg.run.dist_backend, cfg.run.dist_timeout});
  model::ProcessGroup* const group = context.group();
  const int rank = context.env().rank;
  const int world = context.env().world_size;
  if (!context.writes()) log::set_level("error");
  if (cfg.pretrain.batch < world)
    throw Error("pretrain: pretrain.batch " + std::to_string(cfg.pretrain.batch) + " is the batch of all " +
                std::to_string(world) + " ranks together: it needs at least one sample per rank");
  const torch::Device device = context.device();
  const fs::path run_dir(cfg.run.dir);
  context.agree_on_given_seed(cfg.run.seed, "pretrain");  // before any file is touched
  if (context.writes()) context.own_run_dir(run_dir, "pretrain");
  model::CheckpointDir checkpoints(run_dir / "checkpoints", cfg.checkpoint.keep);

  // The seed of a resumed run is the one its checkpoint recorded.
  std::optional<model::CheckpointData> resumed;
  game::MasterSeed seed{cfg.run.seed.value_or(0)};
  const bool seed_given = cfg.run.seed.has_value();
  if (!seed_given && !options.resume) seed = detail::resolve_seed(cfg, "pretrain");
  if (group != nullptr && !options.resume) {
    context.agree_on_config(cfg, "pretrain", kSameFlags);
    seed = game::MasterSeed{*cfg.run.seed};
  }
  BcLearner learner(cfg.model, cfg.pretrain, device, total, game::u64(game::stream_key(seed, game::labels::network_init).bytes()));
  if (options.resume) {
    fs::path from;
    resumed = checkpoints.load_latest(learner.net().get(), &learner.optimizer(), {}, &from);
    if (!resumed) throw Error(run_dir.string() + ": --resume but no checkpoint in " + (run_dir / "checkpoints").string());
    if (resumed->kind != "hydra_net") throw Error(from.string() + ": not a behaviour-cloning checkpoint (kind " + resumed->kind + ")");
    detail::check_same_model(resumed->config, cfg, from);
    seed = game::MasterSeed{resumed->extra.value("master_seed", std::uint64_t{0})};
    cfg.run.seed = seed.value;
    learner.set_steps(resumed->step);
    context.agree_on_config(cfg, "pretrain", kSameFlags);
    log::info("pretrain: resuming from {} at step {} (written by {} rank(s), now {})", from.string(), resumed->step,
              resumed->extra.value("world_size", 1), world);
  }
  if (!options.resume && !options.init.empty()) {
    // Fine-tuning (docs/PRETRAIN.md "Behaviour cloning", Fine-tuning): the weights of a network of
    // the same shape; the optimizer, its schedule and the step count start afresh.
    load_weights(options.init, *learner.net(), "--init");
    log::info("pretrain: initial weights from {}", options.init.string());
  }
  const bool teacher = !cfg.pretrain.teacher.empty();
  if (teacher)
    log::info("pretrain: the target is {}'s policy where the logged action is its argmax, the logged action (weight {}) where not",
              cfg.pretrain.teacher, cfg.pretrain.correction_weight);
  if (teacher && cfg.pretrain.search_temperature > 0)
    log::info("pretrain: where a search kept the argmax, its candidates' values reweight the teacher's policy by exp(value / {})",
              cfg.pretrain.search_temperature);
  learner.set_group(group);  // rank 0's weights everywhere
  detail::open_run_dir(cfg, "pretrain.log", options.resume, context.writes());
  // pretrain.batch is the union's: rank r takes rows [batch r / W, batch (r + 1) / W).
  const auto share_of = [&](std::int64_t n, int r) { return n * (r + 1) / world - n * r / world; };
  const auto batch_size = static_cast<std::size_t>(share_of(cfg.pretrain.batch, rank));
  log::info("pretrain: {} x {} network on {}, batch {}, {} steps, seed {}{}", cfg.model.blocks, cfg.model.channels,
            device.str(), cfg.pretrain.batch, total, seed.value,
            world > 1 ? fmt::format(", {} ranks ({} samples each per step)", world,
                                    cfg.pretrain.batch % world == 0
                                        ? std::to_string(cfg.pretrain.batch / world)
                                        : fmt::format("{} or {}", cfg.pretrain.batch / world, cfg.pretrain.batch / world + 1))
                      : std::string());

  const auto stored_config = config::to_json(cfg);
  // A checkpoint written before the first validation holds no best loss: JSON has no infinity,
  // so it was saved as null.
  double best_val = resumed ? number_or(resumed->extra, "best_val_loss", std::numeric_limits<double>::infinity())
                            : std::numeric_limits<double>::infinity();
  std::int64_t samples_seen = resumed ? resumed->extra.value("samples", std::int64_t{0}) : 0;
  nlohmann::ordered_json last_val = resumed ? resumed->metrics : nlohmann::ordered_json::object();

  std::optional<metrics::MetricsWriter> writer;
  if (context.writes())
    writer.emplace(run_dir, cfg.train.tensorboard, resumed ? std::optional<std::int64_t>(resumed->step) : std::nullopt);
  const auto write_metrics = [&](std::int64_t step, const metrics::Scalars& scalars) {
    if (writer) writer->write(step, scalars);
  };
  // Each rank reads its shard of the training files: between them, every file once per pass.
  data::DatasetOptions train_options = dataset_options(cfg, seed, false);
  train_options.shard_index = rank;
  train_options.shard_count = world;
  data::Dataset train(train_options);
  if (train.files().empty())
    throw Error(fmt::format("pretrain: no training file: pretrain.val_fraction = {} holds out every file of the data "
                            "(whole files, chosen by a hash of each path); add files or lower pretrain.val_fraction",
                            cfg.pretrain.val_fraction));
  std::vector<std::int64_t> files_per_rank{static_cast<std::int64_t>(train.epoch_files(0).size())};
  if (group != nullptr) {
    files_per_rank = group->all_gather_int(static_cast<std::int64_t>(train.epoch_files(0).size()));
    for (std::size_t r = 0; r < files_per_rank.size(); ++r)
      if (files_per_rank[r] == 0)
        throw Error("pretrain: " + std::to_string(train.files().size()) + " training file(s) for " + std::to_string(world) +
                    " ranks: rank " + std::to_string(r) + " would have none (every rank reads whole files)");
  }
  log::info("pretrain: {} training files{}", train.files().size(),
            world > 1 ? fmt::format(" ({} per rank and pass)", fmt::join(files_per_rank, ", ")) : std::string());
  auto probe = open_validation(cfg, seed);
  const bool has_val = probe != nullptr;

  // The greedy bot's agreement on the held-out discards does not change during the run.
  double greedy = std::numeric_limits<double>::quiet_NaN();
  std::vector<data::BadFile> greedy_bad;
  if (has_val && !resumed) {
    std::vector<fs::path> files = probe->files();
    if (files.size() > kGreedyFiles) files.resize(kGreedyFiles);
    // With ranks, each replays its share of the files and the counts are summed.
    std::vector<fs::path> mine;
    for (std::size_t i = ix(rank); i < files.size(); i += ix(world)) mine.push_back(files[i]);
    const Agreement g = greedy_agreement(mine, cfg.rules.preset);
    std::array<std::int64_t, 3> counts{g.accuracy.correct(data::DecisionType::discard),
                                       g.accuracy.total(data::DecisionType::discard), g.games};
    if (group != nullptr) {
      const auto t = torch::tensor(std::vector<std::int64_t>(counts.begin(), counts.end()), torch::kLong);
      group->all_reduce_sum({t});
      for (std::size_t k = 0; k < counts.size(); ++k) counts[k] = t[static_cast<std::int64_t>(k)].item<std::int64_t>();
    }
    greedy = counts[1] > 0 ? static_cast<double>(counts[0]) / static_cast<double>(counts[1])
                           : std::numeric_limits<double>::quiet_NaN();
    greedy_bad = g.bad;
    log::info("pretrain: greedy bot agrees with {:.4f} of {} held-out human discards ({} games)", greedy, counts[1],
              counts[2]);
    if (!std::isnan(greedy)) write_metrics(0, {{"val/greedy/discard", greedy}});
  } else if (resumed) {
    greedy = number_or(resumed->extra, "greedy_discard", std::numeric_limits<double>::quiet_NaN());
  }
  probe.reset();

  data::SampleBatch batch;
  std::int64_t rank_samples = 0;  // of this rank's stream, trained on or skipped
  if (samples_seen > 0) {
    // The stream is a function of the seed: skipping what the run already trained on puts the
    // resumed run on the samples the uninterrupted run would have seen next. With ranks, each
    // skips its share; a world of another size than the checkpoint's reads other shards, so it
    // goes on at the same point of the passes, not on the same samples.
    const auto per_rank = resumed->extra.value("rank_samples", std::vector<std::int64_t>{samples_seen});
    const std::int64_t skip = std::ssize(per_rank) == world ? per_rank[ix(rank)] : share_of(samples_seen, rank);
    log::info("pretrain: skipping the {} samples trained on before the checkpoint", samples_seen);
    std::int64_t skipped = 0;
    rank_samples = skip;
    while (skipped < skip) {
      const auto want = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(batch_size), skip - skipped));
      const std::size_t n = train.next(batch, want);
      if (n == 0) throw Error("pretrain: the training data ended while skipping to the resume point");
      skipped += static_cast<std::int64_t>(n);
    }
  }

  RunSummary summary;
  std::vector<data::BadFile> val_bad;
  std::int64_t validated_at = -1;
  const auto save = [&](bool is_best) {
    model::CheckpointData d;
    d.kind = "hydra_net";
    d.step = learner.steps();
    d.config = stored_config;
    d.metrics = last_val;
    d.scheduler = learner.schedule().to_json();
    const std::vector<std::int64_t> per_rank = group != nullptr ? group->all_gather_int(rank_samples) : std::vector{rank_samples};
    d.extra = {{"master_seed", seed.value},
               {"samples", samples_seen},
               {"world_size", world},
               {"rank_samples", per_rank},
               {"best_val_loss", best_val},
               {"greedy_discard", std::isnan(greedy) ? nlohmann::ordered_json() : nlohmann::ordered_json(greedy)},
               {"command", "pretrain"}};
    if (!context.writes()) return;
    summary.checkpoint = checkpoints.save(d, *learner.net(), &learner.optimizer(), is_best);
    log::info("pretrain: checkpoint {}{}", summary.checkpoint.string(), is_best ? " (best)" : "");
  };
  const auto run_validation = [&]() -> bool {
    if (!has_val) return false;
    data::Dataset val(dataset_options(cfg, seed, true));
    const Validation v =
        validate(*learner.net(), val, cfg.model, device, cfg.pretrain.val_max_samples, cfg.pretrain.batch, learner.teacher());
    // Every validation reads the same held-out files: keep the bad ones of the latest.
    val_bad = val.report().bad;
    validated_at = learner.steps();
    if (v.samples == 0) {
      log::warn("pretrain: the validation split gave no samples (every held-out file bad?)");
      return false;
    }
    write_metrics(learner.steps(), v.scalars());
    log_validation(learner.steps(), v, greedy);
    last_val = v.to_json();
    if (!std::isnan(greedy)) last_val["greedy_discard"] = greedy;
    last_val["step"] = learner.steps();
    const bool best = v.loss.total < best_val;
    if (best) best_val = v.loss.total;
    return best;
  };

  StopSignal stop;
  metrics::Progress progress(total - learner.steps());
  const std::int64_t start_step = learner.steps();
  const auto t0 = std::chrono::steady_clock::now();
  std::int64_t last_saved = resumed ? resumed->step : -1;
  while (learner.steps() < total) {
    const double minutes = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 60.0;
    std::string reason = stop.requested()                                            ? "signal"
                         : cfg.train.max_minutes > 0 && minutes >= cfg.train.max_minutes ? "minutes"
                                                                                          : "";
    reason = context.agree_on_stop(reason);  // the ranks stop together
    if (reason == "signal") {
      log::warn("pretrain: a signal was received{}: saving and stopping",
                stop.requested() ? fmt::format(" ({})", stop.signal()) : std::string(" by another rank"));
      summary.stopped = true;
      break;
    }
    if (reason == "minutes") {
      log::info("pretrain: train.max_minutes ({}) reached: saving and stopping", cfg.train.max_minutes);
      summary.stopped = true;
      break;
    }
    const std::size_t n = train.next(batch, batch_size);
    if (n == 0) throw Error("pretrain: no training samples could be read (see the bad files above)");
    const StepStats s = learner.step(batch);
    samples_seen += s.samples;
    rank_samples += static_cast<std::int64_t>(n);
    const std::int64_t step = learner.steps();
    if (step % cfg.train.log_every == 0 || step == total) {
      metrics::Scalars scalars{{"loss", s.loss.total},
                               {"loss/policy", s.loss.policy},
                               {"loss/value", s.loss.value},
                               {"loss/grp", s.loss.grp},
                               {"loss/tenpai", s.loss.tenpai},
                               {"loss/danger", s.loss.danger},
                               {"train/acc", s.accuracy},
                               {"grad_norm", s.grad_norm},
                               {"lr", s.lr},
                               {"samples", static_cast<double>(samples_seen)},
                               {"passes_read", static_cast<double>(train.report().passes_read)}};
      if (teacher) scalars.emplace_back("train/corrected", s.corrected);
      scalars.emplace_back("train/searched", s.searched);
      write_metrics(step, scalars);
      log::info("pretrain: {} loss {:.4f} policy {:.4f} acc {:.3f}{}{} lr {:.2e}", progress.line(step - start_step),
                s.loss.total, s.loss.policy, s.accuracy,
                teacher ? fmt::format(" corrected {:.3f}", s.corrected) : std::string(),
                s.searched > 0 ? fmt::format(" searched {:.3f}", s.searched) : std::string(), s.lr);
    }
    const bool validate_now = step % cfg.pretrain.val_every == 0 || step == total;
    const bool best = validate_now && run_validation();
    if (best || step % cfg.train.checkpoint_every == 0 || step == total) {
      save(best);
      last_saved = step;
    }
  }
  // A run stopped early still ends with a validation of what it saved.
  if (summary.stopped && learner.steps() > start_step && validated_at != learner.steps() && run_validation()) {
    save(true);
    last_saved = learner.steps();
  }
  if (learner.steps() != last_saved) save(false);

  const data::DatasetReport rep = train.report();
  std::vector<data::BadFile> bad = rep.bad;
  bad.insert(bad.end(), val_bad.begin(), val_bad.end());
  detail::log_bad_files("pretrain", bad);
  summary.steps = learner.steps();
  summary.report = {{"command", "pretrain"},
                    {"steps", summary.steps},
                    {"world_size", world},
                    {"stopped", summary.stopped},
                    {"samples", samples_seen},
                    {"passes_read", rep.passes_read},
                    {"train_files", rep.files_total},
                    {"train_files_per_rank", files_per_rank},
                    {"train_files_per_rules", rep.files_per_rules},
                    {"checkpoint", summary.checkpoint.string()},
                    {"validation", last_val},
                    {"bad_files", detail::bad_files_json(bad)}};
  if (context.writes()) write_file_atomic(run_dir / "report.json", json::dump(summary.report, 2) + "\n");
  log::info("pretrain: done at step {} ({} samples; the reader finished {} pass(es) over the files); report in {}", summary.steps, samples_seen, rep.passes_read,
            (run_dir / "report.json").string());
  return summary;
}

nlohmann::ordered_json eval_pretrain(const EvalOptions& o) {
  if (o.data.empty()) throw Error("pretrain --eval-only: no --data given");
  const model::RunContext context(0, o.device);
  const torch::Device device = context.device();
  // A run's checkpoint directory stands for the checkpoint its `best` (else `latest`) names; the
  // architecture comes from the checkpoint's own config.
  struct Loaded {
    fs::path file;
    model::CheckpointData peek;
    config::Config cfg;
    model::HydraNet net{nullptr};
  };
  const auto load = [&](const fs::path& given) {
    Loaded l{given, {}, {}, nullptr};
    if (fs::is_directory(l.file)) {
      const model::CheckpointDir dir(l.file, 0);
      auto named = dir.pointer("best");
      if (!named) named = dir.pointer("latest");
      if (!named) throw Error(l.file.string() + ": a directory without a 'best' or 'latest' checkpoint pointer");
      l.file = *named;
    }
    l.peek = model::load_checkpoint(l.file, nullptr, nullptr, {.restore_rng = false});
    if (l.peek.kind != "hydra_net") throw Error(l.file.string() + ": not a policy checkpoint (kind " + l.peek.kind + ")");
    l.cfg = model::stored_config(l.file, l.peek);
    l.net = model::HydraNet(l.cfg.model);
    model::load_checkpoint(l.file, l.net.get(), nullptr, {.restore_rng = false});
    l.net->to(device);
    l.net->eval();
    return l;
  };
  Loaded main = load(o.model);  // validate() sets the network's mode
  std::optional<Loaded> against;
  if (!o.against.empty()) against = load(o.against);

  data::DatasetOptions d;
  d.inputs = o.data;
  d.validation = true;
  d.val_fraction = 1.0;  // every file: evaluation has no training split
  d.augment = false;
  d.repeat = false;
  d.shuffle_buffer = std::max(1, o.batch);
  data::Dataset ds(d);
  const std::int64_t cap = o.max_samples > 0 ? o.max_samples : std::numeric_limits<std::int64_t>::max();
  const Validation v = validate(*main.net, ds, main.cfg.model, device, cap, o.batch, against ? against->net.get() : nullptr);
  double greedy = std::numeric_limits<double>::quiet_NaN();
  nlohmann::ordered_json out = {{"model", main.file.string()}, {"step", main.peek.step}, {"files", ds.files().size()}};
  if (against) out["against"] = against->file.string();
  out["validation"] = v.to_json();
  std::vector<data::BadFile> bad = ds.report().bad;
  out["files_per_rules"] = ds.report().files_per_rules;
  if (o.greedy) {
    const Agreement g = greedy_agreement(ds.files());
    greedy = g.accuracy.accuracy(data::DecisionType::discard);
    out["greedy"] = {{"games", g.games},
                     {"discards", g.accuracy.total(data::DecisionType::discard)},
                     {"agreement", std::isnan(greedy) ? nlohmann::ordered_json() : nlohmann::ordered_json(greedy)}};
  }
  out["bad_files"] = detail::bad_files_json(bad);
  log_validation(main.peek.step, v, greedy, against ? against->file.string() : std::string("the teacher"));
  detail::log_bad_files("pretrain", bad);
  return out;
}

}  // namespace hydra::pretrain
