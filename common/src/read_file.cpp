#include "hydra/common/read_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "hydra/common/error.hpp"

namespace hydra {

std::string read_file(const std::filesystem::path& file, std::string_view what) {
  const auto fail = [&](std::string_view verb) {
    const std::string role = what.empty() ? std::string() : std::string(what) + " ";
    return Error("cannot " + std::string(verb) + " " + role + "'" + file.string() + "': " + std::strerror(errno));
  };
  errno = 0;
  std::ifstream in(file, std::ios::binary);
  if (!in) throw fail("open");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw fail("read");
  return std::move(bytes).str();
}

}  // namespace hydra
