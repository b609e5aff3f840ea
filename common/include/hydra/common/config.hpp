#pragma once

// The typed configuration of a Hydra run: one struct per JSON section, defaults in code.
// Loading (strict: unknown keys, wrong types and out-of-range values are errors naming the key
// path and the file) lives in config_io.hpp.

#include <cstdint>
#include <optional>
#include <string>

#include "hydra/common/config_schema.hpp"

namespace hydra::config {

// Where and how a run executes.
struct RunConfig {
  std::string name = "hydra";
  std::string dir = "runs/hydra";           // run directory: logs, checkpoints, metrics
  std::optional<std::uint64_t> seed;        // master seed; absent: drawn at random and logged
  std::string device = "auto";              // auto = cuda when available, else cpu
  std::string log_level = "info";
  int threads = 0;                          // 0 = all hardware threads (oneTBB default)

  template <class V>
  void visit(V& v) {
    v("name", name, "run name, used in logs and metrics");
    v("dir", dir, "run directory for logs, checkpoints and metrics");
    v("seed", seed, "master seed (null: random, logged)");
    v("device", device, "compute device", OneOf{"auto", "cpu", "cuda"});
    v("log_level", log_level, "log level", OneOf{"trace", "debug", "info", "warn", "error", "off"});
    v("threads", threads, "worker threads (0 = all hardware threads)", Range{0, 1024});
  }
};

// Which rules the table plays.
struct RulesConfig {
  std::string preset = "tenhou";
  std::string length = "hanchan";

  template <class V>
  void visit(V& v) {
    v("preset", preset, "rules preset", OneOf{"tenhou", "mahjongsoul"});
    v("length", length, "game length", OneOf{"hanchan", "tonpuusen", "kyoku"});
  }
};

// Size, numerics and loss weights of the SE-ResNet and the GRP network (spec sections 6, 7;
// docs/MODEL.md). Head sizes default to the spec's; loss weights w_* multiply each head's loss.
struct ModelConfig {
  int blocks = 40;
  int channels = 256;
  bool cuda_bf16 = true;   // bf16 autocast for forward passes on CUDA
  bool cpu_bf16 = false;   // bf16 autocast on CPU (off: fp32)
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

// Checkpoint files of a run (spec section 9; docs/CHECKPOINTS.md).
struct CheckpointConfig {
  int keep = 5;  // newest checkpoints kept; the `best` one is kept as well; 0 keeps all

  template <class V>
  void visit(V& v) {
    v("keep", keep, "checkpoints kept (newest first; `best` always kept; 0 = all)", Range{0, 1000000});
  }
};

struct Config {
  RunConfig run;
  RulesConfig rules;
  ModelConfig model;
  CheckpointConfig checkpoint;

  template <class V>
  void visit(V& v) {
    v.section("run", run);
    v.section("rules", rules);
    v.section("model", model);
    v.section("checkpoint", checkpoint);
  }
};

}  // namespace hydra::config
