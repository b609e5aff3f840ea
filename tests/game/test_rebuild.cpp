// The table rebuilt from one seat's view of the kyoku (game/rebuild.hpp), against the game's own
// table as the truth: seeded games of random agents (every kind of call, kan and riichi comes
// up), and at every decision the kyoku's events as the deciding seat saw them (the others' draws
// and deals hidden, as an mjai host sends them) are rebuilt into a table. Its view of that seat
// must be the game's, to the legal actions; and where a search starts (Table::redeal_hidden with
// one stream on both tables), the rest of the kyoku played by the same agents must be the same
// events on both: so a search on a rebuilt table (hydra bot) plays as on the game's own.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/rebuild.hpp"
#include "hydra/game/shanten.hpp"
#include "hydra/game/table.hpp"

namespace hydra::game {
namespace {

// The kyoku's events as `seat` sees them: the other seats' deals and draws hidden.
std::vector<Event> as_seen(const std::vector<Event>& events, std::size_t kyoku_begin, Seat seat) {
  std::vector<Event> out(events.begin() + static_cast<std::ptrdiff_t>(kyoku_begin), events.end());
  for (Event& e : out) {
    if (e.type == EventType::start_kyoku) {
      for (int s = 0; s < kNumSeats; ++s) {
        if (Seat(s) == seat) continue;
        for (Pai& p : e.tehais[ix(s)]) p = Pai::unknown();
      }
    }
    if (e.type == EventType::tsumo && e.actor != seat) e.pai = Pai::unknown();
  }
  return out;
}

// What one seat's view holds, public and own, as one comparable text.
std::string view_text(const PlayerView& v) {
  std::ostringstream s;
  s << "seat " << v.seat().index() << " phase " << to_string(v.phase()) << " legal " << to_string(v.legal().mask)
    << " hand " << to_compact(closed_tiles(v.hand())) << " drawn " << v.last_drawn().index() << " shanten "
    << v.shanten() << " furiten " << v.furiten() << " live " << v.live_left() << " kans " << v.kans() << " honba "
    << v.honba() << " sticks " << v.kyotaku() << " dora";
  for (const Pai p : v.dora_markers()) s << ' ' << p.index();
  for (int o = 0; o < kNumSeats; ++o) {
    const Seat so(o);
    s << " | " << v.scores()[ix(o)] << (v.riichi(so) ? " R" : "") << (v.ippatsu(so) ? " I" : "") << " river";
    for (const RiverTile& r : v.river(so))
      s << ' ' << r.pai.index() << (r.tsumogiri ? "t" : "") << (r.called ? "c" : "") << (r.riichi ? "r" : "");
    s << " melds";
    for (const Meld& m : v.melds(so)) {
      s << " [";
      for (int k = 0; k < m.size(); ++k) s << m.tile(k).index() << ',';
      s << ']';
    }
  }
  return s.str();
}

// A closed player, so that riichi comes up: wins and riichi when it can, a kan at its turn when
// it can (a kan after its riichi among them), never calls, else discards the tile that leaves
// the lowest shanten (the first on ties).
class ShantenAgent final : public Agent {
 public:
  std::string_view name() const override { return "shanten"; }
  void start_game(Seat, const GameKey&) override {}
  Action act(const PlayerView& view, const Decision& d) override {
    for (const int a : {int(Action::kAgari), int(Action::kRiichi)})
      if (d.mask.test(Action(a))) return Action(a);
    if (d.phase == Phase::kan_select) return d.mask.nth(0);
    if (d.phase == Phase::turn && d.mask.test(Action(Action::kKan))) return Action(Action::kKan);
    if (d.mask.test(Action(Action::kPass))) return Action(Action::kPass);
    Action best = d.mask.nth(0);
    int best_shanten = 99;
    for (int i = 0; i < d.mask.count(); ++i) {
      const Action a = d.mask.nth(i);
      if (!a.is_discard()) continue;
      TileCounts c = view.hand().closed;
      --c[ix(a.discard_pai().type().index())];
      const int sh = shanten_best(c);
      if (sh < best_shanten) {
        best_shanten = sh;
        best = a;
      }
    }
    return best;
  }
};

// Seats 0 and 1 random (every call and kan), 2 and 3 closed (riichi).
std::array<std::unique_ptr<Agent>, kNumSeats> make_agents(const GameKey& key) {
  std::array<std::unique_ptr<Agent>, kNumSeats> out{std::make_unique<RandomAgent>(), std::make_unique<RandomAgent>(),
                                                    std::make_unique<ShantenAgent>(), std::make_unique<ShantenAgent>()};
  for (int s = 0; s < kNumSeats; ++s) out[ix(s)]->start_game(Seat(s), key);
  return out;
}

// Plays `t` to the end of its kyoku with the agents of make_agents(seed); the actions and scores.
std::vector<std::string> play_out(Table& t, const GameKey& seed) {
  std::vector<std::string> seen;
  auto agents = make_agents(seed);
  const int kyoku = t.kyoku_played();
  for (int guard = 0; !t.done() && t.kyoku_played() == kyoku && guard < 2000; ++guard) {
    for (const Decision& d : FixedVec<Decision, kNumSeats>(t.pending())) {
      const Action a = agents[ix(d.seat.index())]->act(t.view(d.seat), d);
      seen.push_back(std::to_string(d.seat.index()) + ":" + to_string(a));
      t.act(d.seat, a);
    }
  }
  for (int s = 0; s < kNumSeats; ++s) seen.push_back(std::to_string(t.scores()[ix(s)]));
  return seen;
}

struct Tally {
  int decisions = 0, play_outs = 0, riichi = 0, calls = 0, refused = 0;
};

void check_game(const TableRules& rules, const GameKey& key, Tally& tally) {
  Table t(rules, key);
  auto agents = make_agents(key);
  std::size_t kyoku_begin = 0;
  while (!t.done()) {
    const auto& events = t.events();
    for (std::size_t i = kyoku_begin; i < events.size(); ++i)
      if (events[i].type == EventType::start_kyoku) kyoku_begin = i;
    for (const Decision& d : FixedVec<Decision, kNumSeats>(t.pending())) {
      if (d.phase != Phase::kan_select && !t.answered(d.seat)) {
        const std::vector<Event> seen = as_seen(t.events(), kyoku_begin, d.seat);
        std::unique_ptr<Table> rebuilt;
        try {
          rebuilt = rebuild_table(rules, d.seat, seen, key);
        } catch (const Error& e) {
          // Only a kan after a riichi may stop a rebuild.
          ASSERT_NE(std::string(e.what()).find("kan after its riichi"), std::string::npos)
              << e.what() << " (rules " << rules.name << ", seat " << d.seat.index() << ")";
          ++tally.refused;
        }
        if (rebuilt) {
          ++tally.decisions;
          ASSERT_EQ(view_text(rebuilt->view(d.seat)), view_text(t.view(d.seat))) << "decision " << tally.decisions;
          for (int s = 0; s < kNumSeats; ++s) {
            tally.riichi += t.view(d.seat).riichi_declared(Seat(s)) ? 1 : 0;
            tally.calls += t.view(d.seat).melds(Seat(s)).size();
          }
          // Every seventh decision: a search's start on both tables, and the kyoku played on.
          if (tally.decisions % 7 == 0) {
            const GameKey seed = game_key(MasterSeed{static_cast<std::uint64_t>(tally.decisions)}, 0);
            auto a = t.branch({});
            auto b = rebuilt->branch({});
            Xoshiro256ss ra(seed), rb(seed);
            a->redeal_hidden(d.seat, ra);
            b->redeal_hidden(d.seat, rb);
            for (int s = 0; s < kNumSeats; ++s)
              ASSERT_EQ(view_text(b->view(Seat(s))), view_text(a->view(Seat(s)))) << "after the redeal, seat " << s;
            ASSERT_EQ(play_out(*b, seed), play_out(*a, seed)) << "decision " << tally.decisions;
            ++tally.play_outs;
          }
        }
      }
      t.act(d.seat, agents[ix(d.seat.index())]->act(t.view(d.seat), d));
    }
  }
}

TEST(Rebuild, EveryDecisionOfRandomGamesRebuildsTheSeatsViewAndTheSearchesOnIt) {
  Tally tally;
  for (const char* preset : {"tenhou", "mahjongsoul", "tenhou-2009"}) {
    const TableRules& rules = table_rules(preset);
    for (std::uint64_t g = 0; g < 8; ++g) {
      check_game(rules, game_key(MasterSeed{20261129}, g), tally);
      if (HasFatalFailure()) return;
    }
  }
  // Enough of everything to mean something.
  EXPECT_GT(tally.decisions, 5000);
  EXPECT_GT(tally.play_outs, 700);
  EXPECT_GT(tally.riichi, 100);
  EXPECT_GT(tally.calls, 1000);
  std::printf("rebuilt %d decisions (%d refused: a kan after a riichi), %d play-outs compared; riichi seen %d, melds %d\n",
              tally.decisions, tally.refused, tally.play_outs, tally.riichi, tally.calls);
}

TEST(Rebuild, NamesTheEventItCannotReplay) {
  const TableRules& rules = table_rules("tenhou");
  const GameKey key = game_key(MasterSeed{7}, 0);
  Table t(rules, key);
  const Seat dealer = t.pending()[0].seat;
  std::vector<Event> seen = as_seen(t.events(), 1, dealer);  // start_kyoku, the dealer's draw
  ASSERT_EQ(seen.size(), 2U);
  Event out_of_turn;  // the next seat discards before the dealer did
  out_of_turn.type = EventType::dahai;
  out_of_turn.actor = dealer.next();
  out_of_turn.pai = Pai(TileType(33));
  seen.push_back(out_of_turn);
  try {
    (void)rebuild_table(rules, dealer, seen, key);
    FAIL() << "an out-of-turn discard was rebuilt";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("event 3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("asks seat " + std::to_string(dealer.index()) + " first"), std::string::npos)
        << e.what();
  }
  seen.pop_back();
  seen.push_back(seen.front());  // a second start_kyoku
  EXPECT_THROW((void)rebuild_table(rules, dealer, seen, key), Error);
  EXPECT_THROW((void)rebuild_table(rules, dealer, std::vector<Event>{}, key), Error);
}

}  // namespace
}  // namespace hydra::game
