#pragma once

// The LibTorch half of the commands, defined in apps/torch/ and reached through the table of
// torch_side.hpp (torch_side::load()), which apps/torch/commands.cpp fills with these.

#include <string>

#include <nlohmann/json.hpp>

#include "../torch_side.hpp"

namespace hydra::apps::torch_impl {

// commands.cpp
void train(const TrainFlags& f);
void pretrain(const PretrainFlags& f);
void grp(const GrpFlags& f);
void export_weights(const std::string& checkpoint, const std::string& out);
void merge_weights(const MergeFlags& f);
void info_model(const std::string& config_file, bool json);
void runtime_info(nlohmann::ordered_json& j);
// The GRP at `path` as a search agent's reward (a selfplay::RewardLoader).
std::shared_ptr<selfplay::KyokuRewardModel> grp_reward_model(const std::string& path);
// check_report.cpp
void check(const CheckFlags& f);
// bench_report.cpp
void bench_model(const BenchModelFlags& f);
void bench_learner(const BenchLearnerFlags& f);
void bench_selfplay(const BenchSelfplayFlags& f);
void bench_pretrain(const BenchPretrainFlags& f);

}  // namespace hydra::apps::torch_impl
