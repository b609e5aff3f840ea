// The 1v3 duplicate evaluation (duplicate.hpp; docs/EVAL.md).

#include "hydra/selfplay/duplicate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/read_file.hpp"
#include "hydra/data/mjai.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/eval_journal.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "hydra/common/index.hpp"

namespace hydra::selfplay {
namespace {

struct GameOut {
  GameStats stats{};
  int kyoku = 0, decisions = 0;
  std::vector<AgentFault> faults;  // non-empty: the game is void
};

std::unique_ptr<game::Agent> make(const EvalOptions& o, const std::string& name) {
  return o.make_agent ? o.make_agent(name) : make_bot(name);
}

using Agents = std::array<std::unique_ptr<game::Agent>, game::kNumSeats>;

Agents make_agents(const EvalOptions& o, int challenger_seat) {
  Agents agents;
  for (int s = 0; s < game::kNumSeats; ++s)
    agents[ix(s)] = make(o, s == challenger_seat ? o.challenger : o.champion);
  return agents;
}

GameOut game_out(const EvalOptions& o, const game::TableRules& rules, std::uint64_t seed, int challenger_seat,
                 game::GameResult r, std::vector<AgentFault> faults) {
  GameOut out;
  out.faults = std::move(faults);
  if (!out.faults.empty()) return out;  // void: neither scored nor logged
  out.stats = game_stats(r.events, r.final_scores, rules.uma_eval);
  out.kyoku = r.kyoku;
  out.decisions = r.decisions;
  if (o.logs) {
    data::GameLog log;
    for (int s = 0; s < game::kNumSeats; ++s)
      log.names[ix(s)] = s == challenger_seat ? o.challenger : o.champion;
    log.uri = "hydra-eval:seed=" + std::to_string(o.master.value) + ":game=" + std::to_string(seed) +
              ":challenger-seat=" + std::to_string(challenger_seat) + ":rules=" + rules.name;
    log.events = std::move(r.events);
    char name[64];
    std::snprintf(name, sizeof name, "seed_%06llu_seat%d.json.gz", static_cast<unsigned long long>(seed),
                  challenger_seat);
    data::write_mjai(*o.logs / name, log);
  }
  return out;
}

// Plays the games (seed, challenger seat) with play_games: out[i] is filled from the worker that
// ended game i, then on_finished(i) is called, one call at a time.
void play_all(const EvalOptions& o, const game::TableRules& rules,
              const std::vector<std::pair<std::uint64_t, int>>& games, std::vector<GameOut>& out,
              const std::function<void(std::size_t)>& on_finished) {
  std::mutex progress_mutex;
  play_games(
      rules, games.size(), play_slots({o.challenger, o.champion}),
      [&](std::size_t i) {
        const auto [seed, seat] = games[i];
        return GameStart{make_agents(o, seat), game::game_key(o.master, seed)};
      },
      [&](PlayedGame g) {
        const auto [seed, seat] = games[g.index];
        out[g.index] = game_out(o, rules, seed, seat, std::move(g.result), std::move(g.faults));
        const std::scoped_lock lock(progress_mutex);
        on_finished(g.index);
      });
}

std::string file_digest(const std::string& path) { return game::to_hex(game::sha256(read_file(path))); }

// What decides a duplicate's games: the agents' names and the SHA-256 of every file they load (a
// checkpoint trained again at the same path is another agent), the rules, the master seed and the
// play mode.
nlohmann::ordered_json journal_identity(const EvalOptions& o) {
  nlohmann::ordered_json files = nlohmann::ordered_json::object();
  for (const std::string& name : {o.challenger, o.champion})
    for (const std::string& file : ModelAgents::files_of(name)) files[file] = file_digest(file);
  return {{"challenger", o.challenger}, {"champion", o.champion}, {"rules", o.rules},
          {"seed", o.master.value},     {"play", o.play},         {"files", files}};
}

}  // namespace

EvalResult run_eval(const EvalOptions& o) {
  if (o.seeds < 1) throw Error("--seeds must be at least 1");
  if (o.first_seed > std::numeric_limits<std::uint64_t>::max() - o.seeds)
    throw Error("--first-seed plus --seeds passes the largest seed index");
  (void)make(o, o.challenger);  // names checked (and checkpoints loaded) before any game runs
  (void)make(o, o.champion);
  const game::TableRules& rules = game::table_rules(o.rules);
  if (o.logs) {
    std::error_code ec;
    std::filesystem::create_directories(*o.logs, ec);
    if (ec) throw Error(o.logs->string() + ": cannot create the log folder: " + ec.message());
  }
  if (o.sequential.enabled && o.sequential.batch < 2) throw Error("the sequential batch must be at least 2 seeds");

  const std::uint64_t batch = o.sequential.enabled ? static_cast<std::uint64_t>(o.sequential.batch) : o.seeds;
  EvalResult res;
  res.sequential.max_looks = static_cast<int>((o.seeds + batch - 1) / batch);
  res.sequential.z = o.sequential.enabled ? normal_quantile(1 - 0.05 / (2.0 * res.sequential.max_looks)) : 1.96;
  std::unique_ptr<EvalJournal> journal;
  if (o.journal) journal = std::make_unique<EvalJournal>(*o.journal, journal_identity(o));
  auto known = [&](std::uint64_t seed) -> const JournalSeed* {
    if (!journal) return nullptr;
    const auto it = journal->finished().find(seed);
    return it == journal->finished().end() ? nullptr : &it->second;
  };
  std::uint64_t finished = 0;
  for (std::uint64_t i = 0; i < o.seeds; ++i)
    if (known(o.first_seed + i)) finished += game::kNumSeats;
  const std::uint64_t planned = o.seeds * game::kNumSeats;

  for (std::uint64_t first = 0; first < o.seeds; first += batch) {
    const std::uint64_t count = std::min(batch, o.seeds - first);
    const std::uint64_t base = o.first_seed + first;  // this batch's first wall seed
    // The seeds to play (the journal's are read back): their four games each, in seed order.
    std::vector<std::uint64_t> to_play;
    for (std::uint64_t i = 0; i < count; ++i)
      if (!known(base + i)) to_play.push_back(base + i);
    std::vector<GameOut> games(to_play.size() * game::kNumSeats);
    std::vector<std::pair<std::uint64_t, int>> list;
    for (std::size_t g = 0; g < games.size(); ++g)
      list.emplace_back(to_play[g / game::kNumSeats], static_cast<int>(g % game::kNumSeats));
    std::vector<int> left(to_play.size(), game::kNumSeats);  // games of each seed still playing
    auto seed_games = [&](std::size_t k) { return std::span(games).subspan(k * game::kNumSeats, game::kNumSeats); };
    auto whole = [](std::span<const GameOut> four) {
      return std::all_of(four.begin(), four.end(), [](const GameOut& g) { return g.faults.empty(); });
    };
    auto journal_seed = [](std::uint64_t seed, std::span<const GameOut> four) {
      JournalSeed s;
      s.games.seed = seed;
      for (std::size_t c = 0; c < game::kNumSeats; ++c) {
        s.games.games[c] = four[c].stats;
        s.kyoku += four[c].kyoku;
        s.decisions += four[c].decisions;
      }
      return s;
    };
    play_all(o, rules, list, games, [&](std::size_t g) {
      const std::size_t k = g / game::kNumSeats;
      if (--left[k] == 0 && journal && whole(seed_games(k))) journal->write(journal_seed(to_play[k], seed_games(k)));
      if (o.progress) o.progress(++finished, planned);
    });
    std::size_t next = 0;  // the next seed of to_play
    for (std::uint64_t i = 0; i < count; ++i) {
      JournalSeed s;
      if (const JournalSeed* read = known(base + i)) {
        s = *read;
        ++res.seeds_from_journal;
      } else {
        // A seed with a void game cannot be paired: none of its four games is scored, and every
        // fault is reported.
        const auto four = seed_games(next++);
        if (!whole(four)) {
          for (std::size_t c = 0; c < game::kNumSeats; ++c)
            for (const AgentFault& f : four[c].faults) res.voided.push_back(VoidedGame{base + i, static_cast<int>(c), f});
          ++res.seeds_voided;
          continue;
        }
        s = journal_seed(base + i, four);
      }
      res.kyoku += s.kyoku;
      res.decisions += s.decisions;
      res.seeds.push_back(s.games);
    }
    res.games = res.seeds.size() * game::kNumSeats;
    if (!o.sequential.enabled) continue;
    ++res.sequential.looks;
    const Metric& rank = metrics().front();
    const Estimate d = paired_difference(challenger_sums(res.seeds, rank), champion_sums(res.seeds, rank), res.sequential.z);
    res.sequential.last = d;
    if (std::isnan(d.lo) || first + count >= o.seeds) continue;
    if (d.lo > 0 || d.hi < 0) res.sequential.reason = "difference";
    else if (o.sequential.margin > 0 && d.lo > -o.sequential.margin && d.hi < o.sequential.margin)
      res.sequential.reason = "equivalent";
    if (!res.sequential.reason.empty()) {
      res.sequential.stopped_early = true;
      break;
    }
  }
  return res;
}

}  // namespace hydra::selfplay
