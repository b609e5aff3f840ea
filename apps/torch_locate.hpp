#pragma once

// Where `hydra` finds LibTorch for hydra-torch (torch_side.hpp), and whether it is the one this
// build compiled against. Torch-free: it reads the LibTorch folder's files, loads nothing.

#include <filesystem>
#include <string>

namespace hydra::apps {

struct TorchLocation {
  std::filesystem::path dir;  // the torch package folder or a LibTorch distribution
  std::filesystem::path lib;  // the folder holding libtorch_cpu.so
  std::string from;           // "HYDRA_TORCH_DIR", "python3 (PATH)", "the build's LibTorch"
  std::string version;        // as the folder states it ("2.11.0+cu130"), "unknown" when it does not
  std::string cuda;           // the CUDA version it was built for ("13.0"), empty for a CPU build
};

// The LibTorch to run with: HYDRA_TORCH_DIR when set, else the torch package of the python3 on
// PATH (found without importing it), else the one this build compiled against. Throws
// hydra::Error, one line, when none is found, or when the chosen one is of another version, of
// the pre-C++11 string ABI, or lacks CUDA while this build links it.
TorchLocation locate_torch();

// The version of LibTorch this build compiled against ("2.11.0").
std::string build_torch_version();

// The file of LibTorch's libtorch_cpu.so mapped into this process (/proc/self/maps); empty when
// none is.
std::string mapped_libtorch();

// The folder of the running executable.
std::filesystem::path executable_dir();

}  // namespace hydra::apps

namespace hydra::apps {
// main()'s argv (set_command_line, torch_side.hpp), for re-executing as hydra-torch.
char** saved_argv();
}  // namespace hydra::apps
