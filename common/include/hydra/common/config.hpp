#pragma once

// The typed configuration of a Hydra run: one struct per JSON section, defaults in code.
// Loading (strict: unknown keys, wrong types and out-of-range values are errors naming the key
// path and the file) lives in config_io.hpp.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hydra/common/config_schema.hpp"
#include "hydra/common/thread_limit.hpp"

namespace hydra::config {

// Where and how a run executes.
struct RunConfig {
  std::string name = "hydra";
  std::string dir = "runs/hydra";           // run directory: logs, checkpoints, metrics
  std::optional<std::uint64_t> seed;        // master seed; absent: drawn at random and logged
  std::string device = "auto";              // auto = cuda when available, else cpu
  std::string log_level = "info";
  int threads = 0;                          // 0 = all hardware threads (oneTBB default)
  std::string dist_backend = "auto";        // torch.distributed backend of a run of several ranks
  double dist_timeout = 300;                // seconds a rank waits for the others (rendezvous, collectives)

  template <class V>
  void visit(V& v) {
    v("name", name, "run name, used in logs and metrics");
    v("dir", dir, "run directory for logs, checkpoints and metrics");
    v("seed", seed, "master seed (null: random, logged)");
    v("device", device, "compute device", OneOf{"auto", "cpu", "cuda"});
    v("log_level", log_level, "log level", OneOf{"trace", "debug", "info", "warn", "error", "off"});
    v("threads", threads, "worker threads (0 = all hardware threads)", Range{0, kMaxThreads});
    v("dist_backend", dist_backend, "backend of a run of several ranks (auto: nccl on cuda, gloo on cpu; docs/DISTRIBUTED.md)",
      OneOf{"auto", "gloo", "nccl"});
    v("dist_timeout", dist_timeout, "seconds a rank waits for the others before it ends the run with an error",
      Range{1.0, 86400.0});
  }
};

// Which rules the table plays.
struct RulesConfig {
  std::string preset = "tenhou";
  std::string length = "hanchan";

  template <class V>
  void visit(V& v) {
    // A preset name or a rules JSON file: checked by game::table_rules() when the run starts
    // (common/ does not know the presets).
    v("preset", preset, "rules preset (tenhou, tenhou-tonpuusen, tenhou-2009, tenhou-2009-tonpuusen, tenhou-kyoku, mahjongsoul; +no-red, +no-kuitan) or a rules JSON file");
    v("length", length, "game length", OneOf{"hanchan", "tonpuusen", "kyoku"});
  }
};

// Size, numerics and loss weights of the SE-ResNet and the GRP network (docs/MODEL.md,
// docs/PRETRAIN.md). Head sizes default to the spec's; loss weights w_* multiply each head's loss.
struct ModelConfig {
  int blocks = 40;
  int channels = 256;
  bool cuda_bf16 = true;   // bf16 autocast for forward passes on CUDA
  bool cpu_bf16 = false;   // bf16 autocast on CPU (off: fp32)
  bool cpu_bf16_inference = false;  // inference snapshots on the CPU run model::CpuBf16Net
  bool cuda_graphs = true; // inference forwards on CUDA replay captured CUDA graphs
  bool cudnn_benchmark = false;  // cuDNN times its convolution algorithms per shape on CUDA
  bool bf16_norm = false;  // under bf16 autocast, the trunk's GroupNorm runs on bf16 (autocast would use fp32)
  bool norm_as_groups = false;  // the trunk's GroupNorm as one row per group, then the per-channel affine
  bool fused_norm = false;  // the trunk's GroupNorm, affine and Mish as one kernel each way on CUDA
  int se_ratio = 16;       // squeeze-excitation bottleneck C -> C/se_ratio -> C
  int policy_channels = 64;
  int value_hidden = 512;
  int grp_hidden = 256;    // hidden width of the GRP head's MLP
  int tenpai_hidden = 64;
  double w_policy = 1.0;
  double w_value = 0.5;
  double w_grp = 0.1;
  double w_tenpai = 0.05;
  double w_danger = 0.05;
  double focal_alpha = 0.25;  // danger focal BCE: weight of the positive class
  double focal_gamma = 2.0;
  int grp_rnn_hidden = 128;   // the standalone GRP model: GRU width and depth
  int grp_rnn_layers = 2;

  template <class V>
  void visit(V& v) {
    v("blocks", blocks, "SE-ResBlocks in the trunk", Range{1, 256});
    v("channels", channels, "trunk channels (multiple of 32 for GroupNorm(32))", Range{32, 2048});
    v("cuda_bf16", cuda_bf16, "bf16 autocast for forward passes on CUDA");
    v("cpu_bf16", cpu_bf16, "bf16 autocast on CPU");
    v("cpu_bf16_inference", cpu_bf16_inference, "self-play, eval and bot forwards on the CPU run the policy and value in bf16 on channels-last convolutions (oneDNN on AMX or AVX512-BF16 where the CPU has them; docs/MODEL.md \"bf16 inference on the CPU\"); needs AVX-512F");
    v("cuda_graphs", cuda_graphs, "self-play, eval and bot forwards on CUDA replay CUDA graphs (docs/GPU.md)");
    v("cudnn_benchmark", cudnn_benchmark, "on CUDA, cuDNN times its convolution algorithms for each new shape and keeps the fastest (docs/GPU.md)");
    v("bf16_norm", bf16_norm, "under bf16 autocast, the trunk's GroupNorm and Mish run on bf16 tensors (fp32 statistics) instead of fp32 copies, without the casts around them (docs/GPU.md)");
    v("norm_as_groups", norm_as_groups, "the trunk's GroupNorm normalises each group's channels x 34 tiles as one row, then applies the per-channel scale and shift: the same function, for kernels that handle 34-element rows poorly (docs/GPU.md)");
    v("fused_norm", fused_norm, "the trunk's GroupNorm, its scale and shift and Mish as one CUDA kernel forward and one backward, in the activations' type with fp32 arithmetic (docs/MODEL.md); needs a build with Hydra's CUDA kernels on a GPU");
    v("se_ratio", se_ratio, "squeeze-excitation reduction (channels / se_ratio hidden units)", Range{1, 256});
    v("policy_channels", policy_channels, "policy head 1x1 conv channels", Range{1, 1024});
    v("value_hidden", value_hidden, "value head hidden units", Range{1, 8192});
    v("grp_hidden", grp_hidden, "GRP head hidden units", Range{1, 8192});
    v("tenpai_hidden", tenpai_hidden, "tenpai head hidden units", Range{1, 8192});
    v("w_policy", w_policy, "policy cross-entropy loss weight", Range{0.0, 1000.0});
    v("w_value", w_value, "value MSE loss weight", Range{0.0, 1000.0});
    v("w_grp", w_grp, "GRP cross-entropy loss weight", Range{0.0, 1000.0});
    v("w_tenpai", w_tenpai, "tenpai BCE loss weight", Range{0.0, 1000.0});
    v("w_danger", w_danger, "danger focal BCE loss weight", Range{0.0, 1000.0});
    v("focal_alpha", focal_alpha, "focal BCE weight of positive labels", Range{0.0, 1.0});
    v("focal_gamma", focal_gamma, "focal BCE focusing exponent", Range{0.0, 10.0});
    v("grp_rnn_hidden", grp_rnn_hidden, "GRP model GRU hidden units", Range{1, 4096});
    v("grp_rnn_layers", grp_rnn_layers, "GRP model GRU layers", Range{1, 16});
  }
};

// Checkpoint files of a run (docs/CHECKPOINTS.md).
struct CheckpointConfig {
  int keep = 5;  // newest checkpoints kept; the `best` one is kept as well; 0 keeps all

  template <class V>
  void visit(V& v) {
    v("keep", keep, "checkpoints kept (newest first; `best` always kept; 0 = all)", Range{0, 1000000});
  }
};

// Self-play actors (docs/SELFPLAY.md): lock-step games batched through a
// cloned inference model, and the opponent mix.
struct SelfplayConfig {
  int games = 64;             // concurrent games, split into two groups that alternate
  int max_batch = 0;          // cap on one forward pass (0 = games / 2 * 4, every waiting seat)
  bool overlap = true;        // a group step's passes of CUDA snapshots run at once (docs/GPU.md)
  int refresh_every = 1;      // learner updates between inference-model snapshots
  double temperature = 1.0;   // sampling temperature of the learner's own seats
  bool augment = true;        // a random suit permutation per game and seat (encoder/augment.hpp)
  double opp_self = 0.5;      // share of games with the current model in all seats
  double opp_pool = 0.3;      // share with a past checkpoint from the pool in the other seats
  double opp_baseline = 0.2;  // share with the frozen baseline in the other seats
  std::string baseline = "bot:greedy";  // frozen baseline: a checkpoint path, a built-in bot or an external agent
  int pool_size = 8;          // past snapshots kept in the opponent pool
  int pool_every = 10;        // learner updates between snapshots added to the pool
  std::string grp;            // GRP checkpoint for rewards; "" = kyoku score change + placement
  double branch_rate = 1.0;   // with ppo.advantage = rollout: share of eligible decisions played out
  // With ppo.advantage = rollout: walls per greedy play-out pair. 1 = the game's own wall; K > 1 =
  // K fresh draws of the kyoku's unseen tiles, the pair's two play-outs on each, averaged.
  int play_outs = 8;
  // With ppo.advantage = rollout and ppo.policy_gradient = expected: the actions besides the greedy
  // bot's choice that are played out, those the policy gives at least this probability (the rest
  // carry no advantage).
  double play_out_min_prob = 0.05;
  // With ppo.advantage = rollout: who plays every seat of a play-out (docs/PPO.md "Play-outs by the
  // network"): bot:greedy, snapshot (the actors' current inference model), start (ppo.init) or a
  // checkpoint path; a network plays argmax at temperature 0, else samples at that temperature.
  std::string play_out_agent = "bot:greedy";
  double play_out_temperature = 0.0;
  // With ppo.advantage = rollout: only decisions where the policy is unsure are played out, those
  // whose most likely action has less than this probability (1: every eligible decision).
  double play_out_unsure = 1.0;
  // With ppo.advantage = rollout: which kinds of decision are played out (docs/PPO.md "Play-outs
  // by the network", the kind gate): play_out_calls false = none on another seat's discard or kan
  // (chi, pon, open kan, ron, pass); play_out_riichi false = none where riichi may be declared.
  // Those carry nothing, as a confident decision does.
  bool play_out_calls = true;
  bool play_out_riichi = true;
  // With ppo.advantage = rollout: an action's value (its mean difference from the reference over
  // the walls) counts only where it is more than this many standard errors of its per-wall
  // differences from 0; else it is 0, the reference's worth (0: every value counts).
  double play_out_sigmas = 0.0;
  // With a network play_out_agent: cut each play-out at the deciding seat's first network decision
  // after this many decisions (or in a later kyoku) and score it by the agent's value head there,
  // the placement points where the game ended first (docs/PPO.md "Cut play-outs"). 0: to the
  // kyoku's end, rewarded like the games.
  int play_out_depth = 0;
  // With play_out_depth > 0, what follows the cut (docs/PPO.md "A greedy tail"): value (the
  // agent's value head scores the play-out there) or bot:greedy (bot:greedy plays every seat on to
  // the kyoku's end, and the play-out is rewarded like the games, by the GRP on real scores).
  std::string play_out_tail = "value";
  // With a network play_out_agent, who plays the other seats of a play-out (docs/PPO.md "Other
  // opponents"): agent (the play-out agent, every seat), or the deciding seat alone is the play-out
  // agent's and the three others are bot:greedy's, start's (ppo.init) or a checkpoint's.
  std::string play_out_others = "agent";

  template <class V>
  void visit(V& v) {
    v("games", games, "concurrent self-play games (two alternating groups)", Range{2, 1000000});
    v("max_batch", max_batch, "largest forward pass (0 = every waiting seat of a group)", Range{0, 1000000});
    v("overlap", overlap, "run a group step's passes of the different CUDA policies on threads of their own, beside the CPU ones");
    v("refresh_every", refresh_every, "learner updates between inference-model refreshes", Range{1, 1000000});
    v("temperature", temperature, "policy sampling temperature", Range{0.01, 100.0});
    v("augment", augment, "random suit permutation per game and seat");
    v("opp_self", opp_self, "share of games in pure self-play", Range{0.0, 1.0});
    v("opp_pool", opp_pool, "share of games against a past checkpoint from the pool", Range{0.0, 1.0});
    v("opp_baseline", opp_baseline, "share of games against the frozen baseline", Range{0.0, 1.0});
    v("baseline", baseline, "frozen baseline agent: checkpoint path, bot:random|bot:tsumogiri|bot:greedy, or an external mjai bot (mjai:COMMAND, mjai.app:COMMAND)");
    v("pool_size", pool_size, "past snapshots kept in the opponent pool", Range{1, 100000});
    v("pool_every", pool_every, "learner updates between pool snapshots", Range{1, 1000000});
    v("grp", grp, "GRP checkpoint used for rewards (empty: score change + placement)");
    v("branch_rate", branch_rate,
      "with ppo.advantage = rollout: share of the learner's eligible decisions played out",
      Range{0.0, 1.0});
    v("play_outs", play_outs,
      "with ppo.advantage = rollout: walls per greedy play-out pair (1: the game's own; more: fresh draws of the "
      "unseen tiles, averaged)",
      Range{1, 1024});
    v("play_out_min_prob", play_out_min_prob,
      "with ppo.advantage = rollout and ppo.policy_gradient = expected: the smallest probability of an action "
      "played out beside the greedy choice",
      Range{0.0, 1.0});
    v("play_out_agent", play_out_agent,
      "with ppo.advantage = rollout: the agent of every seat of a play-out: bot:greedy, snapshot (the current "
      "inference model), start (ppo.init) or a checkpoint path");
    v("play_out_temperature", play_out_temperature,
      "a network play-out agent's sampling temperature (0: argmax)", Range{0.0, 100.0});
    v("play_out_unsure", play_out_unsure,
      "with ppo.advantage = rollout: play out only decisions whose most likely action has less than this "
      "probability (1: every one)",
      Range{0.0, 1.0});
    v("play_out_calls", play_out_calls,
      "with ppo.advantage = rollout: play out the decisions on another seat's discard or kan (false: none)");
    v("play_out_riichi", play_out_riichi,
      "with ppo.advantage = rollout: play out the decisions where riichi may be declared (false: none)");
    v("play_out_sigmas", play_out_sigmas,
      "with ppo.advantage = rollout: an action's value counts only where it is more than this many standard "
      "errors of its per-wall differences from 0, else it is 0 (0: every value counts)",
      Range{0.0, 100.0});
    v("play_out_depth", play_out_depth,
      "with a network play_out_agent: cut each play-out after this many decisions, scored by the agent's value "
      "head (0: to the kyoku's end)",
      Range{0, 10000});
    v("play_out_tail", play_out_tail,
      "with play_out_depth > 0: what follows the cut: value (scored by the agent's value head) or bot:greedy "
      "(bot:greedy plays on to the kyoku's end, rewarded like the games)");
    v("play_out_others", play_out_others,
      "with a network play_out_agent: who plays the other seats of a play-out: agent (the play-out agent), or "
      "bot:greedy, start (ppo.init) or a checkpoint path (the deciding seat alone plays the play-out agent)");
  }
};

// The PPO learner (docs/PPO.md).
struct PpoConfig {
  int rollout_samples = 4096;   // decisions collected per update
  int minibatch = 512;
  int epochs = 3;
  int epochs_high_kl = 2;       // epochs when approx-KL after the first epoch exceeds kl_high
  double kl_high = 0.03;
  double kl_stop = 0.0;         // stop the epochs early when approx-KL exceeds this (0 = off)
  double gamma = 1.0;
  double lambda = 0.95;
  double clip = 0.1;
  double entropy_start = 0.01;
  double entropy_end = 0.005;
  // The entropy bonus acts only while the mean entropy is below this (nats): a trained policy is
  // not pushed back toward uniform. -1 = the KL anchor's entropy on the same minibatch when there
  // is an anchor, no target otherwise; 0 = no target (a plain bonus, spec).
  double entropy_target = -1.0;
  double value_coef = 0.5;
  double lr = 1e-4;
  double lr_floor = 1e-5;
  double warmup = 0.0;          // share of train.max_updates spent in linear warmup
  double weight_decay = 0.01;
  double grad_clip = 0.5;
  double adv_clip = 5.0;        // normalised advantages clipped to [-adv_clip, adv_clip]
  bool reward_norm = true;      // divide rewards by a running std of returns
  double aux_coef = 1.0;        // multiplies the model's tenpai and danger loss weights
  double kl_anchor_start = 0.1;  // KL(pi || BC policy) weight, decays linearly to kl_anchor_end
  double kl_anchor_end = 0.05;
  // Updates at the start of a run from `init` in which only the value head learns (the BC value
  // head predicts final placement, PPO's targets are normalised kyoku returns), 0 = none.
  int value_warmup = 10;
  // Decisions per chunk of the gradient noise-scale measurement (docs/PPO.md "Gradient noise
  // scale"): one extra pass per update over consecutive chunks of the rollout; 0 = off.
  int noise_batch = 0;
  // With ppo.policy_gradient = expected: the share of the decisions that carry no action
  // advantage (none of their actions compared by play-outs) the learner's passes keep, drawn per
  // update from the master seed, each kept one weighing 1 / share in every mean of the loss, so
  // the update is the same in expectation at a fraction of the passes (docs/PPO.md "Learning
  // from the decisions played out"). 1 = every decision, as before.
  double unplayed_share = 1.0;
  std::string init;             // checkpoint that starts the run (BC baseline); "" = random init
  std::string anchor;           // KL anchor checkpoint; "" = `init` when set, "none" = no anchor
  // The baseline of GAE's advantages (docs/PPO.md "Privileged critic"): "value_head" = the policy
  // network's own value head; "privileged" = a separate critic network that also sees the
  // privileged planes (the other hands, the wall), trained beside the policy and never read by it.
  std::string critic = "value_head";
  int critic_blocks = 2;        // SE-ResBlocks of the privileged critic
  int critic_channels = 64;     // its channels (a multiple of 32)
  // Its AdamW learning rate (constant). 3e-4: at 1e-3 it fits each rollout and explains nothing of
  // the next one's returns (docs/PPO.md "Expected policy gradient", the critic's learning rate).
  double critic_lr = 3e-4;
  int critic_epochs = 2;        // its passes over each rollout (the policy's are ppo.epochs)
  // GAE lambda of the value (and critic) targets; -1 = ppo.lambda. 1 = Monte Carlo returns: with a
  // small ppo.lambda the advantages lean on V, and V then learns the true return, not its own echo.
  double value_lambda = -1.0;
  // The policy's advantages: "gae" = GAE over the episode with the baseline above; "rollout" =
  // Q(a) - Q(g) of the rest of the kyoku played out by bot:greedy in every seat on fresh walls, once
  // after the action a and once after the greedy bot's own choice g (docs/PPO.md "Greedy
  // play-outs"; 0 where a = g). The value targets stay GAE's.
  std::string advantage = "gae";
  // The policy-gradient estimator: "sampled" = the advantage of the action played times
  // grad log pi(a); "expected" (with ppo.advantage = rollout) = sum over the actions played out of
  // grad pi(a) times their play-outs' action advantages (docs/PPO.md "Play-outs of every likely
  // action").
  std::string policy_gradient = "sampled";

  template <class V>
  void visit(V& v) {
    v("rollout_samples", rollout_samples, "decisions collected per update", Range{1, 100000000});
    v("minibatch", minibatch, "minibatch size", Range{1, 10000000});
    v("epochs", epochs, "PPO epochs per update", Range{1, 100});
    v("epochs_high_kl", epochs_high_kl, "epochs when approx-KL after epoch 1 exceeds kl_high", Range{1, 100});
    v("kl_high", kl_high, "approx-KL that cuts the epochs to epochs_high_kl", Range{0.0, 100.0});
    v("kl_stop", kl_stop, "approx-KL that stops an update's epochs (0 = off)", Range{0.0, 100.0});
    v("gamma", gamma, "discount within a kyoku", Range{0.0, 1.0});
    v("lambda", lambda, "GAE lambda", Range{0.0, 1.0});
    v("clip", clip, "PPO ratio clip", Range{0.0, 10.0});
    v("entropy_start", entropy_start, "entropy bonus at the first update", Range{0.0, 10.0});
    v("entropy_end", entropy_end, "entropy bonus at train.max_updates", Range{0.0, 10.0});
    v("entropy_target", entropy_target,
      "entropy (nats) above which the bonus stops (-1: the anchor's entropy when anchored, else none; 0: none)",
      Range{-1.0, 100.0});
    v("value_coef", value_coef, "value loss weight", Range{0.0, 1000.0});
    v("lr", lr, "peak learning rate", Range{0.0, 10.0});
    v("lr_floor", lr_floor, "learning rate at the end of the cosine", Range{0.0, 10.0});
    v("warmup", warmup, "share of the updates spent in linear warmup", Range{0.0, 1.0});
    v("weight_decay", weight_decay, "AdamW weight decay (weights only)", Range{0.0, 10.0});
    v("grad_clip", grad_clip, "gradient norm clip (0 = off)", Range{0.0, 1e6});
    v("adv_clip", adv_clip, "clip of per-minibatch normalised advantages", Range{0.0, 1e6});
    v("reward_norm", reward_norm, "running reward-std normalisation");
    v("aux_coef", aux_coef, "scale of the tenpai and danger auxiliary losses", Range{0.0, 1000.0});
    v("kl_anchor_start", kl_anchor_start, "KL anchor weight at the first update", Range{0.0, 1000.0});
    v("kl_anchor_end", kl_anchor_end, "KL anchor weight at train.max_updates", Range{0.0, 1000.0});
    v("value_warmup", value_warmup, "updates training only the value head at the start of a run from init",
      Range{0, 1000000});
    v("noise_batch", noise_batch,
      "decisions per chunk of the gradient noise-scale measurement (0 = off; one extra pass per update)",
      Range{0, 10000000});
    v("unplayed_share", unplayed_share,
      "share of the decisions without play-outs the learner keeps, each weighted by 1 / share (expected "
      "policy gradient; 1 = all)",
      Range{0.001, 1.0});
    v("init", init, "checkpoint to start from (e.g. a pretrained BC model)");
    v("anchor", anchor, "KL anchor checkpoint (empty: ppo.init when set; none: no anchor)");
    v("critic", critic,
      "baseline of GAE: the policy's value head, or a separate critic network that sees the hidden state",
      OneOf({"value_head", "privileged"},
            {Retired{"observed", "the observed critic served the critic's action values, which trained no better "
                                 "player; docs/PPO.md \"Retired estimators\""}}));
    v("critic_blocks", critic_blocks, "SE-ResBlocks of the privileged critic", Range{0, 64});
    v("critic_channels", critic_channels, "channels of the privileged critic (multiple of 32)", Range{32, 1024});
    v("critic_lr", critic_lr, "learning rate of the privileged critic", Range{0.0, 10.0});
    v("critic_epochs", critic_epochs, "passes of the privileged critic over each rollout", Range{1, 100});
    v("value_lambda", value_lambda, "GAE lambda of the value targets (-1: ppo.lambda; 1: Monte Carlo returns)",
      Range{-1.0, 1.0});
    v("advantage", advantage,
      "policy advantages: GAE, or greedy play-outs (the kyoku played out by bot:greedy after the action and "
      "after the bot's own choice)",
      OneOf({"gae", "rollout"},
            {Retired{"paired", "paired branches were no less noisy than GAE at 7 to 10 times its collection cost; "
                               "docs/PPO.md \"Retired estimators\""}}));
    v("policy_gradient", policy_gradient,
      "policy-gradient estimator: the sampled action's advantage, or (with ppo.advantage = rollout) the "
      "expectation over every action played out of its play-outs' advantage",
      OneOf{"sampled", "expected"});
  }
};

// Bounds, checkpoints and reporting of `hydra train`, `hydra pretrain` and `hydra grp`.
struct TrainConfig {
  std::int64_t max_updates = 1000;  // learner updates (pretrain: optimizer steps)
  double max_minutes = 0;           // wall-clock bound (0 = none)
  int checkpoint_every = 50;        // updates between checkpoints
  int log_every = 1;                // updates between progress lines / metric records
  bool tensorboard = true;          // also write TensorBoard event files
  int health_window = 20;           // updates a training metric stays unhealthy before a warning (0 = off)

  template <class V>
  void visit(V& v) {
    v("max_updates", max_updates, "learner updates (optimizer steps for pretraining)", Range<std::int64_t>{1, 1000000000000});
    v("max_minutes", max_minutes, "wall-clock limit in minutes (0 = none)", Range{0.0, 1e9});
    v("checkpoint_every", checkpoint_every, "updates between checkpoints", Range{1, 100000000});
    v("log_every", log_every, "updates between progress lines and metric records", Range{1, 100000000});
    v("tensorboard", tensorboard, "write TensorBoard event files next to metrics.jsonl");
    v("health_window", health_window, "updates a PPO metric stays out of its healthy range before a warning (0 = off)",
      Range{0, 1000000});
  }
};

// Behaviour cloning and GRP training from logs (docs/PRETRAIN.md).
struct PretrainConfig {
  std::vector<std::string> data;    // directories, files or globs of .json(.gz) mjai / Tenhou logs
  double val_fraction = 0.1;        // share of files (by a seeded hash of the path) held out
  int batch = 256;
  double lr = 5e-4;
  double lr_floor = 1e-5;
  double warmup = 0.05;             // share of max_updates in linear warmup
  double weight_decay = 0.01;
  double grad_clip = 1.0;
  int shuffle_buffer = 65536;       // samples held for shuffling
  bool augment = true;              // random suit permutation per sample
  // Expert iteration (docs/PRETRAIN.md "A teacher's policy as the target"): a hydra_net checkpoint
  // whose policy is the target wherever the logged action is its argmax; where the log differs
  // from it (a search over the teacher changed the decision) the logged action is, with weight
  // correction_weight. "" = the logged action everywhere.
  std::string teacher;
  double correction_weight = 1.0;
  // With a teacher, on logs of a search's self-play whose action lines carry the search's values
  // (docs/PRETRAIN.md "The search's values as the target"): where the search kept the teacher's
  // argmax, the teacher's probabilities of the candidates it played out are reweighted by
  // exp(value / search_temperature) (their sum kept), so every searched decision teaches. 0 = off.
  double search_temperature = 0.0;
  int val_every = 200;              // optimizer steps between validations
  std::int64_t val_max_samples = 200000;  // cap on validation samples per validation

  template <class V>
  void visit(V& v) {
    v("data", data, "directories, files or globs of mjai (.json/.json.gz) or Tenhou logs");
    v("val_fraction", val_fraction, "share of files held out for validation", Range{0.0, 1.0});
    v("batch", batch, "samples per optimizer step", Range{1, 10000000});
    v("lr", lr, "peak learning rate", Range{0.0, 10.0});
    v("lr_floor", lr_floor, "learning rate at the end of the cosine", Range{0.0, 10.0});
    v("warmup", warmup, "share of the steps spent in linear warmup", Range{0.0, 1.0});
    v("weight_decay", weight_decay, "AdamW weight decay (weights only)", Range{0.0, 10.0});
    v("grad_clip", grad_clip, "gradient norm clip (0 = off)", Range{0.0, 1e6});
    v("shuffle_buffer", shuffle_buffer, "samples in the shuffle buffer", Range{1, 100000000});
    v("augment", augment, "random suit permutation per sample");
    v("teacher", teacher, "checkpoint whose policy is the target where the logged action is its argmax (the logged action where not); empty = the logged action");
    v("correction_weight", correction_weight, "with pretrain.teacher: weight of the samples whose logged action is not the teacher's argmax", Range{0.0, 1e6});
    v("search_temperature", search_temperature, "with pretrain.teacher: reweight the teacher's policy among a search's candidates by exp(value / T) where the search kept its argmax (0 = off)", Range{0.0, 1e6});
    v("val_every", val_every, "optimizer steps between validations", Range{1, 100000000});
    v("val_max_samples", val_max_samples, "validation samples per validation", Range<std::int64_t>{1, 1000000000000});
  }
};

// The advantage estimator of a run (docs/ARCHITECTURE.md "Advantage estimators"), chosen once from
// ppo.critic, ppo.advantage and ppo.policy_gradient where the config is parsed: the actors and the
// learner each build their unit of it from this type and never read those strings.
enum class Estimator {
  gae,                 // GAE on the policy's value head (the default)
  privileged_gae,      // GAE on a separate critic that sees the hidden state (ppo.critic = privileged)
  play_outs,           // greedy play-outs of the action played and the bot's choice: Q(a) - Q(g), sampled
  play_outs_expected,  // greedy play-outs of every likely action: the expected policy gradient
};
// The estimator of a validated ppo section.
Estimator estimator(const struct PpoConfig& ppo);
// Its name in logs and reports: "gae", "privileged-gae", "play-outs", "play-outs-expected".
const char* estimator_name(Estimator e);

// Who plays a seat of a play-out, by its name in selfplay.play_out_agent (the deciding seat, and
// every seat unless play_out_others says otherwise) or selfplay.play_out_others (the three others).
enum class PlayOutPlayer {
  greedy,      // bot:greedy, played inside the deciding game's step
  snapshot,    // the actors' current inference model (play_out_agent only)
  agent,       // the play-out agent, as the deciding seat (play_out_others only, its default)
  start,       // the run's start, ppo.init
  checkpoint,  // the checkpoint the name is the path of
};
// The player a validated name stands for (any name that is no word of the list is a path).
PlayOutPlayer play_out_player(const std::string& name);
// Whether the player is a network loaded from a checkpoint: start (ppo.init) or a path.
bool loads_checkpoint(PlayOutPlayer player);
// Whether bot:greedy plays on after a network's first play_out_depth decisions (play_out_tail).
bool greedy_tail(const struct SelfplayConfig& sp);

struct Config {
  RunConfig run;
  RulesConfig rules;
  ModelConfig model;
  CheckpointConfig checkpoint;
  SelfplayConfig selfplay;
  PpoConfig ppo;
  TrainConfig train;
  PretrainConfig pretrain;

  template <class V>
  void visit(V& v) {
    v.section("run", run);
    v.section("rules", rules);
    v.section("model", model);
    v.section("checkpoint", checkpoint);
    v.section("selfplay", selfplay);
    v.section("ppo", ppo);
    v.section("train", train);
    v.section("pretrain", pretrain);
  }
};

}  // namespace hydra::config
