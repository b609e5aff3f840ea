// make_checkpoint FILE [BLOCKS CHANNELS]: writes a freshly initialised hydra_net checkpoint (and
// its sidecar) for the CLI tests of checkpoint agents.

#include <cstdlib>
#include <iostream>
#include <string>

#include <torch/torch.h>

#include "hydra/common/config.hpp"
#include "hydra/common/config_io.hpp"
#include "hydra/model/checkpoint.hpp"
#include "hydra/model/network.hpp"

int main(int argc, char** argv) {
  if (argc != 2 && argc != 4) {
    std::cerr << "usage: make_checkpoint FILE [BLOCKS CHANNELS]\n";
    return 2;
  }
  hydra::config::Config cfg;
  cfg.model.blocks = argc == 4 ? std::atoi(argv[2]) : 1;
  cfg.model.channels = argc == 4 ? std::atoi(argv[3]) : 32;
  hydra::model::HydraNet net(cfg.model);
  net->init_weights(1);
  hydra::model::CheckpointData data;
  data.config = hydra::config::to_json(cfg);
  hydra::model::save_checkpoint(argv[1], data, *net);
  return 0;
}
