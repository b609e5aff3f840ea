#pragma once

// Whole-state checks of a PlayerView, for whoever feeds it events it does not trust (the mjai
// bot): PlayerView::apply checks each event against what the seat knows, these check what
// legal(), shanten and the agents rely on across events.

#include <string>

#include "hydra/game/view.hpp"

namespace hydra::game {

// Every tile the seat sees by kind: its closed hand, all melds, every river tile not taken by a
// call (a called tile counts in the caller's meld), the dora indicators. Not capped: more than 4
// of a kind means the events contradict each other.
TileCounts visible_tiles(const PlayerView& view);

// Empty when the view is one legal() was written for, else why not: at most 4 visible copies of
// a kind; once dealt, a hand of 13 or 14 tiles counting melds as 3, 14 when the seat is to
// discard and 13 when it may respond; a discard that keeps the hand tenpai after its own riichi;
// a drawn tile for a turn in riichi. Apply each untrusted event to a copy of the view and keep
// the copy only when this is empty: the event that breaks it is refused whole.
std::string inconsistency(const PlayerView& view);

}  // namespace hydra::game
