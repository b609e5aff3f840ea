#pragma once

// Any supported log -> gzipped Mortal-dialect mjai, one file per game (`hydra convert`).

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hydra/data/game_log.hpp"

namespace hydra::data {

enum class LogFormat { mjai, tenhou_xml, tenhou6 };
std::string_view to_string(LogFormat f);

// The format of a file from its first bytes (plain or gzip): '<' starts an mjlog, a "log" key a
// tenhou.net/6 game, a "type" key mjai. Throws hydra::Error when none fits.
LogFormat detect_format(const std::filesystem::path& path);

// Reads one game in any supported format. Throws UnsupportedRule for games the format itself marks
// as another game (3-player, chip lobbies, Tenhou start scores other than 25,000) and hydra::Error
// for broken files. mjai carries no rules: its start scores are checked against the rules by
// whoever plays the log (require_supported in game_log.hpp).
GameLog read_log(const std::filesystem::path& path);

// What went wrong with one file of a batch (convert, replay --check, replay --verify-encoder),
// sorted in one place so that a bad file is reported and the batch goes on: a game the rules
// cannot play (UnsupportedRule), a broken file (hydra::Error: its message), or a bug (any other
// exception: "FILE: internal error: WHAT").
struct FileFault {
  bool unsupported = false;  // UnsupportedRule; else the file failed
  std::string message;
};
// Runs `work` on `file`; what it throws becomes the fault, nothing thrown none.
std::optional<FileFault> guard_file(const std::filesystem::path& file, const std::function<void()>& work);

// The files named, with folders searched recursively for .xml, .mjlog, .json, .json.gz, .mjson
// (sorted, so runs are reproducible). Throws hydra::Error for a path that does not exist.
std::vector<std::filesystem::path> collect_log_files(const std::vector<std::filesystem::path>& inputs);

// The output name for an input: its name without the log extensions, plus ".json.gz".
std::filesystem::path converted_name(const std::filesystem::path& input);

struct ConvertResult {
  enum class Status { ok, unsupported, failed, duplicate };
  std::filesystem::path input, output;
  Status status = Status::failed;
  std::string message;  // the reason when not ok
  std::string rules;    // the name of the rules the game is held to (empty: not read)
  std::size_t events = 0;
  int kyoku = 0;
};

// Converts one file into `out_dir` (written atomically; nothing is left behind on failure).
// With write = false it only reads and checks the input: that the rules the log names (a Tenhou
// log's lobby and date, log_rules.hpp; else `tenhou`) can play it (start scores).
ConvertResult convert_file(const std::filesystem::path& input, const std::filesystem::path& out_dir, bool write = true);

}  // namespace hydra::data
