// Kyoku settlement and game progression (kyoku.hpp).

#include "hydra/game/kyoku.hpp"

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

MjaiYaku to_mjai(Yaku y) {
  switch (y) {
    case Yaku::riichi: return MjaiYaku::reach;
    case Yaku::ippatsu: return MjaiYaku::ippatsu;
    case Yaku::menzen_tsumo: return MjaiYaku::menzenchin_tsumoho;
    case Yaku::pinfu: return MjaiYaku::pinfu;
    case Yaku::tanyao: return MjaiYaku::tanyaochu;
    case Yaku::iipeikou: return MjaiYaku::ipeko;
    case Yaku::haitei: return MjaiYaku::haiteiraoyue;
    case Yaku::houtei: return MjaiYaku::hoteiraoyui;
    case Yaku::rinshan: return MjaiYaku::rinshankaiho;
    case Yaku::chankan: return MjaiYaku::chankan;
    case Yaku::haku:
    case Yaku::hatsu:
    case Yaku::chun: return MjaiYaku::sangenpai;
    case Yaku::seat_wind: return MjaiYaku::jikaze;
    case Yaku::round_wind: return MjaiYaku::bakaze;
    case Yaku::double_riichi: return MjaiYaku::double_reach;
    case Yaku::chiitoitsu: return MjaiYaku::chitoitsu;
    case Yaku::sanshoku: return MjaiYaku::sanshokudojun;
    case Yaku::ittsu: return MjaiYaku::ikkitsukan;
    case Yaku::chanta: return MjaiYaku::honchantaiyao;
    case Yaku::toitoi: return MjaiYaku::toitoiho;
    case Yaku::sanankou: return MjaiYaku::sananko;
    case Yaku::sanshoku_doukou: return MjaiYaku::sanshokudoko;
    case Yaku::sankantsu: return MjaiYaku::sankantsu;
    case Yaku::shousangen: return MjaiYaku::shosangen;
    case Yaku::honroutou: return MjaiYaku::honroto;
    case Yaku::ryanpeikou: return MjaiYaku::ryanpeko;
    case Yaku::junchan: return MjaiYaku::junchantaiyao;
    case Yaku::honitsu: return MjaiYaku::honiso;
    case Yaku::chinitsu: return MjaiYaku::chiniso;
    case Yaku::dora: return MjaiYaku::dora;
    case Yaku::aka_dora: return MjaiYaku::akadora;
    case Yaku::ura_dora: return MjaiYaku::uradora;
    case Yaku::kokushi:
    case Yaku::kokushi_13: return MjaiYaku::kokushimuso;
    case Yaku::suuankou:
    case Yaku::suuankou_tanki: return MjaiYaku::suanko;
    case Yaku::daisangen: return MjaiYaku::daisangen;
    case Yaku::shousuushii: return MjaiYaku::shosushi;
    case Yaku::daisuushii: return MjaiYaku::daisushi;
    case Yaku::tsuuiisou: return MjaiYaku::tsuiso;
    case Yaku::ryuuiisou: return MjaiYaku::ryuiso;
    case Yaku::chinroutou: return MjaiYaku::chinroto;
    case Yaku::chuuren:
    case Yaku::junsei_chuuren: return MjaiYaku::churenpoton;
    case Yaku::suukantsu: return MjaiYaku::sukantsu;
    case Yaku::tenhou: return MjaiYaku::tenho;
    case Yaku::chiihou: return MjaiYaku::chiho;
    case Yaku::count: break;
  }
  throw InvariantError("to_mjai: no mjai name for yaku " + std::to_string(static_cast<int>(y)));
}

}  // namespace

MjaiYakuList mjai_yakus(const WinResult& r) {
  MjaiYakuList out;
  for (int i = 0; i < r.num_yaku; ++i) {
    const YakuHan& y = r.yaku[ix(i)];
    if (y.han == 0) continue;
    const bool ym = yaku_info(y.yaku).yakuman;
    out.push_back({to_mjai(y.yaku), static_cast<std::uint8_t>(ym ? kYakumanHan : y.han)});
  }
  return out;
}

int mjai_fan(const WinResult& r) { return r.yakuman > 0 ? kYakumanHan : r.han; }

Scores win_deltas(const WinResult& r, Seat winner, Seat discarder, Seat oya, int honba, int kyotaku,
                  Seat pao, bool sticks_and_honba) {
  HYDRA_CHECK(r.is_win(), "win_deltas of a hand that does not win");
  Scores d{};
  const int h = sticks_and_honba ? honba : 0;
  const bool liable = pao.valid() && pao != winner;
  if (discarder == winner) {
    if (liable) {
      d[ix(pao)] -= r.points + 300 * h;
      d[ix(winner)] += r.points + 300 * h;
    } else {
      for (int s = 0; s < kNumSeats; ++s) {
        if (Seat(s) == winner) continue;
        const int pay = (Seat(s) == oya ? r.tsumo_from_dealer : r.tsumo_from_non_dealer) + 100 * h;
        d[ix(s)] -= pay;
        d[ix(winner)] += pay;
      }
    }
  } else {
    const int total = r.ron_payment;
    if (liable && pao != discarder) {
      const int half = total / 2;
      d[ix(discarder)] -= half + 300 * h;
      d[ix(pao)] -= total - half;
    } else {
      d[ix(discarder)] -= total + 300 * h;
    }
    d[ix(winner)] += total + 300 * h;
  }
  if (sticks_and_honba) d[ix(winner)] += 1000 * kyotaku;
  return d;
}

Scores exhaustive_draw_deltas(const std::array<bool, kNumSeats>& tenpai, const std::array<bool, kNumSeats>& nagashi,
                              Seat oya) {
  Scores d{};
  bool any_nagashi = false;
  for (int s = 0; s < kNumSeats; ++s) {
    if (!nagashi[ix(s)]) continue;
    any_nagashi = true;
    const auto by_wind = nagashi_mangan_deltas(static_cast<Wind>(oya.distance_to(Seat(s))));
    for (int w = 0; w < kNumSeats; ++w) d[ix(oya.next(w))] += by_wind[ix(w)];
  }
  if (any_nagashi) return d;
  int k = 0;
  for (bool t : tenpai) k += t ? 1 : 0;
  if (k == 0 || k == kNumSeats) return d;
  for (int s = 0; s < kNumSeats; ++s) d[ix(s)] = tenpai[ix(s)] ? 3000 / k : -3000 / (kNumSeats - k);
  return d;
}

GameProgress GameProgress::start(const TableRules& rules) {
  GameProgress g;
  g.scores.fill(rules.start_score);
  return g;
}

std::array<int, kNumSeats> ranks(const Scores& scores) {
  std::array<int, kNumSeats> r{};
  for (int s = 0; s < kNumSeats; ++s)
    for (int o = 0; o < kNumSeats; ++o)
      if (scores[ix(o)] > scores[ix(s)] || (scores[ix(o)] == scores[ix(s)] && o < s)) ++r[ix(s)];
  return r;
}

int rank_permutation_index(const std::array<int, kNumSeats>& r) {
  // Lehmer code: per position, how many later entries are smaller, in the factorial base.
  constexpr std::array<int, kNumSeats> kFactorial{6, 2, 1, 1};
  int seen = 0;
  int index = 0;
  for (int i = 0; i < kNumSeats; ++i) {
    HYDRA_CHECK(r[ix(i)] >= 0 && r[ix(i)] < kNumSeats && !(seen >> r[ix(i)] & 1), "ranks are not a permutation of 0..3");
    seen |= 1 << r[ix(i)];
    int smaller = 0;
    for (int j = i + 1; j < kNumSeats; ++j) smaller += r[ix(j)] < r[ix(i)] ? 1 : 0;
    index += smaller * kFactorial[ix(i)];
  }
  return index;
}

namespace {

bool renchan_of(const KyokuOutcome& outcome) {
  return outcome.abortive || outcome.dealer_won || (outcome.exhaustive && outcome.dealer_tenpai);
}

bool dealer_top(const GameProgress& before, const Scores& scores_after, const TableRules& rules) {
  const Seat oya = before.oya();
  return ranks(scores_after)[ix(oya)] == 0 && scores_after[ix(oya)] >= rules.target_score;
}

}  // namespace

std::string_view to_string(GameEnd e) {
  switch (e) {
    case GameEnd::none: return "none (the game goes on)";
    case GameEnd::tobi: return "tobi (a score below 0)";
    case GameEnd::one_kyoku: return "one kyoku (the rules play a single kyoku)";
    case GameEnd::agari_yame: return "agari_yame (all-last: the dealer won and is top with >= target_score)";
    case GameEnd::tenpai_yame:
      return "tenpai_yame (all-last: the dealer is tenpai at the exhaustive draw and top with >= target_score)";
    case GameEnd::target_reached: return "target_score reached (all-last or extension, no renchan)";
    case GameEnd::final_round: return "final round (the last kyoku the rules have)";
  }
  return "?";
}

GameEnd game_end(const GameProgress& before, const KyokuOutcome& outcome, const Scores& scores_after,
                 const TableRules& rules) {
  if (rules.tobi)
    for (std::int32_t s : scores_after)
      if (s < 0) return GameEnd::tobi;
  if (rules.length == GameLength::one_kyoku) return GameEnd::one_kyoku;
  if (before.round < rules.last_round()) return GameEnd::none;
  const bool top = dealer_top(before, scores_after, rules);
  if (renchan_of(outcome)) {
    if (rules.agari_yame && outcome.dealer_won && top) return GameEnd::agari_yame;
    if (rules.tenpai_yame && outcome.exhaustive && !outcome.win && outcome.dealer_tenpai && top) return GameEnd::tenpai_yame;
    return GameEnd::none;
  }
  if (before.round >= rules.final_round()) return GameEnd::final_round;
  for (std::int32_t s : scores_after)
    if (s >= rules.target_score) return GameEnd::target_reached;
  return GameEnd::none;
}

std::string why_game_goes_on(const GameProgress& before, const KyokuOutcome& outcome, const Scores& scores_after,
                             const TableRules& rules) {
  if (before.round < rules.last_round()) return "not yet all-last";
  const std::string target = std::to_string(rules.target_score);
  if (renchan_of(outcome)) {
    if (outcome.abortive) return "the dealer's renchan after an abortive draw";
    if (!dealer_top(before, scores_after, rules))
      return "the dealer's renchan: the dealer is not top with >= " + target;
    return outcome.dealer_won ? "the dealer's renchan: agari_yame is off" : "the dealer's renchan: tenpai_yame is off";
  }
  return "nobody has >= " + target + " (extension round)";
}

std::optional<GameProgress> next_kyoku(const GameProgress& before, const KyokuOutcome& outcome,
                                       const Scores& scores_after, int kyotaku_after, const TableRules& rules) {
  if (game_end(before, outcome, scores_after, rules) != GameEnd::none) return std::nullopt;
  GameProgress next = before;
  next.scores = scores_after;
  next.kyotaku = kyotaku_after;
  next.honba = (outcome.win && !outcome.dealer_won) ? 0 : before.honba + 1;
  if (!renchan_of(outcome)) ++next.round;
  return next;
}

Scores final_scores(const Scores& scores, int kyotaku, const TableRules& rules) {
  Scores out = scores;
  if (rules.sticks_to_top && kyotaku > 0) {
    const auto r = ranks(scores);
    for (int s = 0; s < kNumSeats; ++s)
      if (r[ix(s)] == 0) out[ix(s)] += 1000 * kyotaku;
  }
  return out;
}

std::array<double, kNumSeats> placement_points(const Scores& final, const std::array<int, 4>& uma, const TableRules& rules) {
  const auto r = ranks(final);
  std::array<double, kNumSeats> out{};
  for (int s = 0; s < kNumSeats; ++s) {
    const int rank = r[ix(s)];
    out[ix(s)] = (final[ix(s)] - rules.target_score) / 1000.0 + uma[ix(rank)] + (rank == 0 ? rules.oka / 1000.0 : 0.0);
  }
  return out;
}

KyokuStart kyoku_start(const Event& e) {
  HYDRA_CHECK(e.type == EventType::start_kyoku, "kyoku_start: not a start_kyoku event");
  KyokuStart k;
  k.round = round_index(e.bakaze, e.kyoku);
  k.honba = e.honba;
  k.riichi_sticks = e.kyotaku;
  for (std::size_t s = 0; s < kNumSeats; ++s) k.scores[s] = e.scores[s];
  return k;
}

}  // namespace hydra::game
