// libFuzzer harness: a Tenhou SHUFFLE seed attribute (<SHUFFLE seed="...">), rebuilt into walls
// and checked (docs/WALL.md "Tenhou's walls"). The input is the attribute's text.
//   1. tenhou::parse_shuffle_seed: a refusal is a hydra::Error.
//   2. An accepted seed: the first four walls of its generator, each checked against what every
//      reader and the engine rely on: yama and the game-layout wall are permutations of the 136
//      tile ids; the dice are 1..6; game::Wall on to_game_wall() deals each seat's haipai, draws
//      the 70 live tiles in order (haitei on the last), the rinshan tiles and shows the dora and
//      ura indicators that TenhouWall names, each at yama[yama_index(i)].
//   3. The mjlog reader's check of the same seed (a printable input): a log whose first INIT logs
//      the seed wall's dice is read past INIT (it then ends, refused as truncated), one whose INIT
//      logs other dice is refused as "the seed does not belong to this log", and a seed the parser
//      refused is refused by the reader with the same message.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "harness.hpp"
#include "hydra/common/error.hpp"
#include "hydra/data/tenhou.hpp"
#include "hydra/data/tenhou_wall.hpp"
#include "hydra/game/wall.hpp"

namespace {

using namespace hydra;
namespace tenhou = data::tenhou;

void require(bool ok, const std::string& what) {
  if (!ok) fuzz::finding(what);
}

template <std::size_t N>
bool is_permutation_of_ids(const std::array<game::Tile, N>& tiles) {
  std::array<bool, game::kNumTiles> seen{};
  for (game::Tile t : tiles) {
    const int id = t.id();
    if (id < 0 || id >= game::kNumTiles || seen[static_cast<std::size_t>(id)]) return false;
    seen[static_cast<std::size_t>(id)] = true;
  }
  return N == game::kNumTiles;
}

void check_wall(const tenhou::TenhouWall& w, int n) {
  const std::string name = "wall " + std::to_string(n) + ": ";
  require(is_permutation_of_ids(w.yama), name + "yama is not a permutation of 0..135");
  for (int d : w.dice) require(d >= 1 && d <= 6, name + "a die of " + std::to_string(d));
  const game::Wall::Tiles tiles = w.to_game_wall();
  require(is_permutation_of_ids(tiles), name + "the game-layout wall is not a permutation");
  for (int i = 0; i < game::kNumTiles; ++i)
    require(tiles[static_cast<std::size_t>(i)] == w.yama[static_cast<std::size_t>(tenhou::TenhouWall::yama_index(i))],
            name + "game index " + std::to_string(i) + " is not yama[yama_index]");
  const game::Wall wall(tiles);
  for (int s = 0; s < game::kNumSeats; ++s)
    require(wall.haipai(s) == w.haipai(s), name + "the deal of seat offset " + std::to_string(s) + " differs");
  game::Wall live = wall;
  for (int k = 0; k < game::Wall::kLiveTiles; ++k) {
    require(live.live_left() == game::Wall::kLiveTiles - k, name + "live_left before draw " + std::to_string(k));
    require(live.draw() == w.live_draw(k), name + "live draw " + std::to_string(k) + " differs");
    require(live.last_draw_was_haitei() == (k == game::Wall::kLiveTiles - 1), name + "haitei at draw " + std::to_string(k));
  }
  game::Wall kans = wall;
  for (int kan = 0; kan < game::Wall::kMaxKans; ++kan) {
    require(kans.draw_rinshan() == w.rinshan(kan), name + "rinshan tile " + std::to_string(kan) + " differs");
    kans.reveal_kan_dora();
  }
  require(kans.indicators_revealed() == game::Wall::kMaxIndicators, name + "indicators after four kans");
  for (int i = 0; i < game::Wall::kMaxIndicators; ++i) {
    require(kans.dora_indicators()[static_cast<std::size_t>(i)] == w.dora_indicator(i), name + "dora indicator " + std::to_string(i));
    require(kans.ura_indicators()[static_cast<std::size_t>(i)] == w.ura_indicator(i), name + "ura indicator " + std::to_string(i));
  }
}

std::string ids(const std::array<game::Tile, 13>& hand) {
  std::string out;
  for (game::Tile t : hand) {
    if (!out.empty()) out += ',';
    out += std::to_string(t.id());
  }
  return out;
}

// A log of one INIT: SHUFFLE `seed`, the wall's dora indicator and hands (dealer seat 0), and the
// dice given.
std::string one_init_log(std::string_view seed, const tenhou::TenhouWall* w, int die1, int die2) {
  std::string xml = "<mjloggm ver=\"2.3\"><SHUFFLE seed=\"" + std::string(seed) + "\" ref=\"\"/><GO type=\"169\" lobby=\"0\"/>"
                    "<UN n0=\"a\" n1=\"b\" n2=\"c\" n3=\"d\" dan=\"0,0,0,0\" rate=\"1500,1500,1500,1500\" sx=\"M,M,M,M\"/>"
                    "<TAIKYOKU oya=\"0\"/>";
  if (w != nullptr) {
    xml += "<INIT seed=\"0,0,0," + std::to_string(die1 - 1) + "," + std::to_string(die2 - 1) + "," +
           std::to_string(w->dora_indicator(0).id()) + "\" ten=\"250,250,250,250\" oya=\"0\"";
    for (int s = 0; s < game::kNumSeats; ++s) xml += " hai" + std::to_string(s) + "=\"" + ids(w->haipai(s)) + "\"";
    xml += "/>";
  }
  return xml + "</mjloggm>";
}

std::string read_error(const std::string& xml) {
  try {
    (void)data::parse_tenhou_xml(xml, "fuzz.xml");
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

bool printable(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c <= 0x7e && c != '"' && c != '&' && c != '<'; });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view seed(reinterpret_cast<const char*>(data), size);
  tenhou::ShuffleSeed key{};
  try {
    key = tenhou::parse_shuffle_seed(seed);
  } catch (const Error& e) {
    fuzz::refused(e);
    if (printable(seed) && !seed.starts_with(tenhou::kHexShufflePrefix)) {
      const std::string got = read_error(one_init_log(seed, nullptr, 1, 1));
      require(got.find(e.what()) != std::string::npos,
              "the reader refused the seed otherwise than the parser: '" + got + "', the parser: '" + e.what() + "'");
    }
    return 0;
  }
  tenhou::WallGenerator walls(key);
  const tenhou::TenhouWall first = walls.next();
  check_wall(first, 1);
  for (int n = 2; n <= 4; ++n) check_wall(walls.next(), n);
  if (!printable(seed)) return 0;
  const std::string right = read_error(one_init_log(seed, &first, first.dice[0], first.dice[1]));
  require(right.find("truncated") != std::string::npos, "a log with the seed wall's dice was refused: " + right);
  const int other = first.dice[0] % 6 + 1;  // another first die
  const std::string wrong = read_error(one_init_log(seed, &first, other, first.dice[1]));
  require(wrong.find("the seed does not belong to this log") != std::string::npos,
          "a log with other dice than the seed wall's was not refused for them: " + wrong);
  if (fuzz::verbose()) std::fprintf(stderr, "  dice %d and %d, 4 walls checked\n", first.dice[0], first.dice[1]);
  return 0;
}
