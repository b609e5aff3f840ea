// LibTorch lookup for hydra-torch (torch_locate.hpp). The build's facts come from CMake
// (apps/CMakeLists.txt) as HYDRA_TORCH_BUILD_VERSION, HYDRA_TORCH_BUILD_DIR and
// HYDRA_TORCH_BUILD_CUDA, set on this file only.

#include "torch_locate.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>

#include "hydra/common/error.hpp"
#include "torch_side.hpp"

namespace hydra::apps {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The quoted value of `key` in a Python assignment line (torch/version.py).
std::string python_value(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const auto q = line.find_first_of("'\"", eq);
    if (q == std::string::npos) return "";
    const auto end = line.find(line[q], q + 1);
    if (end == std::string::npos) return "";
    return line.substr(q + 1, end - q - 1);
  }
  return "";
}

std::string strip_local(const std::string& v) { return v.substr(0, v.find('+')); }

// The torch package of the python3 on PATH; empty when there is none (or no python3).
std::string python_torch_dir() {
  // find_spec locates the package without importing it: importing torch takes seconds.
  const char* cmd =
      "python3 -c 'import importlib.util as u; s = u.find_spec(\"torch\"); "
      "print(s.submodule_search_locations[0] if s and s.submodule_search_locations else \"\")' 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd, "r"), pclose);
  if (!pipe) return "";
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe.get())) out += buf;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

TorchLocation describe(const fs::path& dir, std::string from) {
  TorchLocation t;
  t.dir = dir;
  t.from = std::move(from);
  std::error_code ec;
  t.lib = fs::exists(dir / "lib" / "libtorch_cpu.so", ec) ? dir / "lib" : dir;
  const std::string where = dir.string() + " (" + t.from + ")";
  if (!fs::exists(t.lib / "libtorch_cpu.so", ec))
    throw Error(where + ": no LibTorch there (no lib/libtorch_cpu.so); hydra needs LibTorch " + build_torch_version() +
                ": set HYDRA_TORCH_DIR to a torch package folder or install torch==" + build_torch_version() +
                " for python3");
  fs::path root = t.lib == dir ? dir.parent_path() : dir;
  if (fs::exists(root / "version.py", ec)) {
    const std::string text = read_text(root / "version.py");
    t.version = python_value(text, "__version__");
    t.cuda = python_value(text, "cuda");
  } else if (fs::exists(root / "build-version", ec)) {
    t.version = read_text(root / "build-version");
    while (!t.version.empty() && (t.version.back() == '\n' || t.version.back() == ' ')) t.version.pop_back();
    const auto cu = t.version.find("+cu");
    if (cu != std::string::npos && t.version.size() > cu + 5)
      t.cuda = t.version.substr(cu + 3, t.version.size() - cu - 4) + "." + t.version.substr(t.version.size() - 1);
  }
  if (t.version.empty()) t.version = "unknown";
  if (strip_local(t.version) != build_torch_version())
    throw Error(where + ": LibTorch " + t.version + ", but this hydra was built with " + build_torch_version() +
                " (set HYDRA_TORCH_DIR to a torch " + build_torch_version() + " package folder)");
  // The pre-C++11 string ABI of old LibTorch builds links but fails on the first std::string.
  const std::string config = read_text(root / "share" / "cmake" / "Torch" / "TorchConfig.cmake");
  if (config.find("_GLIBCXX_USE_CXX11_ABI=0") != std::string::npos)
    throw Error(where + ": LibTorch of the pre-C++11 string ABI (_GLIBCXX_USE_CXX11_ABI=0); hydra needs the C++11 ABI build");
  if (HYDRA_TORCH_BUILD_CUDA && !fs::exists(t.lib / "libtorch_cuda.so", ec))
    throw Error(where + ": LibTorch " + t.version + " without CUDA (no libtorch_cuda.so), but this hydra was built with CUDA");
  return t;
}

char** g_argv = nullptr;

}  // namespace

void set_command_line(int /*argc*/, char** argv) { g_argv = argv; }
char** saved_argv() { return g_argv; }

std::string build_torch_version() { return HYDRA_TORCH_BUILD_VERSION; }

TorchLocation locate_torch() {
  if (const char* env = std::getenv("HYDRA_TORCH_DIR"); env && *env) return describe(env, "HYDRA_TORCH_DIR");
  if (const std::string py = python_torch_dir(); !py.empty()) return describe(py, "python3 on PATH");
  std::error_code ec;
  if (fs::is_directory(HYDRA_TORCH_BUILD_DIR, ec)) return describe(HYDRA_TORCH_BUILD_DIR, "the build's LibTorch");
  throw Error(std::string("no LibTorch found: set HYDRA_TORCH_DIR to a torch package folder, or install torch==") +
              build_torch_version() + " for python3 (the build's " + HYDRA_TORCH_BUILD_DIR + " is gone)");
}

std::string mapped_libtorch() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const auto at = line.find('/');
    if (at != std::string::npos && line.find("/libtorch_cpu.so", at) != std::string::npos) return line.substr(at);
  }
  return "";
}

fs::path executable_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the hydra executable (/proc/self/exe): " + ec.message());
  return self.parent_path();
}

}  // namespace hydra::apps
