#include "hydra/game/event.hpp"

#include <utility>

#include "hydra/common/error.hpp"
#include "hydra/common/text.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

constexpr std::array<std::string_view, kNumEventTypes> kEventNames = {
    "none", "start_game", "start_kyoku", "tsumo", "dahai", "chi", "pon", "daiminkan", "kakan",
    "ankan", "dora", "reach", "reach_accepted", "hora", "ryukyoku", "end_kyoku", "end_game"};

constexpr std::array<std::string_view, kNumMjaiYaku> kYakuNames = {
    "menzenchin_tsumoho", "reach", "ippatsu", "chankan", "rinshankaiho", "haiteiraoyue",
    "hoteiraoyui", "pinfu", "tanyaochu", "ipeko", "jikaze", "bakaze", "sangenpai", "double_reach",
    "chitoitsu", "honchantaiyao", "ikkitsukan", "sanshokudojun", "sanshokudoko", "sankantsu",
    "toitoiho", "sananko", "shosangen", "honroto", "ryanpeko", "junchantaiyao", "honiso", "chiniso",
    "renho", "tenho", "chiho", "daisangen", "suanko", "tsuiso", "ryuiso", "chinroto", "churenpoton",
    "kokushimuso", "daisushi", "shosushi", "sukantsu", "dora", "uradora", "akadora"};

constexpr std::array<std::string_view, 8> kReasonNames = {
    "unknown", "fanpai", "kyushukyuhai", "suchareach", "sufonrenta", "sukaikan", "sanchaho",
    "nagashimangan"};

template <typename Enum, std::size_t N>
Enum parse_name(const std::array<std::string_view, N>& names, std::string_view name, const char* what) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == name) return static_cast<Enum>(i);
  throw Error("unknown " + std::string(what) + " '" + text::excerpt(name) + "'");
}

}  // namespace

std::string_view to_string(EventType t) { return kEventNames.at(ix(t)); }
EventType parse_event_type(std::string_view name) { return parse_name<EventType>(kEventNames, name, "event type"); }
std::string_view to_string(MjaiYaku y) { return kYakuNames.at(ix(y)); }
MjaiYaku parse_mjai_yaku(std::string_view name) { return parse_name<MjaiYaku>(kYakuNames, name, "yaku"); }
std::string_view to_string(RyukyokuReason r) { return kReasonNames.at(ix(r)); }
RyukyokuReason parse_ryukyoku_reason(std::string_view name) {
  // "unknown" is our placeholder for an absent reason, never a spelling in a log.
  if (name == "unknown") throw Error("unknown ryukyoku reason 'unknown'");
  // RiichiEnv's mjai logs (0.4.11, riichienv-core's _trigger_ryukyoku and check_abortive_draw)
  // spell the reasons their own way; "sanchaho" and "nagashimangan" are spelled as above.
  static constexpr std::array<std::pair<std::string_view, RyukyokuReason>, 5> kRiichiEnvNames = {{
      {"exhaustive_draw", RyukyokuReason::fanpai},
      {"kyushu_kyuhai", RyukyokuReason::kyushukyuhai},
      {"suucha_riichi", RyukyokuReason::suchareach},
      {"sufuurenta", RyukyokuReason::sufonrenta},
      {"suukansansen", RyukyokuReason::sukaikan},
  }};
  for (const auto& [spelling, reason] : kRiichiEnvNames)
    if (name == spelling) return reason;
  // RiichiEnv ends a kyoku this way when a player's action was illegal, with a chombo-like
  // payment: a host's penalty, not a rule of the game, so the game cannot be replayed.
  if (name.starts_with("Error: Illegal Action by Player "))
    throw Error("ryukyoku reason '" + std::string(name) +
                "': an error draw (the host's penalty for an illegal action), not a way a kyoku ends under the rules");
  return parse_name<RyukyokuReason>(kReasonNames, name, "ryukyoku reason");
}

std::string_view wind_name(TileType t) {
  HYDRA_CHECK(t.is_wind(), "wind_name of a non-wind tile");
  return mjai_name(Pai(t));
}

std::string describe(const Event& e) {
  // append() rather than operator+ chains: GCC 12 reports a false -Wrestrict on those.
  std::string s(to_string(e.type));
  auto add = [&s](std::string_view key, std::string_view value) {
    s.append(" ").append(key).append("=").append(value);
  };
  if (e.actor.valid()) add("actor", std::to_string(e.actor.index()));
  if (e.target.valid()) add("target", std::to_string(e.target.index()));
  if (!e.pai.is_unknown()) add("pai", mjai_name(e.pai));
  if (!e.consumed.empty()) {
    std::string c;
    for (Pai p : e.consumed) c.append(mjai_name(p));
    add("consumed", c);
  }
  if (e.type == EventType::start_kyoku) {
    s.append(" ").append(wind_name(e.bakaze)).append(std::to_string(e.kyoku));
    s.append("-").append(std::to_string(e.honba));
  }
  return s;
}

}  // namespace hydra::game
