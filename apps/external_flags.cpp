#include "external_flags.hpp"

#include <chrono>

#include "flag_checks.hpp"

namespace hydra::apps {

void ExternalFlags::add_to(CLI::App& cmd) {
  cmd.add_option("--mjai-timeout", reply_seconds, "external agents: seconds allowed per reply")
      ->check(number_in(0.001, 3600.0))
      ->capture_default_str();
  cmd.add_option("--mjai-start-timeout", start_seconds,
                 "external agents: seconds allowed for the reply to start_game and start_kyoku")
      ->check(number_in(0.001, 3600.0))
      ->capture_default_str();
  cmd.add_option("--mjai-logs", log_dir, "external agents: folder of their stderr logs (agentK-seatS.log)")
      ->capture_default_str();
  cmd.add_flag("--mjai-process-per-game", process_per_game,
               "external agents: start a process for every game instead of reusing one across games");
}

selfplay::ExternalOptions ExternalFlags::options() const {
  selfplay::ExternalOptions o;
  const auto ms = [](double s) { return std::chrono::milliseconds(static_cast<long long>(s * 1000.0 + 0.5)); };
  o.reply_timeout = ms(reply_seconds);
  o.start_timeout = ms(start_seconds);
  o.log_dir = log_dir;
  o.reuse = !process_per_game;
  return o;
}

}  // namespace hydra::apps
