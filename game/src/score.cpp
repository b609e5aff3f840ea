// Scoring: every interpretation of the hand is scored and the best kept (see score.hpp).
//
// Work is split by what it depends on, so the per-interpretation loop stays small:
//   HandFacts      - the whole hand: tile-set yaku (tanyao, honitsu, yakuhai, dragons and winds,
//                    colour yakuman...), situational yaku, dora, and the declared melds' share of
//                    fu and of the structural yaku;
//   per decomposition and winning-tile position - pinfu, peikou, sanshoku, ittsu, chanta,
//                    toitoi, ankou counts, fu and the points.
// The best interpretation is carried as a YakuSet plus han/fu; the yaku list is written once.

#include <algorithm>
#include <bit>

#include "hydra/common/error.hpp"
#include "hydra/game/agari.hpp"
#include "hydra/game/fu.hpp"
#include "hydra/game/score.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

constexpr bool yaochu(int t) { return TileType(t).is_yaochu(); }

// One candidate: what the best-of comparison and the final report need.
struct Candidate {
  YakuSet yaku;
  int han = 0;       // yaku han without dora (0 when only dora)
  int fu = 0;
  int yakuman = 0;   // yakuman value; > 0 makes han/fu irrelevant
  int points = 0;
  bool valid = false;
};

struct HandFacts {
  const Hand* hand;
  const WinContext* ctx;
  const ScoringRules* rules;
  TileCounts all{};  // closed + melds
  int win = 0;
  bool menzen = true;
  bool dealer = false;
  // Yaku valid for any winning form, and those only for the normal form.
  YakuSet any_form, normal_form;
  int any_han = 0, normal_han = 0;
  YakuSet any_yakuman, normal_yakuman;
  int any_yakuman_value = 0, normal_yakuman_value = 0;
  int dora = 0, aka = 0, ura = 0;
  // Declared melds, as sets.
  int meld_fu = 0;
  int meld_runs = 0;
  int meld_ankou = 0;        // ankan count (concealed quads)
  bool meld_all_yaochu = true;
  std::array<int, 3> meld_run_mask{};   // per suit: bit k = a run starting at number k+1
  std::array<int, 3> meld_trip_mask{};  // per suit: bit k = a triplet/quad of number k+1
  std::array<std::uint8_t, 7> honor_pair_fu{};  // fu for a pair of each honour (E S W N P F C)
  bool honors = false;                  // any honour tile in the hand
};

int yaku_han(Yaku y, bool menzen) {
  const YakuInfo& info = yaku_info(y);
  return menzen ? info.han_closed : info.han_open;
}

void add_yaku(YakuSet& set, int& han, Yaku y, bool menzen) {
  set.insert(y);
  han += yaku_han(y, menzen);
}

int yakuman_value(Yaku y, const ScoringRules& r) {
  switch (y) {
    case Yaku::kokushi_13: return r.double_kokushi_13 ? 2 : 1;
    case Yaku::suuankou_tanki: return r.double_suuankou_tanki ? 2 : 1;
    case Yaku::junsei_chuuren: return r.double_junsei_chuuren ? 2 : 1;
    case Yaku::daisuushii: return r.double_daisuushii ? 2 : 1;
    default: return 1;
  }
}

void add_yakuman(YakuSet& set, int& value, Yaku y, const ScoringRules& r) {
  set.insert(y);
  value += yakuman_value(y, r);
}

int count_dora(const TileCounts& all, const std::array<TileType, kMaxDoraIndicators>& ind, int n) {
  int d = 0;
  for (int i = 0; i < n; ++i) d += all[ix(ind[ix(i)].dora_next().index())];
  return d;
}

HandFacts hand_facts(const Hand& hand, const WinContext& ctx, const ScoringRules& rules) {
  HandFacts f;
  f.hand = &hand;
  f.ctx = &ctx;
  f.rules = &rules;
  f.all = hand.all_tiles();
  f.win = ctx.win_tile.index();
  f.menzen = hand.is_menzen();
  f.dealer = ctx.seat_wind == Wind::east;
  const bool m = f.menzen;

  // Situational yaku.
  if (ctx.double_riichi) add_yaku(f.any_form, f.any_han, Yaku::double_riichi, m);
  else if (ctx.riichi) add_yaku(f.any_form, f.any_han, Yaku::riichi, m);
  if (ctx.ippatsu && (ctx.riichi || ctx.double_riichi)) add_yaku(f.any_form, f.any_han, Yaku::ippatsu, m);
  if (ctx.tsumo && m) add_yaku(f.any_form, f.any_han, Yaku::menzen_tsumo, m);
  if (ctx.tsumo && ctx.haitei) add_yaku(f.any_form, f.any_han, Yaku::haitei, m);
  if (!ctx.tsumo && ctx.houtei) add_yaku(f.any_form, f.any_han, Yaku::houtei, m);
  if (ctx.tsumo && ctx.rinshan) add_yaku(f.any_form, f.any_han, Yaku::rinshan, m);
  if (!ctx.tsumo && ctx.chankan) add_yaku(f.any_form, f.any_han, Yaku::chankan, m);
  if (ctx.tsumo && ctx.tenhou && f.dealer) add_yakuman(f.any_yakuman, f.any_yakuman_value, Yaku::tenhou, rules);
  if (ctx.tsumo && ctx.chiihou && !f.dealer) add_yakuman(f.any_yakuman, f.any_yakuman_value, Yaku::chiihou, rules);

  // What the tiles are made of: a few sums instead of a pass over all 34 kinds (this runs once
  // per scoring and shows in profiles).
  const auto& a = f.all;
  auto sum9 = [&](int s) {
    int n = 0;
    for (int k = 0; k < 9; ++k) n += a[ix(s + k)];
    return n;
  };
  const int man = sum9(0), pin = sum9(9), sou = sum9(18);
  const int honors = a[27] + a[28] + a[29] + a[30] + a[31] + a[32] + a[33];
  const int total = man + pin + sou + honors;
  const int terminals = a[0] + a[8] + a[9] + a[17] + a[18] + a[26];
  const int simples = total - honors - terminals;
  const int green = a[19] + a[20] + a[21] + a[23] + a[25] + a[32];  // 2 3 4 6 8s, hatsu
  const int suits_used = (man > 0 ? 1 : 0) | (pin > 0 ? 2 : 0) | (sou > 0 ? 4 : 0);
  const bool one_suit = suits_used == 1 || suits_used == 2 || suits_used == 4;
  if (simples == total && (m || rules.kuitan)) add_yaku(f.any_form, f.any_han, Yaku::tanyao, m);
  if (one_suit) {
    add_yaku(f.any_form, f.any_han, honors > 0 ? Yaku::honitsu : Yaku::chinitsu, m);
  }
  if (honors == total) add_yakuman(f.any_yakuman, f.any_yakuman_value, Yaku::tsuuiisou, rules);
  else if (terminals == total) add_yakuman(f.normal_yakuman, f.normal_yakuman_value, Yaku::chinroutou, rules);
  else if (simples == 0) add_yaku(f.any_form, f.any_han, Yaku::honroutou, m);
  if (green == total) add_yakuman(f.normal_yakuman, f.normal_yakuman_value, Yaku::ryuuiisou, rules);

  // Honour sets (normal form: an honour held 3+ times is a set, 2 times the pair).
  const int seat = wind_tile(ctx.seat_wind).index(), round = wind_tile(ctx.round_wind).index();
  int dragon_sets = 0, dragon_pairs = 0, wind_sets = 0, wind_pairs = 0;
  for (int t = 27; t < 34 && honors > 0; ++t) {
    const int c = f.all[ix(t)];
    const bool dragon = t >= 31;
    if (c >= 3) {
      (dragon ? dragon_sets : wind_sets) += 1;
      if (dragon) add_yaku(f.normal_form, f.normal_han, static_cast<Yaku>(static_cast<int>(Yaku::haku) + t - 31), m);
      if (t == seat) add_yaku(f.normal_form, f.normal_han, Yaku::seat_wind, m);
      if (t == round) add_yaku(f.normal_form, f.normal_han, Yaku::round_wind, m);
    } else if (c == 2) {
      (dragon ? dragon_pairs : wind_pairs) += 1;
    }
  }
  if (dragon_sets == 3) add_yakuman(f.normal_yakuman, f.normal_yakuman_value, Yaku::daisangen, rules);
  else if (dragon_sets == 2 && dragon_pairs == 1) add_yaku(f.normal_form, f.normal_han, Yaku::shousangen, m);
  if (wind_sets == 4) add_yakuman(f.normal_yakuman, f.normal_yakuman_value, Yaku::daisuushii, rules);
  else if (wind_sets == 3 && wind_pairs == 1) add_yakuman(f.normal_yakuman, f.normal_yakuman_value, Yaku::shousuushii, rules);

  // Declared melds.
  int kans = 0;
  for (int i = 0; i < hand.num_melds; ++i) {
    const Meld& meld = hand.melds[ix(i)];
    const int t = meld.first().index();
    if (meld.is_kan()) ++kans;
    if (meld.is_run()) {
      ++f.meld_runs;
      f.meld_run_mask[ix(t / 9)] |= 1 << (t % 9);
      if (t % 9 != 0 && t % 9 != 6) f.meld_all_yaochu = false;
      continue;
    }
    if (t < 27) f.meld_trip_mask[ix(t / 9)] |= 1 << (t % 9);
    if (!yaochu(t)) f.meld_all_yaochu = false;
    f.meld_fu += set_fu(yaochu(t), meld.is_kan(), !meld.is_open());
    if (meld.kind() == MeldKind::ankan) ++f.meld_ankou;
  }
  if (kans == 4) add_yakuman(f.normal_yakuman, f.normal_yakuman_value, Yaku::suukantsu, rules);
  else if (kans == 3) add_yaku(f.normal_form, f.normal_han, Yaku::sankantsu, m);

  // Chuuren: closed, no kan, one suit, 1112345678999 plus one more.
  if (hand.num_melds == 0 && honors == 0 && one_suit) {
    const int s = std::countr_zero(static_cast<unsigned>(suits_used)) * 9;
    static constexpr std::array<int, 9> kBase = {3, 1, 1, 1, 1, 1, 1, 1, 3};
    bool chuuren = true, junsei = true;
    for (int k = 0; k < 9; ++k) {
      const int extra = f.all[ix(s + k)] - kBase[ix(k)];
      chuuren = chuuren && extra >= 0;
      junsei = junsei && extra == (s + k == f.win ? 1 : 0);
    }
    if (chuuren)
      add_yakuman(f.normal_yakuman, f.normal_yakuman_value, junsei ? Yaku::junsei_chuuren : Yaku::chuuren, rules);
  }

  for (int t = 27; t < 34; ++t)
    f.honor_pair_fu[ix(t - 27)] = static_cast<std::uint8_t>(pair_fu(t, seat, round, rules.double_wind_pair_fu));

  f.dora = count_dora(f.all, ctx.dora_indicators, ctx.num_dora_indicators);
  f.aka = hand.red_count();
  if (ctx.riichi || ctx.double_riichi) f.ura = count_dora(f.all, ctx.ura_indicators, ctx.num_ura_indicators);
  f.honors = honors > 0;
  return f;
}

// Fills in points for a candidate and keeps it if it beats the best so far.
void offer(Candidate c, const HandFacts& f, Candidate& best) {
  const int dora = f.dora + f.aka + f.ura;
  if (c.yakuman > 0) {
    const int value = f.rules->yakuman_stack ? c.yakuman : 1;
    c.points = points_of(8000 * value, f.dealer, f.ctx->tsumo);
  } else {
    if (c.han == 0) return;  // no yaku: dora alone does not make a win
    c.points = points_of(base_points(c.han + dora, c.fu, *f.rules), f.dealer, f.ctx->tsumo);
  }
  c.valid = true;
  // Ties on points: a real yakuman over a counted (kazoe) one, then more han, then more fu.
  const bool better =
      !best.valid || c.points > best.points ||
      (c.points == best.points &&
       (c.yakuman > best.yakuman ||
        (c.yakuman == best.yakuman && (c.han > best.han || (c.han == best.han && c.fu > best.fu)))));
  if (better) best = c;
}

// Where the winning tile sits in a normal-form interpretation.
enum class WinSpot : std::uint8_t { pair, triplet, run };

void score_decomposition(const Decomposition& d, const HandFacts& f, Candidate& best) {
  const WinContext& ctx = *f.ctx;
  const int win = f.win;
  // Structure shared by every winning-tile position.
  std::array<int, 3> run_mask = f.meld_run_mask, trip_mask = f.meld_trip_mask;
  std::array<int, 4> runs{};
  int num_runs = 0, closed_trip_fu = 0, closed_trips = 0;
  bool all_yaochu = f.meld_all_yaochu && yaochu(d.pair);
  for (int i = 0; i < d.num_sets; ++i) {
    const ClosedSet s = d.sets[ix(i)];
    const int t = s.tile;
    if (s.kind == SetKind::run) {
      runs[ix(num_runs++)] = t;
      run_mask[ix(t / 9)] |= 1 << (t % 9);
      if (t % 9 != 0 && t % 9 != 6) all_yaochu = false;
    } else {
      ++closed_trips;
      if (t < 27) trip_mask[ix(t / 9)] |= 1 << (t % 9);
      if (!yaochu(t)) all_yaochu = false;
      closed_trip_fu += set_fu(yaochu(t), false, true);
    }
  }
  const bool menzen = f.menzen;
  YakuSet shape;
  int shape_han = 0;
  // Peikou: pairs of identical closed runs (runs are in tile order, so equal runs are adjacent).
  if (menzen && num_runs >= 2) {
    int peikou = 0;
    for (int i = 0; i + 1 < num_runs; ++i)
      if (runs[ix(i)] == runs[ix(i + 1)]) {
        ++peikou;
        ++i;
      }
    if (peikou == 2) add_yaku(shape, shape_han, Yaku::ryanpeikou, menzen);
    else if (peikou == 1) add_yaku(shape, shape_han, Yaku::iipeikou, menzen);
  }
  if (run_mask[0] & run_mask[1] & run_mask[2]) add_yaku(shape, shape_han, Yaku::sanshoku, menzen);
  for (int s = 0; s < 3; ++s)
    if ((run_mask[ix(s)] & 0b1001001) == 0b1001001) add_yaku(shape, shape_han, Yaku::ittsu, menzen);
  if (trip_mask[0] & trip_mask[1] & trip_mask[2]) add_yaku(shape, shape_han, Yaku::sanshoku_doukou, menzen);
  const int total_runs = num_runs + f.meld_runs;
  if (total_runs == 0) add_yaku(shape, shape_han, Yaku::toitoi, menzen);
  if (all_yaochu && total_runs > 0) {
    add_yaku(shape, shape_han, f.honors ? Yaku::chanta : Yaku::junchan, menzen);
  }

  const int pair_fu_value = d.pair >= 27 ? f.honor_pair_fu[ix(d.pair - 27)] : 0;
  auto try_spot = [&](WinSpot spot, int run_start) {
    Candidate c;
    c.yaku = shape;
    int han = shape_han;
    // A triplet completed by a ron counts as open (minkou) for fu and for the concealed count.
    const bool ron_triplet = spot == WinSpot::triplet && !ctx.tsumo;
    const int ankou = closed_trips + f.meld_ankou - (ron_triplet ? 1 : 0);
    int value = f.normal_yakuman_value + f.any_yakuman_value;
    c.yaku = c.yaku | f.normal_yakuman | f.any_yakuman;
    if (ankou == 4) {
      add_yakuman(c.yaku, value, spot == WinSpot::pair ? Yaku::suuankou_tanki : Yaku::suuankou, *f.rules);
    } else if (ankou == 3) {
      add_yaku(c.yaku, han, Yaku::sanankou, menzen);
    }
    if (value > 0) {
      c.yakuman = value;
      // Keep only the yakuman in the report.
      c.yaku = YakuSet(c.yaku.bits() & ~((std::uint64_t{1} << static_cast<int>(Yaku::kokushi)) - 1));
      offer(c, f, best);
      return;
    }
    WaitKind wait = WaitKind::tanki;
    if (spot == WinSpot::triplet) wait = WaitKind::shanpon;
    if (spot == WinSpot::run) wait = run_wait(run_start, win);
    const bool pinfu = menzen && num_runs == 4 && pair_fu_value == 0 && wait == WaitKind::ryanmen;
    if (pinfu) add_yaku(c.yaku, han, Yaku::pinfu, menzen);
    c.yaku = c.yaku | f.any_form | f.normal_form;
    c.han = han + f.any_han + f.normal_han;
    const int trip_fu = closed_trip_fu - (ron_triplet ? set_fu(yaochu(win), false, true) / 2 : 0);
    c.fu = normal_fu({.pinfu = pinfu, .menzen = menzen, .tsumo = ctx.tsumo, .wait = wait,
                      .set_fu = trip_fu + f.meld_fu, .pair_fu = pair_fu_value});
    offer(c, f, best);
  };

  if (d.pair == win) try_spot(WinSpot::pair, 0);
  bool trip_done = false;
  int last_run = -1;
  for (int i = 0; i < d.num_sets; ++i) {
    const ClosedSet s = d.sets[ix(i)];
    if (s.kind == SetKind::triplet) {
      if (s.tile == win && !trip_done) {
        trip_done = true;
        try_spot(WinSpot::triplet, 0);
      }
    } else if (win >= s.tile && win <= s.tile + 2 && s.tile != last_run) {
      last_run = s.tile;  // identical runs give identical interpretations
      try_spot(WinSpot::run, s.tile);
    }
  }
}

void score_chiitoitsu(const HandFacts& f, Candidate& best) {
  Candidate c;
  c.yaku = f.any_form;
  c.han = f.any_han;
  if (!f.any_yakuman.empty()) {
    c.yaku = f.any_yakuman;
    c.yakuman = f.any_yakuman_value;
    offer(c, f, best);
    return;
  }
  add_yaku(c.yaku, c.han, Yaku::chiitoitsu, true);
  c.fu = kChiitoitsuFu;
  offer(c, f, best);
}

void score_kokushi(const HandFacts& f, Candidate& best) {
  Candidate c;
  c.yaku = f.any_yakuman;
  c.yakuman = f.any_yakuman_value;
  // Thirteen-sided: the thirteen orphans were all held before the winning tile came.
  add_yakuman(c.yaku, c.yakuman, f.hand->closed[ix(f.win)] == 2 ? Yaku::kokushi_13 : Yaku::kokushi, *f.rules);
  offer(c, f, best);
}

void fill_payments(WinResult& r, const HandFacts& f) {
  const WinContext& ctx = *f.ctx;
  const int winner = static_cast<int>(ctx.seat_wind);
  if (!ctx.tsumo) {
    r.ron_payment = ceil100(r.base * (f.dealer ? 6 : 4));
    r.points = r.ron_payment;
    const int loser = (winner + static_cast<int>(ctx.ron_from)) % 4;
    r.deltas[ix(loser)] -= r.ron_payment + 300 * ctx.honba;
    r.deltas[ix(winner)] += r.ron_payment + 300 * ctx.honba;
  } else {
    r.tsumo_from_dealer = f.dealer ? 0 : ceil100(r.base * 2);
    r.tsumo_from_non_dealer = ceil100(r.base * (f.dealer ? 2 : 1));
    for (int s = 0; s < 4; ++s) {
      if (s == winner) continue;
      const int pay = (s == 0 ? r.tsumo_from_dealer : r.tsumo_from_non_dealer) + 100 * ctx.honba;
      r.deltas[ix(s)] -= pay;
      r.deltas[ix(winner)] += pay;
      r.points += pay - 100 * ctx.honba;
    }
  }
  r.deltas[ix(winner)] += 1000 * ctx.riichi_sticks;
}

}  // namespace

void WinContext::add_dora_indicator(TileType t) {
  if (num_dora_indicators == kMaxDoraIndicators) throw Error("at most five dora indicators");
  dora_indicators[num_dora_indicators++] = t;
}

void WinContext::add_ura_indicator(TileType t) {
  if (num_ura_indicators == kMaxDoraIndicators) throw Error("at most five ura dora indicators");
  ura_indicators[num_ura_indicators++] = t;
}

std::string_view limit_name(Limit l) {
  switch (l) {
    case Limit::none: return "";
    case Limit::mangan: return "mangan";
    case Limit::haneman: return "haneman";
    case Limit::baiman: return "baiman";
    case Limit::sanbaiman: return "sanbaiman";
    case Limit::kazoe_yakuman: return "kazoe yakuman";
    case Limit::yakuman: return "yakuman";
  }
  return "";
}

bool WinResult::has(Yaku y) const {
  for (int i = 0; i < num_yaku; ++i)
    if (yaku[ix(i)].yaku == y) return true;
  return false;
}

int ceil100(int x) { return (x + 99) / 100 * 100; }

int points_of(int base, bool dealer, bool tsumo) {
  if (!tsumo) return ceil100(base * (dealer ? 6 : 4));
  if (dealer) return 3 * ceil100(base * 2);
  return ceil100(base * 2) + 2 * ceil100(base);
}

int base_points(int han, int fu, const ScoringRules& rules, Limit* limit) {
  Limit l = Limit::none;
  int base = 0;
  if (han >= 13) {
    l = rules.kazoe_yakuman ? Limit::kazoe_yakuman : Limit::sanbaiman;
    base = rules.kazoe_yakuman ? 8000 : 6000;
  } else if (han >= 11) {
    l = Limit::sanbaiman, base = 6000;
  } else if (han >= 8) {
    l = Limit::baiman, base = 4000;
  } else if (han >= 6) {
    l = Limit::haneman, base = 3000;
  } else {
    base = fu << (han + 2);
    const bool kiriage = rules.kiriage_mangan && ((han == 4 && fu == 30) || (han == 3 && fu == 60));
    if (han == 5 || base > 2000 || kiriage) l = Limit::mangan, base = 2000;
  }
  if (limit) *limit = l;
  return base;
}

WinResult score_win(const Hand& hand, const WinContext& ctx, const ScoringRules& rules) {
  WinResult r;
  const HandFacts f = hand_facts(hand, ctx, rules);
  Candidate best;
  bool complete = false;
  for_each_decomposition(hand.closed, [&](const Decomposition& d) {
    complete = true;
    score_decomposition(d, f, best);
  });
  if (hand.num_melds == 0) {  // both forms check their own tile count
    if (is_chiitoitsu(hand.closed)) {
      complete = true;
      score_chiitoitsu(f, best);
    } else if (is_kokushi(hand.closed)) {
      complete = true;
      score_kokushi(f, best);
    }
  }
  if (!complete) return r;
  if (!best.valid) {
    r.status = WinStatus::no_yaku;
    return r;
  }
  r.status = WinStatus::win;
  auto push = [&](Yaku y, int han) { r.yaku[r.num_yaku++] = {y, static_cast<std::uint8_t>(han)}; };
  if (best.yakuman > 0) {
    for (std::uint64_t bits = best.yaku.bits(); bits != 0; bits &= bits - 1) {
      const auto y = static_cast<Yaku>(std::countr_zero(bits));
      push(y, yakuman_value(y, rules));
    }
    r.yakuman = rules.yakuman_stack ? best.yakuman : 1;
    r.limit = Limit::yakuman;
    r.base = 8000 * r.yakuman;
  } else {
    for (std::uint64_t bits = best.yaku.bits(); bits != 0; bits &= bits - 1) {
      const auto y = static_cast<Yaku>(std::countr_zero(bits));
      push(y, yaku_han(y, f.menzen));
    }
    if (f.dora > 0) push(Yaku::dora, f.dora);
    if (f.aka > 0) push(Yaku::aka_dora, f.aka);
    if (f.ura > 0) push(Yaku::ura_dora, f.ura);
    r.han = best.han + f.dora + f.aka + f.ura;
    r.fu = best.fu;
    r.base = base_points(r.han, r.fu, rules, &r.limit);
  }
  fill_payments(r, f);
  return r;
}

void validate_win(const Hand& hand, const WinContext& ctx) {
  auto bad = [](const std::string& what) { throw Error("impossible win situation: " + what); };
  if (hand.closed[ix(ctx.win_tile.index())] == 0)
    bad("the winning tile " + std::string(mjai_name(Pai(ctx.win_tile))) + " is not in the hand");
  if (hand.closed_size() + 3 * hand.num_melds != 14)
    bad("a winning hand has 14 tiles (a kan counts as 3), this one " +
        std::to_string(hand.closed_size() + 3 * hand.num_melds));
  const bool menzen = hand.is_menzen();
  bool has_kan = false;
  for (int i = 0; i < hand.num_melds; ++i) has_kan = has_kan || hand.melds[ix(i)].is_kan();
  const bool dealer = ctx.seat_wind == Wind::east;
  if ((ctx.riichi || ctx.double_riichi) && !menzen) bad("riichi with an open meld");
  if (ctx.ippatsu && !(ctx.riichi || ctx.double_riichi)) bad("ippatsu without riichi");
  if (ctx.tsumo && (ctx.houtei || ctx.chankan)) bad("houtei and chankan are ron wins");
  if (!ctx.tsumo && (ctx.haitei || ctx.rinshan || ctx.tenhou || ctx.chiihou))
    bad("haitei, rinshan, tenhou and chiihou are tsumo wins");
  if (ctx.haitei && ctx.rinshan) bad("a replacement tile after a kan is never the haitei tile");
  if (ctx.rinshan && !has_kan) bad("rinshan without a kan");
  if (ctx.tenhou && (!dealer || hand.num_melds > 0)) bad("tenhou is the dealer's closed first draw");
  if (ctx.chiihou && (dealer || hand.num_melds > 0)) bad("chiihou is a non-dealer's closed first draw");
  if ((ctx.tenhou || ctx.chiihou) && (ctx.riichi || ctx.double_riichi)) bad("tenhou/chiihou with riichi");
  if (!ctx.tsumo && ctx.ron_from == From::self) bad("a ron needs the seat that dealt in");
  if (ctx.honba < 0 || ctx.riichi_sticks < 0) bad("negative honba or riichi sticks");
}

std::array<int, 4> nagashi_mangan_deltas(Wind winner) {
  std::array<int, 4> d{};
  const int w = static_cast<int>(winner);
  for (int s = 0; s < 4; ++s) {
    if (s == w) continue;
    const int pay = (w == 0 || s == 0) ? 4000 : 2000;
    d[ix(s)] -= pay;
    d[ix(w)] += pay;
  }
  return d;
}

}  // namespace hydra::game
