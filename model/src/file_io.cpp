#include "file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include <openssl/evp.h>

#include "hydra/common/error.hpp"

namespace hydra::model::detail {
namespace {

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& file) {
  throw Error("cannot " + what + " '" + file.string() + "': " + std::strerror(errno));
}

// Owns a POSIX file descriptor.
struct Fd {
  int fd;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

}  // namespace

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot open '" + file.string() + "'");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw Error("cannot read '" + file.string() + "'");
  return std::move(bytes).str();
}

void write_atomic(const std::filesystem::path& file, std::string_view data) {
  const auto dir = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  // Built piecewise: GCC 12 reports a false -Wstringop-overflow on `"." + string + ...`.
  std::string tmp_name = ".";
  tmp_name += file.filename().string();
  tmp_name += ".tmp-";
  tmp_name += std::to_string(::getpid());
  const auto tmp = dir / tmp_name;
  {
    Fd out(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (out.fd < 0) fail("create", tmp);
    std::size_t done = 0;
    while (done < data.size()) {
      const auto n = ::write(out.fd, data.data() + done, data.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail("write", tmp);
      }
      done += static_cast<std::size_t>(n);
    }
    if (::fsync(out.fd) != 0) fail("fsync", tmp);
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const int saved = errno;
    std::filesystem::remove(tmp);
    errno = saved;
    fail("rename a temporary file onto", file);
  }
  // The rename itself is durable only once the directory entry is on disk.
  Fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (d.fd < 0 || ::fsync(d.fd) != 0) fail("fsync the directory of", file);
}

std::string sha256_hex(std::string_view data) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &len) != 1)
    throw Error("SHA-256 failed (OpenSSL EVP)");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * len);
  for (unsigned int i = 0; i < len; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 15]);
  }
  return hex;
}

}  // namespace hydra::model::detail
