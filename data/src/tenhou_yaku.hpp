#pragma once

// Tenhou's yaku numbering and names (private to the Tenhou importers).

#include <optional>
#include <string_view>

#include "hydra/game/event.hpp"

namespace hydra::data::tenhou {

// Tenhou yaku id (0-54, the `yaku`/`yakuman` attributes of <AGARI>) -> mjai yaku.
std::optional<game::MjaiYaku> yaku_from_id(int id);

// A tenhou.net/6 yaku name ("立直", "場風 東", "役牌 中", or the English names some exporters
// write) -> mjai yaku.
std::optional<game::MjaiYaku> yaku_from_name(std::string_view name);

}  // namespace hydra::data::tenhou
