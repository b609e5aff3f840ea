#include "hydra/pretrain/agreement.hpp"

#include <array>

#include "hydra/common/error.hpp"
#include "hydra/common/parallel.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/data/log_rules.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/game/view.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/common/index.hpp"

namespace hydra::pretrain {
namespace {

using game::Seat;

// The tie-break stream of the greedy bot: fixed, so the agreement of a corpus is one number.
constexpr game::MasterSeed kGreedySeed{20260601};

DecisionAccuracy replay_game(const data::GameLog& log, std::uint64_t index, const game::TableRules& rules) {
  std::array<game::PlayerView, game::kNumSeats> views = {game::PlayerView(Seat(0), rules), game::PlayerView(Seat(1), rules),
                                                         game::PlayerView(Seat(2), rules), game::PlayerView(Seat(3), rules)};
  std::array<selfplay::GreedyAgent, game::kNumSeats> bots;
  const game::GameKey key = game::game_key(kGreedySeed, index);
  for (int s = 0; s < game::kNumSeats; ++s) bots[ix(s)].start_game(Seat(s), key);
  DecisionAccuracy acc;
  game::Legal legal;
  for (const game::Event& e : log.events) {
    if (e.type == game::EventType::dahai) {
      const auto a = ix(e.actor.index());
      views[a].legal(legal);
      const game::Action logged = game::Action::discard(e.pai);
      if (legal.mask.count() > 1 && legal.mask.test(logged)) {
        const game::Decision d{e.actor, legal.phase, legal.mask};
        const game::Action choice = bots[a].act(views[a], d);
        acc.add(choice.index(), logged.index(), data::DecisionType::discard);
      }
    }
    for (game::PlayerView& v : views) v.apply(e);
  }
  return acc;
}

}  // namespace

Agreement greedy_agreement(const std::vector<std::filesystem::path>& files, std::string_view rules) {
  const data::RulesChoice choice = data::RulesChoice::per_log(game::table_rules(rules));
  struct Slot {
    DecisionAccuracy acc;
    std::string error;
  };
  std::vector<Slot> slots(files.size());
  hydra::parallel_for(0, files.size(), [&](std::size_t i) {
    try {
      const data::GameLog log = data::read_log(files[i]);
      const game::TableRules& table = choice.of(log);  // a Tenhou log's own rules
      data::require_supported(log, table, files[i].string());
      slots[i].acc = replay_game(log, i, table);
    } catch (const Error& e) {
      slots[i].error = e.what();
    }
  });
  Agreement out;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!slots[i].error.empty()) {
      out.bad.push_back({files[i].string(), slots[i].error});
      continue;
    }
    out.accuracy.merge(slots[i].acc);
    ++out.games;
  }
  return out;
}

}  // namespace hydra::pretrain
