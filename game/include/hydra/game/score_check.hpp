#pragma once

// Published scoring and shanten cases, read from their files unchanged, and the comparison of
// Hydra's answers with theirs. Used by `hydra hand --check-*`, the real-data tests and the
// benchmarks (HYDRA_TESTDATA/scoring and /shanten; see ../shared/data/README.md for the formats).
//
//   majiang   kobalab's majiang-core cases: hand "m123p40s5z1,m34-0", ron tile "p7-", param
//             (winds, situation flags, dora/ura indicators, honba/sticks), expected yaku with
//             han, fu, total han or yakuman, points and the four seats' payments.
//   riichienv RiichiEnv's 4-player cases: 136-ids, expected han, fu and Mahjong Soul fan ids; and
//             its negative (non-winning) hands with a tenpai flag.
//   ara_p     14-tile hands with the normal, kokushi and chiitoitsu shanten.
// Loaders throw hydra::Error naming the file, the case and the field for anything malformed.

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "hydra/game/hand.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/score.hpp"

namespace hydra::game {

struct CheckReport {
  std::string file;
  int checked = 0;
  int agree = 0;
  std::vector<std::string> disagreements;  // the first few, one line each
  bool all_agree() const { return checked == agree; }
  std::string summary() const;  // "checked N, agree M"
};

struct MajiangCase {
  int index = 0;
  std::string text;  // the hand (and ron tile) as written in the file, for messages
  Hand hand;         // with the winning tile
  WinContext ctx;
  std::vector<std::pair<std::string, int>> yaku;  // expected: name, han (yakuman: its value)
  int fu = 0, han = 0, yakuman = 0, points = 0;
  std::array<int, 4> deltas{};  // by seat wind
};

std::vector<MajiangCase> load_majiang_cases(const std::filesystem::path& file);
// The kobalab name of each yaku in a result (winds name the wind: "自風 東").
std::vector<std::pair<std::string, int>> majiang_yaku(const WinResult& r, const WinContext& ctx);
std::string diff_majiang(const MajiangCase& c, const WinResult& r);  // empty when they agree
CheckReport check_majiang(const std::filesystem::path& file, const ScoringRules& rules, int max_listed = 10);

struct RiichiEnvCase {
  int index = 0;
  Hand hand;
  WinContext ctx;
  int han = 0, fu = 0;
  std::vector<int> yaku_ids;  // Mahjong Soul fan ids, sorted
};
struct RiichiEnvNegative {
  int index = 0;
  TileCounts counts{};
  bool tenpai = false;
};

std::vector<RiichiEnvCase> load_riichienv_agari(const std::filesystem::path& file);
std::vector<RiichiEnvNegative> load_riichienv_negative(const std::filesystem::path& file);
std::string diff_riichienv(const RiichiEnvCase& c, const WinResult& r);
std::string diff_riichienv(const RiichiEnvNegative& c);  // tenpai flag and "never a win"
// Either file format (told apart by the first case's keys).
CheckReport check_riichienv(const std::filesystem::path& file, const ScoringRules& rules, int max_listed = 10);

struct ShantenCase {
  int line = 0;
  TileCounts counts{};
  int normal = 0, kokushi = 0, chiitoi = 0;
};
std::vector<ShantenCase> load_shanten_cases(const std::filesystem::path& file);
CheckReport check_shanten(const std::filesystem::path& file, int max_listed = 10);

// The kobalab hand notation: closed tiles by suit ("m3368p234067", the drawn tile last), then
// melds after commas. Returns the closed tiles in written order.
std::vector<Pai> parse_kobalab_tiles(std::string_view text);

}  // namespace hydra::game
