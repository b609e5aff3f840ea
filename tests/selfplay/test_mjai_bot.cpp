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
#include "hydra/common/index.hpp"

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
        for (game::Pai& p : e.tehais[ix(s)]) p = game::Pai::unknown();
  return e;
}

struct Tally {
  long replies = 0, actions = 0, games = 0, skipped = 0;
  std::vector<std::string> failures;
};

// The seat's closed tiles by kind, kept from the log alone.
struct Held {
  std::array<int, game::kNumTileTypes> n{};
  void add(game::Pai p, int k = 1) { n[ix(p.type().index())] += k; }
  bool has(game::Pai p, int k = 1) const { return n[ix(p.type().index())] >= k; }
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
        for (game::Pai p : e.tehais[ix(seat.index())]) held.add(p);
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
          if (!held.has(p, need.n[ix(p.type().index())])) fail(i, "calls with tiles it does not hold: " + reply);
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

// Before the first start_kyoku and after an end_kyoku the seat holds no hand to act on: every
// event of play (here a reach, which would ask the bot for a riichi discard) is refused with its
// reason, and the bot serves the next kyoku as if the line never came.
TEST(MjaiBot, PlayOutsideAKyokuIsRefused) {
  MjaiBot bot(make_bot("bot:greedy"), game::table_rules("tenhou"), std::nullopt, game::game_key(game::MasterSeed{1}, 0));
  EXPECT_EQ(bot.react(R"({"type":"start_game","id":0})"), R"({"type":"none"})");
  for (const char* line : {R"({"type":"reach","actor":0})", R"({"type":"reach_accepted","actor":0})",
                           R"({"type":"dora","dora_marker":"1m"})", R"({"type":"hora","actor":0,"target":0,"pai":"1m"})"}) {
    try {
      (void)bot.react(line);
      ADD_FAILURE() << "accepted " << line;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("outside a kyoku"), std::string::npos) << e.what();
    }
  }
  const std::string hidden = R"(["?","?","?","?","?","?","?","?","?","?","?","?","?"])";
  const std::string mine = R"(["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","S","W"])";
  const std::string start = R"({"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1m",)"
                            R"("scores":[25000,25000,25000,25000],"tehais":[)" + mine + "," + hidden + "," + hidden + "," + hidden + "]}";
  EXPECT_EQ(bot.react(start), R"({"type":"none"})");
  EXPECT_EQ(bot.react(R"({"type":"ryukyoku","deltas":[0,0,0,0]})"), R"({"type":"none"})");
  EXPECT_EQ(bot.react(R"({"type":"end_kyoku"})"), R"({"type":"none"})");
  EXPECT_THROW((void)bot.react(R"({"type":"reach","actor":0})"), Error);  // between kyoku
  EXPECT_EQ(bot.react(start), R"({"type":"none"})");
  // The draw makes the hand tenpai (discarding S waits on E/W): greedy declares riichi.
  EXPECT_EQ(bot.react(R"({"type":"tsumo","actor":0,"pai":"W"})"), R"({"type":"reach","actor":0})");
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


// The event hook (how `hydra bot` feeds a checkpoint agent's own view) sees the events of the
// lines the bot took, each once, and nothing of a refused line.
TEST(MjaiBot, TheEventHookSeesOnlyTheLinesTaken) {
  long seen = 0;
  MjaiBot bot(make_bot("bot:tsumogiri"), game::table_rules("tenhou"), Seat(0), game::game_key(game::MasterSeed{1}, 0));
  bot.set_event_hook([&seen](const Event&) { ++seen; });
  const std::string hidden = R"(["?","?","?","?","?","?","?","?","?","?","?","?","?"])";
  const std::string mine = R"(["1m","1m","1m","4p","5p","6p","7s","8s","9s","E","E","S","W"])";
  bot.react(R"([{"type":"start_game","names":["a","b","c","d"]},{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,)"
            R"("kyotaku":0,"oya":0,"dora_marker":"1m","scores":[25000,25000,25000,25000],"tehais":[)" + mine + "," + hidden +
            "," + hidden + "," + hidden + "]}]");
  EXPECT_EQ(seen, 2);
  // The second event discards a fifth 1m (three in the hand, the indicator, this one): the
  // valid draw before it is not observed either.
  EXPECT_THROW(bot.react(R"([{"type":"tsumo","actor":1,"pai":"?"},{"type":"dahai","actor":1,"pai":"1m","tsumogiri":true}])"),
               Error);
  EXPECT_EQ(seen, 2);
  EXPECT_EQ(bot.react(R"({"type":"tsumo","actor":0,"pai":"N"})"), R"({"type":"dahai","actor":0,"pai":"N","tsumogiri":true})");
  EXPECT_EQ(seen, 3);
}

// Inconsistent hosts: events that once reached invariant checks meant for bugs. Every case below
// must be refused as a hydra::Error naming why, leave the bot as it was before the line, and
// let the bot go on serving.
class MjaiBotRefuses : public ::testing::Test {
 protected:
  MjaiBot bot{make_bot("bot:greedy"), game::table_rules("tenhou"), Seat(0), game::game_key(game::MasterSeed{3}, 0)};

  static std::string kyoku(const std::string& mine, const std::string& dora = "9p") {
    const std::string hidden = R"(["?","?","?","?","?","?","?","?","?","?","?","?","?"])";
    return R"({"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":")" + dora +
           R"(","scores":[25000,25000,25000,25000],"tehais":[)" + mine + "," + hidden + "," + hidden + "," + hidden + "]}";
  }
  // The error of a refused line; the test fails when the line is taken.
  std::string refusal(const std::string& line) {
    try {
      (void)bot.react(line);
    } catch (const InvariantError& e) {
      ADD_FAILURE() << "invariant failure on " << line << ": " << e.what();
      return {};
    } catch (const Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "taken: " << line;
    return {};
  }
  std::string state() const {
    const game::PlayerView* v = bot.view();
    if (v == nullptr) return "no view";
    std::string s = game::to_compact(v->hand().closed) + " melds " + std::to_string(v->hand().num_melds) + " phase " +
                    std::string(game::to_string(v->phase()));
    for (int r = 0; r < game::kNumSeats; ++r) s += " river" + std::to_string(r) + ":" + std::to_string(v->river(Seat(r)).size());
    return s;
  }
};

TEST_F(MjaiBotRefuses, RiichiWithoutATenpaiDiscard) {
  bot.react(kyoku(R"(["1m","4m","7m","1p","4p","7p","1s","4s","7s","E","S","W","N"])"));
  EXPECT_NE(bot.react(R"({"type":"tsumo","actor":0,"pai":"P"})"), R"({"type":"none"})");
  const std::string before = state();
  EXPECT_NE(refusal(R"({"type":"reach","actor":0})").find("riichi without a discard that keeps it tenpai"), std::string::npos);
  EXPECT_EQ(state(), before);
  // Still serving: the own discard the host sends next is taken.
  EXPECT_EQ(bot.react(R"({"type":"dahai","actor":0,"pai":"P","tsumogiri":true})"), R"({"type":"none"})");
}

TEST_F(MjaiBotRefuses, FiveCopiesInADealWholeLeavingThePreviousKyoku) {
  bot.react(kyoku(R"(["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","S","W"])"));
  const std::string before = state();
  EXPECT_NE(refusal(kyoku(R"(["1m","1m","1m","1m","1m","5p","6p","7s","8s","9s","E","S","W"])")).find("five of a kind"),
            std::string::npos);
  EXPECT_EQ(state(), before);  // not half applied: the old kyoku's hand, not the five 1m
  EXPECT_NE(bot.react(R"({"type":"tsumo","actor":0,"pai":"N"})"), R"({"type":"none"})");
}

TEST_F(MjaiBotRefuses, ADrawOrCallThatLeavesTheHandTheWrongSize) {
  bot.react(kyoku(R"(["1m","1m","1m","1m","2m","2m","2m","2m","3p","4p","5p","E","E"])"));
  bot.react(R"({"type":"tsumo","actor":0,"pai":"W"})");
  bot.react(R"({"type":"ankan","actor":0,"consumed":["1m","1m","1m","1m"]})");
  const std::string before = state();
  // A second ankan without the rinshan draw would leave 6 closed tiles and two kans (12).
  EXPECT_NE(refusal(R"({"type":"ankan","actor":0,"consumed":["2m","2m","2m","2m"]})").find("closed tiles"), std::string::npos);
  EXPECT_EQ(state(), before);
  // Another seat's discard while seat 0 still holds 14 tiles (its own discard never came).
  bot.react(R"({"type":"tsumo","actor":0,"pai":"N"})");
  EXPECT_NE(refusal(R"({"type":"dahai","actor":1,"pai":"9s","tsumogiri":false})").find("closed tiles"), std::string::npos);
  EXPECT_EQ(bot.react(R"({"type":"dahai","actor":0,"pai":"N","tsumogiri":true})"), R"({"type":"none"})");
}

TEST_F(MjaiBotRefuses, AFifthVisibleCopy) {
  bot.react(kyoku(R"(["1m","1m","1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E"])", "1m"));
  // Seat 0 holds three 1m and sees the indicator: a discarded 1m would be the fifth.
  const std::string before = state();
  EXPECT_NE(refusal(R"([{"type":"tsumo","actor":1,"pai":"?"},{"type":"dahai","actor":1,"pai":"1m","tsumogiri":true}])")
                .find("5 visible copies of 1m"),
            std::string::npos);
  EXPECT_EQ(state(), before);  // the whole line refused, its valid first event too
  EXPECT_FALSE(refusal(R"({"type":"dahai","actor":2,"pai":"?","tsumogiri":true})").empty());  // a hidden discard
}

TEST_F(MjaiBotRefuses, SixCopiesOverSeveralLines) {
  bot.react(kyoku(R"(["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","S","W"])"));
  int refused = 0;
  for (int i = 0; i < 6; ++i) {
    const int seat = 1 + i % 3;
    const std::string s = std::to_string(seat);
    try {
      bot.react(R"([{"type":"tsumo","actor":)" + s + R"(,"pai":"?"},{"type":"dahai","actor":)" + s +
                R"(,"pai":"C","tsumogiri":true}])");
    } catch (const InvariantError& e) {
      FAIL() << e.what();
    } catch (const Error& e) {
      ++refused;
      EXPECT_NE(std::string(e.what()).find("visible copies of C"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(refused, 2);  // the fifth and sixth
  const game::PlayerView* view = bot.view();
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->river(Seat(1)).size() + view->river(Seat(2)).size() + view->river(Seat(3)).size(), 4);
}

}  // namespace
}  // namespace hydra::selfplay
