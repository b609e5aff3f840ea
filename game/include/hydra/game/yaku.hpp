#pragma once

// Every yaku and yakuman of the Tenhou rules (plus dora, red dora and ura dora, which count as
// han but are not yaku: a hand needs at least one real yaku to win). A hand's yaku fit in a
// 64-bit mask (YakuSet), so scoring never allocates.

#include <array>
#include <cstdint>
#include <string_view>

namespace hydra::game {

enum class Yaku : std::uint8_t {
  // 1 han
  riichi, ippatsu, menzen_tsumo, pinfu, tanyao, iipeikou, haitei, houtei, rinshan, chankan,
  haku, hatsu, chun, seat_wind, round_wind,
  // 2 han (sanshoku, ittsu, chanta: 1 when open)
  double_riichi, chiitoitsu, sanshoku, ittsu, chanta, toitoi, sanankou, sanshoku_doukou, sankantsu,
  shousangen, honroutou,
  // 3 han (junchan, honitsu: 2 when open), 6 han (chinitsu: 5 when open)
  ryanpeikou, junchan, honitsu, chinitsu,
  // han = number of tiles; not yaku
  dora, aka_dora, ura_dora,
  // yakuman (value 1, or 2 where the rules make it a double yakuman)
  kokushi, kokushi_13, suuankou, suuankou_tanki, daisangen, shousuushii, daisuushii, tsuuiisou,
  ryuuiisou, chinroutou, chuuren, junsei_chuuren, suukantsu, tenhou, chiihou,
  count
};
inline constexpr int kNumYaku = static_cast<int>(Yaku::count);

struct YakuInfo {
  std::string_view name;      // romaji, as `hydra hand` prints it
  std::string_view japanese;  // the usual Japanese name (kobalab's spelling)
  std::int8_t han_closed;     // 0 for dora kinds (counted per tile) and yakuman
  std::int8_t han_open;       // 0: needs a closed hand
  bool yakuman;
  std::int8_t mahjongsoul_id;  // Mahjong Soul fan id (the one RiichiEnv reports)
};

const YakuInfo& yaku_info(Yaku y);

class YakuSet {
 public:
  constexpr YakuSet() = default;
  constexpr explicit YakuSet(std::uint64_t bits) : bits_(bits) {}
  constexpr bool contains(Yaku y) const { return (bits_ >> static_cast<int>(y)) & 1U; }
  constexpr void insert(Yaku y) { bits_ |= std::uint64_t{1} << static_cast<int>(y); }
  constexpr void erase(Yaku y) { bits_ &= ~(std::uint64_t{1} << static_cast<int>(y)); }
  constexpr std::uint64_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr YakuSet operator|(YakuSet o) const { return YakuSet(bits_ | o.bits_); }
  friend constexpr bool operator==(YakuSet, YakuSet) = default;

 private:
  std::uint64_t bits_ = 0;
};

}  // namespace hydra::game
