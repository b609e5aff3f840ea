// The model agent itself (model_agent.hpp). Torch-free: it only sees the BatchPolicy interface.

#include "hydra/selfplay/model_agent.hpp"

#include <cmath>

#include "hydra/common/error.hpp"
#include "hydra/encoder/context.hpp"
#include "hydra/game/seed.hpp"
#include "hydra/selfplay/rollout.hpp"

namespace hydra::selfplay {

game::Action pick_action(const float* probs, const game::ActionMask& mask, std::optional<double> u) {
  HYDRA_CHECK(!mask.empty(), "pick_action: no legal action");
  if (u) return game::Action(sample_action(probs, mask, 1.0, *u));
  int best = -1;
  for (int a = 0; a < kActions; ++a)
    if (mask.test(game::Action(a)) && (best < 0 || probs[a] > probs[best])) best = a;
  return game::Action(best);
}

ModelAgent::ModelAgent(std::shared_ptr<BatchPolicy> policy, const game::TableRules& rules, std::string name,
                       ModelAgentOptions options)
    : policy_(std::move(policy)),
      rules_(&rules),
      name_(std::move(name)),
      options_(options),
      obs_(static_cast<std::size_t>(encoder::kObsSize)),
      context_(kContext),
      probs_(kActions) {
  HYDRA_CHECK(policy_ != nullptr, "a model agent needs a policy");
  if (options_.sample && !(options_.temperature > 0))
    throw Error("the sampling temperature must be positive, got " + std::to_string(options_.temperature));
}

void ModelAgent::start_game(game::Seat seat, const game::GameKey& key) {
  seat_ = seat;
  rng_ = game::Xoshiro256ss(game::derive(key, game::labels::exploration, {static_cast<std::uint64_t>(seat.index())}));
  // Events a host sent before the seat was known (start_game itself) are replayed.
  // One the view rejects is dropped (the host's bot reports it).
  observer_.emplace(seat, *rules_);
  prev_ = game::EventType::none;
  std::vector<game::Event> kept;
  for (const game::Event& e : events_) {
    try {
      apply(e);
      kept.push_back(e);
    } catch (const Error&) {
    }
  }
  events_ = std::move(kept);
}

const encoder::Observer& ModelAgent::observer() const {
  if (!observer_) throw InvariantError("model agent '" + name_ + "': no seat yet");
  return *observer_;
}

void ModelAgent::observe(const game::Event& e) {
  if (e.type == game::EventType::start_game) {
    events_.clear();
    if (seat_) observer_.emplace(*seat_, *rules_);
    prev_ = game::EventType::none;
  }
  if (observer_) apply(e);  // throws for an event the view rejects, which is then not kept
  events_.push_back(e);
}

void ModelAgent::apply(const game::Event& e) {
  // The discard after a chi or pon is never a tsumogiri, whatever a host marks (as the mjai bot
  // and the log normaliser read it).
  if (e.type == game::EventType::dahai && e.tsumogiri &&
      (prev_ == game::EventType::chi || prev_ == game::EventType::pon)) {
    game::Event fixed = e;
    fixed.tsumogiri = false;
    observer_->apply(fixed);
  } else {
    observer_->apply(e);
  }
  prev_ = e.type;
}

void ModelAgent::prepare(const game::PlayerView& view, const game::Decision& d, float* obs, float* context,
                         game::ActionMask* legal) {
  if (!observer_)
    throw InvariantError("model agent '" + name_ + "' asked to act before start_game or any event");
  const game::PlayerView& own = observer_->view();
  HYDRA_CHECK(own.seat() == view.seat(), "model agent: the decision is for another seat");
  const encoder::Obs& o = observer_->encode();
  std::copy(o.v.begin(), o.v.end(), obs);
  const auto ctx = encoder::score_context(own);
  std::copy(ctx.begin(), ctx.end(), context);
  *legal = d.mask;
}

game::Action ModelAgent::finish(const game::Decision& d, const float* probs) {
  if (!options_.sample) return pick_action(probs, d.mask, std::nullopt);
  // The self-play actors' sampler (policy.hpp), at the agent's temperature.
  return game::Action(sample_action(probs, d.mask, 1.0 / options_.temperature, rng_.uniform01()));
}

const float* ModelAgent::probabilities(const game::PlayerView& view, const game::Decision& d) {
  game::ActionMask legal;
  prepare(view, d, obs_.data(), context_.data(), &legal);
  PolicyBatch in;
  in.obs = obs_.data();
  in.context = context_.data();
  in.legal = &legal;
  in.n = 1;
  policy_->evaluate(in, PolicyOutput{probs_.data(), &value_});
  return probs_.data();
}

game::Action ModelAgent::act(const game::PlayerView& view, const game::Decision& d) {
  return finish(d, probabilities(view, d));
}

}  // namespace hydra::selfplay
