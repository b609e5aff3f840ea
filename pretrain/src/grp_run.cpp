// `hydra grp`: trains the GRP model (model/grp.hpp) on the kyoku sequences of logged games
// (run.hpp, grp_data.hpp).

#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/metrics.hpp"
#include "hydra/common/stop.hpp"
#include "hydra/data/text_file.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/run_context.hpp"
#include "hydra/model/network.hpp"
#include "hydra/model/optim.hpp"
#include "hydra/pretrain/grp_data.hpp"
#include "hydra/pretrain/run.hpp"
#include "run_common.hpp"
#include "hydra/common/index.hpp"

namespace hydra::pretrain {
namespace {

namespace fs = std::filesystem;

// Games padded to the longest: features [N,T,7], a mask of real kyoku [N,T], the label [N].
struct GrpTensors {
  torch::Tensor features, mask, target;
};

GrpTensors pad(const std::vector<GrpGame>& games, const std::vector<std::size_t>& pick) {
  std::size_t longest = 1;
  for (const std::size_t i : pick) longest = std::max(longest, games[i].kyoku.size());
  const auto n = static_cast<std::int64_t>(pick.size());
  const auto t = static_cast<std::int64_t>(longest);
  GrpTensors out{torch::zeros({n, t, model::kGrpFeatures}), torch::zeros({n, t}, torch::kBool),
                 torch::empty({n}, torch::kLong)};
  auto f = out.features.accessor<float, 3>();
  auto m = out.mask.accessor<bool, 2>();
  auto y = out.target.accessor<std::int64_t, 1>();
  for (std::int64_t b = 0; b < n; ++b) {
    const GrpGame& g = games[pick[ix(b)]];
    for (std::size_t k = 0; k < g.kyoku.size(); ++k) {
      const auto feat = model::grp_features(g.kyoku[k]);
      for (int j = 0; j < model::kGrpFeatures; ++j) f[b][static_cast<std::int64_t>(k)][j] = feat[ix(j)];
      m[b][static_cast<std::int64_t>(k)] = true;
    }
    y[b] = g.permutation;
  }
  return out;
}

// Per-prefix negative log-likelihood [N,T] of the game's final permutation (0 on padding).
torch::Tensor prefix_nll(const torch::Tensor& logits, const GrpTensors& t) {
  const auto logp = torch::log_softmax(logits, -1);
  const auto target = t.target.view({-1, 1, 1}).expand({logits.size(0), logits.size(1), 1});
  return -logp.gather(-1, target).squeeze(-1) * t.mask.to(logits.scalar_type());
}

struct GrpEval {
  std::int64_t games = 0, prefixes = 0;
  double ce = 0, accuracy = 0;
  double ce_first = 0, ce_last = 0;  // after the first kyoku start, after the last one
  double prior_ce = 0;                // the training split's permutation frequencies, every prefix alike

  nlohmann::ordered_json to_json() const {
    return {{"games", games},     {"prefixes", prefixes},   {"cross_entropy", ce},
            {"accuracy", accuracy}, {"cross_entropy_first_kyoku", ce_first}, {"cross_entropy_last_kyoku", ce_last},
            {"prior_cross_entropy", prior_ce}, {"uniform_cross_entropy", std::log(24.0)}};
  }
};

GrpEval evaluate(model::GrpNetImpl& net, const std::vector<GrpGame>& games, const std::vector<double>& prior,
                 const torch::Device& device) {
  GrpEval e;
  if (games.empty()) return e;
  torch::NoGradGuard no_grad;
  const bool was_training = net.is_training();
  net.eval();
  std::vector<std::size_t> all(games.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  GrpTensors t = pad(games, all);
  const auto logits = net.forward(t.features.to(device)).to(torch::kCPU, torch::kFloat);
  net.train(was_training);
  const auto nll = prefix_nll(logits, t);
  const auto maskf = t.mask.to(torch::kFloat);
  e.games = static_cast<std::int64_t>(games.size());
  e.prefixes = t.mask.sum().item<std::int64_t>();
  e.ce = nll.sum().item<double>() / static_cast<double>(e.prefixes);
  const auto hit = logits.argmax(-1).eq(t.target.view({-1, 1})).to(torch::kFloat) * maskf;
  e.accuracy = hit.sum().item<double>() / static_cast<double>(e.prefixes);
  const auto lengths = t.mask.sum(1) - 1;
  e.ce_first = nll.select(1, 0).mean().item<double>();
  e.ce_last = nll.gather(1, lengths.view({-1, 1})).mean().item<double>();
  double prior_sum = 0;
  for (const GrpGame& g : games)
    prior_sum += -std::log(prior[ix(g.permutation)]) * static_cast<double>(g.kyoku.size());
  e.prior_ce = prior_sum / static_cast<double>(e.prefixes);
  return e;
}

}  // namespace

RunSummary run_grp(config::Config cfg, const RunOptions& options) {
  if (cfg.pretrain.data.empty()) throw Error("grp: no data: pass --data DIR or set pretrain.data");
  if (options.max_steps) cfg.train.max_updates = *options.max_steps;
  const std::int64_t total = cfg.train.max_updates;
  model::RunContext context(cfg.run.threads, cfg.run.device);
  const torch::Device device = context.device();
  const fs::path run_dir(cfg.run.dir);
  context.own_run_dir(run_dir, "grp");
  model::CheckpointDir checkpoints(run_dir / "checkpoints", cfg.checkpoint.keep);

  game::MasterSeed seed{cfg.run.seed.value_or(0)};
  if (!cfg.run.seed && !options.resume) seed = detail::resolve_seed(cfg, "grp");
  // GRU init draws from torch's global generator: seed it from the run's network-init stream.
  torch::manual_seed(game::u64(game::stream_key(seed, game::labels::network_init).bytes()));
  model::GrpNet net(cfg.model);
  net->to(device);
  auto optimizer = model::make_adamw(*net, {.lr = cfg.pretrain.lr, .weight_decay = cfg.pretrain.weight_decay});
  model::WarmupCosine schedule;
  schedule.peak = cfg.pretrain.lr;
  schedule.floor = cfg.pretrain.lr_floor;
  schedule.total = total;
  schedule.warmup = static_cast<std::int64_t>(std::llround(cfg.pretrain.warmup * static_cast<double>(total)));

  std::int64_t step = 0;
  double best = std::numeric_limits<double>::infinity();
  nlohmann::ordered_json last_val = nlohmann::ordered_json::object();
  if (options.resume) {
    fs::path from;
    const auto d = checkpoints.load_latest(net.get(), optimizer.get(), {}, &from);
    if (!d) throw Error(run_dir.string() + ": --resume but no checkpoint in " + (run_dir / "checkpoints").string());
    if (d->kind != "grp") throw Error(from.string() + ": not a GRP checkpoint (kind " + d->kind + ")");
    detail::check_same_model(d->config, cfg, from);
    seed = game::MasterSeed{d->extra.value("master_seed", std::uint64_t{0})};
    cfg.run.seed = seed.value;
    step = d->step;
    best = d->extra.value("best_val_ce", std::numeric_limits<double>::infinity());
    last_val = d->metrics;
    log::info("grp: resuming from {} at step {}", from.string(), step);
  }
  detail::open_run_dir(cfg, "grp.log", options.resume);

  const GrpCorpus corpus = load_grp_corpus(cfg.pretrain.data, cfg.pretrain.val_fraction, seed, cfg.rules.preset);
  detail::log_bad_files("grp", corpus.bad);
  if (corpus.train.empty()) throw Error("grp: no training game could be read (files: " + std::to_string(corpus.files) + ")");
  std::int64_t train_prefixes = 0;
  for (const GrpGame& g : corpus.train) train_prefixes += static_cast<std::int64_t>(g.kyoku.size());
  log::info("grp: {} files, {} training games ({} prefixes), {} validation games, {} duplicates, {} bad; GRU {} x {} on {}",
            corpus.files, corpus.train.size(), train_prefixes, corpus.validation.size(), corpus.duplicates,
            corpus.bad.size(), cfg.model.grp_rnn_layers, cfg.model.grp_rnn_hidden, device.str());
  if (corpus.validation.empty()) log::warn("grp: the validation split holds no game: no validation");

  // The prior: permutation frequencies of the training games, add-one smoothed.
  std::vector<double> prior(model::kRankPerms, 1.0);
  for (const GrpGame& g : corpus.train) prior[ix(g.permutation)] += 1.0;
  const double prior_total = std::accumulate(prior.begin(), prior.end(), 0.0);
  for (double& p : prior) p /= prior_total;

  metrics::MetricsWriter writer(run_dir, cfg.train.tensorboard, options.resume ? std::optional<std::int64_t>(step) : std::nullopt);
  const auto stored_config = config::to_json(cfg);
  RunSummary summary;
  const auto save = [&](bool is_best) {
    model::CheckpointData d;
    d.kind = "grp";
    d.step = step;
    d.config = stored_config;
    d.metrics = last_val;
    d.scheduler = schedule.to_json();
    d.extra = {{"master_seed", seed.value}, {"best_val_ce", best}, {"command", "grp"}};
    summary.checkpoint = checkpoints.save(d, *net, optimizer.get(), is_best);
    log::info("grp: checkpoint {}{}", summary.checkpoint.string(), is_best ? " (best)" : "");
  };
  // The untrained network's cross-entropy is the bar the trained one should pass; it is not a
  // candidate for `best` (no checkpoint of it is saved), so the first validated step is.
  std::optional<double> untrained_ce;
  const auto validate = [&]() -> bool {
    if (corpus.validation.empty()) return false;
    const GrpEval e = evaluate(*net, corpus.validation, prior, device);
    writer.write(step, {{"val/ce", e.ce},
                        {"val/acc", e.accuracy},
                        {"val/ce_first_kyoku", e.ce_first},
                        {"val/ce_last_kyoku", e.ce_last},
                        {"val/prior_ce", e.prior_ce},
                        {"val/uniform_ce", std::log(24.0)}});
    log::info("grp: validation at step {}: cross-entropy {:.4f} (uniform {:.4f}, prior {:.4f}; first kyoku {:.4f}, "
              "last kyoku {:.4f}), top-1 {:.4f} over {} prefixes of {} games",
              step, e.ce, std::log(24.0), e.prior_ce, e.ce_first, e.ce_last, e.accuracy, e.prefixes, e.games);
    last_val = e.to_json();
    last_val["step"] = step;
    if (step == 0 && !options.resume) {
      untrained_ce = e.ce;
      return false;
    }
    const bool is_best = e.ce < best;
    if (is_best) best = e.ce;
    return is_best;
  };

  // Minibatches of whole games; the order of pass p is a shuffle from the data-order stream of
  // p, so the batch of any step follows from the step alone (resume included).
  const std::size_t n_train = corpus.train.size();
  const auto batch = std::min<std::size_t>(ix(cfg.pretrain.batch), n_train);
  std::vector<std::size_t> order;
  std::int64_t order_pass = -1;
  const auto pick = [&](std::int64_t at_step) {
    std::vector<std::size_t> out;
    for (std::size_t j = 0; j < batch; ++j) {
      const auto i = static_cast<std::uint64_t>(at_step) * batch + j;
      const auto pass = static_cast<std::int64_t>(i / n_train);
      if (pass != order_pass) {
        order.resize(n_train);
        std::iota(order.begin(), order.end(), std::size_t{0});
        game::Xoshiro256ss rng(game::stream_key(seed, game::labels::data_order, {static_cast<std::uint64_t>(pass)}));
        game::shuffle(std::span<std::size_t>(order), rng);
        order_pass = pass;
      }
      out.push_back(order[i % n_train]);
    }
    return out;
  };

  StopSignal stop;
  metrics::Progress progress(total - step);
  const std::int64_t start_step = step;
  const auto t0 = std::chrono::steady_clock::now();
  std::int64_t last_saved = options.resume ? step : -1;
  std::int64_t validated_at = -1;
  if (!options.resume) validate();  // the untrained baseline
  net->train();
  while (step < total) {
    if (stop.requested()) {
      log::warn("grp: signal {} received: saving and stopping", stop.signal());
      summary.stopped = true;
      break;
    }
    const double minutes = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 60.0;
    if (cfg.train.max_minutes > 0 && minutes >= cfg.train.max_minutes) {
      summary.stopped = true;
      break;
    }
    const double lr = schedule.lr(step);
    model::set_lr(*optimizer, lr);
    const GrpTensors t = pad(corpus.train, pick(step));
    const auto nll = prefix_nll(net->forward(t.features.to(device)), {t.features, t.mask.to(device), t.target.to(device)});
    const auto loss = nll.sum() / t.mask.sum().to(nll.scalar_type()).to(device);
    optimizer->zero_grad();
    loss.backward();
    double grad_norm = 0;
    if (cfg.pretrain.grad_clip > 0) grad_norm = model::clip_gradients(net->parameters(), cfg.pretrain.grad_clip).item<double>();
    model::adamw_step(*optimizer);
    ++step;
    const double l = loss.item<double>();
    if (step % cfg.train.log_every == 0 || step == total) {
      writer.write(step, {{"loss", l}, {"grad_norm", grad_norm}, {"lr", lr}});
      log::info("grp: {} loss {:.4f} lr {:.2e}", progress.line(step - start_step), l, lr);
    }
    const bool validate_now = step % cfg.pretrain.val_every == 0 || step == total;
    if (validate_now) validated_at = step;
    const bool is_best = validate_now && validate();
    if (is_best || step % cfg.train.checkpoint_every == 0 || step == total) {
      save(is_best);
      last_saved = step;
    }
  }
  if (summary.stopped && step > start_step && validated_at != step && validate()) {
    save(true);
    last_saved = step;
  }
  if (step != last_saved) save(false);
  if (untrained_ce && best >= *untrained_ce)
    log::warn("grp: the best validation cross-entropy {:.4f} is no better than the untrained network's {:.4f}: "
              "too few games or steps for a reward model (docs/PRETRAIN.md \"GRP\")",
              best, *untrained_ce);
  summary.steps = step;
  summary.report = {{"command", "grp"},
                    {"steps", step},
                    {"stopped", summary.stopped},
                    {"files", corpus.files},
                    {"train_games", corpus.train.size()},
                    {"validation_games", corpus.validation.size()},
                    {"duplicates", corpus.duplicates},
                    {"checkpoint", summary.checkpoint.string()},
                    {"validation", last_val},
                    {"untrained_cross_entropy", untrained_ce ? nlohmann::json(*untrained_ce) : nlohmann::json(nullptr)},
                    {"bad_files", detail::bad_files_json(corpus.bad)}};
  write_file_atomic(run_dir / "report.json", json::dump(summary.report, 2) + "\n");
  log::info("grp: done at step {}; report in {}", step, (run_dir / "report.json").string());
  return summary;
}

}  // namespace hydra::pretrain
