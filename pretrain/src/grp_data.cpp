#include "hydra/pretrain/grp_data.hpp"

#include <algorithm>
#include <set>

#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/data/log_rules.hpp"
#include "hydra/data/replay.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/rules.hpp"

namespace hydra::pretrain {
namespace {

namespace fs = std::filesystem;

// Two files hold the same game when every kyoku starts alike and the game ends alike.
std::string fingerprint(const GrpGame& g) {
  std::string out;
  for (const auto& k : g.kyoku) {
    out += std::to_string(k.round) + ',' + std::to_string(k.honba) + ',' + std::to_string(k.riichi_sticks);
    for (const int s : k.scores) out += ',' + std::to_string(s);
    out += ';';
  }
  for (const int s : g.final_scores) out += std::to_string(s) + ',';
  return out;
}

}  // namespace

GrpGame extract_grp_game(const data::GameLog& log, std::string_view name) {
  GrpGame g;
  g.file = std::string(name);
  bool ended = false;
  for (const game::Event& e : log.events) {
    if (e.type == game::EventType::start_kyoku) {
      g.kyoku.push_back(game::kyoku_start(e));
    } else if (e.type == game::EventType::end_game) {
      for (std::size_t s = 0; s < 4; ++s) g.final_scores[s] = e.scores[s];
      ended = true;
    }
  }
  if (g.kyoku.empty()) throw Error(std::string(name) + ": the game has no start_kyoku");
  if (!ended) throw Error(std::string(name) + ": the game has no end_game (truncated?)");
  g.ranks = model::final_ranks(g.final_scores);
  g.permutation = model::permutation_index(g.ranks);
  return g;
}

bool is_validation_file(std::string_view name, double fraction, game::MasterSeed seed) {
  // The same split as hydra pretrain's (data/src/dataset.cpp: data-order stream 0).
  return game::hash_fraction(game::stream_key(seed, game::labels::data_order, {0}), name) < fraction;
}

GrpCorpus load_grp_corpus(const std::vector<std::string>& inputs, double val_fraction, game::MasterSeed seed,
                          std::string_view rules) {
  const data::RulesChoice choice = data::RulesChoice::per_log(game::table_rules(rules));
  std::vector<fs::path> files;
  std::vector<std::string> names;  // what the split hashes
  for (const std::string& in : inputs) {
    const fs::path root(in);
    const bool dir = fs::is_directory(root);
    for (const fs::path& f : data::collect_log_files({root})) {
      files.push_back(f);
      names.push_back(dir ? f.lexically_relative(root).generic_string() : f.filename().string());
    }
  }
  if (files.empty()) throw Error("grp: no log files found under the given --data / pretrain.data inputs");
  struct Slot {
    GrpGame game;
    std::string error;
  };
  std::vector<Slot> slots(files.size());
  hydra::parallel_for(0, files.size(), [&](std::size_t i) {
    try {
      const data::GameLog log = data::read_log(files[i]);
      const data::ReplayReport check = data::check_game(log, choice.of(log), files[i].string());
      if (check.status != data::ReplayStatus::pass) {
        slots[i].error = check.message;
        return;
      }
      slots[i].game = extract_grp_game(log, files[i].string());
    } catch (const Error& e) {
      slots[i].error = e.what();
    }
  });
  GrpCorpus corpus;
  corpus.files = static_cast<std::int64_t>(files.size());
  std::set<std::string> seen;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!slots[i].error.empty()) {
      log::warn("grp: skipping bad file {}", slots[i].error);
      corpus.bad.push_back({files[i].string(), slots[i].error});
      continue;
    }
    if (!seen.insert(fingerprint(slots[i].game)).second) {
      log::debug("grp: {} repeats an earlier game; skipped", files[i].string());
      ++corpus.duplicates;
      continue;
    }
    (is_validation_file(names[i], val_fraction, seed) ? corpus.validation : corpus.train).push_back(std::move(slots[i].game));
  }
  return corpus;
}

}  // namespace hydra::pretrain
