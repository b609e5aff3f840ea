#pragma once

// One process-wide logger: stderr (and a file in the run directory once one exists), with
// timestamp, level and thread id. The backend (spdlog) stays inside log.cpp: LibTorch ships its
// own fmt headers, which clash with spdlog's, so this header only needs <fmt/format.h> of
// whichever fmt the including target sees (targets that see LibTorch compile it header-only).

#include <filesystem>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace hydra::log {

enum class Level { trace, debug, info, warn, error, off };

void init(std::string_view level = "info");
void set_level(std::string_view level);  // trace, debug, info, warn, error, off; throws hydra::Error
void add_file(const std::filesystem::path& file);
void flush();

bool enabled(Level level);
void write(Level level, std::string_view message);

template <class... Args>
void trace(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::trace)) write(Level::trace, fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args>
void debug(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::debug)) write(Level::debug, fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::info)) write(Level::info, fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args>
void warn(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::warn)) write(Level::warn, fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args>
void error(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::error)) write(Level::error, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace hydra::log
