#include "hydra/game/action.hpp"

namespace hydra::game {

std::string to_string(Action a) {
  const int v = a.index();
  if (v < Action::kRiichi) return "discard " + std::string(mjai_name(a.discard_pai()));
  switch (v) {
    case Action::kRiichi: return "riichi";
    case Action::kChiLow: return "chi-low";
    case Action::kChiMid: return "chi-mid";
    case Action::kChiHigh: return "chi-high";
    case Action::kPon: return "pon";
    case Action::kKan: return "kan";
    case Action::kAgari: return "agari";
    case Action::kRyukyoku: return "ryukyoku";
    case Action::kPass: return "pass";
    default: return "action " + std::to_string(v);
  }
}

std::string to_string(ActionMask m) {
  std::string out;
  for (int i = 0; i < m.count(); ++i) {
    if (i) out += ", ";
    out += to_string(m.nth(i));
  }
  return out.empty() ? "none" : out;
}

}  // namespace hydra::game
