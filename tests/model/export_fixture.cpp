// Writes what the Python reference check compares (tests/model/python_reference.sh):
//   OUT/net/   a checkpoint directory with a small SE-ResNet
//   OUT/grp.ckpt  a GRP network checkpoint
//   OUT/io.pt  inputs and the C++ outputs of both networks, as a dict torch.load reads

#include <cstdio>
#include <exception>
#include <filesystem>

#include "hydra/common/config_io.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/grp.hpp"
#include "hydra/model/network.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace hydra::model;
  if (argc != 2) {
    std::fprintf(stderr, "usage: export_fixture OUT_DIR\n");
    return 2;
  }
  try {
    const fs::path out = argv[1];
    fs::create_directories(out);
    hydra::config::Config config;
    config.model.blocks = 3;
    config.model.channels = 64;
    config.model.policy_channels = 16;
    config.model.value_hidden = 32;
    config.model.grp_hidden = 32;
    config.model.tenpai_hidden = 16;
    config.model.grp_rnn_hidden = 32;
    torch::manual_seed(31);
    HydraNet net(config.model);
    net->init_weights(32);
    {
      // Perturb so every head's output is far from zero and the comparison is meaningful.
      torch::NoGradGuard no_grad;
      for (auto& p : net->parameters()) p.add_(torch::randn_like(p) * 0.05);
    }
    GrpNet grp(config.model);
    CheckpointData data;
    data.step = 17;
    data.config = hydra::config::to_json(config);
    CheckpointDir(out / "net", 2).save(data, *net);
    data.kind = "grp";
    save_checkpoint(out / "grp.ckpt", data, *grp);

    torch::NoGradGuard no_grad;
    const auto obs = torch::bernoulli(torch::full({6, kObsChannels, kTiles}, 0.3));
    const auto ctx = torch::rand({6, kScoreContext});
    const auto o = net->forward(obs, ctx);
    const auto seq = torch::randn({2, 5, kGrpFeatures});
    save_tensor_dict(out / "io.pt", {{"obs", obs}, {"score_context", ctx}, {"policy", o.policy}, {"value", o.value},
                                     {"grp", o.grp}, {"tenpai", o.tenpai}, {"danger", o.danger},
                                     {"grp_sequence", seq}, {"grp_logits", grp->forward(seq)}});
    std::printf("wrote %s\n", out.string().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "export_fixture: %s\n", e.what());
    return 1;
  }
  return 0;
}
