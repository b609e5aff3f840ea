#include "hydra/common/log.hpp"

#include <memory>
#include <string>

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "hydra/common/error.hpp"
#include "hydra/common/text.hpp"

namespace hydra::log {
namespace {

constexpr const char* kPattern = "[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] [t%t] %v";

spdlog::logger& logger() {
  // Created on first use so that logging before init() (e.g. from tests) still works.
  static std::shared_ptr<spdlog::logger> instance = [] {
    auto l = spdlog::stderr_color_mt("hydra");
    l->set_pattern(kPattern);
    return l;
  }();
  return *instance;
}

spdlog::level::level_enum to_spdlog(Level level) {
  switch (level) {
    case Level::trace: return spdlog::level::trace;
    case Level::debug: return spdlog::level::debug;
    case Level::info: return spdlog::level::info;
    case Level::warn: return spdlog::level::warn;
    case Level::error: return spdlog::level::err;
    case Level::off: return spdlog::level::off;
  }
  return spdlog::level::info;
}

}  // namespace

void init(std::string_view level) { set_level(level); }

void set_level(std::string_view level) {
  const auto parsed = spdlog::level::from_str(std::string(level));
  // from_str maps unknown names to `off`; only accept `off` when it was asked for.
  if (parsed == spdlog::level::off && level != "off")
    throw Error("unknown log level '" + std::string(level) +
                "' (expected trace, debug, info, warn, error or off)");
  logger().set_level(parsed);
}

void add_file(const std::filesystem::path& file) {
  std::shared_ptr<spdlog::sinks::basic_file_sink_mt> sink;
  try {
    sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file.string(), /*truncate=*/false);
  } catch (const spdlog::spdlog_ex& e) {
    throw Error("cannot open log file '" + file.string() + "': " + e.what());
  }
  sink->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%l] [t%t] %v");
  logger().sinks().push_back(std::move(sink));
}

void flush() { logger().flush(); }

bool enabled(Level level) { return logger().should_log(to_spdlog(level)); }

void write(Level level, std::string_view message) {
  // Messages quote file names and input text: bytes that are not UTF-8 become U+FFFD here, once.
  if (text::valid_utf8(message)) logger().log(to_spdlog(level), message);
  else logger().log(to_spdlog(level), text::to_utf8(message));
}

}  // namespace hydra::log
