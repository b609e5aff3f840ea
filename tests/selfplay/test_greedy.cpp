// The greedy bot's decisions on hand-made positions whose right answer is worked out by hand,
// the bot names, and its determinism.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hydra/common/error.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/selfplay/bots.hpp"

namespace hydra::selfplay {
namespace {

using game::Action;

std::string names(std::string_view compact) {
  std::string out;
  for (game::Pai p : game::parse_compact(compact)) out += (out.empty() ? "\"" : ",\"") + std::string(game::mjai_name(p)) + "\"";
  return "[" + out + "]";
}

// A view of seat 0 (the dealer) dealt `hand`, after the events in `lines`.
game::PlayerView view_after(std::string_view hand, const std::vector<std::string>& lines) {
  game::PlayerView v(game::Seat(0), game::table_rules("tenhou"));
  const std::string hidden = R"(["?","?","?","?","?","?","?","?","?","?","?","?","?"])";
  v.apply(data::parse_mjai_line(R"({"type":"start_game"})").event);
  v.apply(data::parse_mjai_line(R"({"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,)"
                                R"("scores":[25000,25000,25000,25000],"dora_marker":"9m","tehais":[)" + names(hand) + "," + hidden + "," + hidden +
                                "," + hidden + "]}")
              .event);
  for (const std::string& l : lines) v.apply(data::parse_mjai_line(l).event);
  return v;
}

Action decide(GreedyAgent& bot, const game::PlayerView& v) {
  const game::Legal l = v.legal();
  return bot.act(v, game::Decision{v.seat(), l.phase, l.mask});
}

GreedyAgent started() {
  GreedyAgent bot;
  bot.start_game(game::Seat(0), game::game_key(game::MasterSeed{1}, 0));
  return bot;
}

TEST(Greedy, DiscardsTheGuestWindOverTheDragonAndTheLoneSou) {
  // 123m 456p 789s EE + 1s C, drawing N: 1-shanten whatever goes. Keeping 1s accepts 1-3s plus
  // the honour's pair; keeping C and N accepts only the two honours: 1s stays. C and N tie on
  // ukeire; N (a guest wind for East) is worth less than a dragon.
  GreedyAgent bot = started();
  const auto v = view_after("123m456p789s1s11z7z", {R"({"type":"tsumo","actor":0,"pai":"N"})"});
  EXPECT_EQ(decide(bot, v), Action(30));
}

TEST(Greedy, DeclaresRiichiWhenTenpaiThenKeepsTheWait) {
  // 123m 456p 789s EE 23s drawing P: discard P and wait on 1s-4s.
  GreedyAgent bot = started();
  auto v = view_after("123m456p789s23s11z", {R"({"type":"tsumo","actor":0,"pai":"P"})"});
  EXPECT_EQ(decide(bot, v), Action(Action::kRiichi));
  v.apply(data::parse_mjai_line(R"({"type":"reach","actor":0})").event);
  EXPECT_EQ(decide(bot, v), Action(31));
}

TEST(Greedy, TakesTheWin) {
  GreedyAgent bot = started();
  // Tsumo on 123m 456p 789s EE 23s + 1s (riichi not declared; menzen tsumo is a yaku).
  const auto v = view_after("123m456p789s23s11z", {R"({"type":"tsumo","actor":0,"pai":"1s"})"});
  EXPECT_EQ(decide(bot, v), Action(Action::kAgari));
}

TEST(Greedy, FoldsWithGenbutsuThenSuji) {
  // Seat 1 declares riichi discarding 4m. Seat 0 holds a far hand with 4m (genbutsu) and 1m/7m
  // (suji of 4m): it must discard 4m first. The hand: 1m 4m 7m 2p 5p 8p 3s 6s 9s E S W P + C.
  GreedyAgent bot = started();
  const std::vector<std::string> lines = {
      R"({"type":"tsumo","actor":0,"pai":"F"})", R"({"type":"dahai","actor":0,"pai":"F","tsumogiri":true})",
      R"({"type":"tsumo","actor":1,"pai":"?"})", R"({"type":"reach","actor":1})",
      R"({"type":"dahai","actor":1,"pai":"4m","tsumogiri":false})", R"({"type":"reach_accepted","actor":1})",
      R"({"type":"tsumo","actor":2,"pai":"?"})", R"({"type":"dahai","actor":2,"pai":"9p","tsumogiri":true})",
      R"({"type":"tsumo","actor":3,"pai":"?"})", R"({"type":"dahai","actor":3,"pai":"9p","tsumogiri":true})",
      R"({"type":"tsumo","actor":0,"pai":"C"})"};
  const auto v = view_after("147m258p369s1235z", lines);
  EXPECT_EQ(decide(bot, v), Action(3));  // 4m
  // Without the 4m, the suji 1m or 7m (danger 2) beats every other tile.
  const auto w = view_after("157m258p369s1235z", lines);
  const Action a = decide(bot, w);
  EXPECT_TRUE(a == Action(0) || a == Action(6)) << game::to_string(a);
}

TEST(Greedy, SameSeedSameChoices) {
  // Ties broken by the seeded stream replay: two bots from the same key choose alike.
  const auto v = view_after("2468m2468p2468s5z", {R"({"type":"tsumo","actor":0,"pai":"E"})"});
  GreedyAgent a = started(), b = started();
  for (int i = 0; i < 20; ++i) EXPECT_EQ(decide(a, v), decide(b, v));
}

TEST(Bots, NamesAndErrors) {
  for (const std::string& n : bot_names()) EXPECT_NE(make_bot(n), nullptr) << n;
  EXPECT_EQ(make_bot("bot:greedy")->name(), "greedy");
  EXPECT_THROW((void)make_bot("bot:nope"), Error);
  try {
    (void)make_bot("runs/ckpt.pt");
    FAIL() << "a checkpoint must be rejected";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unsupported until"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hydra::selfplay
