#include "hydra/pretrain/bc.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "hydra/common/error.hpp"
#include "hydra/encoder/layout.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/precision.hpp"
#include "hydra/common/index.hpp"

namespace hydra::pretrain {
namespace {

std::int64_t rows(const data::SampleBatch& b) { return static_cast<std::int64_t>(b.size()); }

template <class T>
torch::Tensor wrap(const std::vector<T>& v, torch::IntArrayRef shape, torch::ScalarType type) {
  // from_blob never writes through the pointer here; the const_cast only satisfies its signature.
  return torch::from_blob(const_cast<T*>(v.data()), shape, type);
}

LossValues values(const model::Losses& l) {
  const auto get = [](const torch::Tensor& t) { return t.defined() ? t.item<double>() : 0.0; };
  return {get(l.total), get(l.policy), get(l.value), get(l.grp), get(l.tenpai), get(l.danger)};
}

double num(double v) { return std::isnan(v) ? -1.0 : v; }

double share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

BcBatch to_tensors(const data::SampleBatch& b, const torch::Device& device) {
  const std::int64_t n = rows(b);
  HYDRA_CHECK(b.obs.size() == ix(n) * encoder::kObsSize, "sample batch: obs size");
  HYDRA_CHECK(b.legal.size() == ix(n) * model::kActions, "sample batch: legal size");
  BcBatch out;
  out.obs = wrap(b.obs, {n, model::kObsChannels, model::kTiles}, torch::kFloat).to(device);
  out.context = wrap(b.context, {n, model::kScoreContext}, torch::kFloat).to(device);
  out.targets.legal = wrap(b.legal, {n, model::kActions}, torch::kUInt8).to(device, torch::kBool);
  out.targets.action = wrap(b.action, {n}, torch::kLong).to(device);
  out.targets.value = wrap(b.value, {n}, torch::kFloat).to(device);
  out.targets.grp = wrap(b.grp, {n}, torch::kLong).to(device);
  out.targets.tenpai = wrap(b.tenpai, {n, model::kOpponents}, torch::kFloat).to(device);
  out.targets.danger = wrap(b.danger, {n, model::kOpponents, model::kTiles}, torch::kFloat).to(device);
  HYDRA_CHECK(b.searched.size() == b.legal.size() && b.search_value.size() == b.legal.size(), "sample batch: search size");
  out.searched = wrap(b.searched, {n, model::kActions}, torch::kUInt8).to(device, torch::kBool);
  out.search_value = wrap(b.search_value, {n, model::kActions}, torch::kFloat).to(device);
  return out;
}

torch::Tensor search_target(const torch::Tensor& probs, const torch::Tensor& searched, const torch::Tensor& values,
                            double temperature) {
  // Shifted by each row's largest candidate value, so exp() stays in range.
  const auto scaled = torch::where(searched, values / temperature, torch::full({}, -1e30, values.options()));
  const auto top = std::get<0>(scaled.max(1, true));
  const auto weight = torch::where(searched, (scaled - top).exp(), torch::zeros({}, values.options()));
  const auto mass = (probs * searched).sum(1, true);
  const auto norm = (probs * weight).sum(1, true);
  const auto any = searched.any(1, true) & norm.gt(0);
  const auto moved = probs * weight * mass / torch::where(any, norm, torch::ones({}, norm.options()));
  return torch::where(searched & any, moved, probs);
}

void tally(const torch::Tensor& policy_logits, const data::SampleBatch& batch, DecisionAccuracy& acc) {
  const std::int64_t n = rows(batch);
  const auto legal = wrap(batch.legal, {n, model::kActions}, torch::kUInt8).to(torch::kBool);
  const auto pick = model::masked_logits(policy_logits.detach().to(torch::kCPU, torch::kFloat), legal).argmax(1);
  const auto p = pick.accessor<std::int64_t, 1>();
  for (std::int64_t i = 0; i < n; ++i) {
    const auto u = ix(i);
    const auto type = static_cast<data::DecisionType>(batch.type[u]);
    const int logged = static_cast<int>(batch.action[u]);
    acc.add(static_cast<int>(p[i]), logged, type);
    if (type == data::DecisionType::discard) acc.add_discard(batch.legal_mask(u).bits(), logged);
  }
}

void load_weights(const std::filesystem::path& file, model::HydraNetImpl& net, const std::string& what) {
  model::LoadOptions load;
  load.restore_rng = false;
  // The kind first: another kind's tensors would be refused as a different architecture.
  if (const auto kind = model::load_checkpoint(file, nullptr, nullptr, load).kind; kind != "hydra_net")
    throw Error(what + ": checkpoint '" + file.string() + "' holds a '" + kind + "' network, not a hydra_net");
  model::load_checkpoint(file, &net, nullptr, load);
}

BcLearner::BcLearner(const config::ModelConfig& model, const config::PretrainConfig& pretrain,
                     const torch::Device& device, std::int64_t total_steps, std::uint64_t init_seed)
    : model_cfg_(model), pretrain_cfg_(pretrain), device_(device), net_(model) {
  model::apply_device_settings(model_cfg_, device_.type());
  net_->init_weights(init_seed);
  net_->to(device_);
  if (pretrain.search_temperature > 0 && pretrain.teacher.empty())
    throw Error("pretrain.search_temperature = " + std::to_string(pretrain.search_temperature) +
                " needs pretrain.teacher (the policy the search's values reweight)");
  if (!pretrain.teacher.empty()) {
    teacher_ = model::HydraNet(model);
    load_weights(pretrain.teacher, *teacher_, "pretrain.teacher");
    teacher_->to(device_);
    teacher_->eval();
    for (auto& p : teacher_->parameters()) p.set_requires_grad(false);
  }
  optimizer_ = model::make_adamw(*net_, {.lr = pretrain.lr, .weight_decay = pretrain.weight_decay});
  schedule_.peak = pretrain.lr;
  schedule_.floor = pretrain.lr_floor;
  schedule_.total = std::max<std::int64_t>(total_steps, 1);
  schedule_.warmup = static_cast<std::int64_t>(std::llround(pretrain.warmup * static_cast<double>(schedule_.total)));
}

void BcLearner::set_group(model::ProcessGroup* group) {
  group_ = group;
  buckets_.reset();
  if (group_ == nullptr) return;
  model::broadcast_module(*group_, *net_);
  buckets_ = std::make_unique<model::GradientBuckets>(*group_, net_->parameters());
}

StepStats BcLearner::step(const data::SampleBatch& batch) {
  StepStats s;
  s.lr = schedule_.lr(steps_);
  model::set_lr(*optimizer_, s.lr);
  net_->train();
  const std::int64_t n = rows(batch);
  // With ranks: this rank's share of the union's mean loss, n / N of its own mean (every term of
  // the BC loss is a mean over rows), so the gradients summed over the ranks are the union's.
  double share = 1.0;
  s.samples = n;
  if (group_ != nullptr) {
    const auto total = torch::tensor({n}, torch::kLong);
    group_->all_reduce_sum({total});
    s.samples = total.item<std::int64_t>();
    share = static_cast<double>(n) / static_cast<double>(s.samples);
  }
  if (n == 0) throw Error("pretrain: a step without samples");
  BcBatch t = to_tensors(batch, device_);
  model::Outputs out;
  torch::Tensor corrected;
  {
    // Autocast is per thread and covers the forward pass only; the losses run in fp32.
    model::AutocastGuard autocast(device_.type(), model::autocast_enabled(model_cfg_, device_.type()));
    if (teacher_) {
      // The teacher's policy where the logged action is its argmax, the logged action where the
      // log corrects it (weighted by pretrain.correction_weight).
      torch::NoGradGuard no_grad;
      const auto logits = teacher_->forward(t.obs, t.context).policy.to(torch::kFloat);
      corrected = model::masked_logits(logits, t.targets.legal).argmax(1).ne(t.targets.action);
      const auto one_hot = torch::one_hot(t.targets.action, model::kActions).to(torch::kFloat);
      auto kept = model::masked_softmax(logits, t.targets.legal);
      // Where the search kept the argmax, its values reweight the candidates it played out.
      if (pretrain_cfg_.search_temperature > 0)
        kept = search_target(kept, t.searched, t.search_value, pretrain_cfg_.search_temperature);
      t.targets.policy_target = torch::where(corrected.unsqueeze(1), one_hot, kept);
      t.targets.policy_weight =
          torch::where(corrected, torch::full({}, pretrain_cfg_.correction_weight, logits.options()), torch::ones({}, logits.options()));
    }
    out = net_->forward(t.obs, t.context);
  }
  out = out.to_float();
  const model::Losses l = model::compute_losses(out, t.targets, model_cfg_);
  if (corrected.defined()) s.corrected = corrected.to(torch::kDouble).mean().item<double>();
  s.searched = t.searched.any(1).to(torch::kDouble).mean().item<double>();
  optimizer_->zero_grad();
  if (buckets_) {
    buckets_->arm();
    (l.total * share).backward();
    buckets_->finish();
  } else {
    l.total.backward();
  }
  if (pretrain_cfg_.grad_clip > 0)
    s.grad_norm = model::clip_gradients(net_->parameters(), pretrain_cfg_.grad_clip).item<double>();
  model::adamw_step(*optimizer_);
  ++steps_;
  s.loss = values(l);
  const auto pick = model::masked_logits(out.policy.detach(), t.targets.legal).argmax(1);
  s.accuracy = pick.eq(t.targets.action).to(torch::kDouble).mean().item<double>();
  if (group_ != nullptr) {
    // The union's loss and accuracy: the ranks' means weighted by their rows.
    auto& v = s.loss;
    const auto sums =
        torch::tensor({v.total, v.policy, v.value, v.grp, v.tenpai, v.danger, s.accuracy, s.corrected, s.searched},
                      torch::kDouble) * share;
    group_->all_reduce_sum({sums});
    const auto a = sums.accessor<double, 1>();
    v = {a[0], a[1], a[2], a[3], a[4], a[5]};
    s.accuracy = a[6];
    s.corrected = a[7];
    s.searched = a[8];
  }
  if (!std::isfinite(s.loss.total))
    throw Error("pretrain: the loss became " + std::to_string(s.loss.total) + " at step " + std::to_string(steps_) +
                " (lower pretrain.lr?)");
  return s;
}

Validation validate(model::HydraNetImpl& net, data::Dataset& data, const config::ModelConfig& model_cfg,
                    const torch::Device& device, std::int64_t max_samples, int batch, model::HydraNetImpl* teacher) {
  const auto t0 = std::chrono::steady_clock::now();
  Validation v;
  if (teacher != nullptr) v.teacher.emplace();
  torch::NoGradGuard no_grad;
  const bool was_training = net.is_training();
  net.eval();
  data::SampleBatch b;
  LossValues sum;
  while (v.samples < max_samples) {
    const auto want = static_cast<std::size_t>(std::min<std::int64_t>(batch, max_samples - v.samples));
    const std::size_t n = data.next(b, want);
    if (n == 0) break;
    const BcBatch t = to_tensors(b, device);
    model::Outputs out;
    {
      model::AutocastGuard autocast(device.type(), model::autocast_enabled(model_cfg, device.type()));
      out = net.forward(t.obs, t.context);
      torch::Tensor teacher_policy;
      if (teacher != nullptr) {
        const auto& legal = t.targets.legal;
        teacher_policy = teacher->forward(t.obs, t.context).policy;
        const auto kept = model::masked_logits(teacher_policy.to(torch::kFloat), legal).argmax(1).eq(t.targets.action);
        const auto matched = model::masked_logits(out.policy.to(torch::kFloat), legal).argmax(1).eq(t.targets.action);
        const auto count = [](const torch::Tensor& x) { return x.sum().item<std::int64_t>(); };
        auto& split = *v.teacher;
        split.kept += count(kept);
        split.kept_matched += count(kept & matched);
        split.corrected += count(~kept);
        split.corrected_matched += count(~kept & matched);
      }
      if (const auto rows = t.searched.any(1); rows.any().item<bool>()) {
        const auto open = [](std::optional<Validation::SearchRegret>& r) -> Validation::SearchRegret& {
          return r ? *r : r.emplace();
        };
        const auto [regret, covered] = search_regret(out.policy, t);
        open(v.search).add(regret, covered, rows);
        if (teacher != nullptr) {
          const auto [teacher_regret, teacher_covered] = search_regret(teacher_policy, t);
          open(v.teacher_search).add(teacher_regret, teacher_covered, rows);
          open(v.search_gain).add(teacher_regret - regret, covered & teacher_covered, rows);
        }
      }
    }
    out = out.to_float();
    const LossValues l = values(model::compute_losses(out, t.targets, model_cfg));
    const auto w = static_cast<double>(n);
    sum.total += l.total * w;
    sum.policy += l.policy * w;
    sum.value += l.value * w;
    sum.grp += l.grp * w;
    sum.tenpai += l.tenpai * w;
    sum.danger += l.danger * w;
    tally(out.policy, b, v.accuracy);
    v.samples += static_cast<std::int64_t>(n);
  }
  net.train(was_training);
  if (v.samples > 0) {
    const auto n = static_cast<double>(v.samples);
    v.loss = {sum.total / n, sum.policy / n, sum.value / n, sum.grp / n, sum.tenpai / n, sum.danger / n};
  } else {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    v.loss = {nan, nan, nan, nan, nan, nan};
  }
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return v;
}

std::pair<torch::Tensor, torch::Tensor> search_regret(const torch::Tensor& policy_logits, const BcBatch& t) {
  const auto choice = model::masked_logits(policy_logits.to(torch::kFloat), t.targets.legal).argmax(1, true);
  const auto covered = t.searched.gather(1, choice).squeeze(1) & t.searched.any(1);
  const auto logged = t.search_value.gather(1, t.targets.action.unsqueeze(1)).squeeze(1);
  const auto chosen = t.search_value.gather(1, choice).squeeze(1);
  return {torch::where(covered, logged - chosen, torch::zeros({}, t.search_value.options())).to(torch::kDouble), covered};
}

void Validation::SearchRegret::add(const torch::Tensor& regret, const torch::Tensor& in, const torch::Tensor& rows) {
  const auto kept = torch::where(in, regret, torch::zeros({}, regret.options()));
  searched += rows.sum().item<std::int64_t>();
  covered += in.sum().item<std::int64_t>();
  sum += kept.sum().item<double>();
  sum_sq += kept.square().sum().item<double>();
}

double Validation::SearchRegret::mean() const {
  return covered > 0 ? sum / static_cast<double>(covered) : std::numeric_limits<double>::quiet_NaN();
}

double Validation::SearchRegret::standard_error() const {
  if (covered < 2) return std::numeric_limits<double>::quiet_NaN();
  const auto n = static_cast<double>(covered);
  const double var = std::max(0.0, (sum_sq - sum * sum / n) / (n - 1));
  return std::sqrt(var / n);
}

nlohmann::ordered_json Validation::to_json() const {
  const auto n = [](double x) { return std::isnan(x) ? nlohmann::ordered_json() : nlohmann::ordered_json(x); };
  nlohmann::ordered_json j = {{"samples", samples},
                              {"loss", {{"total", n(loss.total)},
                                        {"policy", n(loss.policy)},
                                        {"value", n(loss.value)},
                                        {"grp", n(loss.grp)},
                                        {"tenpai", n(loss.tenpai)},
                                        {"danger", n(loss.danger)}}},
                              {"accuracy", accuracy.to_json()}};
  if (teacher) {
    j["teacher"] = {{"kept", teacher->kept},
                    {"kept_matched", share(teacher->kept_matched, teacher->kept)},
                    {"corrected", teacher->corrected},
                    {"corrected_matched", share(teacher->corrected_matched, teacher->corrected)}};
  }
  const auto regret = [&](const SearchRegret& r) {
    return nlohmann::ordered_json{{"searched", r.searched},
                                  {"covered", r.covered},
                                  {"mean", n(r.mean())},
                                  {"se", n(r.standard_error())}};
  };
  if (search) j["search_regret"] = regret(*search);
  if (teacher_search) j["teacher_search_regret"] = regret(*teacher_search);
  if (search_gain) j["search_gain_over_teacher"] = regret(*search_gain);
  j["seconds"] = seconds;
  return j;
}

metrics::Scalars Validation::scalars(std::string_view prefix) const {
  const std::string p(prefix);
  metrics::Scalars s = {{p + "samples", static_cast<double>(samples)},
                        {p + "loss", loss.total},
                        {p + "loss/policy", loss.policy},
                        {p + "loss/value", loss.value},
                        {p + "loss/grp", loss.grp},
                        {p + "loss/tenpai", loss.tenpai},
                        {p + "loss/danger", loss.danger},
                        {p + "acc/all", num(accuracy.accuracy())}};
  // Types without decisions in this validation are left out rather than written as a number.
  for (int t = 0; t < kTypes; ++t) {
    const auto type = static_cast<data::DecisionType>(t);
    if (accuracy.total(type) > 0)
      s.emplace_back(p + "acc/" + std::string(kTypeNames[ix(t)]), accuracy.accuracy(type));
  }
  if (teacher) {
    s.emplace_back(p + "teacher/kept_matched", share(teacher->kept_matched, teacher->kept));
    s.emplace_back(p + "teacher/corrected_matched", share(teacher->corrected_matched, teacher->corrected));
    s.emplace_back(p + "teacher/corrected_share", share(teacher->corrected, teacher->kept + teacher->corrected));
  }
  if (search && search->covered > 0) {
    s.emplace_back(p + "search/covered", share(search->covered, search->searched));
    s.emplace_back(p + "search/regret", search->mean());
  }
  if (search_gain && search_gain->covered > 0) s.emplace_back(p + "search/gain_over_teacher", search_gain->mean());
  if (accuracy.total(data::DecisionType::discard) > 0) {
    s.emplace_back(p + "baseline/discard", accuracy.discard_baseline());
    s.emplace_back(p + "baseline/discard_constant", accuracy.discard_constant_baseline());
  }
  return s;
}

}  // namespace hydra::pretrain
