// Encoder properties over real and random games: no leakage of hidden information, seat-rotation
// invariance, the identity permutation changes nothing, suit permutations form a group that
// maps legal actions onto legal actions, the batch buffer holds exactly what the encoder wrote,
// and the bookkeeping agrees with the view's own rivers, melds and hand (and its kept shanten with
// the hand's own).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <vector>

#include "hydra/common/index.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/batch.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/encoder/verify.hpp"
#include "hydra/game/agent.hpp"
#include "hydra/game/rng.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/game/shanten.hpp"
#include "testdata.hpp"

namespace hydra::encoder {
namespace {

// The mjai games of the shared data, sorted by name.
std::vector<std::filesystem::path> mjai_files(const std::filesystem::path& dir) {
  return hydra::testing::files_ending_with(dir, ".json.gz");
}

using game::Event;
using game::EventType;
using game::Pai;
using game::Seat;


const game::TableRules& tenhou() { return game::table_rules("tenhou"); }

std::vector<std::vector<Event>> real_games(int max_games = 100) {
  std::vector<std::vector<Event>> out;
  const auto root = hydra::testing::testdata_dir();
  if (!root || !std::filesystem::exists(*root / "mjai")) return out;
  for (const auto& f : mjai_files(*root / "mjai")) {
    if (static_cast<int>(out.size()) == max_games) break;
    out.push_back(data::read_mjai(f).events);
  }
  return out;
}

std::vector<Event> random_game(std::uint64_t index) {
  std::array<game::RandomAgent, game::kNumSeats> a;
  return game::play_game(tenhou(), game::game_key(game::MasterSeed{424242}, index), {&a[0], &a[1], &a[2], &a[3]}).events;
}

// Real games when the data is there, plus a few random ones always.
std::vector<std::vector<Event>> some_games() {
  auto games = real_games(12);
  for (std::uint64_t g = 0; g < 8; ++g) games.push_back(random_game(g));
  return games;
}

Pai random_pai(game::Xoshiro256ss& rng) { return Pai(game::TileType(static_cast<int>(rng.below(34)))); }

// Replaces everything `seat` cannot see: the other seats' dealt hands and draws (so the wall
// behind them too) and the ura indicators.
std::vector<Event> scramble_hidden(const std::vector<Event>& events, Seat seat, game::Xoshiro256ss& rng) {
  std::vector<Event> out = events;
  for (Event& e : out) {
    if (e.type == EventType::start_kyoku)
      for (int s = 0; s < game::kNumSeats; ++s)
        if (Seat(s) != seat)
          for (Pai& p : e.tehais[ix(s)]) p = rng.below(4) == 0 ? Pai::unknown() : random_pai(rng);
    if (e.type == EventType::tsumo && e.actor != seat) e.pai = rng.below(4) == 0 ? Pai::unknown() : random_pai(rng);
    if (e.type == EventType::hora)
      for (Pai& p : e.ura_markers) p = random_pai(rng);
  }
  return out;
}

TEST(EncoderProperties, HiddenInformationNeverLeaks) {
  game::Xoshiro256ss rng(game::stream_key(game::MasterSeed{1}, "encoder-leak"));
  long compared = 0;
  for (const auto& events : some_games()) {
    for (int s = 0; s < game::kNumSeats; ++s) {
      const std::vector<Event> other = scramble_hidden(events, Seat(s), rng);
      ASSERT_FALSE(other == events);
      Observer a(Seat(s), tenhou()), b(Seat(s), tenhou());
      for (std::size_t i = 0; i < events.size(); ++i) {
        a.apply(events[i]);
        b.apply(other[i]);
        const auto d = first_difference(a.encode().v.data(), b.encode().v.data());
        ASSERT_FALSE(d) << "seat " << s << " event " << i << " (" << game::describe(events[i]) << "): " << *d;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 10000);
}

TEST(EncoderProperties, SeatRotationMovesTheObserver) {
  for (const auto& events : some_games()) {
    for (int r = 1; r < 4; ++r) {
      std::vector<Observer> orig, rot;
      for (int s = 0; s < 4; ++s) {
        orig.emplace_back(Seat(s), tenhou());
        rot.emplace_back(Seat(s).next(r), tenhou());
      }
      for (std::size_t i = 0; i < events.size(); ++i) {
        const Event re = rotate_seats(events[i], r);
        for (int s = 0; s < 4; ++s) {
          orig[ix(s)].apply(events[i]);
          rot[ix(s)].apply(re);
          const auto d = first_difference(orig[ix(s)].encode().v.data(), rot[ix(s)].encode().v.data());
          ASSERT_FALSE(d) << "rotation " << r << " seat " << s << " event " << i << ": " << *d;
        }
      }
    }
  }
}

TEST(EncoderProperties, IdentityPermutationIsByteIdentical) {
  const SuitPerm id = SuitPerm::nth(0);
  ASSERT_TRUE(id.identity());
  for (const auto& events : some_games()) {
    Observer o(Seat(0), tenhou());
    for (const Event& e : events) {
      ASSERT_TRUE(id(e) == e);
      o.apply(e);
      auto out = std::make_unique<Obs>();
      out->v.fill(-7.0F);
      id.apply(o.encode().v.data(), out->v.data());
      ASSERT_EQ(std::memcmp(out->v.data(), o.encode().v.data(), sizeof(float) * kObsSize), 0);
    }
  }
  for (int a = 0; a < game::kNumActions; ++a) EXPECT_EQ(id(game::Action(a)), game::Action(a));
}

TEST(EncoderProperties, SuitPermutationsFormTheGroup) {
  std::set<std::array<int, 3>> seen;
  for (int n = 0; n < kNumSuitPerms; ++n) {
    const SuitPerm p = SuitPerm::nth(n);
    EXPECT_EQ(p.index(), n);
    seen.insert({p.suit(0), p.suit(1), p.suit(2)});
    const SuitPerm inv = p.inverse();
    for (int t = 0; t < 34; ++t) {
      const game::TileType tt(t);
      EXPECT_EQ(inv(p(tt)), tt);
      EXPECT_EQ(p(tt).number(), tt.number());
      if (t >= 27) {
        EXPECT_EQ(p(tt), tt);
      }
    }
    for (int red = 0; red < 3; ++red) {
      const Pai r(game::TileType(red * 9 + 4), true);
      EXPECT_TRUE(p(r).is_red());
      EXPECT_EQ(p(r).type().index(), p.suit(red) * 9 + 4);
      EXPECT_EQ(p(game::Action::discard(r)), game::Action::discard(p(r)));
    }
    for (int a = 0; a < game::kNumActions; ++a) {
      EXPECT_EQ(inv(p(game::Action(a))), game::Action(a));
      if (a >= game::Action::kRiichi) {
        EXPECT_EQ(p(game::Action(a)), game::Action(a));
      }
    }
    // A mask maps action by action: a permuted action is in the permuted mask iff the action is
    // in the mask.
    const game::ActionMask m((std::uint64_t{1} << 46) - 1 - (std::uint64_t{1} << 5) - (std::uint64_t{1} << 35));
    for (int a = 0; a < game::kNumActions; ++a) EXPECT_EQ(p(m).test(p(game::Action(a))), m.test(game::Action(a)));
  }
  EXPECT_EQ(seen.size(), 6U);
}

TEST(EncoderProperties, BatchHoldsWhatTheEncoderWrote) {
  const auto events = random_game(77);
  std::vector<Observer> seats;
  for (int s = 0; s < 4; ++s) seats.emplace_back(Seat(s), tenhou());
  ObsBatch batch(8);
  std::vector<float> external(8 * kObsSize);
  ObsBatch wrapped(external.data(), 8);
  auto full = std::make_unique<Obs>();
  auto perm = std::make_unique<Obs>();
  game::Legal legal;
  long checked = 0;
  for (const Event& e : events) {
    for (Observer& o : seats) o.apply(e);
    for (int s = 0; s < 4; ++s) {
      seats[ix(s)].view().legal(legal);
      if (legal.phase == game::Phase::idle) continue;
      if (batch.full()) {
        batch.clear();
        wrapped.clear();
      }
      Encoder enc = seats[ix(s)].encoder();  // a copy keeps the observer's own dirty state
      const int i = batch.add(enc, seats[ix(s)].view());
      const int j = wrapped.add_full(seats[ix(s)].view(), seats[ix(s)].encoder().book());
      const SuitPerm p = SuitPerm::nth(checked % 6);
      Encoder enc2 = seats[ix(s)].encoder();
      ObsBatch one(1);
      one.add(enc2, seats[ix(s)].view(), p);
      ASSERT_EQ(i, j);
      seats[ix(s)].encode_full(full->v.data());
      ASSERT_FALSE(first_difference(batch.slot(i), full->v.data()));
      ASSERT_FALSE(first_difference(wrapped.slot(j), full->v.data()));
      p.apply(full->v.data(), perm->v.data());
      ASSERT_FALSE(first_difference(one.slot(0), perm->v.data()));
      ++checked;
    }
  }
  EXPECT_GT(checked, 500);
  EXPECT_EQ(wrapped.data(), external.data());
}

// The bookkeeping kept event by event agrees with what the view rebuilt: rivers, tedashi,
// latest discards, open melds, and the visible counts (own hand + rivers + melds + indicators).
TEST(EncoderProperties, BookAgreesWithTheView) {
  for (const auto& events : some_games()) {
    std::vector<Observer> seats;
    for (int s = 0; s < 4; ++s) seats.emplace_back(Seat(s), tenhou());
    for (const Event& e : events) {
      for (Observer& o : seats) o.apply(e);
      if (e.type == EventType::end_game || e.type == EventType::start_game) continue;
      for (Observer& o : seats) {
        const game::PlayerView& v = o.view();
        const Book& b = o.encoder().book();
        game::TileCounts vis = v.hand().closed;
        for (int s = 0; s < 4; ++s) {
          const SeatBook& sb = b.seat(Seat(s));
          std::uint64_t disc = 0, ted = 0;
          std::array<int, 34> last{}, last_t{};
          last.fill(-1);
          last_t.fill(-1);
          int i = 0;
          for (const game::RiverTile& r : v.river(Seat(s))) {
            const int t = r.pai.type().index();
            disc |= std::uint64_t{1} << t;
            last[ix(t)] = i;
            if (!r.tsumogiri) {
              ted |= std::uint64_t{1} << t;
              last_t[ix(t)] = i;
            }
            if (!r.called) ++vis[ix(t)];
            ++i;
          }
          ASSERT_EQ(sb.discarded, disc);
          ASSERT_EQ(sb.tedashi, ted);
          ASSERT_EQ(sb.river, v.river(Seat(s)).size());
          for (int t = 0; t < 34; ++t) {
            ASSERT_EQ(sb.last[ix(t)], last[ix(t)]);
            ASSERT_EQ(sb.last_tedashi[ix(t)], last_t[ix(t)]);
          }
          int open = 0;
          for (const game::Meld& m : v.melds(Seat(s))) {
            open += m.is_open() ? 1 : 0;
            m.add_to(vis);
          }
          ASSERT_EQ(sb.open_melds, open);
          ASSERT_EQ(sb.riichi, v.riichi_declared(Seat(s)));
          if (!sb.riichi) {
            ASSERT_EQ(sb.passed, 0U);
          }
        }
        for (Pai p : v.dora_markers()) ++vis[ix(p.type().index())];
        ASSERT_EQ(b.visible(), vis) << game::describe(e);
        // Channels 55-58 read a 3n+1 hand's shanten from the book instead of recomputing it.
        int closed = 0;
        for (std::uint8_t c : v.hand().closed) closed += c;
        if (closed % 3 == 1) {
          ASSERT_EQ(b.shanten13(), game::shanten_best(v.hand().closed)) << game::describe(e);
        }
      }
    }
  }
}

}  // namespace
}  // namespace hydra::encoder
