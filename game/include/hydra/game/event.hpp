#pragma once

// mjai events as compact typed values: one flat, trivially copyable struct per event with
// fixed-capacity arrays (no allocation), so the same value is log line, engine output, dataset
// record and test fixture. The field names follow mjai (docs/LOGS.md); which fields an event
// kind uses is listed at each field. Player names live beside the events (data::GameLog), not in
// them, to keep Event free of strings.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "hydra/common/error.hpp"
#include "hydra/game/tile.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

inline constexpr int kNumSeats = 4;

// An absolute seat 0-3 (0 = East at the start of the game) or none.
class Seat {
 public:
  constexpr Seat() = default;  // none
  constexpr explicit Seat(int v) : v_(static_cast<std::uint8_t>(v)) {}
  static constexpr Seat none() { return Seat(); }

  constexpr int index() const { return v_; }
  constexpr bool valid() const { return v_ < kNumSeats; }
  // The seat n places to the right (counter-clockwise turn order): next(1) is shimocha.
  constexpr Seat next(int n = 1) const { return Seat((v_ + n) % kNumSeats); }
  // How many places `other` sits after this seat: 0 self, 1 shimocha, 2 toimen, 3 kamicha.
  constexpr int distance_to(Seat other) const { return (other.v_ - v_ + kNumSeats) % kNumSeats; }
  friend constexpr bool operator==(Seat, Seat) = default;

 private:
  std::uint8_t v_ = 0xFF;
};

}  // namespace hydra::game

namespace hydra {
// A seat as an array index (ix of its number): the one spelling of that conversion.
constexpr std::size_t ix(game::Seat s) { return ix(s.index()); }
}  // namespace hydra

namespace hydra::game {

// One value per seat, subscripted by Seat (or by a seat number as a std::array is): the per-seat
// arrays of the table, the actors and the statistics, without a cast at every use.
template <class T>
struct SeatArray : std::array<T, kNumSeats> {
  using std::array<T, kNumSeats>::operator[];
  constexpr T& operator[](Seat s) { return (*this)[ix(s)]; }
  constexpr const T& operator[](Seat s) const { return (*this)[ix(s)]; }
};

enum class EventType : std::uint8_t {
  none, start_game, start_kyoku, tsumo, dahai, chi, pon, daiminkan, kakan, ankan, dora, reach,
  reach_accepted, hora, ryukyoku, end_kyoku, end_game,
};
inline constexpr int kNumEventTypes = 17;

// Yaku as mjai names them (the gimite vocabulary, derived from Tenhou's yaku ids: the three
// dragons share `sangenpai`, the winds `jikaze`/`bakaze`; dora counts are entries too).
enum class MjaiYaku : std::uint8_t {
  menzenchin_tsumoho, reach, ippatsu, chankan, rinshankaiho, haiteiraoyue, hoteiraoyui, pinfu,
  tanyaochu, ipeko, jikaze, bakaze, sangenpai, double_reach, chitoitsu, honchantaiyao, ikkitsukan,
  sanshokudojun, sanshokudoko, sankantsu, toitoiho, sananko, shosangen, honroto, ryanpeko,
  junchantaiyao, honiso, chiniso, renho, tenho, chiho, daisangen, suanko, tsuiso, ryuiso, chinroto,
  churenpoton, kokushimuso, daisushi, shosushi, sukantsu, dora, uradora, akadora,
};
inline constexpr int kNumMjaiYaku = 44;
// The han an mjai log writes for a yakuman entry.
inline constexpr int kYakumanHan = 100;

// Why a kyoku ended without a win. `unknown` when the log does not say (Mortal's ryukyoku).
enum class RyukyokuReason : std::uint8_t {
  unknown, fanpai, kyushukyuhai, suchareach, sufonrenta, sukaikan, sanchaho, nagashimangan,
};

struct MjaiYakuHan {
  MjaiYaku yaku = MjaiYaku::menzenchin_tsumoho;
  std::uint8_t han = 0;  // kYakumanHan for a yakuman
  friend constexpr bool operator==(const MjaiYakuHan&, const MjaiYakuHan&) = default;
};

// A small fixed-capacity sequence; unused slots stay default so == compares only real content.
template <typename T, int N>
class FixedVec {
 public:
  static constexpr int kCapacity = N;
  constexpr int size() const { return n_; }
  constexpr bool empty() const { return n_ == 0; }
  constexpr bool full() const { return n_ == N; }
  // Readers check full() first and report bad input; overflowing here is a bug.
  constexpr void push_back(T v) {
    HYDRA_CHECK(n_ < N, "FixedVec overflow");
    items_[n_++] = v;
  }
  constexpr void clear() { *this = FixedVec(); }
  constexpr const T& operator[](int i) const { return items_[ix(i)]; }
  constexpr T& operator[](int i) { return items_[ix(i)]; }
  constexpr const T* begin() const { return items_.data(); }
  constexpr const T* end() const { return items_.data() + n_; }
  constexpr T* begin() { return items_.data(); }
  constexpr T* end() { return items_.data() + n_; }
  friend constexpr bool operator==(const FixedVec&, const FixedVec&) = default;

 private:
  std::array<T, N> items_{};
  std::uint8_t n_ = 0;
};

using Tehai = FixedVec<Pai, 14>;            // a closed hand, largest with the drawn tile
using Consumed = FixedVec<Pai, 4>;          // tiles taken from the hand by a call
using DoraMarkers = FixedVec<Pai, 5>;       // 1 + up to 4 kan dora
using MjaiYakuList = FixedVec<MjaiYakuHan, 20>;     // Tenhou lists at most ~12 entries
using Scores = std::array<std::int32_t, kNumSeats>;

struct Event {
  EventType type = EventType::none;
  Seat actor;             // tsumo dahai chi pon daiminkan kakan ankan reach reach_accepted hora
  Seat target;            // chi pon daiminkan: discarder; hora: discarder (== actor for tsumo)
  Pai pai;                // tsumo dahai chi pon daiminkan kakan hora (winning tile); unknown: ankan
  bool tsumogiri = false;  // dahai: the drawn tile was discarded
  Consumed consumed;      // chi pon daiminkan (the hand tiles), kakan (the pon), ankan (all 4)

  // start_kyoku. `dora_marker` is also the indicator a `dora` event reveals.
  TileType bakaze;        // E, S, W or N
  std::uint8_t kyoku = 0;  // 1-4
  std::uint8_t honba = 0;
  std::uint8_t kyotaku = 0;  // riichi sticks on the table
  Seat oya;
  Pai dora_marker;
  std::array<Tehai, kNumSeats> tehais{};  // start_kyoku: 13 dealt; ryukyoku: shown hands ("?" when hidden)

  // Scores after the event (start_kyoku: at its start; end_game: final) and the event's payments.
  Scores scores{};        // start_kyoku reach_accepted hora ryukyoku end_game
  Scores deltas{};        // reach_accepted hora ryukyoku

  // hora: Tenhou's result. `detailed` is false when the log gave only deltas (Mortal's hora).
  bool detailed = false;  // hora: yakus/fu/fan/hora_points/hora_tehais present; ryukyoku: tenpais/tehais
  Tehai hora_tehais;       // the winner's closed hand without the winning tile
  MjaiYakuList yakus;
  std::uint8_t fu = 0;
  std::uint8_t fan = 0;   // kYakumanHan for yakuman hands
  std::int32_t hora_points = 0;  // the hand's value before honba and sticks
  DoraMarkers ura_markers;
  Seat pao;               // the player liable for daisangen/daisuushii, or none

  // ryukyoku
  RyukyokuReason reason = RyukyokuReason::unknown;
  std::array<bool, kNumSeats> tenpais{};

  friend bool operator==(const Event&, const Event&) = default;
};

// mjai spellings. parse_* throw hydra::Error naming the text.
std::string_view to_string(EventType t);
EventType parse_event_type(std::string_view name);
std::string_view to_string(MjaiYaku y);
MjaiYaku parse_mjai_yaku(std::string_view name);
constexpr bool is_yakuman(MjaiYaku y) { return y >= MjaiYaku::renho && y <= MjaiYaku::sukantsu; }
std::string_view to_string(RyukyokuReason r);
RyukyokuReason parse_ryukyoku_reason(std::string_view name);
std::string_view wind_name(TileType t);  // "E" "S" "W" "N"

// Whether an event kind is a call that takes a discard (chi, pon, daiminkan).
constexpr bool takes_discard(EventType t) {
  return t == EventType::chi || t == EventType::pon || t == EventType::daiminkan;
}

// One readable line for messages and test failures (the mjai JSON is in hydra::data).
std::string describe(const Event& e);

}  // namespace hydra::game
