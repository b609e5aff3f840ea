// The one normalised in-memory form every reader produces (see game_log.hpp): scores rebuilt
// from the running deltas and riichi sticks, canonical tile and dora order, whole-game checks.

#include <algorithm>

#include "hydra/data/game_log.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/common/index.hpp"

namespace hydra::data {
namespace {

using game::Event;
using game::EventType;
using game::Scores;

constexpr std::int32_t kStartScore = 25000;  // what a gimite log that gives no scores started with
constexpr std::int32_t kRiichiStick = 1000;

std::string scores_text(const Scores& s) {
  std::string out = "[";
  for (std::size_t p = 0; p < s.size(); ++p) out.append(p ? "," : "").append(std::to_string(s[p]));
  return out.append("]");
}

bool pays(EventType t) {
  return t == EventType::reach_accepted || t == EventType::hora || t == EventType::ryukyoku;
}

void sort_tiles(game::Consumed& c) {
  std::sort(c.begin(), c.end(), [](game::Pai a, game::Pai b) { return tenhou_order(a) < tenhou_order(b); });
}

// Mortal's reach_accepted carries no deltas: the stick is 1,000 from the riichi player.
Scores reach_deltas(const Event& e) {
  Scores d{};
  d[ix(e.actor.index())] = -kRiichiStick;
  return d;
}

// Scores at the start of the game: given by the first start_kyoku, else rebuilt backwards from
// the first event that gives scores (gimite logs give none at the start), else 25,000 each.
Scores start_scores(const GameLog& log, const std::vector<std::uint8_t>& given) {
  Scores acc{};
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    const Event& e = log.events[i];
    const std::uint8_t g = given.empty() ? std::uint8_t{kGivenAll} : given[i];
    if (e.type == EventType::start_kyoku && (g & kGivenScores)) {
      Scores s = e.scores;
      for (int p = 0; p < game::kNumSeats; ++p) s[ix(p)] -= acc[ix(p)];
      return s;
    }
    if (!pays(e.type) && e.type != EventType::end_game) continue;
    Scores d = e.deltas;
    if (e.type == EventType::reach_accepted && !(g & kGivenDeltas)) d = reach_deltas(e);
    if (e.type != EventType::end_game)
      for (int p = 0; p < game::kNumSeats; ++p) acc[ix(p)] += d[ix(p)];
    if (g & kGivenScores) {
      Scores s = e.scores;
      for (int p = 0; p < game::kNumSeats; ++p) s[ix(p)] -= acc[ix(p)];
      return s;
    }
  }
  return {kStartScore, kStartScore, kStartScore, kStartScore};
}

// Final scores without the log's word for them: riichi sticks left on the table go to the top
// player (ties: the seat nearer the first dealer), as every rules preset says (sticks_to_top);
// the replay checker recomputes them under the rules it checks with.
Scores sticks_to_top(Scores s, int sticks) {
  const auto rank = game::ranks(s);
  for (int p = 0; p < game::kNumSeats; ++p)
    if (rank[ix(p)] == 0) s[ix(p)] += kRiichiStick * sticks;
  return s;
}

// Moves `dora` events to Tenhou's place relative to the kan that revealed them.
void order_dora(std::vector<Event>& ev) {
  for (std::size_t i = 1; i < ev.size(); ++i) {
    if (ev[i].type != EventType::dora) continue;
    const EventType prev = ev[i - 1].type;
    const bool open_kan_before = prev == EventType::daiminkan || prev == EventType::kakan;
    if (open_kan_before && i + 1 < ev.size() && ev[i + 1].type == EventType::tsumo) {
      std::swap(ev[i], ev[i + 1]);  // open kan, dora, tsumo -> open kan, tsumo, dora
    } else if (prev == EventType::tsumo && i >= 2 && ev[i - 2].type == EventType::ankan) {
      std::swap(ev[i], ev[i - 1]);  // ankan, tsumo, dora -> ankan, dora, tsumo
    } else if (prev == EventType::dahai && i >= 3 && ev[i - 2].type == EventType::tsumo &&
               (ev[i - 3].type == EventType::daiminkan || ev[i - 3].type == EventType::kakan)) {
      std::swap(ev[i], ev[i - 1]);  // revealed after the discard -> before it
    }
  }
}

// Mortal's and RiichiEnv's hora carry no `pai`: the winning tile is the tile the win takes, that
// is the winner's own draw for a tsumo, else the discarder's last discard or the kakan tile it
// robs (an ankan for a kokushi where the rules allow it).
template <class Fail>
void fill_winning_tiles(std::vector<Event>& ev, const Fail& fail) {
  std::size_t last = ev.size();  // the last tsumo, dahai, kakan or ankan
  for (std::size_t i = 0; i < ev.size(); ++i) {
    Event& e = ev[i];
    const EventType t = e.type;
    if (t == EventType::tsumo || t == EventType::dahai || t == EventType::kakan || t == EventType::ankan) last = i;
    if (t == EventType::start_kyoku) last = ev.size();
    if (t != EventType::hora || !e.pai.is_unknown()) continue;
    const bool tsumo = e.actor == e.target;
    if (last == ev.size() || ev[last].actor != e.target ||
        (tsumo ? ev[last].type != EventType::tsumo : ev[last].type == EventType::tsumo))
      throw fail(i, std::string("no field 'pai' and no ") + (tsumo ? "draw of the winner" : "discard or kan of the target") +
                        " just before it to take the winning tile from");
    const Event& from = ev[last];
    e.pai = from.type == EventType::ankan ? game::Pai(from.consumed[0].type()) : from.pai;
    if (e.pai.is_unknown()) throw fail(i, "no field 'pai', and the tile it wins on is hidden ('?')");
  }
}

}  // namespace

void normalize(GameLog& log, const std::vector<std::uint8_t>& given, const Locator& where) {
  auto& ev = log.events;
  HYDRA_CHECK(given.empty() || given.size() == ev.size(), "normalize: one GivenField mask per event");
  if (ev.empty()) throw Error(where(0) + ": no events");
  auto fail = [&](std::size_t i, const std::string& msg) -> Error {
    return Error(where(i) + ": " + std::string(game::to_string(ev[i].type)) + ": " + msg);
  };
  if (ev.front().type != EventType::start_game) throw fail(0, "a game must begin with start_game");
  if (ev.back().type != EventType::end_game)
    throw fail(ev.size() - 1, "the game does not end with end_game (truncated log?)");

  // Tile order first: it does not move events, so `given` stays aligned until order_dora.
  for (std::size_t i = 0; i < ev.size(); ++i) {
    Event& e = ev[i];
    if (e.type == EventType::ankan) e.pai = game::Pai::unknown();
    if (!e.consumed.empty()) sort_tiles(e.consumed);
    // The discard after a chi or pon never is a tsumogiri; gimite's converter marks it as one
    // when the tile happens to be the player's last drawn tile.
    if (e.type == EventType::dahai && i > 0 && (ev[i - 1].type == EventType::chi || ev[i - 1].type == EventType::pon))
      e.tsumogiri = false;
  }

  fill_winning_tiles(ev, fail);

  const Scores start = start_scores(log, given);
  Scores running = start;
  int sticks = -1;  // unknown until the first start_kyoku
  bool in_kyoku = false;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    Event& e = ev[i];
    const std::uint8_t g = given.empty() ? std::uint8_t{kGivenAll} : given[i];
    switch (e.type) {
      case EventType::start_game:
        if (i != 0) throw fail(i, "a second start_game inside one game");
        continue;
      case EventType::start_kyoku:
        if (in_kyoku) throw fail(i, "start_kyoku before the previous kyoku's end_kyoku");
        in_kyoku = true;
        if ((g & kGivenKyotaku) && sticks >= 0 && e.kyotaku != sticks)
          throw fail(i, "field 'kyotaku' " + std::to_string(e.kyotaku) + " but " + std::to_string(sticks) +
                            " riichi sticks are on the table");
        if (sticks < 0) sticks = (g & kGivenKyotaku) ? e.kyotaku : 0;
        e.kyotaku = static_cast<std::uint8_t>(sticks);
        break;
      case EventType::end_kyoku:
        if (!in_kyoku) throw fail(i, "end_kyoku outside a kyoku");
        in_kyoku = false;
        continue;
      case EventType::end_game:
        if (in_kyoku) throw fail(i, "end_game before end_kyoku");
        break;
      case EventType::none:
        continue;
      default:
        if (!in_kyoku) throw fail(i, "event outside a kyoku (between end_kyoku and start_kyoku)");
        break;
    }
    if (pays(e.type)) {
      if (!(g & kGivenDeltas)) {
        if (e.type != EventType::reach_accepted)
          throw fail(i, "field 'deltas' is missing: the scores cannot be rebuilt");
        e.deltas = reach_deltas(e);
      }
      for (int p = 0; p < game::kNumSeats; ++p) running[ix(p)] += e.deltas[ix(p)];
      if (e.type == EventType::reach_accepted) ++sticks;
      if (e.type == EventType::hora) sticks = 0;  // all sticks go to the (first) winner
    }
    if (e.type == EventType::end_game && (g & kGivenScores) && sticks > 0 && e.scores != running) {
      // Riichi sticks left on the table at the end go to the top player (Tenhou): the final
      // scores may hold them on one seat.
      int seats = 0;
      bool sticks_only = true;
      for (int p = 0; p < game::kNumSeats; ++p) {
        const std::int32_t d = e.scores[ix(p)] - running[ix(p)];
        if (d == 0) continue;
        ++seats;
        sticks_only = sticks_only && d == kRiichiStick * sticks;
      }
      if (seats == 1 && sticks_only) running = e.scores;
    }
    if (e.type == EventType::end_game && !(g & kGivenScores)) {
      log.final_scores_recorded = false;
      // A log that stops anywhere (no recorded end) has no final scores: its last standing stays.
      if (sticks > 0 && log.end_recorded) running = sticks_to_top(running, sticks);
    }
    if (e.type == EventType::start_kyoku || e.type == EventType::end_game || pays(e.type)) {
      if ((g & kGivenScores) && e.scores != running) {
        const std::string what = "field 'scores' " + scores_text(e.scores) + " disagrees with " + scores_text(running) +
                                 " from the start scores and the deltas";
        // Off by the same amount for every seat, from equal start scores: the game started at
        // other scores than the log's first scores (or the 25,000 assumed) say, another lobby's
        // rule (gimite wrote 25,000-based scores into the first events of such games).
        const std::int32_t off = e.scores[0] - running[0];
        bool uniform = true;
        for (int p = 1; p < game::kNumSeats; ++p) {
          const auto q = ix(p);
          uniform = uniform && e.scores[q] - running[q] == off && start[q] == start[0];
        }
        if (uniform)
          throw UnsupportedRule(fail(i, what + " by " + std::to_string(off) + " for every seat, as if the game had started at " +
                                            std::to_string(start[0] + off) + " each: unsupported rule: start scores")
                                    .what());
        throw fail(i, what);
      }
      e.scores = running;
    }
  }
  order_dora(ev);
}

std::optional<std::string> unsupported_rule(const GameLog& log, const game::TableRules& rules) {
  for (const Event& e : log.events) {
    if (e.type != EventType::start_kyoku) continue;
    // A fragment (tenhou.net/6 fixtures start anywhere) takes its first kyoku's scores as given.
    const bool whole_game = e.bakaze == game::TileType(27) && e.kyoku == 1 && e.honba == 0 && e.kyotaku == 0;
    if (!whole_game) return std::nullopt;
    for (std::int32_t s : e.scores)
      if (s != rules.start_score)
        return "start scores " + scores_text(e.scores) + ": the rules '" + rules.name + "' start every player at " +
               std::to_string(rules.start_score);
    return std::nullopt;
  }
  return std::nullopt;
}

void require_supported(const GameLog& log, const game::TableRules& rules, std::string_view name) {
  if (const auto why = unsupported_rule(log, rules))
    throw UnsupportedRule(std::string(name) + ": unsupported rule: " + *why);
}

}  // namespace hydra::data
