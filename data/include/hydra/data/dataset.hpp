#pragma once

// The pretraining dataset (spec section 7; docs/PRETRAIN.md): a stream of decision samples from
// mjai logs (.json / .json.gz, both dialects) and Tenhou logs (via convert.hpp), for behaviour
// cloning. Files are decoded and replayed in parallel (hydra::parallel_for); every decision of
// every seat becomes one Sample; samples pass through a shuffle buffer in an order fixed by the
// seed. Memory stays bounded by the shuffle buffer and a bounded number of files in flight,
// whatever the corpus size. Train/validation split is by file (a seeded hash of the path).
//
// Bad files (corrupt gzip, truncated file, broken JSON, an illegal event, unsupported rules)
// are reported with file and line, skipped and counted; the stream goes on.
// Torch-free: batches are plain arrays the trainer wraps as tensors without a copy.

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "hydra/data/game_log.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/seed.hpp"

namespace hydra::data {

inline constexpr int kSampleActions = 46;
inline constexpr int kSampleContext = 16;

// Decision types for per-type accuracy (spec section 7).
enum class DecisionType : std::uint8_t { discard, riichi, chi, pon, kan, agari, pass };
inline constexpr int kDecisionTypes = 7;
std::string_view to_string(DecisionType t);
// The type of a decision from the action taken: discards 0-36, riichi, chi (3), pon, kan,
// agari, pass (ryuukyoku = kyuushu counts as pass... see dataset.cpp).
DecisionType decision_type(int action);

// A batch of n samples, structure of arrays, row i = sample i.
struct SampleBatch {
  std::vector<float> obs;               // n * kObsSize (85 x 34, fp32)
  std::vector<float> context;           // n * 16 score context (model::score_context)
  std::vector<std::uint8_t> legal;      // n * 46, 1 = legal
  std::vector<std::int64_t> action;     // the logged action (46-space)
  std::vector<float> value;             // final placement points of the acting seat (3, 1, -1, -3)
  std::vector<std::int64_t> grp;        // final rank permutation, relative seats (model/grp.hpp)
  std::vector<float> tenpai;            // n * 3 opponents (relative order) tenpai now, 0/1
  std::vector<float> danger;            // n * 3 * 34: tile type is a wait of that opponent now
  std::vector<std::uint8_t> type;       // DecisionType
  std::size_t size() const { return action.size(); }
  void clear();
};

struct DatasetOptions {
  std::vector<std::string> inputs;  // directories (recursive), files or globs
  bool validation = false;          // the held-out split instead of the training split
  double val_fraction = 0.1;
  game::MasterSeed seed;            // split hash, shuffle and augmentation (KDF children)
  bool augment = true;              // random suit permutation per sample (training split only)
  int shuffle_buffer = 65536;
  bool repeat = true;               // start another pass (epoch) at the end; validation: false
  int files_in_flight = 0;          // files decoded at once (0 = 4 x hardware threads)
};

struct BadFile {
  std::string file;
  std::string reason;  // "file:line: what" from the reader or replay
};

struct DatasetReport {
  std::int64_t files_total = 0;   // in this split
  std::int64_t files_read = 0;
  std::int64_t samples = 0;       // produced so far
  std::int64_t epochs = 0;        // passes completed
  std::vector<BadFile> bad;       // each bad file once (not again in later passes)
  double seconds_gunzip = 0, seconds_parse = 0, seconds_replay = 0, seconds_encode = 0;  // CPU time shares
};

class Dataset {
 public:
  // Lists the files (throws hydra::Error when an input does not exist or nothing is found).
  explicit Dataset(DatasetOptions options);
  ~Dataset();
  Dataset(const Dataset&) = delete;
  Dataset& operator=(const Dataset&) = delete;

  // Fills `out` with up to n samples (clearing it first); returns the number filled, 0 only at
  // the end of a non-repeating stream. Bad files are logged (warn) as they are met.
  std::size_t next(SampleBatch& out, std::size_t n);

  DatasetReport report() const;
  const std::vector<std::filesystem::path>& files() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Every sample of one game (no shuffle, no augmentation), in event order: what the stream is
// made of. Throws hydra::Error naming `name` and the event on an illegal event.
void extract_samples(const GameLog& log, std::string_view name, SampleBatch& out);

}  // namespace hydra::data
