#pragma once

// What a seat may do now: the decision phase, the 46-bit legal mask, and the concrete mjai move
// each legal action stands for. Computed by PlayerView::legal() from the seat's own view only;
// the table, the replay checker and the agents all use it, so legality has one source of truth.
//
// Deterministic choices where one action index covers several concrete moves:
//   - discards: the drawn tile is discarded (tsumogiri) whenever the chosen tile equals it;
//     a red five and a plain five are different actions (34-36 vs 4, 13, 22).
//   - chi, pon, daiminkan: the call consumes the red five when the hand holds it, so the red five
//     moves into the meld and is never lost (it still counts as dora there), and it can not be
//     discarded by accident later. A log may consume the plain five instead: is_legal() accepts
//     any consumed tiles the hand really holds.
//   - kan: one candidate per tile type (ankan of four held, kakan onto a pon, or the daiminkan);
//     with several candidates, a second kan-select decision picks the tile type (0-33).

#include <array>
#include <cstdint>
#include <string>

#include "hydra/game/action.hpp"
#include "hydra/game/event.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {

enum class Phase : std::uint8_t {
  idle,            // nothing to decide
  turn,            // after the own draw, or after an own chi/pon (then discards only)
  riichi_discard,  // after the own reach: which tile to discard (only tenpai-keeping ones)
  kan_select,      // after choosing kan with several candidates: which tile type
  response,        // to another seat's discard: ron, pon, kan, chi or pass
  chankan,         // to another seat's kakan (or ankan, kokushi only): ron or pass
};
std::string_view to_string(Phase p);

// One concrete move of the acting seat, the part of an mjai event the seat chooses.
struct Move {
  EventType type = EventType::none;  // none: pass
  Pai pai;
  Seat target;                        // chi, pon, daiminkan, ron: the discarder
  bool tsumogiri = false;
  Consumed consumed;

  Event to_event(Seat actor) const;
  friend constexpr bool operator==(const Move&, const Move&) = default;
};

struct Legal {
  static constexpr int kMaxKans = 4;  // never more than four kan candidates at once

  Phase phase = Phase::idle;
  ActionMask mask;
  std::array<Move, kNumActions> moves{};  // moves[a] for each legal action (kan: the first candidate);
                                          // meaningless where the mask is not set
  FixedVec<Move, kMaxKans> kans;          // every kan candidate, by tile type

  bool has(Action a) const { return mask.test(a); }
  // Back to "nothing legal". Moves behind actions outside the mask are left as they were: the
  // mask is the truth, and not rewriting 46 moves per decision keeps the hot path short.
  void clear();
  const Move& move(Action a) const { return moves[ix(a.index())]; }
  // The kan-select decision: a mask over tile types 0-33, and the candidate of a tile type.
  ActionMask kan_select_mask() const;
  const Move& kan_move(Action type) const;
};

// The tile type a kan event names in the kan-select decision (ankan: its tiles' kind).
TileType kan_type(const Event& e);
// The action of `legal` that a recorded event `e` of the deciding seat is (Action::kKan for a
// kan: with several candidates the kan-select decision follows, Action::kan_select(kan_type(e))),
// or -1 with `why` when none is. Calls match by target and the consumed tiles' kinds.
int action_of(const Event& e, const Legal& legal, std::string& why);

}  // namespace hydra::game
