// The lock-step play engine (engine.hpp; docs/SELFPLAY.md "The engine").

#include "hydra/selfplay/engine.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "hydra/common/error.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/game/action.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

constexpr std::size_t kObs = encoder::kObsSize;
constexpr std::size_t kContext = encoder::kContextSize;
constexpr std::size_t kActions = game::kNumActions;

// One policy's rows of a group's step.
struct PolicyRows {
  BatchPolicy* policy = nullptr;
  std::size_t rows = 0;
  std::int64_t version = 0;
  std::vector<float> obs, context, probs, value;
  std::vector<game::ActionMask> legal;

  void resize(std::size_t n) {
    rows = n;
    obs.resize(n * kObs);
    context.resize(n * kContext);
    probs.resize(n * kActions);
    value.resize(n);
    legal.resize(n);
  }
  Row row(std::size_t i) { return Row{obs.data() + i * kObs, context.data() + i * kContext, legal.data() + i}; }
  RowResult result(std::size_t i) const { return RowResult{probs.data() + i * kActions, value[i], version}; }
};

struct Group {
  // The first `fixed` slots take the driver's games; spawned games fill the rest, which grows and
  // shrinks with them.
  std::vector<std::unique_ptr<EngineGame>> slots;
  std::size_t fixed = 0;
  std::vector<PolicyRows> policies;  // the first `used` are this step's, in first-seen order
  std::size_t used = 0;
  std::size_t rows() const {
    std::size_t n = 0;
    for (std::size_t p = 0; p < used; ++p) n += policies[p].rows;
    return n;
  }
};

}  // namespace

struct Engine::Impl {
  explicit Impl(EngineOptions o);
  ~Impl();

  void step(Group& g, EngineDriver& driver);
  void advance(EngineGame& game);
  void layout(Group& g);
  static void place(Group& g, std::vector<std::unique_ptr<EngineGame>>& games, std::vector<std::size_t>& fresh);
  void evaluate(Group& g);
  // No rows left: no game may still wait on a deferred decision.
  static void check_idle(const Group& g);

  // The inference thread (two groups).
  void submit(std::size_t group);
  void wait(std::size_t group);
  void inference_loop();

  EngineOptions opt;
  std::vector<Group> groups;
  EngineStats stats;

  std::thread worker;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<bool> queued, busy;
  bool quit = false;
  std::exception_ptr error;
};

Engine::Impl::Impl(EngineOptions o) : opt(std::move(o)) {
  if (opt.groups.empty() || opt.groups.size() > 2) throw Error("the play engine takes one or two groups of slots");
  for (std::size_t n : opt.groups) {
    if (n == 0) throw Error("the play engine needs at least one slot per group");
    Group& g = groups.emplace_back();
    g.slots.resize(n);
    g.fixed = n;
  }
  queued.assign(groups.size(), false);
  busy.assign(groups.size(), false);
  if (groups.size() == 2) worker = std::thread([this] { inference_loop(); });
}

Engine::Impl::~Impl() {
  if (!worker.joinable()) return;
  {
    std::lock_guard lock(mu);
    quit = true;
  }
  cv.notify_all();
  worker.join();
}

// Answers what the game answers itself until it waits on a policy or ends.
void Engine::Impl::advance(EngineGame& game) {
  game.waiting_.clear();
  game::Table& t = game.table();
  while (!game.over()) {
    // A copy: answering the last open one replaces the list, and what follows it in the copy is
    // then stale (a spawned game's first answer, PlayOutGame's, can sit after it).
    const auto pending = t.pending();
    auto open = std::count_if(pending.begin(), pending.end(), [&t](const game::Decision& d) { return !t.answered(d.seat); });
    for (const game::Decision& d : pending) {
      if (open == 0) break;
      if (t.answered(d.seat)) continue;
      --open;
      if (BatchPolicy* p = game.policy(d)) {
        game.waiting_.push_back({d, p, 0, 0});
      } else {
        t.act(d.seat, game.act(d));
      }
    }
    if (!game.waiting_.empty()) return;
  }
}

std::optional<game::Action> EngineGame::resume(const game::Decision&) {
  throw InvariantError("a game deferred a decision but cannot resume it");
}

void Engine::Impl::step(Group& g, EngineDriver& driver) {
  auto& slots = g.slots;
  hydra::parallel_for(0, slots.size(), [&](std::size_t i) {
    if (!slots[i]) return;
    EngineGame& game = *slots[i];
    const auto t0 = Clock::now();
    for (const EngineGame::Waiting& w : game.waiting_) {
      const game::Action a = game.choose(w.decision, g.policies[w.policy].result(w.row));
      if (std::exchange(game.defer_, false)) game.deferred_.push_back(w.decision);
      else game.table().act(w.decision.seat, a);
    }
    if (game.deferred_.empty()) {
      advance(game);
      if (game.over()) game.ended();
    } else {
      game.waiting_.clear();
    }
    game.play_seconds += since(t0);
  });
  // Finishing and starting games is serial and in slot order, so the driver sees the same order
  // whatever the thread count.
  std::vector<std::unique_ptr<EngineGame>> spawned;
  for (auto& slot : slots)
    if (slot)
      for (auto& b : std::exchange(slot->spawned_, {})) spawned.push_back(std::move(b));
  std::vector<std::size_t> fresh;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (slots[i] && slots[i]->over()) driver.finished(std::move(slots[i]));
    if (!slots[i] && i < g.fixed) {
      slots[i] = driver.next();
      if (slots[i]) fresh.push_back(i);
    }
  }
  place(g, spawned, fresh);
  // Fresh games advance until each waits on a policy or has finished; then the games that
  // deferred a decision try to resume; the games that ended are handed over and replaced, and the
  // replacements advance in turn, until nothing changes.
  for (;;) {
    hydra::parallel_for(0, fresh.size(), [&](std::size_t k) {
      EngineGame& game = *slots[fresh[k]];
      const auto t0 = Clock::now();
      advance(game);
      if (game.over()) game.ended();
      game.play_seconds += since(t0);
    });
    std::vector<std::size_t> deferred, moved;
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (slots[i] && !slots[i]->deferred_.empty()) deferred.push_back(i);
    std::vector<char> resumed(deferred.size(), 0);
    hydra::parallel_for(0, deferred.size(), [&](std::size_t k) {
      EngineGame& game = *slots[deferred[k]];
      const auto t0 = Clock::now();
      auto& pending = game.deferred_;
      for (std::size_t j = 0; j < pending.size();) {
        if (const auto a = game.resume(pending[j])) {
          game.table().act(pending[j].seat, *a);
          pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(j));
        } else {
          ++j;
        }
      }
      if (pending.empty()) {
        resumed[k] = 1;
        advance(game);
        if (game.over()) game.ended();
      }
      game.play_seconds += since(t0);
    });
    for (std::size_t i : fresh) moved.push_back(i);
    for (std::size_t k = 0; k < deferred.size(); ++k)
      if (resumed[k]) moved.push_back(deferred[k]);
    std::sort(moved.begin(), moved.end());
    std::vector<std::size_t> again;
    for (std::size_t i : moved)
      if (slots[i]->over()) {  // a game without a network decision, or one that resumed to its end
        driver.finished(std::move(slots[i]));
        if (i < g.fixed) slots[i] = driver.next();
        if (slots[i]) again.push_back(i);
      }
    // A game that is still waiting may have spawned more games to wait on (a staged search):
    // they take free slots like step 1's, in slot then spawn order.
    std::vector<std::unique_ptr<EngineGame>> more;
    for (const std::size_t i : deferred)
      if (slots[i])
        for (auto& b : std::exchange(slots[i]->spawned_, {})) more.push_back(std::move(b));
    place(g, more, again);
    const bool any_resumed = std::find(resumed.begin(), resumed.end(), 1) != resumed.end();
    if (again.empty() && !any_resumed) break;
    fresh = std::move(again);
  }
  while (slots.size() > g.fixed && !slots.back()) slots.pop_back();
  layout(g);
}

// Spawned games take the free slots after the driver's, appended to the group when there are
// none, in order; their slots are added to `fresh`.
void Engine::Impl::place(Group& g, std::vector<std::unique_ptr<EngineGame>>& games, std::vector<std::size_t>& fresh) {
  auto& slots = g.slots;
  std::size_t free = g.fixed;
  for (auto& b : games) {
    while (free < slots.size() && slots[free]) ++free;
    if (free == slots.size()) slots.emplace_back();
    slots[free] = std::move(b);
    fresh.push_back(free);
  }
}

// Rows per policy in slot order, then decision order; the games encode their own rows in parallel.
void Engine::Impl::layout(Group& g) {
  g.used = 0;
  std::vector<std::size_t> rows;
  for (auto& slot : g.slots) {
    if (!slot) continue;
    for (EngineGame::Waiting& w : slot->waiting_) {
      BatchPolicy* p = w.source;
      std::size_t k = 0;
      while (k < g.used && g.policies[k].policy != p) ++k;
      if (k == g.used) {
        if (g.policies.size() == g.used) g.policies.emplace_back();
        g.policies[k].policy = p;
        rows.push_back(0);
        ++g.used;
      }
      w.policy = k;
      w.row = rows[k]++;
    }
  }
  for (std::size_t k = 0; k < g.used; ++k) g.policies[k].resize(rows[k]);
  hydra::parallel_for(0, g.slots.size(), [&](std::size_t i) {
    if (!g.slots[i]) return;
    EngineGame& game = *g.slots[i];
    const auto t0 = Clock::now();
    for (const EngineGame::Waiting& w : game.waiting_) game.encode(w.decision, g.policies[w.policy].row(w.row));
    game.encode_seconds += since(t0);
  });
}

// One evaluate() per policy, chunked by max_batch. With opt.overlap, each policy that overlaps
// (a CUDA snapshot, BatchPolicy::overlaps) runs on a thread of its own, so the device works on
// their passes at once while this thread evaluates the others (bots, CPU networks); the rows and
// results are the same either way.
void Engine::Impl::evaluate(Group& g) {
  const auto t0 = Clock::now();
  std::vector<std::int64_t> passes(g.used, 0);
  const auto run = [&](std::size_t k) {
    PolicyRows& b = g.policies[k];
    b.version = b.policy->version();
    const auto n = static_cast<int>(b.rows);
    const int chunk = opt.max_batch > 0 ? opt.max_batch : n;
    for (int off = 0; off < n; off += chunk) {
      const auto i = ix(off);
      b.policy->evaluate(PolicyBatch{b.obs.data() + i * kObs, b.context.data() + i * kContext, b.legal.data() + i,
                                     std::min(chunk, n - off)},
                         PolicyOutput{b.probs.data() + i * kActions, b.value.data() + i});
      ++passes[k];
    }
  };
  std::vector<std::size_t> threaded, here;
  for (std::size_t k = 0; k < g.used; ++k) {
    if (g.policies[k].rows == 0) continue;
    (opt.overlap && g.policies[k].policy->overlaps() ? threaded : here).push_back(k);
  }
  if (threaded.empty()) {
    for (const std::size_t k : here) run(k);
  } else {
    // This thread takes one overlapping policy itself when it has nothing else to do.
    if (here.empty()) {
      here.push_back(threaded.back());
      threaded.pop_back();
    }
    std::vector<std::exception_ptr> failed(g.used);
    std::vector<std::thread> others;
    others.reserve(threaded.size());
    for (const std::size_t k : threaded)
      others.emplace_back([&, k] {
        try {
          run(k);
        } catch (...) {
          failed[k] = std::current_exception();
        }
      });
    for (const std::size_t k : here) {
      try {
        run(k);
      } catch (...) {
        failed[k] = std::current_exception();
      }
    }
    for (auto& t : others) t.join();
    for (auto& e : failed)
      if (e) std::rethrow_exception(e);
  }
  std::int64_t rows = 0, total = 0;
  for (std::size_t k = 0; k < g.used; ++k) {
    rows += static_cast<std::int64_t>(g.policies[k].rows);
    total += passes[k];
  }
  // With two groups this runs on the inference thread; the engine's thread reads the totals only
  // after wait(), which orders them after these writes.
  stats.inference_seconds += since(t0);
  stats.forward_passes += total;
  stats.rows += rows;
}

void Engine::Impl::check_idle(const Group& g) {
  for (const auto& slot : g.slots)
    HYDRA_CHECK(!slot || slot->deferred_.empty(), "a game waits on a deferred decision that no running game can end");
}

void Engine::Impl::inference_loop() {
  std::unique_lock lock(mu);
  for (;;) {
    cv.wait(lock, [&] { return quit || std::find(queued.begin(), queued.end(), true) != queued.end(); });
    if (quit) return;
    const auto g = static_cast<std::size_t>(std::find(queued.begin(), queued.end(), true) - queued.begin());
    queued[g] = false;
    lock.unlock();
    std::exception_ptr failed;
    try {
      evaluate(groups[g]);
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    if (failed) error = failed;
    busy[g] = false;
    cv.notify_all();
  }
}

void Engine::Impl::submit(std::size_t group) {
  if (groups[group].rows() == 0) return;
  {
    std::lock_guard lock(mu);
    queued[group] = true;
    busy[group] = true;
  }
  cv.notify_all();
}

void Engine::Impl::wait(std::size_t group) {
  const auto t0 = Clock::now();
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return !busy[group]; });
  stats.wait_seconds += since(t0);
  if (error) std::rethrow_exception(std::exchange(error, nullptr));
}

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Engine::~Engine() = default;

void Engine::run(EngineDriver& driver) {
  Impl& m = *impl_;
  for (Group& g : m.groups) {
    g.used = 0;
    for (auto& slot : g.slots)
      if (!slot) slot = driver.next();
  }
  if (m.groups.size() == 1) {
    Group& g = m.groups[0];
    for (;;) {
      m.step(g, driver);
      driver.stepped();
      if (g.rows() == 0) {  // every game has finished
        m.check_idle(g);
        break;
      }
      m.evaluate(g);
    }
    return;
  }
  // Two groups: while one group's batch is evaluated on the inference thread, the other steps.
  for (std::size_t g = 0; g < 2; ++g) {
    m.step(m.groups[g], driver);
    m.submit(g);
  }
  for (;;) {
    bool active = false;
    for (std::size_t g = 0; g < 2; ++g) {
      m.wait(g);
      m.step(m.groups[g], driver);
      driver.stepped();
      m.submit(g);
      active = active || m.groups[g].rows() > 0;
    }
    if (!active) {  // both groups idle: every game has finished
      for (Group& g : m.groups) m.check_idle(g);
      break;
    }
  }
}

EngineStats Engine::take_stats() { return std::exchange(impl_->stats, EngineStats{}); }

}  // namespace hydra::selfplay
