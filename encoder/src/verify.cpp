// verify_encoder: incremental == full, value ranges and suit-permutation equivariance at every
// decision point of a game.

#include "hydra/encoder/verify.hpp"

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/encoder/augment.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/common/index.hpp"

namespace hydra::encoder {
namespace {

using game::Event;
using game::Seat;

constexpr const char* kGroupNames[kNumGroups] = {"hand", "open melds", "drawn", "shanten", "discards",
                                                 "melds", "dora", "meta", "safety"};

std::string place(int channel, int tile) {
  return "channel " + std::to_string(channel) + " (" + kGroupNames[static_cast<int>(group_of(channel))] + ") tile " +
         std::to_string(tile);
}

// The four seats of one (possibly permuted) stream.
struct Stream {
  SuitPerm perm;
  std::vector<Observer> seats;
  Stream(SuitPerm p, const game::TableRules& rules) : perm(p) {
    for (int s = 0; s < game::kNumSeats; ++s) seats.emplace_back(Seat(s), rules);
  }
};

}  // namespace

std::optional<std::string> first_difference(const float* a, const float* b) {
  if (std::memcmp(a, b, sizeof(float) * kObsSize) == 0) return std::nullopt;
  for (int i = 0; i < kObsSize; ++i)
    if (std::memcmp(a + i, b + i, sizeof(float)) != 0)
      return place(i / kTiles, i % kTiles) + ": " + std::to_string(a[i]) + " vs " + std::to_string(b[i]);
  return std::nullopt;
}

std::optional<std::string> out_of_range(const float* obs) {
  for (int c = 0; c < kChannels; ++c) {
    const Range r = channel_range(c);
    for (int t = 0; t < kTiles; ++t) {
      const float x = obs[c * kTiles + t];
      // Written so that NaN fails too.
      if (!(x >= r.lo && x <= r.hi) || !std::isfinite(x))
        return place(c, t) + ": " + std::to_string(x) + " outside [" + std::to_string(r.lo) + ", " +
               std::to_string(r.hi) + "]";
    }
  }
  return std::nullopt;
}

VerifyReport verify_encoder(std::span<const Event> events, const game::TableRules& rules, const VerifyOptions& options) {
  VerifyReport rep;
  std::vector<Stream> streams;
  const int n_streams = options.equivariance ? kNumSuitPerms : 1;
  for (int k = 0; k < n_streams; ++k) streams.emplace_back(SuitPerm::nth(k), rules);
  auto full = std::make_unique<Obs>();
  auto permuted = std::make_unique<Obs>();
  game::Legal legal, legal_k;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    const auto where = [&](int seat) {
      return "event " + std::to_string(i) + " (" + game::describe(e) + "), seat " + std::to_string(seat) + ": ";
    };
    try {
      for (Stream& st : streams) {
        const Event pe = st.perm(e);
        for (Observer& o : st.seats) o.apply(pe);
      }
    } catch (const std::exception& ex) {
      rep.failure = where(-1) + "the event does not apply: " + ex.what();
      return rep;
    }
    ++rep.events;
    for (int s = 0; s < game::kNumSeats; ++s) {
      Observer& base = streams[0].seats[ix(s)];
      base.view().legal(legal);
      if (legal.phase == game::Phase::idle) continue;
      ++rep.decisions;
      const Obs& inc = base.encode();
      base.encode_full(full->v.data());
      if (auto d = first_difference(inc.v.data(), full->v.data())) {
        rep.failure = where(s) + "incremental vs full: " + *d;
        return rep;
      }
      if (auto d = out_of_range(inc.v.data())) {
        rep.failure = where(s) + *d;
        return rep;
      }
      const game::ActionMask mask = legal.phase == game::Phase::kan_select ? legal.kan_select_mask() : legal.mask;
      for (std::size_t k = 1; k < streams.size(); ++k) {
        const SuitPerm perm = streams[k].perm;
        Observer& o = streams[k].seats[ix(s)];
        o.view().legal(legal_k);
        const game::ActionMask mask_k = legal_k.phase == game::Phase::kan_select ? legal_k.kan_select_mask() : legal_k.mask;
        if (legal_k.phase != legal.phase || !(mask_k == perm(mask))) {
          rep.failure = where(s) + "suit permutation " + std::to_string(perm.index()) + ": legal mask " +
                        game::to_string(mask_k) + " vs permuted " + game::to_string(perm(mask));
          return rep;
        }
        perm.apply(inc.v.data(), permuted->v.data());
        if (auto d = first_difference(o.encode().v.data(), permuted->v.data())) {
          rep.failure = where(s) + "suit permutation " + std::to_string(perm.index()) +
                        ": encode(permuted events) vs permuted encoding: " + *d;
          return rep;
        }
        ++rep.permuted;
      }
    }
  }
  return rep;
}

}  // namespace hydra::encoder
