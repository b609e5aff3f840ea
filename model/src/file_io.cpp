#include "file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "hydra/common/error.hpp"

namespace hydra::model::detail {

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot open '" + file.string() + "'");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw Error("cannot read '" + file.string() + "'");
  return std::move(bytes).str();
}

}  // namespace hydra::model::detail
