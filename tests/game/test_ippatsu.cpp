// Every event that ends ippatsu, checked on the riichi player's view against Tenhou's rules: any
// call ends every ippatsu (chi, pon, daiminkan, a completed kakan, an ankan by any seat, the
// riichi player's own ankan), except a kakan robbed by chankan, which never completes, so the
// riichi player who robs it keeps ippatsu and Tenhou pays riichi + ippatsu + chankan
// (https://riichi.wiki/Ippatsu, "Cancellation" and "Compatibility"; docs/RULES.md).
//
// Seat 0 (the East 1 dealer) holds 123m 56p 789s EEE 55s, waiting on 4p-7p, and declares riichi
// on its second draw. Seat 1 called pon on 4p before that, so it can add the fourth 4p.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hydra/game/view.hpp"
#include "hydra/common/index.hpp"

namespace hydra::game {
namespace {

Pai tile(const char* name) { return parse_mjai(name); }

Event ev(EventType type, int actor = -1, const char* pai = nullptr) {
  Event e;
  e.type = type;
  if (actor >= 0) e.actor = Seat(actor);
  if (pai) e.pai = tile(pai);
  return e;
}
Event tsumo(int s, const char* p) { return ev(EventType::tsumo, s, p); }
Event dahai(int s, const char* p, bool tsumogiri = false) {
  Event e = ev(EventType::dahai, s, p);
  e.tsumogiri = tsumogiri;
  return e;
}
Event call(EventType type, int s, int target, const char* p, std::vector<const char*> consumed) {
  Event e = ev(type, s, p);
  if (target >= 0) e.target = Seat(target);
  for (const char* c : consumed) e.consumed.push_back(tile(c));
  return e;
}

class Ippatsu : public ::testing::Test {
 protected:
  Ippatsu() : view_(Seat(0), table_rules("tenhou")) {
    apply(ev(EventType::start_game));
    Event k = ev(EventType::start_kyoku);
    k.bakaze = TileType(27);
    k.kyoku = 1;
    k.oya = Seat(0);
    k.dora_marker = tile("1s");  // dora 2s: nobody's hand below holds one
    k.scores = {25000, 25000, 25000, 25000};
    for (const char* p : {"1m", "2m", "3m", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "5s", "5s"}) k.tehais[0].push_back(tile(p));
    for (int s = 1; s < kNumSeats; ++s)
      for (int i = 0; i < 13; ++i) k.tehais[ix(s)].push_back(Pai::unknown());
    apply(k);
    // First go-around: seat 1 calls pon on seat 2's 4p.
    apply(tsumo(0, "N"));
    apply(dahai(0, "N", true));
    apply(tsumo(1, "?"));
    apply(dahai(1, "S"));
    apply(tsumo(2, "?"));
    apply(dahai(2, "4p"));
    apply(call(EventType::pon, 1, 2, "4p", {"4p", "4p"}));
    apply(dahai(1, "W"));
    apply(tsumo(2, "?"));
    apply(dahai(2, "9p"));
    apply(tsumo(3, "?"));
    apply(dahai(3, "1p"));
    // Seat 0 declares riichi; the declaration tile passes.
    apply(tsumo(0, "9m"));
    apply(ev(EventType::reach, 0));
    apply(dahai(0, "9m", true));
    Event accepted = ev(EventType::reach_accepted, 0);
    accepted.deltas = {-1000, 0, 0, 0};
    apply(accepted);
    EXPECT_TRUE(view_.ippatsu(Seat(0)));
  }

  void apply(const Event& e) { view_.apply(e); }
  bool ippatsu() const { return view_.ippatsu(Seat(0)); }
  // Seat 0's ron on `pai` from `from`, as scoring sees it now (no ura dora).
  WinResult ron(const char* pai, int from) const { return view_.evaluate_win(tile(pai), false, Seat(from), DoraMarkers()); }

  PlayerView view_;
};

TEST_F(Ippatsu, OthersDiscardsKeepItAndTheOwnNextDiscardEndsIt) {
  apply(tsumo(1, "?"));
  apply(dahai(1, "1s"));
  apply(tsumo(2, "?"));
  apply(dahai(2, "2s"));
  apply(tsumo(3, "?"));
  apply(dahai(3, "3s"));
  EXPECT_TRUE(ippatsu());
  apply(tsumo(0, "9p"));
  EXPECT_TRUE(ippatsu());  // a tsumo on this draw is ippatsu
  apply(dahai(0, "9p", true));
  EXPECT_FALSE(ippatsu());
}

TEST_F(Ippatsu, ChiEndsIt) {
  apply(call(EventType::chi, 1, 0, "9m", {"7m", "8m"}));
  EXPECT_FALSE(ippatsu());
}

TEST_F(Ippatsu, PonEndsIt) {
  apply(call(EventType::pon, 2, 0, "9m", {"9m", "9m"}));
  EXPECT_FALSE(ippatsu());
}

TEST_F(Ippatsu, DaiminkanEndsIt) {
  apply(call(EventType::daiminkan, 3, 0, "9m", {"9m", "9m", "9m"}));
  EXPECT_FALSE(ippatsu());
}

// Seat 1 adds the fourth 4p; nobody robs it, the rinshan draw completes the kan.
TEST_F(Ippatsu, CompletedKakanEndsItAtItsRinshanDraw) {
  apply(tsumo(1, "4p"));
  apply(call(EventType::kakan, 1, -1, "4p", {"4p", "4p", "4p"}));
  EXPECT_EQ(view_.phase(), Phase::chankan);
  EXPECT_TRUE(ippatsu());  // still open while the tile may be robbed
  apply(tsumo(1, "?"));
  EXPECT_FALSE(ippatsu());
}

// The same kakan robbed: riichi 1 + ippatsu 1 + chankan 1 + double East 2 = 5 han, a dealer
// mangan ron of 12,000 (worked by hand).
TEST_F(Ippatsu, RobbedKakanKeepsItRiichiIppatsuChankan) {
  apply(tsumo(1, "4p"));
  apply(call(EventType::kakan, 1, -1, "4p", {"4p", "4p", "4p"}));
  Event hora = ev(EventType::hora, 0, "4p");
  hora.target = Seat(1);
  std::string why;
  EXPECT_TRUE(view_.is_legal(hora, &why)) << why;
  const WinResult r = ron("4p", 1);
  ASSERT_TRUE(r.is_win());
  EXPECT_TRUE(r.has(Yaku::riichi));
  EXPECT_TRUE(r.has(Yaku::ippatsu));
  EXPECT_TRUE(r.has(Yaku::chankan));
  EXPECT_EQ(r.han, 5);
  EXPECT_EQ(r.points, 12000);
}

TEST_F(Ippatsu, AnotherSeatsAnkanEndsItAtItsRinshanDraw) {
  apply(tsumo(1, "?"));
  apply(call(EventType::ankan, 1, -1, nullptr, {"7p", "7p", "7p", "7p"}));
  Event dora = ev(EventType::dora);
  dora.dora_marker = tile("3s");
  apply(dora);
  apply(tsumo(1, "?"));
  EXPECT_FALSE(ippatsu());
  apply(dahai(1, "4p"));  // a ron on this discard is riichi without ippatsu
  EXPECT_FALSE(ron("4p", 1).has(Yaku::ippatsu));
}

// The riichi player's own ankan (EEE + the fourth East keeps the wait): the rinshan draw wins
// with riichi, tsumo, rinshan and double East, but without ippatsu.
TEST_F(Ippatsu, OwnAnkanEndsIt) {
  for (int s = 1; s < kNumSeats; ++s) {
    apply(tsumo(s, "?"));
    apply(dahai(s, s == 1 ? "1s" : s == 2 ? "2s" : "3s"));
  }
  apply(tsumo(0, "E"));
  EXPECT_TRUE(ippatsu());
  apply(call(EventType::ankan, 0, -1, nullptr, {"E", "E", "E", "E"}));
  Event dora = ev(EventType::dora);
  dora.dora_marker = tile("3s");
  apply(dora);
  apply(tsumo(0, "7p"));
  EXPECT_FALSE(ippatsu());
  const WinResult r = view_.evaluate_win(tile("7p"), true, Seat(0), DoraMarkers());
  ASSERT_TRUE(r.is_win());
  EXPECT_TRUE(r.has(Yaku::rinshan));
  EXPECT_TRUE(r.has(Yaku::riichi));
  EXPECT_FALSE(r.has(Yaku::ippatsu));
}

}  // namespace
}  // namespace hydra::game
