// The 4 full-wall Houou games in mjx protobuf-JSON: each kyoku's recorded wall dealt by the
// engine's Table (Table(rules, walls)), the recorded actions played at its decisions, and every
// table event checked against the record: the deal, each draw (rinshan included), each discard
// and call, every dora indicator, riichi, each win's and draw's payments and the scores after
// every kyoku. The record is independent truth: mjx took it from Tenhou. At every decision the
// privileged planes (encoder/privileged.hpp) of the deciding seat predict the next live draw from
// the engine's state; whenever no call or kan comes first, the record's next draw is that tile,
// by that seat.

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hydra/common/error.hpp"
#include "hydra/data/mjx.hpp"
#include "hydra/data/tenhou.hpp"
#include "hydra/encoder/privileged.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/table.hpp"
#include "testdata.hpp"
#include "hydra/common/index.hpp"

namespace hydra::data {
namespace {

namespace fs = std::filesystem;
using game::Action;
using game::Event;
using game::EventType;
using game::Pai;
using game::Phase;
using game::Seat;
using game::Tile;
using T = MjxEventType;

Pai pai(int id) { return Pai(Tile(id)); }

std::vector<Pai> sorted(std::vector<Pai> v) {
  std::sort(v.begin(), v.end(), [](Pai a, Pai b) { return a.index() < b.index(); });
  return v;
}

struct Tally {
  int kyoku = 0, draws = 0, doras = 0, wins = 0, draws_ended = 0, decisions = 0;
  int predicted_draws = 0;  // next draws the privileged planes predicted, checked against the record
};

// Plays one recorded game on its walls; throws hydra::Error at the first difference.
class Player {
 public:
  Player(const std::vector<MjxKyoku>& record, Tally& tally) : rec_(record), tally_(tally) {
    std::vector<game::Wall::Tiles> walls;
    for (const MjxKyoku& k : rec_) walls.push_back(k.wall);
    table_.emplace(game::table_rules("tenhou"), walls);
  }

  void run() {
    sync();
    while (!table_->done()) {
      const auto pending = table_->pending();  // a copy: act() replaces it
      if (pending.empty()) fail("the table waits for nothing but is not done");
      for (const game::Decision& d : pending) {
        predict_next_draw(d.seat);
        const Action a = choose(d);
        if (!d.mask.test(a)) fail("seat " + std::to_string(d.seat.index()) + ": the recorded action " + std::to_string(a.index()) + " is not legal in phase " + std::string(game::to_string(d.phase)));
        table_->act(d.seat, a);
        ++tally_.decisions;
      }
      sync();
    }
    if (k_ != rec_.size()) fail("the game ended after " + std::to_string(k_) + " of " + std::to_string(rec_.size()) + " kyoku");
    if (!rec_.back().game_over) fail("the record does not end the game where the table did");
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error("kyoku " + std::to_string(k_ + 1) + ", record event " + std::to_string(p_) + ": " + what);
  }
  const MjxKyoku& kyoku() const {
    if (k_ >= rec_.size()) fail("the table plays more kyoku than recorded");
    return rec_[k_];
  }
  void skip_new_dora() {
    while (p_ < kyoku().events.size() && kyoku().events[p_].type == T::new_dora) ++p_;
  }
  // The next recorded event, which must be of one of `types` and by `who`.
  const MjxEvent& expect(std::initializer_list<T> types, int who, const char* what) {
    skip_new_dora();
    if (p_ >= kyoku().events.size()) fail(std::string("the table has ") + what + " of seat " + std::to_string(who) + " after the record's last event");
    const MjxEvent& m = kyoku().events[p_];
    if (std::find(types.begin(), types.end(), m.type) == types.end() || m.who != who)
      fail(std::string("the table has ") + what + " of seat " + std::to_string(who) + ", the record event type " + std::to_string(static_cast<int>(m.type)) + " of seat " + std::to_string(m.who));
    ++p_;
    return m;
  }

  void check_meld(const Event& e, T type, const char* what) {
    const MjxEvent& m = expect({type}, e.actor.index(), what);
    const Event rec = decode_tenhou_meld(m.who, m.open);
    if (rec.type != e.type || rec.pai != e.pai ||
        sorted({rec.consumed.begin(), rec.consumed.end()}) != sorted({e.consumed.begin(), e.consumed.end()}))
      fail(std::string(what) + " differs from the record's meld code " + std::to_string(m.open));
  }

  void sync() {
    const auto& events = table_->events();
    for (; seen_ < events.size(); ++seen_) on_event(events[seen_]);
  }

  void on_event(const Event& e) {
    switch (e.type) {
      case EventType::start_game: break;
      case EventType::start_kyoku: {
        const MjxKyoku& k = kyoku();
        p_ = 0;
        drawn_ = {};
        dora_ = 1;
        win_ = 0;
        ++tally_.kyoku;
        if (e.scores != k.init_scores || e.honba != k.honba || e.kyotaku != k.riichi) fail("start scores, honba or sticks differ");
        if (e.dora_marker != pai(k.dora_indicators[0])) fail("the first dora indicator differs");
        ++tally_.doras;
        for (std::size_t s = 0; s < game::kNumSeats; ++s) {
          std::vector<Pai> dealt;
          for (int id : k.init_hands[s]) dealt.push_back(pai(id));
          if (sorted(dealt) != sorted({e.tehais[s].begin(), e.tehais[s].end()})) fail("seat " + std::to_string(s) + "'s deal differs");
        }
        break;
      }
      case EventType::tsumo: {
        const auto s = ix(e.actor.index());
        expect({T::draw}, e.actor.index(), "a draw");
        const auto& d = kyoku().draws[s];
        // The privileged planes' next draw (absent calls: none came since it was predicted) is
        // the tile the record says this seat drew.
        if (predicted_ && drawn_[s] < d.size()) {
          if (predicted_->first != e.actor.index() || predicted_->second != pai(d[drawn_[s]]).type().index())
            fail("the privileged planes predicted seat " + std::to_string(predicted_->first) + " to draw tile type " +
                 std::to_string(predicted_->second) + " next");
          ++tally_.predicted_draws;
        }
        predicted_.reset();
        if (drawn_[s] >= d.size() || pai(d[drawn_[s]]) != e.pai)
          fail("seat " + std::to_string(s) + "'s draw " + std::to_string(drawn_[s] + 1) + " is " + std::string(game::mjai_name(e.pai)) + ", not the recorded tile");
        ++drawn_[s];
        ++tally_.draws;
        break;
      }
      case EventType::dahai: {
        const MjxEvent& m = expect({T::discard, T::tsumogiri}, e.actor.index(), "a discard");
        if (pai(m.tile) != e.pai) fail("the discard differs");
        break;
      }
      case EventType::reach: expect({T::riichi}, e.actor.index(), "a riichi"); break;
      case EventType::reach_accepted: expect({T::riichi_score_change}, e.actor.index(), "an accepted riichi"); break;
      case EventType::chi: predicted_.reset(); check_meld(e, T::chi, "a chi"); break;
      case EventType::pon: predicted_.reset(); check_meld(e, T::pon, "a pon"); break;
      case EventType::daiminkan: predicted_.reset(); check_meld(e, T::open_kan, "a daiminkan"); break;
      case EventType::ankan: predicted_.reset(); check_meld(e, T::closed_kan, "an ankan"); break;
      case EventType::kakan: predicted_.reset(); check_meld(e, T::added_kan, "a kakan"); break;
      case EventType::dora: {
        const MjxKyoku& k = kyoku();
        if (dora_ >= k.dora_indicators.size() || e.dora_marker != pai(k.dora_indicators[dora_])) fail("kan dora indicator " + std::to_string(dora_ + 1) + " differs");
        ++dora_;
        ++tally_.doras;
        break;
      }
      case EventType::hora: {
        const MjxEvent& m = expect({T::tsumo, T::ron}, e.actor.index(), "a win");
        const MjxKyoku& k = kyoku();
        if (win_ >= k.wins.size()) fail("more wins than recorded");
        const MjxWin& w = k.wins[win_++];
        if (w.who != e.actor.index() || w.from_who != e.target.index() || pai(m.tile) != e.pai) fail("the win differs");
        if (w.ten_changes != e.deltas) fail("the win's payments differ");
        last_scores_ = e.scores;
        ++tally_.wins;
        break;
      }
      case EventType::ryukyoku: {
        const MjxKyoku& k = kyoku();
        skip_new_dora();
        if (p_ >= k.events.size()) fail("a draw the record does not have");
        const T t = k.events[p_++].type;
        if (t == T::exhaustive_draw_normal || t == T::exhaustive_draw_nagashi_mangan) {
          if (!k.no_winner || k.no_winner_changes != e.deltas) fail("the draw's payments differ");
        } else if (t != T::abortive_nine_terminals && t != T::abortive_four_riichis && t != T::abortive_three_rons &&
                   t != T::abortive_four_kans && t != T::abortive_four_winds) {
          fail("a draw where the record has event type " + std::to_string(static_cast<int>(t)));
        }
        last_scores_ = e.scores;
        ++tally_.draws_ended;
        break;
      }
      case EventType::end_kyoku: {
        predicted_.reset();
        const MjxKyoku& k = kyoku();
        skip_new_dora();
        if (p_ != k.events.size()) fail("the kyoku ended before the record's last event");
        if (win_ != k.wins.size()) fail("fewer wins than recorded");
        if (dora_ != k.dora_indicators.size()) fail("fewer dora indicators than recorded");
        for (std::size_t s = 0; s < game::kNumSeats; ++s)
          if (drawn_[s] != k.draws[s].size()) fail("seat " + std::to_string(s) + " drew fewer tiles than recorded");
        if (last_scores_ != k.final_scores) fail("the scores after the kyoku differ");
        ++k_;
        break;
      }
      case EventType::end_game:
      case EventType::none: break;
    }
  }

  // The next live draw the privileged planes (encoder/privileged.hpp) of `seat` predict, from the
  // engine's state on the recorded wall: (absolute seat, tile type).
  void predict_next_draw(Seat seat) {
    std::array<float, encoder::kPrivilegedSize> p{};
    encoder::privileged_planes(*table_, seat, encoder::SuitPerm(), p.data());
    if (table_->wall().live_left() == 0) return;
    const int r = (table_->turn().index() + 1 - seat.index() + 4) % 4;
    for (int t = 0; t < encoder::kTiles; ++t)
      if (p[static_cast<std::size_t>((encoder::priv::kNextDraw + r) * encoder::kTiles + t)] > 0)
        predicted_ = std::pair{seat.next(r).index(), t};
  }

  Action choose(const game::Decision& d) {
    skip_new_dora();
    const auto& ev = kyoku().events;
    const int s = d.seat.index();
    if (d.phase == Phase::kan_select) return Action::kan_select(kan_type_);
    if (d.phase == Phase::response || d.phase == Phase::chankan) {
      for (std::size_t q = p_; q < ev.size() && ev[q].type == T::ron; ++q)
        if (ev[q].who == s) return Action(Action::kAgari);
      std::size_t q = p_;  // the riichi stick of the discard being answered is recorded before the call
      while (q < ev.size() && ev[q].type == T::riichi_score_change) ++q;
      if (q < ev.size() && ev[q].who == s) {
        const MjxEvent& m = ev[q];
        if (m.type == T::pon) return Action(Action::kPon);
        if (m.type == T::open_kan) return Action(Action::kKan);
        if (m.type == T::chi) {
          const Event c = decode_tenhou_meld(m.who, m.open);
          const int below = static_cast<int>(std::count_if(c.consumed.begin(), c.consumed.end(),
                                                           [&](Pai x) { return x.type().index() < c.pai.type().index(); }));
          return Action(Action::kChiLow + below);
        }
      }
      return Action(Action::kPass);
    }
    if (p_ >= ev.size() || ev[p_].who != s) fail("seat " + std::to_string(s) + " must act, but the record's next event is not its own");
    const MjxEvent& m = ev[p_];
    switch (m.type) {
      case T::discard:
      case T::tsumogiri: return Action::discard(pai(m.tile));
      case T::riichi: return Action(Action::kRiichi);
      case T::tsumo: return Action(Action::kAgari);
      case T::abortive_nine_terminals: return Action(Action::kRyukyoku);
      case T::closed_kan:
      case T::added_kan: kan_type_ = decode_tenhou_meld(m.who, m.open).pai.type(); return Action(Action::kKan);
      default: fail("seat " + std::to_string(s) + " must act, but the record's next event has type " + std::to_string(static_cast<int>(m.type)));
    }
  }

  const std::vector<MjxKyoku>& rec_;
  Tally& tally_;
  std::optional<game::Table> table_;
  std::size_t seen_ = 0, k_ = 0, p_ = 0, dora_ = 1, win_ = 0;
  std::array<std::size_t, game::kNumSeats> drawn_{};
  std::optional<std::pair<int, int>> predicted_;
  game::Scores last_scores_{};
  game::TileType kan_type_{};
};

TEST(Mjx, RecordedActionsOnRecordedWallsReproduceEveryDrawDoraAndResult) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjxproto");
  std::vector<fs::path> files;
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ".json") files.push_back(f.path());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 4U);
  Tally t;
  for (const fs::path& f : files) {
    const std::vector<MjxKyoku> rec = read_mjx(f);
    try {
      Player(rec, t).run();
    } catch (const Error& e) {
      ADD_FAILURE() << f.filename() << ": " << e.what();
    }
  }
  // Totals of the four records' events: 46 kyoku, 14 tsumo and 24 ron wins, 7 exhaustive draws
  // and 1 nine-terminals abort, 2 kan dora (both after an ankan), 2,108 draws.
  EXPECT_EQ(t.kyoku, 46);
  EXPECT_EQ(t.wins, 38);
  EXPECT_EQ(t.draws_ended, 8);
  EXPECT_EQ(t.doras, 46 + 2);
  EXPECT_EQ(t.draws, 2108);
  // Every draw not preceded by a call since the last decision was predicted (most of them).
  EXPECT_GT(t.predicted_draws, 1500);
  std::printf("privileged planes: %d of %d recorded draws predicted and checked\n", t.predicted_draws, t.draws);
}

// A table on given walls deals exactly those walls, and says so when the game needs one more.
TEST(Mjx, TableOnGivenWallsDealsThemAndStopsWhenTheyRunOut) {
  const game::GameKey key = game::game_key(game::MasterSeed{11}, 0);
  const game::Wall::Tiles wall = game::Wall::shuffled(game::wall_key(key, 0, 0));
  game::Table t(game::table_rules("tenhou"), std::vector<game::Wall::Tiles>{wall});
  EXPECT_EQ(t.wall().tiles(), wall);
  std::array<game::RandomAgent, game::kNumSeats> agents;
  for (int s = 0; s < game::kNumSeats; ++s) agents[ix(s)].start_game(Seat(s), key);
  try {
    for (int steps = 0; steps < 100000 && !t.done(); ++steps) {
      const auto pending = t.pending();
      for (const game::Decision& d : pending) t.act(d.seat, agents[ix(d.seat.index())].act(t.view(d.seat), d));
    }
    FAIL() << "a hanchan played on one wall";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kyoku 2 needs a wall, but only 1 were given"), std::string::npos) << e.what();
  }
}

TEST(Mjx, WallLayoutMovesTheDeadWall) {
  std::vector<int> w(136);
  for (int i = 0; i < 136; ++i) w[ix(i)] = i;
  const game::Wall::Tiles t = wall_from_mjx(w);
  EXPECT_EQ(t[0].id(), 0);
  EXPECT_EQ(t[121].id(), 121);
  EXPECT_EQ(t[game::Wall::rinshan_index(0)].id(), 134);
  EXPECT_EQ(t[game::Wall::rinshan_index(1)].id(), 135);
  EXPECT_EQ(t[game::Wall::rinshan_index(2)].id(), 132);
  EXPECT_EQ(t[game::Wall::rinshan_index(3)].id(), 133);
  EXPECT_EQ(t[game::Wall::dora_index(0)].id(), 130);
  EXPECT_EQ(t[game::Wall::ura_index(0)].id(), 131);
  EXPECT_EQ(t[game::Wall::dora_index(4)].id(), 122);
  EXPECT_EQ(t[game::Wall::ura_index(4)].id(), 123);
}

TEST(Mjx, BrokenInputIsAnErrorNamingTheLine) {
  try {
    parse_mjx("\n{\"hiddenState\":{}}\n", "bad.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_mjx("{not json\n", "x.json"), Error);
  EXPECT_THROW(parse_mjx("", "empty.json"), Error);
}

}  // namespace
}  // namespace hydra::data
