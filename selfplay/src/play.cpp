// Playing many games of four agents on the engine (play.hpp).

#include "hydra/selfplay/play.hpp"

#include <algorithm>
#include <utility>

#include "hydra/common/error.hpp"
#include "hydra/common/thread_limit.hpp"
#include "hydra/game/table.hpp"
#include "hydra/selfplay/engine.hpp"
#include "hydra/selfplay/external_agent.hpp"
#include "hydra/selfplay/search.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {

std::string describe(const AgentFault& f) {
  return f.agent + " at seat " + std::to_string(f.seat) + ": " + f.reason + (f.event.empty() ? "" : "; event: " + f.event) +
         (f.reply.empty() ? "" : "; reply: " + f.reply);
}

std::vector<AgentFault> faults_of(const std::array<game::Agent*, game::kNumSeats>& agents) {
  std::vector<AgentFault> out;
  for (game::Agent* a : agents)
    if (const auto* o = dynamic_cast<const ObservingAgent*>(a); o && o->fault()) out.push_back(*o->fault());
  return out;
}

namespace {

// A game of four agents on the engine: batched agents' decisions go to their policy's rows,
// every other agent answers inline. Observing agents read the recorded events (the feed: a seat's
// view ignores the others' hidden tiles in them) before they act.
class AgentGame final : public EngineGame {
 public:
  AgentGame(const game::TableRules& rules, std::size_t index, const std::function<GameStart(std::size_t)>& start,
            const std::function<void(PlayedGame)>& done)
      : rules_(rules), index_(index), start_(start), done_(done) {}

  // The agents are made and the table dealt on first use, in the engine's parallel advance, not
  // in the driver's serial next(): starting a game is a good part of a bot game's cost.
  game::Table& table() override {
    if (!table_) {
      GameStart start = start_(index_);
      std::move(start.agents.begin(), start.agents.end(), agents_.begin());
      for (std::size_t s = 0; s < game::kNumSeats; ++s) {
        HYDRA_CHECK(agents_[s] != nullptr, "a game needs four agents");
        observers_[s] = dynamic_cast<ObservingAgent*>(agents_[s].get());
        models_[s] = dynamic_cast<BatchedAgent*>(agents_[s].get());
        searchers_[s] = dynamic_cast<SearchAgent*>(agents_[s].get());
        agents_[s]->start_game(game::Seat(static_cast<int>(s)), start.key);
      }
      table_ = std::make_unique<game::Table>(rules_, start.key, true);
    }
    return *table_;
  }
  BatchPolicy* policy(const game::Decision& d) override {
    if (observers_[d.seat]) catch_up(ix(d.seat.index()));
    return models_[d.seat] ? models_[d.seat]->policy() : nullptr;
  }
  game::Action act(const game::Decision& d) override {
    return agents_[d.seat]->act(table_->view(d.seat), d);
  }
  void encode(const game::Decision& d, const Row& row) override {
    models_[d.seat]->prepare(table_->view(d.seat), d, row.obs, row.context, row.legal);
  }
  // A search agent with two or more likely actions spawns its play-outs and defers the decision
  // (search.hpp); resume() plays its best candidate once they have ended. Under a time budget it
  // searches at once on an engine of its own instead, as hydra bot does.
  game::Action choose(const game::Decision& d, const RowResult& r) override {
    if (SearchAgent* s = searchers_[d.seat]) {
      SearchCounters& c = s->counters();
      c.decisions.fetch_add(1, std::memory_order_relaxed);
      std::vector<game::Action> cands = search_candidates(r.probs, d, s->options());
      const game::Action argmax = cands.front();
      if (cands.size() >= 2 && s->options().time > 0) {
        const game::Action a = s->search_on(*table_, d, std::move(cands));
        const SearchAgent::Searched& done = *s->last_search();
        keep_note(d, search_note(table_->events().size(), done.candidates, done.values, done.deals));
        return a;
      }
      if (cands.size() >= 2) {
        auto& search = searches_[d.seat];
        search = std::make_unique<Search>(*table_, d.seat, *s, std::move(cands), s->next_search_index());
        for (auto& g : search->take_games()) spawn(std::move(g));
        defer();
      }
      return argmax;
    }
    return models_[d.seat]->finish(d, r.probs);
  }
  std::optional<game::Action> resume(const game::Decision& d) override {
    auto& search = searches_[d.seat];
    HYDRA_CHECK(search != nullptr, "a deferred decision without a search");
    if (!search->done()) return std::nullopt;
    if (const int walls = search->walls(); search->extend()) {  // a staged search goes on (option more)
      for (auto& g : search->take_walls(walls, search->walls())) spawn(std::move(g));
      return std::nullopt;
    }
    const game::Action a = search->best();
    search->count(searchers_[d.seat]->counters(), a);
    keep_note(d, search->note(table_->events().size()));
    search.reset();
    return a;
  }
  // Observers catch up first (a fault can come at the end), then the game goes to its caller.
  void ended() override {
    std::array<game::Agent*, game::kNumSeats> seats{};
    for (std::size_t s = 0; s < game::kNumSeats; ++s) {
      if (observers_[s]) catch_up(s);
      seats[s] = agents_[s].get();
    }
    PlayedGame out;
    out.index = index_;
    // A note stays where its event is the searching seat's own action (a pass has none, and on
    // another seat's discard a call may come first), one note to an event.
    const std::vector<game::Event>& events = table_->events();
    for (auto& [seat, note] : notes_) {
      const bool own = note.event < events.size() && events[note.event].actor == seat && data::is_seat_action(events[note.event].type);
      if (own && (out.searches.empty() || out.searches.back().event < note.event)) out.searches.push_back(std::move(note));
    }
    out.result = game::result_of(*table_);  // takes the events
    out.faults = faults_of(seats);
    done_(std::move(out));
  }

 private:
  // A search's note, made as it chose: the action's event comes next. Which kan (the decision
  // after a kan) has no event of its own and is not noted.
  void keep_note(const game::Decision& d, data::SearchNote note) {
    if (d.phase != game::Phase::kan_select) notes_.emplace_back(d.seat, std::move(note));
  }
  void catch_up(std::size_t s) {
    const std::vector<game::Event>& events = table_->events();
    for (; seen_[s] < events.size(); ++seen_[s]) observers_[s]->observe(events[seen_[s]]);
  }

  const game::TableRules& rules_;
  std::size_t index_;
  const std::function<GameStart(std::size_t)>& start_;
  game::SeatArray<std::unique_ptr<game::Agent>> agents_;
  game::SeatArray<ObservingAgent*> observers_{};
  game::SeatArray<BatchedAgent*> models_{};
  game::SeatArray<SearchAgent*> searchers_{};
  game::SeatArray<std::unique_ptr<Search>> searches_;
  std::vector<std::pair<game::Seat, data::SearchNote>> notes_;  // in the order decided
  std::unique_ptr<game::Table> table_;
  std::array<std::size_t, game::kNumSeats> seen_{};
  const std::function<void(PlayedGame)>& done_;
};

class AgentGameDriver final : public EngineDriver {
 public:
  AgentGameDriver(const game::TableRules& rules, std::size_t games, const std::function<GameStart(std::size_t)>& start,
                  const std::function<void(PlayedGame)>& done)
      : rules_(rules), games_(games), start_(start), done_(done) {}
  std::unique_ptr<EngineGame> next() override {
    if (next_ >= games_) return nullptr;
    const std::size_t i = next_++;
    return std::make_unique<AgentGame>(rules_, i, start_, done_);
  }
  void finished(std::unique_ptr<EngineGame>) override {}  // AgentGame::ended() handed it over

 private:
  const game::TableRules& rules_;
  std::size_t games_, next_ = 0;
  const std::function<GameStart(std::size_t)>& start_;
  const std::function<void(PlayedGame)>& done_;
};

}  // namespace

std::size_t play_slots(const std::vector<std::string>& agent_names) {
  const bool external = std::any_of(agent_names.begin(), agent_names.end(),
                                    [](const std::string& n) { return is_external_name(n); });
  return external ? static_cast<std::size_t>(std::max(1, ThreadLimit::active())) : kPlaySlots;
}

void play_games(const game::TableRules& rules, std::size_t games, std::size_t slots,
                const std::function<GameStart(std::size_t)>& start, const std::function<void(PlayedGame)>& done) {
  if (games == 0) return;
  AgentGameDriver driver(rules, games, start, done);
  EngineOptions eo;
  eo.groups = {std::min(slots == 0 ? kPlaySlots : slots, games)};
  Engine engine(eo);
  engine.run(driver);
}

}  // namespace hydra::selfplay
