#include "hydra/selfplay/mjai_bot.hpp"

#include <nlohmann/json.hpp>

#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/game/view_check.hpp"

namespace hydra::selfplay {

namespace {

game::GameKey parse_game_key(const nlohmann::json& v) {
  const std::string s = v.is_string() ? v.get<std::string>() : std::string();
  game::Digest d{};
  const auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  bool ok = s.size() == 2 * d.size();
  for (std::size_t i = 0; ok && i < d.size(); ++i) {
    const int hi = nibble(s[2 * i]), lo = nibble(s[2 * i + 1]);
    ok = hi >= 0 && lo >= 0;
    d[i] = static_cast<std::uint8_t>(ok ? hi * 16 + lo : 0);
  }
  if (!ok) throw Error(std::string("field '") + std::string(kGameKeyField) + "': expected 64 hex digits");
  return game::GameKey(d);
}

}  // namespace

using game::Action;
using game::Event;
using game::EventType;

MjaiBot::MjaiBot(std::unique_ptr<game::Agent> agent, const game::TableRules& rules, std::optional<game::Seat> seat,
                 const game::GameKey& key)
    : agent_(std::move(agent)), rules_(&rules), seat_(seat), explicit_seat_(seat.has_value()), key_(key) {
  HYDRA_CHECK(agent_ != nullptr, "an mjai bot needs an agent");
  if (seat_ && !seat_->valid()) throw Error("the bot's seat must be 0-3");
}

std::string MjaiBot::react(std::string_view line) {
  nlohmann::json j;
  try {
    j = json::parse(line);
  } catch (const json::ParseError& e) {
    throw Error(std::string("broken JSON: ") + e.what());
  }
  if (!j.is_array()) j = nlohmann::json::array({std::move(j)});
  if (j.empty()) throw Error("an empty event list");
  std::vector<Event> events;
  std::vector<std::uint8_t> given;
  std::optional<int> id;
  std::optional<game::GameKey> key;
  for (const nlohmann::json& item : j) {
    if (!item.is_object()) throw Error("broken JSON: an event must be a JSON object");
    const data::ParsedLine parsed = data::parse_mjai_line(json::dump(item));
    events.push_back(parsed.event);
    given.push_back(parsed.given);
    if (events.back().type == EventType::start_game && item.contains("id")) {
      const nlohmann::json& v = item["id"];
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 3)
        throw Error("field 'id': expected a seat 0-3");
      id = v.get<int>();
    }
    if (events.back().type == EventType::start_game && item.contains(kGameKeyField)) key = parse_game_key(item[kGameKeyField]);
  }
  return reply_line(react(events, id, given, key));
}

std::optional<Event> MjaiBot::react(const std::vector<Event>& events, std::optional<int> seat_id) {
  return react(events, seat_id, std::vector<std::uint8_t>(events.size(), data::kGivenAll), std::nullopt);
}

std::optional<Event> MjaiBot::react(const std::vector<Event>& events, std::optional<int> seat_id,
                                    const std::vector<std::uint8_t>& given, std::optional<game::GameKey> key) {
  // The line is applied to copies and kept only when every event of it fits: a refused line
  // leaves the bot (and the agent the hook feeds) exactly as before it, so the host's next line
  // meets the state its previous lines built.
  std::optional<game::Seat> seat = seat_;
  std::optional<game::PlayerView> view = view_;
  EventType prev = prev_;
  std::optional<std::size_t> started;  // the event where the agent's game (re)starts
  std::vector<Event> applied;
  applied.reserve(events.size());
  bool open = false;
  for (std::size_t i = 0; i < events.size(); ++i) {
    Event e = events[i];
    if (e.type == EventType::start_game) {
      if (seat_id && !explicit_seat_) seat = game::Seat(*seat_id);
      if (seat_id && explicit_seat_ && *seat_id != seat->index()) {
        warning_ = "start_game id " + std::to_string(*seat_id) + " differs from --seat " + std::to_string(seat->index()) +
                   ": playing seat " + std::to_string(seat->index());
        log::warn("hydra bot: {}", warning_);
      }
      view.reset();
    }
    if (!view) {
      // A host may start with start_game or join at a start_kyoku; anything else needs a view.
      if (e.type != EventType::start_game && e.type != EventType::start_kyoku)
        throw Error("event '" + std::string(game::to_string(e.type)) + "' before start_game or start_kyoku");
      if (!seat) throw Error("the bot's seat is unknown: pass --seat or send start_game with \"id\"");
      view.emplace(*seat, *rules_);
      started = i;
    }
    if (e.type == EventType::start_kyoku) {
      if (!(given[i] & data::kGivenScores)) e.scores = view->scores();
      if (!(given[i] & data::kGivenKyotaku)) e.kyotaku = static_cast<std::uint8_t>(view->kyotaku());
    }
    // The discard after a chi or pon never is a tsumogiri; some hosts and converters (gimite's)
    // mark it as one when the tile happens to be the last drawn one. Read it as the normaliser
    // does (data/normalize.cpp) instead of rejecting the line.
    if (e.type == EventType::dahai && e.tsumogiri && (prev == EventType::chi || prev == EventType::pon)) e.tsumogiri = false;
    view->apply(e);
    // After every event, not once per line: what legal() and the agent rely on must hold at
    // each point the view could be asked for a decision.
    if (const std::string why = game::inconsistency(*view); !why.empty())
      throw Error(why + ", after " + game::describe(e) +
                  (events.size() > 1 ? " (event " + std::to_string(i + 1) + " of the line)" : ""));
    prev = e.type;
    applied.push_back(e);
    // A dora revealed after a rinshan draw keeps the decision the draw opened.
    open = opens_decision(e, *seat) || (e.type == EventType::dora && open);
  }
  seat_ = seat;
  view_ = std::move(view);
  prev_ = prev;
  if (key) key_ = *key;
  for (std::size_t i = 0; i < applied.size(); ++i) {
    if (started && i == *started) agent_->start_game(*seat_, key_);
    if (hook_) hook_(applied[i]);
  }
  return open ? decide() : std::nullopt;
}

bool MjaiBot::opens_decision(const Event& e, game::Seat seat) {
  const bool mine = e.actor == seat;
  switch (e.type) {
    case EventType::tsumo:
    case EventType::chi:
    case EventType::pon:
    case EventType::reach: return mine;
    case EventType::dahai:
    case EventType::kakan:
    case EventType::ankan: return !mine;
    default: return false;
  }
}

std::optional<Event> MjaiBot::decide() {
  view_->legal(legal_);
  if (!can_act(legal_.mask)) return std::nullopt;
  const Action pass(Action::kPass);
  const game::Decision d{*seat_, legal_.phase, legal_.mask};
  // A lone legal action is taken without asking the agent, as the table takes it (table.hpp), so
  // the agent sees the same decisions (and draws the same random numbers) as in Hydra's games.
  const Action a = d.mask.count() == 1 ? d.mask.nth(0) : agent_->act(*view_, d);
  HYDRA_CHECK(d.mask.test(a), "the agent chose an action outside the legal mask");
  if (a == pass) return std::nullopt;
  if (a == Action(Action::kKan) && legal_.kans.size() > 1) {
    const game::Decision select{*seat_, game::Phase::kan_select, legal_.kan_select_mask()};
    const Action t = agent_->act(*view_, select);
    HYDRA_CHECK(select.mask.test(t), "the agent chose a kan outside the candidates");
    return legal_.kan_move(t).to_event(*seat_);
  }
  return legal_.move(a).to_event(*seat_);
}

std::string reply_line(const std::optional<Event>& action) {
  if (!action) return R"({"type":"none"})";
  const Event& e = *action;
  nlohmann::ordered_json j;
  j["type"] = std::string(game::to_string(e.type));
  j["actor"] = e.actor.index();
  auto consumed = [&] {
    nlohmann::ordered_json c = nlohmann::ordered_json::array();
    for (game::Pai p : e.consumed) c.push_back(std::string(game::mjai_name(p)));
    return c;
  };
  switch (e.type) {
    case EventType::dahai:
      j["pai"] = std::string(game::mjai_name(e.pai));
      j["tsumogiri"] = e.tsumogiri;
      break;
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan:
      j["target"] = e.target.index();
      j["pai"] = std::string(game::mjai_name(e.pai));
      j["consumed"] = consumed();
      break;
    case EventType::kakan:
      j["pai"] = std::string(game::mjai_name(e.pai));
      j["consumed"] = consumed();
      break;
    case EventType::ankan: j["consumed"] = consumed(); break;
    case EventType::hora:
      j["target"] = e.target.index();
      j["pai"] = std::string(game::mjai_name(e.pai));
      break;
    default: break;  // reach, ryukyoku: type and actor
  }
  return json::dump(j);
}

}  // namespace hydra::selfplay
