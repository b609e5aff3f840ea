#include "hydra/game/yaku.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

// Order matches enum Yaku.
constexpr std::array<YakuInfo, kNumYaku> kYakuInfo = {{
    {"riichi", "立直", 1, 0, false, 2},
    {"ippatsu", "一発", 1, 0, false, 30},
    {"menzen tsumo", "門前清自摸和", 1, 0, false, 1},
    {"pinfu", "平和", 1, 0, false, 14},
    {"tanyao", "断幺九", 1, 1, false, 12},
    {"iipeikou", "一盃口", 1, 0, false, 13},
    {"haitei", "海底摸月", 1, 1, false, 5},
    {"houtei", "河底撈魚", 1, 1, false, 6},
    {"rinshan kaihou", "嶺上開花", 1, 1, false, 4},
    {"chankan", "槍槓", 1, 1, false, 3},
    {"yakuhai haku", "翻牌 白", 1, 1, false, 7},
    {"yakuhai hatsu", "翻牌 發", 1, 1, false, 8},
    {"yakuhai chun", "翻牌 中", 1, 1, false, 9},
    {"seat wind", "自風", 1, 1, false, 10},
    {"round wind", "場風", 1, 1, false, 11},
    {"double riichi", "ダブル立直", 2, 0, false, 18},
    {"chiitoitsu", "七対子", 2, 0, false, 25},
    {"sanshoku doujun", "三色同順", 2, 1, false, 17},
    {"ittsu", "一気通貫", 2, 1, false, 16},
    {"chanta", "混全帯幺九", 2, 1, false, 15},
    {"toitoi", "対々和", 2, 2, false, 21},
    {"sanankou", "三暗刻", 2, 2, false, 22},
    {"sanshoku doukou", "三色同刻", 2, 2, false, 19},
    {"sankantsu", "三槓子", 2, 2, false, 20},
    {"shousangen", "小三元", 2, 2, false, 23},
    {"honroutou", "混老頭", 2, 2, false, 24},
    {"ryanpeikou", "二盃口", 3, 0, false, 28},
    {"junchan", "純全帯幺九", 3, 2, false, 26},
    {"honitsu", "混一色", 3, 2, false, 27},
    {"chinitsu", "清一色", 6, 5, false, 29},
    {"dora", "ドラ", 0, 0, false, 31},
    {"aka dora", "赤ドラ", 0, 0, false, 32},
    {"ura dora", "裏ドラ", 0, 0, false, 33},
    {"kokushi musou", "国士無双", 0, 0, true, 42},
    {"kokushi musou 13-sided", "国士無双十三面", 0, 0, true, 49},
    {"suuankou", "四暗刻", 0, 0, true, 38},
    {"suuankou tanki", "四暗刻単騎", 0, 0, true, 48},
    {"daisangen", "大三元", 0, 0, true, 37},
    {"shousuushii", "小四喜", 0, 0, true, 43},
    {"daisuushii", "大四喜", 0, 0, true, 50},
    {"tsuuiisou", "字一色", 0, 0, true, 39},
    {"ryuuiisou", "緑一色", 0, 0, true, 40},
    {"chinroutou", "清老頭", 0, 0, true, 41},
    {"chuuren poutou", "九蓮宝燈", 0, 0, true, 45},
    {"junsei chuuren poutou", "純正九蓮宝燈", 0, 0, true, 47},
    {"suukantsu", "四槓子", 0, 0, true, 44},
    {"tenhou", "天和", 0, 0, true, 35},
    {"chiihou", "地和", 0, 0, true, 36},
}};

}  // namespace

const YakuInfo& yaku_info(Yaku y) { return kYakuInfo[ix(y)]; }

}  // namespace hydra::game
