#include "hydra/selfplay/positions.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/game/runner.hpp"
#include "hydra/selfplay/bots.hpp"

namespace hydra::selfplay {
namespace {

namespace fs = std::filesystem;

// Logs read before picking: enough decisions to spread `count` positions over several games
// (a hanchan gives a few thousand), few enough to start in a second.
constexpr std::size_t kMaxLogs = 8;
constexpr int kMaxGames = 16;

// Keeps `count` rows evenly spaced over `all` (all of them when there are fewer).
data::SampleBatch spread(const data::SampleBatch& all, std::size_t count) {
  if (all.size() <= count) return all;
  data::SampleBatch out;
  for (std::size_t k = 0; k < count; ++k) out.append(all, k * all.size() / count);
  return out;
}

Positions from_logs(const fs::path& where, std::size_t count, const game::TableRules& rules) {
  const auto files = data::collect_log_files({where});
  data::SampleBatch all;
  std::size_t used = 0;
  for (const auto& file : files) {
    if (used == kMaxLogs || all.size() >= 4 * count) break;
    try {
      data::extract_samples(data::read_log(file), file.string(), all, rules);
      ++used;
    } catch (const Error& e) {
      log::warn("positions: skipped {}: {}", file.string(), e.what());
    }
  }
  if (all.size() == 0) throw Error("no decisions in the logs under '" + where.string() + "' (none could be read)");
  return {spread(all, count), std::to_string(used) + (used == 1 ? " log under " : " logs under ") + where.string()};
}

Positions from_selfplay(std::size_t count, std::uint64_t seed, const game::TableRules& rules) {
  data::SampleBatch all;
  int games = 0;
  while (games < kMaxGames && all.size() < 4 * count) {
    std::array<std::unique_ptr<game::Agent>, game::kNumSeats> bots;
    std::array<game::Agent*, game::kNumSeats> agents{};
    for (std::size_t s = 0; s < bots.size(); ++s) {
      bots[s] = make_bot("bot:greedy");
      agents[s] = bots[s].get();
    }
    const auto key = game::game_key(game::MasterSeed{seed}, static_cast<std::uint64_t>(games));
    data::GameLog log;
    log.events = game::play_game(rules, key, agents, /*record_events=*/true).events;
    data::extract_samples(log, "greedy game " + std::to_string(games), all, rules);
    ++games;
  }
  return {spread(all, count), std::to_string(games) + " greedy self-play games (seed " + std::to_string(seed) + ")"};
}

}  // namespace

Positions load_positions(const std::string& data, std::size_t count, std::uint64_t seed, const game::TableRules& rules) {
  if (!data.empty()) return from_logs(data, count, rules);
  if (const char* env = std::getenv("HYDRA_TESTDATA"); env != nullptr && *env != '\0') {
    const fs::path mjai = fs::path(env) / "mjai";
    std::error_code ec;
    if (fs::is_directory(mjai, ec)) return from_logs(mjai, count, rules);
  }
  return from_selfplay(count, seed, rules);
}

}  // namespace hydra::selfplay
