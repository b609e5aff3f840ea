#pragma once

// Training data of the GRP model (docs/PRETRAIN.md): per game, the state at the
// start of every kyoku and the final ranking. Every prefix of the kyoku sequence is one training
// example with the game's final rank permutation as its label; the causal GRU scores all of a
// game's prefixes in one pass, so a game is stored once, not once per prefix.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "hydra/data/dataset.hpp"
#include "hydra/data/game_log.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/model/grp.hpp"

namespace hydra::pretrain {

struct GrpGame {
  std::string file;
  std::vector<game::KyokuStart> kyoku;  // start of each kyoku, in play order
  std::array<int, 4> final_scores{};     // end_game scores, absolute seats
  model::Ranks ranks{};                  // model::final_ranks(final_scores)
  int permutation = 0;                   // model::permutation_index(ranks)
};

// The kyoku starts and final ranking of one normalised game. Throws hydra::Error naming `name`
// when the game has no kyoku or no end_game.
GrpGame extract_grp_game(const data::GameLog& log, std::string_view name);

// Whether a file belongs to the held-out split, the same split data::Dataset makes: SHA-256 of
// the data-order stream key (index 0) and the file's name relative to the input folder that
// found it (a file given directly: its file name), read as a fraction of 2^64, below
// `fraction`. Relative names keep the split when a corpus moves.
bool is_validation_file(std::string_view name, double fraction, game::MasterSeed seed);

struct GrpCorpus {
  std::vector<GrpGame> train, validation;
  std::vector<data::BadFile> bad;  // unreadable or illegal files, each with the reason
  std::int64_t files = 0;
  std::int64_t duplicates = 0;     // games seen before under another file name (same kyoku starts and result)
};

// Reads every log under `inputs` (folders searched recursively, or files) in parallel and
// replay-checks it (data::check_game: each Tenhou log under the rules of its lobby and date,
// data/log_rules.hpp, others under the rules preset `rules`; an illegal event or a wrong
// payment makes a file bad, as it would for behaviour cloning); skips and reports bad files, drops
// duplicate games (the same game converted from two formats) and splits by file.
GrpCorpus load_grp_corpus(const std::vector<std::string>& inputs, double val_fraction, game::MasterSeed seed,
                          std::string_view rules = "tenhou");

}  // namespace hydra::pretrain
