#include "hydra/data/text_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include <zlib.h>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"

namespace hydra::data {
namespace {

constexpr std::size_t kChunk = std::size_t{256} << 10;

gzFile as_gz(void* p) { return static_cast<gzFile>(p); }

std::string zlib_message(gzFile f) {
  int err = Z_OK;
  const char* msg = gzerror(f, &err);
  if (err == Z_OK || err == Z_STREAM_END) return {};
  if (err == Z_BUF_ERROR) return "truncated gzip data (unexpected end of file)";
  if (err == Z_DATA_ERROR) return std::string("corrupt gzip data (") + (msg ? msg : "") + ")";
  if (err == Z_ERRNO) return std::string("read error: ") + std::strerror(errno);
  return std::string("zlib error: ") + (msg ? msg : "unknown");
}

}  // namespace

LineReader::LineReader(const std::filesystem::path& path) : path_(path) {
  gz_ = gzopen(path.c_str(), "rb");
  if (!gz_) throw Error(path.string() + ": cannot open: " + std::strerror(errno));
  gzbuffer(as_gz(gz_), static_cast<unsigned>(kChunk));
  buf_.resize(kChunk * 2);
}

LineReader::~LineReader() {
  if (gz_) gzclose(as_gz(gz_));
}

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {  // keep the partial line at the front
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buf_.size() - end_ < kChunk) {
    if (buf_.size() >= kMaxLine + kChunk)
      throw Error(path_.string() + ":" + std::to_string(line_no_ + 1) + ": line longer than " +
                  std::to_string(kMaxLine) + " bytes");
    buf_.resize(buf_.size() * 2);
  }
  const int n = gzread(as_gz(gz_), buf_.data() + end_, static_cast<unsigned>(kChunk));
  if (n < 0 || (n == 0 && !zlib_message(as_gz(gz_)).empty()))
    throw Error(path_.string() + ":" + std::to_string(line_no_ + 1) + ": " + zlib_message(as_gz(gz_)));
  if (n == 0) {
    eof_ = true;
    return false;
  }
  end_ += ix(n);
  return true;
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const void* nl = std::memchr(buf_.data() + begin_, '\n', end_ - begin_);
    if (nl) {
      const std::size_t pos = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
      std::size_t len = pos - begin_;
      if (len > 0 && buf_[pos - 1] == '\r') --len;
      line = std::string_view(buf_.data() + begin_, len);
      begin_ = pos + 1;
      ++line_no_;
      return true;
    }
    if (!fill()) {
      if (begin_ == end_) return false;
      line = std::string_view(buf_.data() + begin_, end_ - begin_);  // last line without "\n"
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      begin_ = end_;
      ++line_no_;
      return true;
    }
  }
}

std::string read_text_file(const std::filesystem::path& path, std::size_t max_bytes) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw Error(path.string() + ": cannot open: " + std::strerror(errno));
  std::string out;
  std::string chunk(kChunk, '\0');
  for (;;) {
    const int n = gzread(f, chunk.data(), static_cast<unsigned>(chunk.size()));
    const std::string err = n <= 0 ? zlib_message(f) : std::string();
    if (n < 0 || !err.empty()) {
      gzclose(f);
      throw Error(path.string() + ": " + err);
    }
    if (n == 0) break;
    out.append(chunk.data(), ix(n));
    if (out.size() > max_bytes) {
      gzclose(f);
      throw Error(path.string() + ": larger than " + std::to_string(max_bytes) + " bytes");
    }
  }
  gzclose(f);
  return out;
}

std::string gzip_compress(std::string_view data) {
  z_stream zs{};
  // windowBits 15 + 16: a gzip header and trailer instead of a raw zlib stream.
  if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw Error("gzip: deflateInit2 failed");
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw Error("gzip: deflate failed");
  return out;
}

}  // namespace hydra::data
