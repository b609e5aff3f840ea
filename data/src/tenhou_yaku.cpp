#include "tenhou_yaku.hpp"

#include <array>
#include <utility>
#include "hydra/common/index.hpp"

namespace hydra::data::tenhou {
namespace {

using Y = game::MjaiYaku;

// Index = Tenhou yaku id. mjai folds Tenhou's per-wind and per-dragon ids into one name each.
constexpr std::array<Y, 55> kById = {
    Y::menzenchin_tsumoho, Y::reach, Y::ippatsu, Y::chankan, Y::rinshankaiho,       // 0-4
    Y::haiteiraoyue, Y::hoteiraoyui, Y::pinfu, Y::tanyaochu, Y::ipeko,              // 5-9
    Y::jikaze, Y::jikaze, Y::jikaze, Y::jikaze,                                      // 10-13 seat E S W N
    Y::bakaze, Y::bakaze, Y::bakaze, Y::bakaze,                                      // 14-17 round E S W N
    Y::sangenpai, Y::sangenpai, Y::sangenpai,                                        // 18-20 P F C
    Y::double_reach, Y::chitoitsu, Y::honchantaiyao, Y::ikkitsukan, Y::sanshokudojun,  // 21-25
    Y::sanshokudoko, Y::sankantsu, Y::toitoiho, Y::sananko, Y::shosangen,           // 26-30
    Y::honroto, Y::ryanpeko, Y::junchantaiyao, Y::honiso, Y::chiniso,               // 31-35
    Y::renho, Y::tenho, Y::chiho, Y::daisangen, Y::suanko, Y::suanko,               // 36-41 (41: tanki)
    Y::tsuiso, Y::ryuiso, Y::chinroto, Y::churenpoton, Y::churenpoton,              // 42-46 (46: junsei)
    Y::kokushimuso, Y::kokushimuso, Y::daisushi, Y::shosushi, Y::sukantsu,          // 47-51 (48: 13-wait)
    Y::dora, Y::uradora, Y::akadora,                                                 // 52-54
};

constexpr std::pair<std::string_view, Y> kByName[] = {
    {"門前清自摸和", Y::menzenchin_tsumoho}, {"立直", Y::reach}, {"一発", Y::ippatsu},
    {"槍槓", Y::chankan}, {"嶺上開花", Y::rinshankaiho}, {"海底摸月", Y::haiteiraoyue},
    {"河底撈魚", Y::hoteiraoyui}, {"平和", Y::pinfu}, {"断幺九", Y::tanyaochu}, {"一盃口", Y::ipeko},
    {"自風 東", Y::jikaze}, {"自風 南", Y::jikaze}, {"自風 西", Y::jikaze}, {"自風 北", Y::jikaze},
    {"場風 東", Y::bakaze}, {"場風 南", Y::bakaze}, {"場風 西", Y::bakaze}, {"場風 北", Y::bakaze},
    {"役牌 白", Y::sangenpai}, {"役牌 發", Y::sangenpai}, {"役牌 中", Y::sangenpai},
    {"両立直", Y::double_reach}, {"七対子", Y::chitoitsu}, {"混全帯幺九", Y::honchantaiyao},
    {"一気通貫", Y::ikkitsukan}, {"三色同順", Y::sanshokudojun}, {"三色同刻", Y::sanshokudoko},
    {"三槓子", Y::sankantsu}, {"対々和", Y::toitoiho}, {"三暗刻", Y::sananko}, {"小三元", Y::shosangen},
    {"混老頭", Y::honroto}, {"二盃口", Y::ryanpeko}, {"純全帯幺九", Y::junchantaiyao},
    {"混一色", Y::honiso}, {"清一色", Y::chiniso}, {"人和", Y::renho}, {"天和", Y::tenho},
    {"地和", Y::chiho}, {"大三元", Y::daisangen}, {"四暗刻", Y::suanko}, {"四暗刻単騎", Y::suanko},
    {"字一色", Y::tsuiso}, {"緑一色", Y::ryuiso}, {"清老頭", Y::chinroto}, {"九蓮宝燈", Y::churenpoton},
    {"純正九蓮宝燈", Y::churenpoton}, {"国士無双", Y::kokushimuso}, {"国士無双１３面", Y::kokushimuso},
    {"大四喜", Y::daisushi}, {"小四喜", Y::shosushi}, {"四槓子", Y::sukantsu}, {"ドラ", Y::dora},
    {"裏ドラ", Y::uradora}, {"赤ドラ", Y::akadora},
    // English names written by some exporters (Mahjong Soul logs in tenhou.net/6 form).
    {"Riichi", Y::reach}, {"Double Riichi", Y::double_reach}, {"Ippatsu", Y::ippatsu},
    {"Fully Concealed Hand", Y::menzenchin_tsumoho}, {"Pinfu", Y::pinfu}, {"All Simples", Y::tanyaochu},
    {"Pure Double Sequence", Y::ipeko}, {"Seven Pairs", Y::chitoitsu}, {"Half Flush", Y::honiso},
    {"Full Flush", Y::chiniso}, {"All Triplets", Y::toitoiho}, {"Dora", Y::dora},
    {"Ura Dora", Y::uradora}, {"Red Five", Y::akadora}, {"Aka Dora", Y::akadora},
};

}  // namespace

std::optional<game::MjaiYaku> yaku_from_id(int id) {
  if (id < 0 || id >= static_cast<int>(kById.size())) return std::nullopt;
  return kById[ix(id)];
}

std::optional<game::MjaiYaku> yaku_from_name(std::string_view name) {
  for (const auto& [n, y] : kByName)
    if (n == name) return y;
  return std::nullopt;
}

}  // namespace hydra::data::tenhou
