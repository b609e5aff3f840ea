// Search at decision time (search.hpp; docs/EVAL.md "Search").

#include "hydra/selfplay/search.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <numeric>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/log.hpp"
#include "hydra/game/rebuild.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/selfplay/rewards.hpp"
#include "standard_error.hpp"

namespace hydra::selfplay {
namespace {

constexpr std::int64_t kMaxDeals = 65536;  // the deals a search may come to at its last stage

double parse_number(std::string_view name, std::string_view key, std::string_view text) {
  double v = 0;
  const auto* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, v);
  if (r.ec != std::errc() || r.ptr != end || !std::isfinite(v))
    throw Error("'" + std::string(name) + "': option " + std::string(key) + " needs a number, got '" +
                std::string(text) + "'");
  return v;
}

int parse_count(std::string_view name, std::string_view key, std::string_view text, int lo, int hi) {
  const double v = parse_number(name, key, text);
  if (v != std::floor(v) || v < lo || v > hi)
    throw Error("'" + std::string(name) + "': option " + std::string(key) + " must be a whole number in [" +
                std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + std::string(text) + "'");
  return static_cast<int>(v);
}

}  // namespace

bool is_search_name(std::string_view name) { return name.starts_with(kSearchPrefix); }

SearchName parse_search_name(std::string_view name) {
  if (!is_search_name(name)) throw Error("'" + std::string(name) + "' is not a search agent (search:CHECKPOINT)");
  std::string_view rest = name.substr(kSearchPrefix.size());
  SearchName out;
  const auto colon = rest.find(':');
  out.checkpoint = std::string(rest.substr(0, colon));
  if (out.checkpoint.empty()) throw Error("'" + std::string(name) + "': search:CHECKPOINT needs a checkpoint");
  std::string_view opts = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  while (!opts.empty()) {
    const auto next = opts.find(':');
    const std::string_view item = opts.substr(0, next);
    opts = next == std::string_view::npos ? std::string_view() : opts.substr(next + 1);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos)
      throw Error("'" + std::string(name) + "': option '" + std::string(item) + "' is not KEY=VALUE");
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    SearchOptions& o = out.options;
    if (key == "walls") {
      o.walls = parse_count(name, key, value, 1, 4096);
    } else if (key == "candidates") {
      o.candidates = parse_count(name, key, value, 1, game::kNumActions);
    } else if (key == "threshold") {
      o.threshold = parse_number(name, key, value);
      if (o.threshold < 0 || o.threshold > 1)
        throw Error("'" + std::string(name) + "': option threshold must be in [0, 1], got '" + std::string(value) + "'");
    } else if (key == "temperature") {
      o.temperature = parse_number(name, key, value);
      if (o.temperature < 0)
        throw Error("'" + std::string(name) + "': option temperature must be >= 0, got '" + std::string(value) + "'");
    } else if (key == "margin") {
      o.margin = parse_number(name, key, value);
    } else if (key == "sigmas") {
      o.sigmas = parse_number(name, key, value);
      if (o.sigmas < 0) throw Error("'" + std::string(name) + "': option sigmas must be >= 0, got '" + std::string(value) + "'");
    } else if (key == "grp") {
      if (value.empty()) throw Error("'" + std::string(name) + "': option grp needs a GRP checkpoint (hydra grp)");
      o.grp = std::string(value);
    } else if (key == "time") {
      o.time = parse_number(name, key, value);
      if (!(o.time > 0))
        throw Error("'" + std::string(name) + "': option time must be > 0 seconds, got '" + std::string(value) + "'");
    } else if (key == "calls") {
      if (value != "0" && value != "1")
        throw Error("'" + std::string(name) + "': option calls must be 0 or 1, got '" + std::string(value) + "'");
      o.calls = value == "1";
    } else if (key == "riichi") {
      if (value != "0" && value != "1")
        throw Error("'" + std::string(name) + "': option riichi must be 0 or 1, got '" + std::string(value) + "'");
      o.riichi = value == "1";
    } else if (key == "bf16") {
      if (value != "0" && value != "1")
        throw Error("'" + std::string(name) + "': option bf16 must be 0 or 1, got '" + std::string(value) + "'");
      o.bf16 = value == "1";
    } else if (key == "more") {
      o.more = parse_count(name, key, value, 1, 4096);
    } else if (key == "stages") {
      o.stages = parse_count(name, key, value, 1, 8);
    } else if (key == "depth") {
      o.depth = parse_count(name, key, value, 1, 10000);
    } else if (key == "continuation") {
      if (value.empty())
        throw Error("'" + std::string(name) + "': option continuation needs a checkpoint, or greedy for bot:greedy");
      if (value == "bot")
        throw Error("'" + std::string(name) + "': option continuation: the colon separates options, so bot:greedy "
                    "is written continuation=greedy (no other bot plays play-outs)");
      o.continuation = std::string(value);
    } else if (key == "tail") {
      if (value != kGreedyContinuation)
        throw Error("'" + std::string(name) + "': option tail must be greedy (bot:greedy plays on after the depth's "
                    "decisions), got '" + std::string(value) + "'");
      o.greedy_tail = true;
    } else if (key == "others") {
      if (value.empty() || value == "bot")
        throw Error("'" + std::string(name) + "': option others needs greedy (bot:greedy plays the other seats of a "
                    "play-out, the continuation the searching seat) or a checkpoint, got '" + std::string(value) + "'");
      o.others = std::string(value);
    } else {
      throw Error("'" + std::string(name) + "': unknown option '" + std::string(key) +
                  "' (known: walls, threshold, candidates, continuation, temperature, margin, sigmas, grp, time, calls, "
                  "riichi, more, stages, depth, tail, others, bf16)");
    }
  }
  const SearchOptions& o = out.options;
  if (o.greedy() && (o.depth > 0 || o.greedy_tail || !o.others.empty() || o.temperature > 0))
    throw Error("'" + std::string(name) +
                "': continuation=greedy plays every decision of a play-out by bot:greedy, which has no value head to "
                "cut at (depth), no tail, no others and no temperature; for the network's first N decisions and the "
                "greedy bot's after, use depth=N:tail=greedy, for the network in the searching seat alone others=greedy");
  if (o.stages > 1 && o.more == 0)
    throw Error("'" + std::string(name) +
                "': option stages needs more=N: each stage adds deals in the proportion of more to walls");
  if (Search::total_walls(o) > kMaxDeals)
    throw Error("'" + std::string(name) + "': walls, more and stages come to more than " + std::to_string(kMaxDeals) +
                " deals at the last stage");
  if (o.greedy_tail && o.depth == 0)
    throw Error("'" + std::string(name) +
                "': option tail=greedy needs depth=N: bot:greedy plays on after the continuation's first N decisions");
  if (o.play_out_agent(nullptr).cut() && !o.grp.empty())
    throw Error("'" + std::string(name) +
                "': options depth and grp do not go together: a cut play-out is scored by the continuation's value "
                "head, in final placement points, not by the GRP's change over the kyoku (with tail=greedy it is "
                "played to the kyoku's end and they do)");
  return out;
}

bool SearchOptions::greedy() const { return continuation == kGreedyContinuation; }
bool SearchOptions::greedy_others() const { return others == kGreedyContinuation; }

PlayOutAgentSpec SearchOptions::play_out_agent(BatchPolicy* continuation_policy, BatchPolicy* others_policy) const {
  if (greedy()) return PlayOutAgentSpec{nullptr, 0, 0, true};
  return PlayOutAgentSpec{continuation_policy, temperature, depth, greedy_tail, greedy_others(),
                          network_others() ? others_policy : nullptr};
}

SearchAgent::SearchAgent(std::shared_ptr<BatchPolicy> policy, std::shared_ptr<BatchPolicy> continuation,
                         const game::TableRules& rules, std::string name, SearchOptions options,
                         std::shared_ptr<SearchCounters> counters, std::shared_ptr<SearchReward> reward,
                         std::shared_ptr<BatchPolicy> others)
    : model_(std::move(policy), rules, std::move(name)),
      continuation_(std::move(continuation)),
      others_(std::move(others)),
      options_(std::move(options)),
      counters_(std::move(counters)),
      reward_(std::move(reward)) {
  HYDRA_CHECK((continuation_ != nullptr || options_.greedy()) && counters_ != nullptr,
              "a search agent needs its continuation network (unless bot:greedy plays on) and counters");
  HYDRA_CHECK(options_.network_others() == (others_ != nullptr),
              "a search agent with others=CKPT needs that network, and only then");
  HYDRA_CHECK(options_.grp.empty() == (reward_ == nullptr || reward_->model == nullptr),
              "a search agent with grp needs its reward model, and only then");
  HYDRA_CHECK(!options_.play_out_agent(continuation_.get()).cut() || options_.grp.empty(),
              "a search agent's cut play-outs have no GRP reward");
}

void SearchAgent::start_game(game::Seat seat, const game::GameKey& key) {
  key_ = key;
  kyoku_.clear();
  kyoku_events_.clear();
  searched_ = 0;
  model_.start_game(seat, key);
}

void SearchAgent::observe(const game::Event& e) {
  if (e.type == game::EventType::start_kyoku) {
    kyoku_.push_back(game::kyoku_start(e));
    kyoku_events_.clear();
  }
  kyoku_events_.push_back(e);
  model_.observe(e);
}

namespace {

// Hands one search's play-outs to an engine.
class PlayOutsDriver final : public EngineDriver {
 public:
  explicit PlayOutsDriver(std::vector<std::unique_ptr<EngineGame>> games) : games_(std::move(games)) {}
  std::unique_ptr<EngineGame> next() override { return next_ < games_.size() ? std::move(games_[next_++]) : nullptr; }
  void finished(std::unique_ptr<EngineGame>) override {}

 private:
  std::vector<std::unique_ptr<EngineGame>> games_;
  std::size_t next_ = 0;
};

}  // namespace

game::Action SearchAgent::act(const game::PlayerView& view, const game::Decision& d) {
  last_.reset();
  counters_->decisions.fetch_add(1, std::memory_order_relaxed);
  std::vector<game::Action> cands = search_candidates(model_.probabilities(view, d), d, options_);
  const game::Action argmax = cands.front();
  if (cands.size() < 2) return argmax;
  std::unique_ptr<game::Table> table;
  try {
    table = game::rebuild_table(view.rules(), d.seat, kyoku_events_, key_);
  } catch (const Error& e) {
    log::warn("'{}': no search at this decision, the argmax plays: {}", name(), e.what());
    return argmax;
  }
  // A kan-select decision comes right after the kan it names the tile of (when the rebuilt
  // table offers that kan; else the check below finds no such decision).
  const auto waits_for = [&](game::Phase phase, game::Action a) {
    const auto& p = table->pending();
    return std::any_of(p.begin(), p.end(), [&](const game::Decision& x) {
      return x.seat == d.seat && x.phase == phase && x.mask.test(a);
    });
  };
  const game::Action kan(game::Action::kKan);
  if (d.phase == game::Phase::kan_select && waits_for(game::Phase::turn, kan) && !table->answered(d.seat))
    table->act(d.seat, kan);
  const auto& pending = table->pending();
  if (std::none_of(pending.begin(), pending.end(),
                   [&](const game::Decision& p) { return p.seat == d.seat && p.phase == d.phase && p.mask == d.mask; })) {
    log::warn("'{}': no search at this decision, the argmax plays: the rebuilt table offers other actions", name());
    return argmax;
  }
  return search_on(*table, d, std::move(cands));
}

game::Action SearchAgent::search_on(const game::Table& table, const game::Decision& d,
                                    std::vector<game::Action> candidates) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  Search search(table, d.seat, *this, std::move(candidates), next_search_index());
  if (!engine_) {
    EngineOptions eo;
    eo.groups = {static_cast<std::size_t>(options_.candidates) * static_cast<std::size_t>(options_.walls)};
    engine_ = std::make_unique<Engine>(eo);
  }
  // Without a budget one round holds every deal; with one, rounds of a quarter of them, but for
  // a staged search, whose first stage runs whole and whose budget decides the stages after it.
  const int walls = search.walls();
  const int round = options_.time > 0 && options_.more == 0 ? (walls + 3) / 4 : walls;
  int played = 0;
  while (played < walls) {
    const auto round_start = Clock::now();
    const int last = std::min(walls, played + round);
    PlayOutsDriver driver(search.take_walls(played, last));
    engine_->run(driver);
    played = last;
    if (options_.time > 0 && played < walls) {
      const auto now = Clock::now();
      const std::chrono::duration<double> spent = now - start, took = now - round_start;
      if (spent.count() + took.count() * (std::min(walls, played + round) - played) / round > options_.time) break;
    }
  }
  if (played < walls) search.stop_at(played);
  HYDRA_CHECK(search.done(), "search: the engine ended before the play-outs");
  // A further stage, where the search goes on; under a budget only where the time a deal of the
  // stage before took says its deals end within it (else the choice is made on the deals so far).
  auto stage_start = start;
  int stage_deals = played;  // the deals of the stage just played
  for (int before = search.walls(); search.can_extend(); before = search.walls()) {
    if (options_.time > 0) {
      const auto now = Clock::now();
      const std::chrono::duration<double> spent = now - start, took = now - stage_start;
      if (spent.count() + took.count() / stage_deals * (search.next_walls() - before) > options_.time) break;
      stage_start = now;
    }
    if (!search.extend()) break;
    stage_deals = search.walls() - before;
    PlayOutsDriver driver(search.take_walls(before, search.walls()));
    engine_->run(driver);
    HYDRA_CHECK(search.done(), "search: the engine ended before the further play-outs");
  }
  const game::Action a = search.best();
  search.count(*counters_, a);
  last_ = Searched{search.candidates(), search.values(), a, search.walls()};
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
  for (auto seen = counters_->longest_us.load(); us > seen && !counters_->longest_us.compare_exchange_weak(seen, us);) {
  }
  return a;
}

std::vector<game::Action> search_candidates(const float* probs, const game::Decision& d, const SearchOptions& options) {
  const bool call = d.phase == game::Phase::response || d.phase == game::Phase::chankan;
  const int most = call && !options.calls ? 1 : options.candidates;
  std::vector<game::Action> all;
  for (int a = 0; a < game::kNumActions; ++a)
    if (d.mask.test(game::Action(a))) all.emplace_back(a);
  std::stable_sort(all.begin(), all.end(),
                   [&](game::Action x, game::Action y) { return probs[x.index()] > probs[y.index()]; });
  // riichi=0: whether to declare is the argmax's; a declaration is played as it is, a dama turn
  // searches its discards alone.
  const game::Action riichi(game::Action::kRiichi);
  if (!options.riichi && !all.empty() && d.mask.test(riichi)) {
    if (all.front() == riichi) return {riichi};
    std::erase(all, riichi);
  }
  std::vector<game::Action> out;
  for (const game::Action a : all) {
    if (static_cast<int>(out.size()) == most) break;
    if (!out.empty() && !(probs[a.index()] >= options.threshold)) break;
    out.push_back(a);
  }
  return out;
}

Search::Search(const game::Table& table, game::Seat seat, const SearchAgent& agent, std::vector<game::Action> candidates,
               std::uint64_t index)
    : agent_(&agent),
      seat_(seat),
      index_(index),
      start_scores_(table.scores()),
      candidates_(std::move(candidates)),
      margin_(agent.options().margin),
      sigmas_(agent.options().sigmas),
      walls_(agent.options().walls),
      more_(agent.options().more),
      first_walls_(agent.options().walls),
      stages_left_(agent.options().more > 0 ? agent.options().stages : 0),
      reward_model_(agent.reward()) {
  HYDRA_CHECK(candidates_.size() >= 2, "a search needs two candidates");
  if (reward_model_ != nullptr) {
    kyoku_ = agent.kyoku();
    HYDRA_CHECK(!kyoku_.empty(), "search: a decision before the kyoku started");
  }
  HYDRA_CHECK(agent.observer().view().seat() == seat, "search: the agent observes another seat");
  cut_ = agent.options().play_out_agent(agent.continuation(), agent.others()).cut();
  // Every deal's end is kept in place (the play-outs write into ends_): room for the further
  // deals too, so that adding them moves nothing.
  ends_.reserve(candidates_.size() * ix(total_walls(agent.options())));
  if (more_ > 0) {  // the further deals are dealt from the decision as it is now
    base_ = table.branch({});
    own_ = std::make_unique<encoder::Observer>(agent.observer());
  }
  deal(table, agent.observer(), 0, walls_);
}

// Deals [first, last) and their candidates' play-out games. A deal is keyed by its number alone,
// so the first N deals of any search of this decision are the same deals.
void Search::deal(const game::Table& table, const encoder::Observer& own, int first, int last) {
  const SearchAgent& agent = *agent_;
  const SearchOptions& o = agent.options();
  const auto s = static_cast<std::uint64_t>(seat_.index());
  const std::size_t n = candidates_.size() * ix(last);
  const std::size_t added = n - ends_.size();
  HYDRA_CHECK(n <= ends_.capacity(), "search: more deals than it has room for");
  ends_.resize(n);
  games_.resize(n);
  outstanding_.fetch_add(static_cast<int>(added), std::memory_order_acq_rel);
  // The seat's own encoder is its observer's; the others' follow from it and their dealt hands.
  const game::SeatArray<encoder::SuitPerm> perms{};
  const PlayOutAgentSpec spec = o.play_out_agent(agent.continuation(), agent.others());
  for (int w = first; w < last; ++w) {
    const auto wall = static_cast<std::uint64_t>(w);
    game::Xoshiro256ss stream(game::derive(agent.key(), game::labels::search, {s, index_, wall, 0}));
    std::unique_ptr<game::Table> dealt = table.branch({});
    dealt->redeal_hidden(seat_, stream);
    // The encoders where a network plays on (bot:greedy's play-outs encode nothing).
    std::optional<game::SeatArray<encoder::Encoder>> enc;
    if (spec.network()) {
      enc.emplace(game::SeatArray<encoder::Encoder>{encoder::Encoder(game::Seat(0)), encoder::Encoder(game::Seat(1)),
                                                    encoder::Encoder(game::Seat(2)), encoder::Encoder(game::Seat(3))});
      for (int k = 0; k < game::kNumSeats; ++k) {
        const game::Seat o2(k);
        (*enc)[o2] = o2 == seat_ ? own.encoder()
                                 : encoder::Encoder(own.encoder().book().for_seat(own.view(), dealt->view(o2)));
      }
    }
    const PlayOutStart start{*dealt, seat_, enc ? &*enc : nullptr, perms, &agent.key()};
    const game::StreamKey sampling = game::derive(agent.key(), game::labels::search, {s, index_, wall, 1});
    for (std::size_t k = 0; k < candidates_.size(); ++k) {
      const std::size_t i = ix(w) * candidates_.size() + k;
      games_[i] = std::make_unique<PlayOutGame>(start, candidates_[k], std::nullopt, spec, sampling, &ends_[i],
                                                &outstanding_);
    }
  }
}

// A candidate is on course for the gate when its gain on the deals so far already exceeds
// margin plus sigmas standard errors scaled to the precision of the next stage's deals: with N'
// deals instead of N the standard error shrinks by sqrt(N / N'), so a gain the deals so far put
// at sigmas * sqrt(N / N') of their standard errors is the one that, if it holds, passes the gate
// after the next stage. Elsewhere the further deals could not change the choice but by chance,
// and the choice is made on the deals so far (the argmax, unless a candidate already passes).
bool Search::extend() {
  HYDRA_CHECK(done(), "search: extended before its play-outs ended");
  if (!can_extend()) return false;
  const int next = next_stage(walls_, first_walls_, more_);
  const double scale = std::sqrt(static_cast<double>(walls_) / static_cast<double>(next));
  const bool promising = std::ranges::any_of(gains(), [&](const Gain& g) { return g.gain > margin_ + sigmas_ * scale * g.se; });
  --stages_left_;
  if (!promising) stages_left_ = 0;
  // The decision's table and the seat's observer, kept for a later stage or released.
  std::unique_ptr<game::Table> table = std::move(base_);
  std::unique_ptr<encoder::Observer> own = std::move(own_);
  if (!promising) return false;
  rewards_.clear();  // the deals so far are read again with the further ones
  const int first = walls_;
  walls_ = next;
  extended_ = true;
  deal(*table, *own, first, walls_);
  if (stages_left_ > 0) {
    base_ = std::move(table);
    own_ = std::move(own);
  }
  return true;
}

std::int64_t Search::total_walls(const SearchOptions& o) {
  std::int64_t n = o.walls;
  if (o.more > 0)
    for (int i = 0; i < o.stages && n <= kMaxDeals; ++i) n = n * (o.walls + o.more) / o.walls;
  return n;
}

void Search::settle() const {
  if (!rewards_.empty()) return;
  HYDRA_CHECK(done(), "a search read before its play-outs ended");
  const auto s = ix(seat_.index());
  rewards_.resize(ends_.size());
  const auto placement = [&](const PlayOutEnd& e) { return kPlacementReward[ix(game::ranks(e.scores)[s])]; };
  if (cut_) {  // the value where the play-out was cut, or the placement points of a game that ended
    for (std::size_t i = 0; i < ends_.size(); ++i) rewards_[i] = ends_[i].cut_reward(s);
    return;
  }
  if (reward_model_ == nullptr) {
    for (std::size_t i = 0; i < ends_.size(); ++i) {
      const PlayOutEnd& e = ends_[i];
      rewards_[i] = (e.scores[s] - start_scores_[s]) / kRewardScale;
      if (!e.next) rewards_[i] += placement(e);
    }
    return;
  }
  std::vector<std::optional<game::KyokuStart>> next;
  std::vector<std::array<int, 4>> scores;
  for (const PlayOutEnd& e : ends_) {
    next.push_back(e.next);
    scores.push_back({e.scores[0], e.scores[1], e.scores[2], e.scores[3]});
  }
  std::vector<std::array<double, 4>> r;
  {
    const std::scoped_lock lock(reward_model_->mu);
    r = reward_model_->model->last_kyoku_rewards(kyoku_, next, scores);
  }
  HYDRA_CHECK(r.size() == ends_.size(), "search: the reward model answered another number of play-outs");
  for (std::size_t i = 0; i < ends_.size(); ++i) rewards_[i] = r[i][s];
}

double Search::reward(std::size_t k, int w) const {
  settle();
  return rewards_[ix(w) * candidates_.size() + k];
}

std::vector<std::unique_ptr<EngineGame>> Search::take_walls(int first, int last) {
  HYDRA_CHECK(0 <= first && first <= last && last <= walls_, "search: deals out of range");
  std::vector<std::unique_ptr<EngineGame>> out;
  for (std::size_t i = ix(first) * candidates_.size(); i < ix(last) * candidates_.size(); ++i) {
    HYDRA_CHECK(games_[i] != nullptr, "search: a deal's games taken twice");
    out.push_back(std::move(games_[i]));
  }
  return out;
}

void Search::stop_at(int walls) {
  HYDRA_CHECK(1 <= walls && walls <= walls_ && rewards_.empty(), "search: stopped at no deal or after settling");
  const std::size_t kept = ix(walls) * candidates_.size();
  for (std::size_t i = kept; i < games_.size(); ++i)
    HYDRA_CHECK(games_[i] != nullptr, "search: stopped short of a deal already played");
  games_.clear();
  outstanding_.fetch_sub(static_cast<int>(ends_.size() - kept), std::memory_order_acq_rel);
  ends_.resize(kept);
  walls_ = walls;
}

std::vector<double> Search::values() const {
  HYDRA_CHECK(done(), "Search::values before its play-outs ended");
  std::vector<double> v(candidates_.size(), 0.0);
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    for (int w = 0; w < walls_; ++w) v[k] += reward(k, w);
    v[k] /= walls_;
  }
  return v;
}

data::SearchNote search_note(std::size_t event, const std::vector<game::Action>& candidates,
                             const std::vector<double>& values, int deals) {
  data::SearchNote n;
  n.event = event;
  for (const game::Action c : candidates) n.actions.push_back(c.index());
  for (const double v : values) n.values.push_back(static_cast<float>(v));
  n.deals = deals;
  return n;
}

data::SearchNote Search::note(std::size_t event) const { return search_note(event, candidates_, values(), walls_); }

std::vector<Search::Gain> Search::gains() const {
  const std::vector<double> v = values();
  // Each candidate against the argmax, paired by deal: the mean gain and its standard error.
  std::vector<Gain> out;
  for (std::size_t k = 1; k < v.size(); ++k) {
    const double gain = v[k] - v[0];
    out.push_back({gain, standard_error(ix(walls_), gain, [&](std::size_t w) {
                     return reward(k, static_cast<int>(w)) - reward(0, static_cast<int>(w));
                   })});
  }
  return out;
}

game::Action Search::best() const {
  std::size_t best = 0;
  double best_gain = 0;
  const std::vector<Gain> g = gains();
  for (std::size_t k = 1; k < candidates_.size(); ++k) {
    if (g[k - 1].gain > margin_ + sigmas_ * g[k - 1].se && g[k - 1].gain > best_gain) {
      best = k;
      best_gain = g[k - 1].gain;
    }
  }
  return candidates_[best];
}

void Search::count(SearchCounters& c, game::Action played) const {
  c.searched.fetch_add(1, std::memory_order_relaxed);
  if (played != candidates_.front()) c.changed.fetch_add(1, std::memory_order_relaxed);
  if (extended_) c.extended.fetch_add(1, std::memory_order_relaxed);
  c.deals.fetch_add(walls_, std::memory_order_relaxed);
  c.play_outs.fetch_add(static_cast<std::int64_t>(ends_.size()), std::memory_order_relaxed);
  c.play_out_decisions.fetch_add(play_out_decisions(), std::memory_order_relaxed);
}

std::int64_t Search::play_out_decisions() const {
  std::int64_t n = 0;
  for (const PlayOutEnd& e : ends_) n += e.decisions;
  return n;
}

}  // namespace hydra::selfplay
