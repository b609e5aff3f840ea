#pragma once

// Data-parallel ranks inside one test (docs/DISTRIBUTED.md): each rank a thread with its own
// TCPStore client and Gloo group on localhost, as separate processes would hold them.

#include <chrono>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

#include "hydra/model/distributed.hpp"

namespace hydra::testing {

// Runs body(env) on `world` ranks, each a thread with the rendezvous variables of its rank
// (localhost, a free port), and waits for all; rethrows the first rank's failure.
inline void on_rank_envs(int world, const std::function<void(const model::DistEnv&)>& body) {
  const int port = model::free_local_port();
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(world));
  std::vector<std::thread> threads;
  for (int r = 0; r < world; ++r)
    threads.emplace_back([&, r] {
      try {
        model::DistEnv env;
        env.rank = r;
        env.world_size = world;
        env.master_port = port;
        body(env);
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// Runs body(rank, group) on `world` ranks, each with its own Gloo group.
inline void on_ranks(int world, std::chrono::milliseconds timeout,
                     const std::function<void(int, model::ProcessGroup&)>& body) {
  on_rank_envs(world, [&](const model::DistEnv& env) {
    model::ProcessGroup group(env, "gloo", timeout);
    body(env.rank, group);
  });
}

}  // namespace hydra::testing
