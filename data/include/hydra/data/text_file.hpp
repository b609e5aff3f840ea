#pragma once

// Reading and writing text files, plain or gzip (zlib), with bounded memory: lines are streamed
// through a fixed buffer, never the whole file. Writes are atomic (temp file + rename), so a
// failed conversion never leaves a half-written output.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace hydra::data {

// Lines of a plain or gzip text file (zlib detects which). Throws hydra::Error naming the file
// and line on I/O errors, corrupt or truncated gzip data, and lines over kMaxLine bytes.
class LineReader {
 public:
  static constexpr std::size_t kMaxLine = std::size_t{1} << 20;

  explicit LineReader(const std::filesystem::path& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its end of line ("\n" or "\r\n"), valid until the next call;
  // false at the end of the file.
  bool next(std::string_view& line);
  int line_number() const { return line_no_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  bool fill();  // reads more decompressed bytes; false at the end of the file

  std::filesystem::path path_;
  void* gz_ = nullptr;  // gzFile; void* keeps zlib.h out of this header
  std::string buf_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  int line_no_ = 0;
};

// The whole (decompressed) content of a plain or gzip file; for formats that are not line based.
std::string read_text_file(const std::filesystem::path& path, std::size_t max_bytes = std::size_t{64} << 20);

// gzip-compresses `data` (deflate level 6).
std::string gzip_compress(std::string_view data);

}  // namespace hydra::data
