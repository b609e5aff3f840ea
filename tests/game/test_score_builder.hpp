#pragma once

// A fluent builder for scoring fixtures in tests:
//   auto r = WinOf("23m567m345p678s22p").win("4m").tsumo().seat(Wind::south).score();
// The hand is the 13 tiles before the win (compact notation), melds in kobalab notation.

#include <string>
#include <vector>

#include "hydra/game/hand.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/score.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game::testing {

class WinOf {
 public:
  explicit WinOf(std::string closed) : closed_(std::move(closed)) {
    ctx_.round_wind = Wind::east;
    ctx_.seat_wind = Wind::south;
  }
  WinOf& meld(const std::string& m) { melds_.push_back(parse_meld(m)); return *this; }
  WinOf& win(const std::string& tile) { win_ = parse_compact(tile).at(0); return *this; }
  WinOf& tsumo() { ctx_.tsumo = true; return *this; }
  WinOf& from(From f) { ctx_.ron_from = f; return *this; }
  WinOf& seat(Wind w) { ctx_.seat_wind = w; return *this; }
  WinOf& round(Wind w) { ctx_.round_wind = w; return *this; }
  WinOf& dealer() { return seat(Wind::east); }
  WinOf& riichi() { ctx_.riichi = true; return *this; }
  WinOf& double_riichi() { ctx_.double_riichi = true; return *this; }
  WinOf& ippatsu() { ctx_.ippatsu = true; return *this; }
  WinOf& haitei() { ctx_.haitei = true; return *this; }
  WinOf& houtei() { ctx_.houtei = true; return *this; }
  WinOf& rinshan() { ctx_.rinshan = true; return *this; }
  WinOf& chankan() { ctx_.chankan = true; return *this; }
  WinOf& tenhou() { ctx_.tenhou = true; return *this; }
  WinOf& chiihou() { ctx_.chiihou = true; return *this; }
  WinOf& dora(const std::string& indicators) {
    for (Pai p : parse_compact(indicators)) ctx_.add_dora_indicator(p.type());
    return *this;
  }
  WinOf& ura(const std::string& indicators) {
    for (Pai p : parse_compact(indicators)) ctx_.add_ura_indicator(p.type());
    return *this;
  }
  WinOf& honba(int n) { ctx_.honba = n; return *this; }
  WinOf& sticks(int n) { ctx_.riichi_sticks = n; return *this; }

  Hand hand() const {
    std::vector<Pai> tiles = parse_compact(closed_);
    tiles.push_back(win_);
    return make_hand(tiles, melds_, closed_);
  }
  WinContext context() const {
    WinContext c = ctx_;
    c.win_tile = win_.type();
    return c;
  }
  WinResult score(const std::string& preset = "tenhou") const { return score(rules_preset(preset).scoring); }
  WinResult score(const ScoringRules& rules) const {
    const Hand h = hand();
    const WinContext c = context();
    validate_win(h, c);
    return score_win(h, c, rules);
  }

 private:
  std::string closed_;
  std::vector<Meld> melds_;
  Pai win_{};
  WinContext ctx_;
};

// The yaku of a result as (name, han) pairs, in the order the result lists them.
inline std::vector<std::pair<std::string, int>> yaku_of(const WinResult& r) {
  std::vector<std::pair<std::string, int>> out;
  for (int i = 0; i < r.num_yaku; ++i) {
    const YakuHan& y = r.yaku[ix(i)];
    out.emplace_back(std::string(yaku_info(y.yaku).name), y.han);
  }
  return out;
}

using YakuList = std::vector<std::pair<std::string, int>>;

}  // namespace hydra::game::testing
