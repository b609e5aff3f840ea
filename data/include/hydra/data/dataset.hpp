#pragma once

// The pretraining dataset (docs/PRETRAIN.md): a stream of decision samples from
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
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/data/game_log.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/action.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::data {

inline constexpr int kSampleActions = game::kNumActions;
inline constexpr int kSampleContext = encoder::kContextSize;
inline constexpr int kSampleDanger = 3 * encoder::kTiles;

// Decision types for per-type accuracy (docs/PRETRAIN.md), named by the action taken.
enum class DecisionType : std::uint8_t { discard, riichi, chi, pon, kan, agari, pass };
inline constexpr int kDecisionTypes = 7;
std::string_view to_string(DecisionType t);
// The type of a decision from the action taken: discards 0-36, riichi 37, chi 38-40, pon 41,
// kan 42, agari 43, pass 45; kyuushu kyuuhai (44) declines to play the hand on and counts as
// pass. The second, kan-select decision (a tile type 0-33) is typed kan by extract_samples.
DecisionType decision_type(int action);

// A batch of n samples, structure of arrays, row i = sample i.
struct SampleBatch {
  std::vector<float> obs;               // n * kObsSize (85 x 34, fp32)
  std::vector<float> context;           // n * 16 score context (encoder/context.hpp)
  std::vector<std::uint8_t> legal;      // n * 46, 1 = legal
  std::vector<std::int64_t> action;     // the logged action (46-space)
  std::vector<float> value;             // final placement points of the acting seat (3, 1, -1, -3)
  std::vector<std::int64_t> grp;        // final rank permutation, relative seats (model/grp.hpp)
  std::vector<float> tenpai;            // n * 3 opponents (relative order) tenpai now, 0/1
  std::vector<float> danger;            // n * 3 * 34: tile type is a wait of that opponent now
  std::vector<std::uint8_t> type;       // DecisionType
  // The search behind the logged action, where its log line carries one (game_log.hpp SearchNote):
  // n * 46, 1 = an action the search played out, and that action's mean reward; 0 elsewhere.
  std::vector<std::uint8_t> searched;
  std::vector<float> search_value;
  std::size_t size() const { return action.size(); }
  // Row i's legal actions (its byte row of `legal`) as a mask.
  game::ActionMask legal_mask(std::size_t i) const;
  void clear();
  // Appends row i of `src` (which must not be this batch).
  void append(const SampleBatch& src, std::size_t i);
  // Row j becomes a copy of row i (both of this batch); pop_back drops the last row.
  void copy_row(std::size_t i, std::size_t j);
  // Row j becomes a copy of row i of `src` (another batch).
  void assign_row(std::size_t j, const SampleBatch& src, std::size_t i);
  void pop_back();
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
  // The rules the logs that name none are replayed under (a preset name or file); a Tenhou log is
  // replayed under the rules of its lobby and date (log_rules.hpp).
  std::string rules = "tenhou";
  // Data-parallel ranks (docs/DISTRIBUTED.md): every shard draws the same per-epoch file order
  // from the seed and reads the files at positions shard_index, shard_index + shard_count, ...
  // of it, so the shards of one epoch read each file of the split exactly once between them.
  // Each shard has its own shuffle-buffer and augmentation streams; one shard (the default)
  // is the whole split with the streams of a single process.
  int shard_index = 0;
  int shard_count = 1;
};

struct BadFile {
  std::string file;
  std::string reason;  // "file:line: what" from the reader or replay
};

struct DatasetReport {
  std::int64_t files_total = 0;   // in this split
  std::int64_t files_read = 0;
  std::int64_t samples = 0;       // produced so far
  std::int64_t passes_read = 0;   // passes the reader finished (it reads ahead of training by up to the shuffle buffer)
  std::int64_t buffer_peak = 0;   // most samples the shuffle buffer ever held (<= shuffle_buffer)
  std::vector<BadFile> bad;       // each bad file once (not again in later passes)
  std::map<std::string, std::int64_t> files_per_rules;  // first pass: files read, by the rules replayed under
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
  // Every file of the split (all shards').
  const std::vector<std::filesystem::path>& files() const;
  // The files this shard reads in pass `epoch` (0-based), in reading order.
  std::vector<std::filesystem::path> epoch_files(std::int64_t epoch) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Where extract_samples spent its time and what it saw; per-sample fields let tests tie every
// sample back to its event.
struct ExtractStats {
  int actions = 0;      // logged decisions of the seats (dahai, reach, calls, kans, hora, kyuushu)
  int forced = 0;       // ... of them taken where they were the only legal action (no sample)
  int passes = 0;       // samples whose label is a pass
  int kan_selects = 0;  // second, kan-select samples
  double seconds_replay = 0, seconds_encode = 0;
  std::vector<int> sample_event;  // per sample appended: the index of the event that resolved it
                                  // (the seat's action, or the event that closed a passed chance)
  std::vector<int> sample_seat;   // per sample appended: the absolute seat deciding
  std::vector<int> sample_observed;  // per sample appended: the index of the event after which its
                                     // observation was taken (the decision opened, or a dora
                                     // before the discard refreshed it): replaying the events up to
                                     // and including it gives the seat's view at the decision
};

// Every sample of one game (no shuffle, no augmentation), in the order the decisions opened,
// appended to `out`. Throws hydra::Error naming `name` and the event ("name:N", N the 1-based
// event position, as replay.hpp) on an illegal event; `out` is then left as it was. Without
// `rules`: the rules the log names (a Tenhou log's lobby and date, log_rules.hpp), else tenhou.
void extract_samples(const GameLog& log, std::string_view name, SampleBatch& out);
void extract_samples(const GameLog& log, std::string_view name, SampleBatch& out, const game::TableRules& rules,
                     ExtractStats* stats = nullptr);

// Reads one log file in any format read_log() takes, timing mjai gunzip and parsing apart.
GameLog read_game(const std::filesystem::path& path, double* seconds_gunzip, double* seconds_parse);


}  // namespace hydra::data
