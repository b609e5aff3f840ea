// Dataset: files -> split -> per-epoch file order -> parallel decode in chunks (a producer thread
// one chunk ahead of the consumer) -> shuffle buffer -> augmentation -> batches.
//
// Determinism: the samples enter the shuffle buffer in epoch file order, file by file, whatever
// the chunk size or thread count; the buffer's draws and the augmentation come from their own
// seeded streams, consumed in output order: the buffer is filled to capacity, then each output
// draws a uniform slot, which takes the next sample of the stream. So the output depends on the
// seed, the files and the buffer size only.
//
// Memory: the shuffle buffer plus at most three chunks of files_in_flight files (one being
// decoded, one queued, one being drained into the buffer) and files_in_flight spare batches.

#include <glob.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/data/log_rules.hpp"
#include "hydra/encoder/augment.hpp"
#include "hydra/game/rng.hpp"

namespace hydra::data {
namespace {

namespace fs = std::filesystem;
using encoder::kObsSize;
using encoder::kTiles;


// Stream indices under labels::data_order (one label, distinct index tuples).
constexpr std::uint64_t kSplitStream = 0, kBufferStream = 1, kFileOrderStream = 2;

bool is_glob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

std::vector<std::string> expand_glob(const std::string& pattern) {
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
  std::vector<std::string> out;
  if (rc == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  if (out.empty()) throw Error("pretraining data: '" + pattern + "' matches no file");
  std::sort(out.begin(), out.end());
  return out;
}

// Whether a file belongs to the validation split: the seeded hash of its name relative to the
// input that found it (so moving the corpus keeps the split), read as a fraction of 2^64.
bool in_validation(const game::StreamKey& key, const std::string& name, double fraction) {
  return game::hash_fraction(key, name) < fraction;
}

struct FileResult {
  SampleBatch samples;
  std::optional<BadFile> bad;
  std::string rules;  // the name of the rules the log was replayed under
  double gunzip = 0, parse = 0, replay = 0, encode = 0;
};

// One decoded chunk: results in epoch file order, and whether it ends its epoch.
struct Chunk {
  std::vector<std::size_t> files;
  std::vector<FileResult> results;
  bool ends_epoch = false;
  bool ends_stream = false;
};

}  // namespace

struct Dataset::Impl {
  DatasetOptions opt;
  std::optional<RulesChoice> rules;  // each log's own, opt.rules for those that name none
  std::vector<fs::path> files;
  std::size_t in_flight = 1;
  bool augment = false;

  // Producer state (producer thread only, after construction).
  std::vector<bool> bad_file;
  std::int64_t epoch = 0;
  std::vector<std::size_t> order;
  std::size_t cursor = 0;
  std::int64_t epoch_samples = 0;

  // The hand-over between producer and consumer.
  std::mutex mu;
  std::condition_variable cv;
  std::optional<Chunk> ready;
  bool stop = false;
  std::exception_ptr failure;
  // Drained sample batches handed back for reuse: their memory stays mapped, so decoding the
  // next files neither page-faults nor reallocates (the chunk bound on memory is unchanged).
  std::vector<SampleBatch> spare;
  std::thread producer;

  // Consumer state.
  std::optional<Chunk> current;
  std::size_t cur_file = 0, cur_row = 0;
  bool ended = false;
  SampleBatch buffer;
  std::optional<game::Xoshiro256ss> shuffle_rng, aug_rng;
  DatasetReport rep;

  // The file indices of pass `e`: the split's order for the pass (the same in every shard), then
  // this shard's positions of it.
  std::vector<std::size_t> order_of(std::int64_t e) const {
    std::vector<std::size_t> all(files.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    game::Xoshiro256ss rng(game::stream_key(opt.seed, game::labels::data_order, {kFileOrderStream, static_cast<std::uint64_t>(e)}));
    game::shuffle(std::span<std::size_t>(all), rng);
    if (opt.shard_count == 1) return all;
    std::vector<std::size_t> mine;
    for (std::size_t i = ix(opt.shard_index); i < all.size(); i += ix(opt.shard_count)) mine.push_back(all[i]);
    return mine;
  }

  void start_epoch() {
    order = order_of(epoch);
    cursor = 0;
    epoch_samples = 0;
  }

  void decode(std::size_t f, FileResult& r) const {
    const std::string name = files[f].string();
    try {
      const GameLog log = read_game(files[f], &r.gunzip, &r.parse);
      ExtractStats st;
      const game::TableRules& log_rules = rules->of(log);
      r.rules = log_rules.name;
      extract_samples(log, name, r.samples, log_rules, &st);
      r.replay = st.seconds_replay;
      r.encode = st.seconds_encode;
    } catch (const std::exception& e) {
      r.samples.clear();
      r.bad = BadFile{name, e.what()};
    }
  }

  Chunk produce() {
    Chunk c;
    while (c.files.size() < in_flight && cursor < order.size()) {
      const std::size_t f = order[cursor++];
      if (!bad_file[f]) c.files.push_back(f);
    }
    c.results.resize(c.files.size());
    {
      std::lock_guard lock(mu);
      for (FileResult& r : c.results) {
        if (spare.empty()) break;
        r.samples = std::move(spare.back());
        spare.pop_back();
      }
    }
    parallel_for(0, c.files.size(), [&](std::size_t k) { decode(c.files[k], c.results[k]); });
    for (std::size_t k = 0; k < c.files.size(); ++k) {
      if (c.results[k].bad) bad_file[c.files[k]] = true;
      epoch_samples += static_cast<std::int64_t>(c.results[k].samples.size());
    }
    if (cursor == order.size()) {
      c.ends_epoch = true;
      // An epoch without a single sample would repeat forever: end the stream instead.
      c.ends_stream = !opt.repeat || epoch_samples == 0;
      ++epoch;
      if (!c.ends_stream) start_epoch();
    }
    return c;
  }

  void produce_loop() {
    try {
      for (;;) {
        Chunk c = produce();
        const bool last = c.ends_stream;
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return stop || !ready; });
        if (stop) return;
        ready = std::move(c);
        cv.notify_all();
        if (last) return;
      }
    } catch (...) {
      std::lock_guard lock(mu);
      failure = std::current_exception();
      cv.notify_all();
    }
  }

  // The next chunk from the producer (waits for it: this is the caller's thread, never a task).
  bool take_chunk() {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return ready.has_value() || failure; });
    if (failure) std::rethrow_exception(failure);
    current = std::move(ready);
    ready.reset();
    cv.notify_all();
    lock.unlock();
    cur_file = 0;
    cur_row = 0;
    for (FileResult& r : current->results) {
      rep.seconds_gunzip += r.gunzip;
      rep.seconds_parse += r.parse;
      rep.seconds_replay += r.replay;
      rep.seconds_encode += r.encode;
      if (r.bad) {
        log::warn("pretraining data: skipping {}", r.bad->reason);
        rep.bad.push_back(*r.bad);
      } else {
        ++rep.files_read;
        if (rep.passes_read == 0) ++rep.files_per_rules[r.rules];
      }
    }
    return true;
  }

  // The next sample of the stream (a row of a decoded file), or nullptr at its end. The row
  // stays valid until the next call; drained files give their memory back at once.
  const SampleBatch* pull(std::size_t& row) {
    while (!ended) {
      if (!current) take_chunk();
      Chunk& c = *current;
      while (cur_file < c.results.size()) {
        SampleBatch& s = c.results[cur_file].samples;
        if (cur_row < s.size()) {
          row = cur_row++;
          return &s;
        }
        s.clear();
        {
          std::lock_guard lock(mu);
          if (spare.size() < in_flight) spare.push_back(std::move(s));
        }
        s = SampleBatch();
        ++cur_file;
        cur_row = 0;
      }
      if (c.ends_epoch) ++rep.passes_read;
      if (c.ends_stream) ended = true;
      current.reset();
    }
    return nullptr;
  }

  // Tops the shuffle buffer up to its capacity (or to the end of the stream).
  void fill() {
    const std::size_t cap = ix(opt.shuffle_buffer);
    std::size_t row = 0;
    while (buffer.size() < cap) {
      const SampleBatch* s = pull(row);
      if (!s) break;
      buffer.append(*s, row);
    }
    rep.buffer_peak = std::max(rep.buffer_peak, static_cast<std::int64_t>(buffer.size()));
  }

  // Row j of the buffer into `out`, under a random suit permutation when augmenting.
  void emit(std::size_t j, SampleBatch& out) {
    if (!augment) {
      out.append(buffer, j);
      return;
    }
    const encoder::SuitPerm perm = encoder::SuitPerm::nth(static_cast<int>(aug_rng->below(encoder::kNumSuitPerms)));
    if (perm.identity()) {
      out.append(buffer, j);
      return;
    }
    out.append(buffer, j);
    const std::size_t row = out.size() - 1;
    perm.apply(buffer.obs.data() + j * ix(kObsSize), out.obs.data() + row * ix(kObsSize));
    const game::ActionMask m = perm(buffer.legal_mask(j));
    for (int a = 0; a < kSampleActions; ++a)
      out.legal[row * ix(kSampleActions) + ix(a)] = m.test(game::Action(a)) ? 1 : 0;
    out.action[row] = perm(game::Action(static_cast<int>(buffer.action[j]))).index();
    for (int a = 0; a < kSampleActions; ++a) {  // the search's columns move with their actions
      const std::size_t from = j * ix(kSampleActions) + ix(a), to = row * ix(kSampleActions) + ix(perm(game::Action(a)).index());
      out.searched[to] = buffer.searched[from];
      out.search_value[to] = buffer.search_value[from];
    }
    const float* d = buffer.danger.data() + j * ix(kSampleDanger);
    float* od = out.danger.data() + row * ix(kSampleDanger);
    for (int k = 0; k < 3; ++k)
      for (int t = 0; t < kTiles; ++t) od[k * kTiles + perm(game::TileType(t)).index()] = d[k * kTiles + t];
  }
};

Dataset::Dataset(DatasetOptions options) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.opt = std::move(options);
  if (m.opt.shuffle_buffer < 1) throw Error("pretraining data: shuffle_buffer must be at least 1");
  if (m.opt.val_fraction < 0 || m.opt.val_fraction > 1) throw Error("pretraining data: val_fraction must be in [0, 1]");
  if (m.opt.inputs.empty()) throw Error("pretraining data: no inputs (pretrain.data is empty)");
  m.rules = RulesChoice::per_log(game::table_rules(m.opt.rules));
  const game::StreamKey split = game::stream_key(m.opt.seed, game::labels::data_order, {kSplitStream});
  std::vector<std::pair<fs::path, std::string>> found;  // file, the name its split hash reads
  for (const std::string& in : m.opt.inputs) {
    const std::vector<std::string> roots = is_glob(in) ? expand_glob(in) : std::vector<std::string>{in};
    for (const std::string& root : roots) {
      const fs::path r(root);
      const bool dir = fs::is_directory(r);
      for (const fs::path& f : collect_log_files({r}))
        found.emplace_back(f, dir ? f.lexically_relative(r).generic_string() : f.filename().string());
    }
  }
  if (found.empty()) throw Error("pretraining data: no log files (.json, .json.gz, .xml, .mjlog) in the inputs");
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
              found.end());
  for (const auto& [f, name] : found)
    if (in_validation(split, name, m.opt.val_fraction) == m.opt.validation) m.files.push_back(f);
  if (m.files.empty())
    log::warn("pretraining data: the {} split holds none of the {} files", m.opt.validation ? "validation" : "training",
              found.size());
  m.rep.files_total = static_cast<std::int64_t>(m.files.size());
  const int threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  m.in_flight = ix(m.opt.files_in_flight > 0 ? m.opt.files_in_flight : 4 * threads);
  m.augment = m.opt.augment && !m.opt.validation;
  m.bad_file.assign(m.files.size(), false);
  if (m.opt.shard_count < 1 || m.opt.shard_index < 0 || m.opt.shard_index >= m.opt.shard_count)
    throw Error("pretraining data: shard " + std::to_string(m.opt.shard_index) + " of " + std::to_string(m.opt.shard_count) +
                " does not exist");
  // One shard draws a single process's streams; a shard of several its own.
  const auto shard = static_cast<std::uint64_t>(m.opt.shard_index);
  const auto shards = static_cast<std::uint64_t>(m.opt.shard_count);
  m.shuffle_rng.emplace(shards == 1 ? game::stream_key(m.opt.seed, game::labels::data_order, {kBufferStream})
                                    : game::stream_key(m.opt.seed, game::labels::data_order, {kBufferStream, shard, shards}));
  m.aug_rng.emplace(shards == 1 ? game::stream_key(m.opt.seed, game::labels::augmentation)
                                : game::stream_key(m.opt.seed, game::labels::augmentation, {shard, shards}));
  m.start_epoch();
  m.ended = m.order.empty();  // no file in the split, or in this shard
}

Dataset::~Dataset() {
  {
    std::lock_guard lock(impl_->mu);
    impl_->stop = true;
  }
  impl_->cv.notify_all();
  if (impl_->producer.joinable()) impl_->producer.join();
}

std::size_t Dataset::next(SampleBatch& out, std::size_t n) {
  Impl& m = *impl_;
  out.clear();
  // The producer starts with the first request, so listing the files costs no decoding.
  if (!m.ended && !m.producer.joinable()) m.producer = std::thread([&m] { m.produce_loop(); });
  m.fill();
  std::size_t row = 0;
  while (out.size() < n && m.buffer.size() > 0) {
    const std::size_t j = m.shuffle_rng->below(static_cast<std::uint32_t>(m.buffer.size()));
    m.emit(j, out);
    // The drawn slot takes the next sample; once the stream has ended the buffer drains.
    if (const SampleBatch* s = m.pull(row)) {
      m.buffer.assign_row(j, *s, row);
    } else {
      m.buffer.copy_row(m.buffer.size() - 1, j);
      m.buffer.pop_back();
    }
  }
  m.rep.samples += static_cast<std::int64_t>(out.size());
  return out.size();
}

DatasetReport Dataset::report() const { return impl_->rep; }

const std::vector<std::filesystem::path>& Dataset::files() const { return impl_->files; }

std::vector<std::filesystem::path> Dataset::epoch_files(std::int64_t epoch) const {
  std::vector<std::filesystem::path> out;
  for (const std::size_t f : impl_->order_of(epoch)) out.push_back(impl_->files[f]);
  return out;
}

}  // namespace hydra::data
