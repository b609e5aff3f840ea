// The mjai bot against every real game in HYDRA_TESTDATA/mjai: each seat in turn is played by
// the greedy bot on the host's view of the game (other seats' draws and deals hidden as "?"),
// the log's own events drive the game, and every reply is checked at that point:
//   - independently of the bot's view: a discard is a tile the seat holds (counted from the
//     deal, draws, discards and calls of the log); a call takes the tile just discarded by the
//     named seat, with held tiles; a win names the last tile; replies fit the event that asked
//     (after an own draw: dahai, reach, hora, a kan or kyuushu; after a discard: a call or hora);
//   - against a separate reference view fed the full events: PlayerView::is_legal;
//   - every own draw, call and riichi gets an action, never "none".
// Also: malformed lines are errors the bot survives.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "hydra/common/error.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/mjai_bot.hpp"
#include "testdata.hpp"

namespace hydra::selfplay {
namespace {

using game::Event;
using game::EventType;
using game::Seat;

// What a host shows `seat`: other seats' draws and dealt hands hidden.
Event hosted(Event e, Seat seat) {
  if (e.type == EventType::tsumo && e.actor != seat) e.pai = game::Pai::unknown();
  if (e.type == EventType::start_kyoku)
    for (int s = 0; s < game::kNumSeats; ++s)
      if (Seat(s) != seat)
        for (game::Pai& p : e.tehais[static_cast<std::size_t>(s)]) p = game::Pai::unknown();
  return e;
}

struct Tally {
  long replies = 0, actions = 0, games = 0, skipped = 0;
  std::vector<std::string> failures;
};

// The seat's closed tiles by kind, kept from the log alone.
struct Held {
  std::array<int, game::kNumTileTypes> n{};
  void add(game::Pai p, int k = 1) { n[static_cast<std::size_t>(p.type().index())] += k; }
  bool has(game::Pai p, int k = 1) const { return n[static_cast<std::size_t>(p.type().index())] >= k; }
};

void play_seat(const data::GameLog& log, Seat seat, const std::string& name, Tally& t) {
  const game::TableRules& rules = game::table_rules("tenhou");
  MjaiBot bot(make_bot("bot:greedy"), rules, seat, game::game_key(game::MasterSeed{7}, 0));
  game::PlayerView ref(seat, rules);
  Held held;
  Event last_discard;
  auto fail = [&](std::size_t i, const std::string& why) {
    if (t.failures.size() < 20) t.failures.push_back(name + " seat " + std::to_string(seat.index()) + " event " +
                                                     std::to_string(i + 1) + ": " + why);
  };
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    const Event& e = log.events[i];
    const std::string line = data::to_mjai_line(hosted(e, seat), log);
    std::string reply;
    try {
      reply = bot.react(line);
    } catch (const std::exception& ex) {
      fail(i, std::string("the bot threw: ") + ex.what());
      return;
    }
    ref.apply(e);
    const bool mine = e.actor == seat;
    switch (e.type) {
      case EventType::start_kyoku:
        held = {};
        for (game::Pai p : e.tehais[static_cast<std::size_t>(seat.index())]) held.add(p);
        break;
      case EventType::tsumo: if (mine) held.add(e.pai); break;
      case EventType::dahai:
        if (mine) held.add(e.pai, -1);
        last_discard = e;
        break;
      case EventType::chi:
      case EventType::pon:
      case EventType::daiminkan:
      case EventType::kakan:
      case EventType::ankan:
        if (mine) for (game::Pai p : e.consumed) held.add(p, -1);
        if (mine && e.type == EventType::kakan) held.add(e.pai, -1);
        break;
      default: break;
    }
    ++t.replies;
    const bool asked = (mine && (e.type == EventType::tsumo || e.type == EventType::chi || e.type == EventType::pon ||
                                 e.type == EventType::reach));
    if (reply == R"({"type":"none"})") {
      if (asked) fail(i, "no action after " + game::describe(e));
      continue;
    }
    ++t.actions;
    Event a;
    try {
      a = data::parse_mjai_line(reply).event;
    } catch (const Error& ex) {
      fail(i, "unreadable reply " + reply + ": " + ex.what());
      continue;
    }
    if (a.type == EventType::ryukyoku) a.actor = seat;  // the parser keeps no actor for a draw
    if (a.actor != seat) fail(i, "reply for another seat: " + reply);
    std::string why;
    if (!ref.is_legal(a, &why)) fail(i, "illegal reply " + reply + " after " + game::describe(e) + ": " + why);
    const bool own_turn = mine && (e.type == EventType::tsumo || e.type == EventType::dora);
    switch (a.type) {
      case EventType::dahai:
        if (!held.has(a.pai)) fail(i, "discards a tile it does not hold: " + reply);
        if (!mine) fail(i, "a discard out of turn: " + reply);
        break;
      case EventType::reach:
      case EventType::ankan:
      case EventType::kakan:
      case EventType::ryukyoku:
        if (!own_turn) fail(i, "a turn action out of turn: " + reply);
        for (game::Pai p : a.consumed)
          if (!held.has(p)) fail(i, "a kan of tiles it does not hold: " + reply);
        break;
      case EventType::chi:
      case EventType::pon:
      case EventType::daiminkan: {
        if (e.type != EventType::dahai || a.target != e.actor || a.pai.type() != e.pai.type())
          fail(i, "a call of something other than the last discard: " + reply);
        Held need;
        for (game::Pai p : a.consumed) need.add(p);
        for (game::Pai p : a.consumed)
          if (!held.has(p, need.n[static_cast<std::size_t>(p.type().index())])) fail(i, "calls with tiles it does not hold: " + reply);
        break;
      }
      case EventType::hora:
        if (a.pai.type() != (own_turn ? ref.last_drawn() : e.pai).type()) fail(i, "a win on another tile: " + reply);
        break;
      default: fail(i, "not an action: " + reply);
    }
  }
  ++t.games;
}

TEST(MjaiBot, EveryReplyOnTheRealCorpusIsLegal) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  Tally t;
  for (const std::filesystem::path& file : data::collect_log_files({dir})) {
    data::GameLog log;
    try {
      log = data::read_mjai(file);
    } catch (const Error&) {
      ++t.skipped;  // a file the reader rejects (covered by the data tests) has no events to feed
      continue;
    }
    for (int s = 0; s < game::kNumSeats; ++s) play_seat(log, Seat(s), file.filename().string(), t);
  }
  for (const std::string& f : t.failures) ADD_FAILURE() << f;
  EXPECT_GT(t.games, 100);
  EXPECT_GT(t.actions, 10000);
  std::printf("mjai bot: %ld seat-games, %ld lines, %ld actions, %ld files skipped\n", t.games, t.replies, t.actions,
              t.skipped);
}

TEST(MjaiBot, SurvivesMalformedLinesAndTakesTheSeatFromStartGame) {
  MjaiBot bot(make_bot("bot:tsumogiri"), game::table_rules("tenhou"), std::nullopt, game::game_key(game::MasterSeed{1}, 0));
  EXPECT_THROW((void)bot.react("{not json"), Error);
  EXPECT_THROW((void)bot.react(R"({"type":"dahai","actor":0})"), Error);  // missing fields
  EXPECT_THROW((void)bot.react(R"({"type":"tsumo","actor":0,"pai":"1m"})"), Error);  // before the game
  EXPECT_EQ(bot.react(R"({"type":"start_game","id":2,"names":["a","b","c","d"]})"), R"({"type":"none"})");
  ASSERT_TRUE(bot.seat());
  EXPECT_EQ(bot.seat()->index(), 2);
  const std::string hidden = R"(["?","?","?","?","?","?","?","?","?","?","?","?","?"])";
  const std::string mine = R"(["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","S","W"])";
  EXPECT_EQ(bot.react(R"({"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1m",)"
                      R"("scores":[25000,25000,25000,25000],"tehais":[)" + hidden + "," + hidden + "," + mine + "," + hidden + "]}"),
            R"({"type":"none"})");
  // An impossible event (seat 2 discarding a tile it does not hold) is an error; the bot goes on.
  EXPECT_THROW((void)bot.react(R"({"type":"dahai","actor":2,"pai":"9m","tsumogiri":false})"), Error);
  // An array line (mjai.app style): the last event decides.
  EXPECT_EQ(bot.react(R"([{"type":"tsumo","actor":0,"pai":"?"},{"type":"dahai","actor":0,"pai":"N","tsumogiri":true},)"
                      R"({"type":"tsumo","actor":1,"pai":"?"},{"type":"dahai","actor":1,"pai":"C","tsumogiri":true}])"),
            R"({"type":"none"})");
  EXPECT_EQ(bot.react(R"({"type":"tsumo","actor":2,"pai":"P"})"), R"({"type":"dahai","actor":2,"pai":"P","tsumogiri":true})");
}

// A host that sends only the events up to the bot's decisions (mjai.app: no hora, no ryukyoku)
// states the totals in start_kyoku alone; the view takes them. Here it says the bot's seat holds
// 200 points, so riichi (>= 1,000 needed) is not legal and the greedy bot, which declares riichi
// on the same hand at 25,000, discards instead.
TEST(MjaiBot, StartKyokuScoresHonbaAndSticksReplaceTheViewsTotals) {
  const std::string hidden = R"(["?","?","?","?","?","?","?","?","?","?","?","?","?"])";
  const std::string mine = R"(["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","S","S"])";
  auto play = [&](const std::string& scores) {
    MjaiBot bot(make_bot("bot:greedy"), game::table_rules("tenhou"), std::nullopt, game::game_key(game::MasterSeed{1}, 0));
    bot.react(R"({"type":"start_game","id":2,"names":["a","b","c","d"]})");
    bot.react(R"({"type":"start_kyoku","bakaze":"S","kyoku":3,"honba":2,"kyotaku":3,"oya":2,"dora_marker":"1p",)"
              R"("scores":)" + scores + R"(,"tehais":[)" + hidden + "," + hidden + "," + mine + "," + hidden + "]}");
    const std::string reply = bot.react(R"({"type":"tsumo","actor":2,"pai":"W"})");
    game::Scores seen{};
    if (const game::PlayerView* v = bot.view()) {
      EXPECT_EQ(v->honba(), 2);
      EXPECT_EQ(v->kyotaku(), 3);
      seen = v->scores();
    } else {
      ADD_FAILURE() << "no view";
    }
    return std::pair{seen, reply};
  };
  const auto [poor, poor_reply] = play("[40000,32800,200,24000]");
  EXPECT_EQ(poor, (game::Scores{40000, 32800, 200, 24000}));
  EXPECT_EQ(poor_reply, R"({"type":"dahai","actor":2,"pai":"W","tsumogiri":true})");
  const auto [rich, rich_reply] = play("[25000,25000,22000,25000]");
  EXPECT_EQ(rich, (game::Scores{25000, 25000, 22000, 25000}));
  EXPECT_EQ(rich_reply, R"({"type":"reach","actor":2})");

  // A start_kyoku without scores and kyotaku (gimite's dialect) keeps the view's running totals.
  MjaiBot bot(make_bot("bot:tsumogiri"), game::table_rules("tenhou"), game::Seat(0), game::game_key(game::MasterSeed{1}, 0));
  bot.react(R"({"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1p",)"
            R"("scores":[30000,20000,25000,24000],"tehais":[)" + mine + "," + hidden + "," + hidden + "," + hidden + "]}");
  bot.react(R"({"type":"ryukyoku","deltas":[3000,-1000,-1000,-1000]})");
  bot.react(R"({"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":1,"oya":0,"dora_marker":"1p","tehais":[)" + mine + "," +
            hidden + "," + hidden + "," + hidden + "]}");
  const game::PlayerView* v = bot.view();
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->scores(), (game::Scores{33000, 19000, 24000, 23000}));
  EXPECT_EQ(v->honba(), 1);
}

// mjai 0.2.1's Docker engine sends the game index as start_game's id: an explicit seat wins,
// with a warning when they differ.
TEST(MjaiBot, ExplicitSeatWinsOverStartGameId) {
  MjaiBot bot(make_bot("bot:tsumogiri"), game::table_rules("tenhou"), game::Seat(1), game::game_key(game::MasterSeed{1}, 0));
  bot.react(R"({"type":"start_game","id":1,"names":["a","b","c","d"]})");
  EXPECT_EQ(bot.seat()->index(), 1);
  EXPECT_EQ(bot.warning(), "");
  bot.react(R"({"type":"start_game","id":3,"names":["a","b","c","d"]})");
  EXPECT_EQ(bot.seat()->index(), 1);
  EXPECT_EQ(bot.warning(), "start_game id 3 differs from --seat 1: playing seat 1");
  const std::string hidden = R"(["?","?","?","?","?","?","?","?","?","?","?","?","?"])";
  const std::string mine = R"(["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","S","W"])";
  bot.react(R"({"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1m",)"
            R"("scores":[25000,25000,25000,25000],"tehais":[)" + hidden + "," + mine + "," + hidden + "," + hidden + "]}");
  EXPECT_EQ(bot.react(R"({"type":"tsumo","actor":1,"pai":"P"})"), R"({"type":"dahai","actor":1,"pai":"P","tsumogiri":true})");
}

}  // namespace
}  // namespace hydra::selfplay
