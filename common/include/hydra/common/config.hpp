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

// Size and numerics of the SE-ResNet (spec section 6).
struct ModelConfig {
  int blocks = 40;
  int channels = 256;
  bool cuda_bf16 = true;   // bf16 autocast for forward passes on CUDA
  bool cpu_bf16 = false;   // bf16 autocast on CPU (off: fp32)

  template <class V>
  void visit(V& v) {
    v("blocks", blocks, "SE-ResBlocks in the trunk", Range{1, 256});
    v("channels", channels, "trunk channels (multiple of 32 for GroupNorm(32))", Range{32, 2048});
    v("cuda_bf16", cuda_bf16, "bf16 autocast for forward passes on CUDA");
    v("cpu_bf16", cpu_bf16, "bf16 autocast on CPU");
  }
};

struct Config {
  RunConfig run;
  RulesConfig rules;
  ModelConfig model;

  template <class V>
  void visit(V& v) {
    v.section("run", run);
    v.section("rules", rules);
    v.section("model", model);
  }
};

}  // namespace hydra::config
