#pragma once

// A table rebuilt from what one seat saw of the kyoku in play, for a search where no table is held:
// `hydra bot` and `hydra review` (docs/EVAL.md "Search"). The rebuilt table is the game joined at
// the kyoku's start (Table's joined-game constructor) on a wall that deals everything the seat saw
// where it saw it: its own deal and draws, every discard, call and kan of the others, each dora
// indicator. The others' hidden tiles are placeholders: a tile another seat showed (a discard from
// its hand, the tiles of a call) sits in one of the slots it held then, a tsumogiri in the slot of
// the draw, a seat in riichi holds a random tenpai hand, and the rest of the unseen tiles fill the
// remaining places. The kyoku's recorded decisions are then replayed on the table (the others
// pass where they did not act), so the seat's view in it is the view the events built.
//
// Everything a search reads of the table is what the seat sees: Table::redeal_hidden deals the
// others' hands and the unseen wall again from the seat's view and its stream alone. So a search
// on the rebuilt table plays as the same search on the game's own table would.

#include <memory>
#include <span>

#include "hydra/game/event.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/game/table.hpp"

namespace hydra::game {

// `events`: the kyoku's events as `seat` saw them, its start_kyoku first, up to the seat's
// decision (other seats' hidden tiles, where an event carries them, are not read). `key`: the
// game's key (the walls of later kyoku, and the placeholders' order). Returns the table waiting
// for the seat's decision. Throws hydra::Error naming the event when the events cannot be
// replayed (an event out of order, more than four of a tile, an action not legal there) or when a
// seat's kan after its riichi leaves no tenpai hand to rebuild.
std::unique_ptr<Table> rebuild_table(const TableRules& rules, Seat seat, std::span<const Event> events,
                                     const GameKey& key);

}  // namespace hydra::game
