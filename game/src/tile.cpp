#include "hydra/game/tile.hpp"

#include <algorithm>

#include "hydra/common/error.hpp"
#include "hydra/common/text.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

constexpr std::array<std::string_view, 38> kMjaiNames = {
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m",  //
    "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p",  //
    "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s",  //
    "E",  "S",  "W",  "N",  "P",  "F",  "C",               //
    "5mr", "5pr", "5sr", "?"};

}  // namespace

std::string_view mjai_name(Pai p) { return kMjaiNames.at(ix(p.index())); }

Pai parse_mjai(std::string_view name) {
  for (std::size_t i = 0; i < kMjaiNames.size(); ++i)
    if (kMjaiNames[i] == name) return Pai::from_index(static_cast<int>(i));
  throw Error("unknown mjai tile '" + text::excerpt(name) + "'");
}

std::vector<Pai> parse_compact(std::string_view text) {
  std::vector<Pai> out;
  std::string digits;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      continue;
    }
    int base = 0;
    switch (c) {
      case 'm': base = 0; break;
      case 'p': base = 9; break;
      case 's': base = 18; break;
      case 'z': base = 27; break;
      default: throw Error("bad tile notation '" + text::excerpt(text) + "': unexpected '" + text::excerpt(std::string_view(&c, 1)) + "'");
    }
    if (digits.empty()) throw Error("bad tile notation '" + text::excerpt(text) + "': suit '" + text::excerpt(std::string_view(&c, 1)) + "' without numbers");
    for (char d : digits) {
      const int n = d - '0';
      if (c == 'z') {
        if (n < 1 || n > 7) throw Error("bad tile notation '" + text::excerpt(text) + "': honours are 1z-7z");
        out.emplace_back(TileType(base + n - 1));
      } else if (n == 0) {
        out.emplace_back(TileType(base + 4), /*red=*/true);
      } else {
        out.emplace_back(TileType(base + n - 1));
      }
    }
    digits.clear();
  }
  if (!digits.empty()) throw Error("bad tile notation '" + text::excerpt(text) + "': numbers without a suit letter");
  return out;
}

std::string to_compact(const std::vector<Pai>& tiles) {
  std::string out;
  constexpr char kSuits[] = {'m', 'p', 's', 'z'};
  for (int s = 0; s < 4; ++s) {
    std::vector<char> digits;
    for (Pai p : tiles) {
      if (p.is_unknown() || static_cast<int>(p.type().suit()) != s) continue;
      digits.push_back(p.is_red() ? '0' : static_cast<char>('0' + p.type().number()));
    }
    // Red five sorts where the five does.
    std::sort(digits.begin(), digits.end(), [](char a, char b) { return (a == '0' ? '5' : a) < (b == '0' ? '5' : b); });
    if (digits.empty()) continue;
    out.append(digits.begin(), digits.end());
    out.push_back(kSuits[s]);
  }
  return out;
}

TileCounts counts_of(const std::vector<Pai>& tiles) {
  TileCounts counts{};
  for (Pai p : tiles) {
    if (p.is_unknown()) throw Error("unknown tile '?' where a known tile is needed");
    if (++counts[ix(p.type().index())] > 4)
      throw Error("more than four copies of " + std::string(mjai_name(Pai(p.type()))));
  }
  return counts;
}

TileCounts parse_counts(std::string_view compact) { return counts_of(parse_compact(compact)); }

std::string to_compact(const TileCounts& counts) {
  std::vector<Pai> tiles;
  for (int t = 0; t < kNumTileTypes; ++t)
    for (int k = 0; k < counts[ix(t)]; ++k) tiles.emplace_back(TileType(t));
  return to_compact(tiles);
}

}  // namespace hydra::game
