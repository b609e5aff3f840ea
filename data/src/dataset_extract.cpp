// extract_samples: one game replayed through the four seats' observers; every decision point of
// a seat becomes one sample labelled with what the log says the seat did.
//
// A decision opens when an event leaves a seat with a phase (its draw, its call, its riichi, or
// another seat's discard or kan it may answer) and closes at the event that answers it: the
// seat's own action, or, for a chance to respond, the event that shows it was let go (the next
// draw, another seat's call, the end of the kyoku). The observation is taken when the decision
// opens: later events of the same moment (reach_accepted, a second ron) are not yet known to the
// seat. Only a dora revealed after a rinshan draw comes before the seat's discard, and refreshes
// the observation.

#include <algorithm>
#include <chrono>
#include <cstring>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/data/dataset.hpp"
#include "hydra/data/log_rules.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/encoder.hpp"
#include "hydra/game/kyoku.hpp"

namespace hydra::data {
namespace {

using encoder::kObsSize;
using encoder::kTiles;
using game::Action;
using game::Event;
using game::EventType;
using game::Legal;
using game::Phase;
using game::Seat;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The scores the game ended with: end_game's, or for a log that stops early the last ones given.
game::Scores final_scores(const GameLog& log) {
  game::Scores last{};
  for (const Event& e : log.events) {
    switch (e.type) {
      case EventType::start_kyoku:
      case EventType::reach_accepted:
      case EventType::hora:
      case EventType::ryukyoku: last = e.scores; break;
      case EventType::end_game:
        if (e.scores != game::Scores{}) last = e.scores;
        break;
      default: break;
    }
  }
  return last;
}

class Extractor {
 public:
  Extractor(const GameLog& log, std::string_view name, SampleBatch& out, const game::TableRules& rules, ExtractStats& stats)
      : log_(log), name_(name), out_(out), stats_(stats),
        obs_{encoder::Observer(Seat(0), rules), encoder::Observer(Seat(1), rules), encoder::Observer(Seat(2), rules),
             encoder::Observer(Seat(3), rules)},
        base_(out.size()) {
    const std::array<int, 4> ranks = game::ranks(final_scores(log));
    for (int s = 0; s < game::kNumSeats; ++s) {
      value_[ix(s)] = static_cast<float>(rules.uma_train[ix(ranks[ix(s)])]);
      std::array<int, 4> rel{};
      for (int k = 0; k < 4; ++k) rel[ix(k)] = ranks[ix((s + k) % 4)];
      grp_[ix(s)] = game::rank_permutation_index(rel);
    }
  }

  void run() {
    for (i_ = 0; i_ < log_.events.size(); ++i_) {
      const Event& e = log_.events[i_];
      if (next_note_ != log_.searches.end() && next_note_->event < i_)
        fail_at(next_note_->event, "a search note on an event that is not a seat's decision");
      std::array<bool, game::kNumSeats> refresh{};
      for (int s = 0; s < game::kNumSeats; ++s) {
        if (open_[ix(s)].active) refresh[ix(s)] = resolve(s, e);
        else if (e.actor == Seat(s) && (is_seat_action(e.type)))
          fail("seat " + std::to_string(s) + " acts without a decision: " + game::describe(e));
      }
      if (e.type == EventType::ryukyoku && e.reason == game::RyukyokuReason::kyushukyuhai && !kyushu_)
        fail("kyuushu kyuuhai by no seat whose turn it is");
      kyushu_ = false;
      const auto t0 = Clock::now();
      for (int s = 0; s < game::kNumSeats; ++s) {
        try {
          obs_[ix(s)].apply(e);
        } catch (const Error& err) {
          fail("seat " + std::to_string(s) + "'s view rejects the event: " + err.what() + " [" + game::describe(e) + "]");
        }
      }
      stats_.seconds_replay += seconds_since(t0);
      for (int s = 0; s < game::kNumSeats; ++s) {
        Open& o = open_[ix(s)];
        if (refresh[ix(s)] && o.row >= 0) encode(s, ix(o.row));
        if (!o.active && obs_[ix(s)].view().phase() != Phase::idle) start(s);
      }
    }
    if (next_note_ != log_.searches.end())
      fail_at(next_note_->event, "a search note on an event that is not a seat's decision");
  }

 private:
  struct Open {
    bool active = false;
    long row = -1;  // the sample's row in out_, -1 for a forced decision (one legal action)
    Legal legal;
  };

  [[noreturn]] void fail(const std::string& why) const { fail_at(i_, why); }
  [[noreturn]] void fail_at(std::size_t event, const std::string& why) const {
    throw Error(std::string(name_) + ":" + std::to_string(event + 1) + ": " + why);
  }

  void encode(int s, std::size_t row) {
    const auto t0 = Clock::now();
    stats_.sample_observed[row - base_] = static_cast<int>(i_);
    const encoder::Obs& o = obs_[ix(s)].encode();
    std::memcpy(out_.obs.data() + row * ix(kObsSize), o.v.data(), sizeof(float) * ix(kObsSize));
    stats_.seconds_encode += seconds_since(t0);
  }

  // A new row for seat s with everything but the action, which resolve() fills in.
  std::size_t add_row(int s, game::ActionMask mask) {
    const std::size_t row = out_.size();
    out_.obs.resize(out_.obs.size() + ix(kObsSize));
    const game::PlayerView& v = obs_[ix(s)].view();
    const auto ctx = encoder::score_context(v);
    out_.context.insert(out_.context.end(), ctx.begin(), ctx.end());
    for (int a = 0; a < kSampleActions; ++a) out_.legal.push_back(mask.test(Action(a)) ? 1 : 0);
    out_.action.push_back(Action::kPass);
    out_.value.push_back(value_[ix(s)]);
    out_.grp.push_back(grp_[ix(s)]);
    for (int k = 1; k < 4; ++k) out_.tenpai.push_back(obs_[ix((s + k) % 4)].view().tenpai() ? 1.0F : 0.0F);
    for (int k = 1; k < 4; ++k) {
      const game::TileMask w = obs_[ix((s + k) % 4)].view().waits();
      for (int t = 0; t < kTiles; ++t) out_.danger.push_back(w.contains(game::TileType(t)) ? 1.0F : 0.0F);
    }
    out_.type.push_back(static_cast<std::uint8_t>(DecisionType::pass));
    out_.searched.resize(out_.searched.size() + ix(kSampleActions), 0);
    out_.search_value.resize(out_.search_value.size() + ix(kSampleActions), 0.0F);
    stats_.sample_event.push_back(-1);
    stats_.sample_seat.push_back(s);
    stats_.sample_observed.push_back(static_cast<int>(i_));
    return row;
  }

  void start(int s) {
    Open& o = open_[ix(s)];
    const auto t0 = Clock::now();
    obs_[ix(s)].view().legal(o.legal);
    stats_.seconds_replay += seconds_since(t0);
    const bool respond = o.legal.phase == Phase::response || o.legal.phase == Phase::chankan;
    if (o.legal.mask.count() <= 1 && respond) return;  // only a pass: no choice, nothing to label
    o.active = true;
    o.row = -1;
    if (o.legal.mask.count() > 1) {
      o.row = static_cast<long>(add_row(s, o.legal.mask));
      encode(s, ix(o.row));
    }
  }

  // `own`: the event being read is the seat's own action (the event a search note may sit on).
  void label(const Open& o, int action, DecisionType type, bool own = false) {
    const SearchNote* note = own && next_note_ != log_.searches.end() && next_note_->event == i_ ? &*next_note_ : nullptr;
    if (note != nullptr) {
      ++next_note_;
      if (o.row < 0) fail("a search note on a forced action (the only legal one)");
      if (std::find(note->actions.begin(), note->actions.end(), action) == note->actions.end())
        fail("a search note whose candidates do not hold the action played");
    }
    if (o.row < 0) return;
    const std::size_t row = ix(static_cast<int>(o.row));
    out_.action[row] = action;
    out_.type[row] = static_cast<std::uint8_t>(type);
    stats_.sample_event[row - base_] = static_cast<int>(i_);
    if (action == Action::kPass) ++stats_.passes;
    if (note == nullptr) return;
    for (std::size_t k = 0; k < note->actions.size(); ++k) {
      const int a = note->actions[k];
      if (out_.legal[row * ix(kSampleActions) + ix(a)] == 0)
        fail("a search note with a candidate that is not legal (action " + std::to_string(a) + ")");
      out_.searched[row * ix(kSampleActions) + ix(a)] = 1;
      out_.search_value[row * ix(kSampleActions) + ix(a)] = note->values[k];
    }
  }

  // Closes seat s's decision if event e answers it; returns whether it stays open and its
  // observation must be taken again after e (a dora before the discard).
  bool resolve(int s, const Event& e) {
    Open& o = open_[ix(s)];
    const bool respond = o.legal.phase == Phase::response || o.legal.phase == Phase::chankan;
    const bool kyushu = e.type == EventType::ryukyoku && o.legal.phase == Phase::turn &&
                        (e.reason == game::RyukyokuReason::kyushukyuhai ||
                         (e.reason == game::RyukyokuReason::unknown && o.legal.has(Action(Action::kRyukyoku))));
    if ((e.actor == Seat(s) && is_seat_action(e.type)) || kyushu) {
      std::string why;
      const int a = game::action_of(e, o.legal, why);
      if (a < 0) fail("illegal " + std::string(game::to_string(e.type)) + " by seat " + std::to_string(s) + ": " + why +
                      " [" + game::describe(e) + "]");
      if (kyushu) kyushu_ = true;
      ++stats_.actions;
      if (o.row < 0) ++stats_.forced;
      label(o, a, decision_type(a), e.actor == Seat(s) && is_seat_action(e.type));
      if (a == Action::kKan && o.legal.kans.size() > 1) kan_select(s, o, e);
      o.active = false;
      return false;
    }
    if (e.type == EventType::ryukyoku && e.reason == game::RyukyokuReason::sanchaho && respond &&
        o.legal.has(Action(Action::kAgari))) {
      // Three rons on one discard: the log shows the abortive draw, not the three hora.
      ++stats_.actions;
      label(o, Action::kAgari, DecisionType::agari);
      o.active = false;
      return false;
    }
    const bool keeps = e.type == EventType::none || e.type == EventType::dora || e.type == EventType::reach_accepted ||
                       (e.type == EventType::hora && respond);
    if (keeps) return e.type == EventType::dora && !respond;
    if (!respond)
      fail("seat " + std::to_string(s) + "'s " + std::string(game::to_string(o.legal.phase)) +
           " decision ends without its action: " + game::describe(e));
    label(o, Action::kPass, DecisionType::pass);
    o.active = false;
    return false;
  }

  // The second decision when several kans were possible: which one (a tile type), same view.
  void kan_select(int s, const Open& o, const Event& e) {
    const game::ActionMask mask = o.legal.kan_select_mask();
    const Action t = Action::kan_select(game::kan_type(e));
    if (!mask.test(t)) fail("kan of a tile that is not a candidate [" + game::describe(e) + "]");
    const std::size_t row = add_row(s, mask);
    std::memcpy(out_.obs.data() + row * ix(kObsSize), out_.obs.data() + ix(static_cast<int>(o.row)) * ix(kObsSize),
                sizeof(float) * ix(kObsSize));
    out_.action[row] = t.index();
    out_.type[row] = static_cast<std::uint8_t>(DecisionType::kan);
    stats_.sample_event[row - base_] = static_cast<int>(i_);
    stats_.sample_observed[row - base_] = stats_.sample_observed[ix(static_cast<int>(o.row)) - base_];
    ++stats_.kan_selects;
  }

  const GameLog& log_;
  std::string_view name_;
  SampleBatch& out_;
  ExtractStats& stats_;
  std::array<encoder::Observer, game::kNumSeats> obs_;
  std::array<Open, game::kNumSeats> open_{};
  std::array<float, game::kNumSeats> value_{};
  std::array<std::int64_t, game::kNumSeats> grp_{};
  std::size_t base_;
  std::size_t i_ = 0;
  std::vector<SearchNote>::const_iterator next_note_ = log_.searches.begin();  // the first note not yet met
  bool kyushu_ = false;
};

// The eleven columns of a batch, listed once: f(column of `a`, the same column of `b`, its width
// in elements per row), in declaration order.
template <class A, class B, class F>
void for_each_column(A& a, B& b, F&& f) {
  f(a.obs, b.obs, ix(kObsSize));
  f(a.context, b.context, ix(kSampleContext));
  f(a.legal, b.legal, ix(kSampleActions));
  f(a.action, b.action, 1);
  f(a.value, b.value, 1);
  f(a.grp, b.grp, 1);
  f(a.tenpai, b.tenpai, 3);
  f(a.danger, b.danger, ix(kSampleDanger));
  f(a.type, b.type, 1);
  f(a.searched, b.searched, ix(kSampleActions));
  f(a.search_value, b.search_value, ix(kSampleActions));
}

// f(column, width) for each column of one batch.
template <class F>
void for_each_column(SampleBatch& b, F&& f) {
  for_each_column(b, b, [&f](auto& column, auto&, std::size_t width) { f(column, width); });
}

void truncate(SampleBatch& b, std::size_t n) {
  for_each_column(b, [n](auto& column, std::size_t width) { column.resize(n * width); });
}

}  // namespace

bool is_seat_action(EventType t) {
  switch (t) {
    case EventType::dahai:
    case EventType::reach:
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan:
    case EventType::kakan:
    case EventType::ankan:
    case EventType::hora: return true;
    default: return false;
  }
}

std::string_view to_string(DecisionType t) {
  switch (t) {
    case DecisionType::discard: return "discard";
    case DecisionType::riichi: return "riichi";
    case DecisionType::chi: return "chi";
    case DecisionType::pon: return "pon";
    case DecisionType::kan: return "kan";
    case DecisionType::agari: return "agari";
    case DecisionType::pass: return "pass";
  }
  return "?";
}

DecisionType decision_type(int action) {
  if (action < Action::kRiichi) return DecisionType::discard;
  if (action == Action::kRiichi) return DecisionType::riichi;
  if (action <= Action::kChiHigh) return DecisionType::chi;
  if (action == Action::kPon) return DecisionType::pon;
  if (action == Action::kKan) return DecisionType::kan;
  if (action == Action::kAgari) return DecisionType::agari;
  return DecisionType::pass;
}

void SampleBatch::clear() { truncate(*this, 0); }

game::ActionMask SampleBatch::legal_mask(std::size_t i) const {
  game::ActionMask m;
  const std::uint8_t* row = legal.data() + i * ix(kSampleActions);
  for (int a = 0; a < kSampleActions; ++a)
    if (row[a] != 0) m.set(game::Action(a));
  return m;
}

void SampleBatch::append(const SampleBatch& src, std::size_t i) {
  HYDRA_CHECK(&src != this, "SampleBatch::append from itself");
  for_each_column(*this, src, [i](auto& dst, const auto& from, std::size_t width) {
    dst.insert(dst.end(), from.begin() + static_cast<std::ptrdiff_t>(i * width),
               from.begin() + static_cast<std::ptrdiff_t>((i + 1) * width));
  });
}

void SampleBatch::copy_row(std::size_t i, std::size_t j) {
  if (i != j) assign_row(j, *this, i);
}

void SampleBatch::assign_row(std::size_t j, const SampleBatch& src, std::size_t i) {
  for_each_column(src, *this, [i, j](const auto& from, auto& to, std::size_t width) {
    std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(i * width), width, to.begin() + static_cast<std::ptrdiff_t>(j * width));
  });
}

void SampleBatch::pop_back() {
  HYDRA_CHECK(size() > 0, "pop_back on an empty SampleBatch");
  truncate(*this, size() - 1);
}

void extract_samples(const GameLog& log, std::string_view name, SampleBatch& out) {
  extract_samples(log, name, out, RulesChoice::per_log(game::table_rules("tenhou")).of(log));
}

void extract_samples(const GameLog& log, std::string_view name, SampleBatch& out, const game::TableRules& rules,
                     ExtractStats* stats) {
  require_supported(log, rules, name);
  ExtractStats local;
  ExtractStats& st = stats ? *stats : local;
  const std::size_t rows = out.size();
  const std::size_t stat_rows = st.sample_event.size();
  const ExtractStats counts{st.actions, st.forced, st.passes, st.kan_selects, st.seconds_replay, st.seconds_encode, {}, {}, {}};
  // About one sample per two events: reserving once spares the regrowth copies (untouched
  // reserved pages cost no memory).
  const std::size_t guess = rows + log.events.size() / 2 + 64;
  if (out.action.capacity() < guess)
    for_each_column(out, [guess](auto& column, std::size_t width) { column.reserve(guess * width); });
  try {
    Extractor x(log, name, out, rules, st);
    x.run();
  } catch (...) {
    // A bad game leaves no trace: not half its samples, not its counts.
    truncate(out, rows);
    st.sample_event.resize(stat_rows);
    st.sample_seat.resize(stat_rows);
    st.sample_observed.resize(stat_rows);
    st.actions = counts.actions;
    st.forced = counts.forced;
    st.passes = counts.passes;
    st.kan_selects = counts.kan_selects;
    throw;
  }
}

}  // namespace hydra::data
