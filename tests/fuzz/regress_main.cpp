// Runs a fuzz harness's LLVMFuzzerTestOneInput on files, without libFuzzer: CTest runs every
// input under tests/fuzz/regressions/<target>/ through it in the normal build, so a reproducer,
// once fixed, stays fixed. Arguments are files or folders (every file inside, sorted).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg = argv[i];
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.push_back(arg);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "no regression inputs given\n");
    return 2;
  }
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot open\n", file.c_str());
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    const std::string bytes = text.str();
    std::fprintf(stderr, "%s (%zu bytes)\n", file.c_str(), bytes.size());
    try {
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: FAILED: uncaught %s\n", file.c_str(), e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "%zu inputs passed\n", files.size());
  return 0;
}
