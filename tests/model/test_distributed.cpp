// torch.distributed through model::ProcessGroup on Gloo (docs/DISTRIBUTED.md): the rendezvous
// variables and their errors, and every collective Hydra uses between two ranks on localhost
// (two threads, each with its own TCPStore client and Gloo group, as two processes would hold
// them), checked against sums and values computed here. The wheel's Gloo is newer than Debian's
// headers, so these are the check that the two agree. Without Gloo in the build the group tests
// skip, saying so.

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <map>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "hydra/common/error.hpp"
#include "hydra/model/distributed.hpp"
#include "hydra/model/grad_buckets.hpp"
#include "hydra/model/run_context.hpp"
#include "ranks.hpp"

namespace hydra::model {
namespace {

using namespace std::chrono_literals;

DistEnv env_of(const std::map<std::string, std::string>& vars) {
  return DistEnv::from_environment([&](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

std::string error_of(const std::map<std::string, std::string>& vars) {
  try {
    env_of(vars);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(DistEnv, NoVariablesIsOneProcessAndEachBadVariableIsNamed) {
  const DistEnv one = env_of({});
  EXPECT_EQ(one.world_size, 1);
  EXPECT_EQ(one.rank, 0);
  EXPECT_FALSE(one.distributed());
  const DistEnv torchrun = env_of({{"RANK", "3"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "1"},
                                   {"LOCAL_WORLD_SIZE", "2"}, {"MASTER_ADDR", "node0"}, {"MASTER_PORT", "29400"}});
  EXPECT_EQ(torchrun.rank, 3);
  EXPECT_EQ(torchrun.world_size, 4);
  EXPECT_EQ(torchrun.local_rank, 1);
  EXPECT_EQ(torchrun.local_world_size, 2);
  EXPECT_EQ(one.local_world_size, 1);
  EXPECT_EQ(torchrun.master_addr, "node0");
  EXPECT_EQ(torchrun.master_port, 29400);
  EXPECT_FALSE(torchrun.launcher_store);
  const DistEnv agent = env_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "localhost"},
                                {"MASTER_PORT", "29400"}, {"TORCHELASTIC_USE_AGENT_STORE", "True"}});
  EXPECT_TRUE(agent.launcher_store);  // torchrun's agent hosts the store
  EXPECT_EQ(env_of({{"RANK", "0"}, {"WORLD_SIZE", "1"}}).world_size, 1);  // no rendezvous needed

  EXPECT_NE(error_of({{"RANK", "0"}}).find("WORLD_SIZE is not set"), std::string::npos);
  EXPECT_NE(error_of({{"WORLD_SIZE", "2"}}).find("RANK is not set"), std::string::npos);
  EXPECT_NE(error_of({{"RANK", "2"}, {"WORLD_SIZE", "2"}}).find("RANK='2'"), std::string::npos);
  EXPECT_NE(error_of({{"RANK", "0"}, {"WORLD_SIZE", "two"}}).find("WORLD_SIZE='two'"), std::string::npos);
  EXPECT_NE(error_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "1"}}).find("MASTER_ADDR is not set"),
            std::string::npos);
  EXPECT_NE(error_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}}).find("MASTER_PORT is not set"),
            std::string::npos);
  EXPECT_NE(error_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "70000"}})
                .find("MASTER_PORT='70000'"),
            std::string::npos);
  EXPECT_NE(error_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "-1"}}).find("LOCAL_RANK='-1'"),
            std::string::npos);
  EXPECT_NE(error_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"LOCAL_WORLD_SIZE", "3"}}).find("LOCAL_WORLD_SIZE='3'"),
            std::string::npos);
}

using testing::on_ranks;

#define REQUIRE_GLOO() \
  if (!gloo_available()) GTEST_SKIP() << "built without Gloo's headers (libgloo-dev): no multi-process groups"

TEST(ProcessGroup, EveryCollectiveBetweenTwoRanks) {
  REQUIRE_GLOO();
  on_ranks(2, 60s, [](int rank, ProcessGroup& group) {
    EXPECT_EQ(group.rank(), rank);
    EXPECT_EQ(group.size(), 2);
    const double r = rank;
    // Sums of several tensors of two dtypes and shapes, in place.
    auto a = torch::full({2, 3}, 1.5 + r, torch::kFloat);
    auto b = torch::arange(5, torch::kFloat) * (r + 1);
    auto c = torch::tensor({static_cast<std::int64_t>(10 + rank), std::int64_t{1} << 40}, torch::kInt64);
    group.all_reduce_sum({a, b, c});
    EXPECT_TRUE(torch::equal(a, torch::full({2, 3}, 4.0, torch::kFloat)));        // 1.5 + 2.5
    EXPECT_TRUE(torch::equal(b, torch::arange(5, torch::kFloat) * 3));           // x 1 + x 2
    EXPECT_TRUE(torch::equal(c, torch::tensor({std::int64_t{21}, std::int64_t{1} << 41}, torch::kInt64)));
    // A non-contiguous view is written through.
    auto base = torch::zeros({3, 4}, torch::kDouble);
    auto column = base.select(1, 2);
    column.fill_(r + 1);
    group.all_reduce_sum({column});
    EXPECT_TRUE(torch::equal(base.select(1, 2), torch::full({3}, 3.0, torch::kDouble)));
    EXPECT_EQ(base.sum().item<double>(), 9.0);
    // Broadcast from rank 1.
    auto w = torch::full({4}, r * 7, torch::kFloat);
    group.broadcast({w}, 1);
    EXPECT_TRUE(torch::equal(w, torch::full({4}, 7.0, torch::kFloat)));
    // Gather in rank order.
    const auto all = group.all_gather(torch::full({2}, r, torch::kInt64));
    ASSERT_EQ(all.size(), 2u);
    EXPECT_TRUE(torch::equal(all[0], torch::zeros({2}, torch::kInt64)));
    EXPECT_TRUE(torch::equal(all[1], torch::ones({2}, torch::kInt64)));
    const auto bytes = group.all_gather_bytes(rank == 0 ? std::string("rank zero") : std::string("1"));
    EXPECT_EQ(bytes, (std::vector<std::string>{"rank zero", "1"}));
    // Numbers, all 64 bits of them (a master seed above 2^63 travels as its bit pattern).
    const std::int64_t big = static_cast<std::int64_t>(std::uint64_t{0xfedcba9876543210});
    EXPECT_EQ(group.all_gather_int(rank == 0 ? big : 5), (std::vector<std::int64_t>{big, 5}));
    // Two sums in flight at once, waited for in the order they started.
    auto x = torch::full({3}, r + 1, torch::kFloat);
    auto y = torch::full({2}, 10 * (r + 1), torch::kDouble);
    auto px = group.all_reduce_sum_async(x);
    auto py = group.all_reduce_sum_async(y);
    px.wait();
    py.wait();
    py.wait();  // a second wait returns
    EXPECT_TRUE(torch::equal(x, torch::full({3}, 3.0, torch::kFloat)));
    EXPECT_TRUE(torch::equal(y, torch::full({2}, 30.0, torch::kDouble)));
    group.barrier();
  });
}

// The ranks of a run agree on one config (rank 0's seed, every other difference an error naming
// the rank) and stop at one step for the first reason in rank order.
TEST(RunContext, RanksAgreeOnRankZerosSeedAndStopForTheFirstReason) {
  REQUIRE_GLOO();
  testing::on_rank_envs(2, [](const DistEnv& env) {
    const RunContext context(0, "cpu", env, {"gloo", 60});  // 0: no process-wide thread caps from two threads
    const int rank = env.rank;
    config::Config cfg;
    cfg.run.seed = rank == 0 ? 7 : 9;
    context.agree_on_config(cfg, "train", "--config");
    EXPECT_EQ(cfg.run.seed, std::optional<std::uint64_t>(7));
    cfg.run.seed.reset();  // rank 0 without a seed: 0 everywhere
    context.agree_on_config(cfg, "train", "--config");
    EXPECT_EQ(cfg.run.seed, std::optional<std::uint64_t>(0));
    cfg.ppo.lr = rank == 1 ? 1e-3 : cfg.ppo.lr;
    try {
      context.agree_on_config(cfg, "pretrain", "--config and --data");
      ADD_FAILURE() << "rank " << rank << ": a differing config was agreed";
    } catch (const Error& e) {
      EXPECT_STREQ(e.what(),
                   "pretrain: rank 1 was started with another config than rank 0 (every rank needs the same --config and --data)");
    }
    context.agree_on_given_seed(std::nullopt, "train");  // none given anywhere: drawn by rank 0
    context.agree_on_given_seed(5, "train");
    for (const auto& [mine, message] :
         {std::pair{std::optional<std::uint64_t>(rank == 0 ? 7 : 9), "train: rank 1 was started with seed 9, rank 0 with seed 7"},
          std::pair{std::optional<std::uint64_t>(rank == 0 ? std::optional<std::uint64_t>() : 3),
                    "train: rank 1 was started with seed 3, rank 0 with no seed"}}) {
      try {
        context.agree_on_given_seed(mine, "train");
        ADD_FAILURE() << "rank " << rank << ": differing given seeds were agreed";
      } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), std::string(message) + " (every rank of a run needs the same --seed, or none)");
      }
    }
    EXPECT_EQ(context.agree_on_stop(rank == 1 ? "signal" : ""), "signal");
    EXPECT_EQ(context.agree_on_stop(rank == 1 ? "signal" : "max_minutes"), "max_minutes");
    EXPECT_EQ(context.agree_on_stop(""), "");
  });
}

// A small network whose weights are the same on every rank (no shared generator across threads),
// with a layer that gets no gradient.
struct Net : torch::nn::Module {
  torch::nn::Linear a{nullptr}, b{nullptr}, c{nullptr}, unused{nullptr};
  Net() {
    a = register_module("a", torch::nn::Linear(8, 16));
    b = register_module("b", torch::nn::Linear(16, 16));
    c = register_module("c", torch::nn::Linear(16, 4));
    unused = register_module("unused", torch::nn::Linear(4, 4));
    torch::NoGradGuard no_grad;
    double k = 0;
    for (auto& p : parameters()) p.copy_(torch::sin(torch::arange(p.numel(), torch::kFloat) * 0.37 + ++k).view(p.sizes()) * 0.3);
  }
  torch::Tensor loss(const torch::Tensor& x) { return c(torch::tanh(b(torch::tanh(a(x))))).pow(2).mean(); }
};

// Gradients summed in buckets during the backward pass are the sums one flat all-reduce of the
// finished gradients gives, pass after pass: while the arrival order is learnt, with several
// buckets after it, for a parameter without a gradient (zero), and for a new set of trainable
// parameters (a frozen layer keeps its gradient).
TEST(GradientBuckets, SumTheGradientsAsOneFlatSumDoes) {
  REQUIRE_GLOO();
  on_ranks(2, 60s, [](int rank, ProcessGroup& group) {
    Net net;
    const auto params = net.parameters();
    GradientBuckets buckets(group, params, 512);  // 512 bytes: the 16 x 16 weight is a bucket of its own
    for (int pass = 0; pass < 5; ++pass) {
      const bool frozen = pass >= 3;
      net.a->weight.set_requires_grad(!frozen);
      const auto x = torch::sin(torch::arange(32, torch::kFloat).view({4, 8}) * 0.1 * (rank + 1) + pass);
      // What the ranks' gradients sum to, by a plain backward pass and one flat sum.
      for (auto& p : params) p.mutable_grad() = at::Tensor();
      net.loss(x).backward();
      std::vector<torch::Tensor> expected;
      for (auto& p : params)
        expected.push_back(p.requires_grad() ? (p.grad().defined() ? p.grad().clone() : torch::zeros_like(p)) : at::Tensor());
      std::vector<torch::Tensor> defined;
      for (auto& e : expected)
        if (e.defined()) defined.push_back(e);
      group.all_reduce_sum(defined);
      // The same through the buckets.
      const auto marker = torch::full_like(net.a->weight, 42.0);
      for (auto& p : params) p.mutable_grad() = at::Tensor();
      if (frozen) net.a->weight.mutable_grad() = marker;
      buckets.arm();
      net.loss(x).backward();
      buckets.finish();
      for (std::size_t i = 0; i < params.size(); ++i) {
        if (!expected[i].defined()) {
          EXPECT_TRUE(params[i].grad().is_same(marker)) << "pass " << pass << ": a frozen parameter's gradient changed";
          continue;
        }
        ASSERT_TRUE(params[i].grad().defined()) << "pass " << pass << " parameter " << i;
        EXPECT_TRUE(torch::equal(params[i].grad(), expected[i])) << "pass " << pass << " parameter " << i;
      }
      EXPECT_TRUE(torch::equal(net.unused->weight.grad(), torch::zeros_like(net.unused->weight)));
      // The first pass of each set of trainable parameters learns its order; then buckets.
      if (pass == 0 || pass == 3) {
        EXPECT_EQ(buckets.buckets(), 0U) << "pass " << pass;
      } else if (pass == 1 || pass == 4) {
        EXPECT_GE(buckets.buckets(), pass == 1 ? 3U : 2U) << "pass " << pass;
      }
    }
  });
}

TEST(ProcessGroup, ARankThatNeverComesIsAnErrorWithinTheTimeout) {
  REQUIRE_GLOO();
  DistEnv env;
  env.world_size = 2;
  env.master_port = free_local_port();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    ProcessGroup group(env, "gloo", 2s);
    FAIL() << "the group formed without rank 1";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0 of 2 could not join"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 30s);
}

TEST(ProcessGroup, APeerThatLeftFailsTheNextCollective) {
  REQUIRE_GLOO();
  std::string error;
  on_ranks(2, 60s, [&](int rank, ProcessGroup& group) {  // not a deadline test: 60 s no load can miss
    group.barrier();
    if (rank == 1) return;  // leaves: its group is destroyed, its connections close
    try {
      auto t = torch::ones({8});
      group.all_reduce_sum({t});
    } catch (const Error& e) {
      error = e.what();
    }
  });
  EXPECT_NE(error.find("all_reduce failed"), std::string::npos) << error;
  // Its heartbeat stopped with its group: rank 0 names it.
  EXPECT_NE(error.find("rank 1 of 2 stopped answering"), std::string::npos) << error;
}

// Rank 0 hosts the rendezvous store; when it leaves, the survivor cannot read the heartbeats and
// names the store's host: rank 0, or the launcher (DistEnv::launcher_store, as under torchrun),
// which is then ending the run.
TEST(ProcessGroup, AStoreThatLeftNamesItsHost) {
  REQUIRE_GLOO();
  for (const bool launcher : {false, true}) {
    std::string error;
    testing::on_rank_envs(2, [&](DistEnv env) {
      env.launcher_store = launcher;
      ProcessGroup group(env, "gloo", 60s);
      group.barrier();
      if (env.rank == 0) return;  // leaves: its group and the store it hosts are destroyed
      try {
        auto t = torch::ones({8});
        group.all_reduce_sum({t});
      } catch (const Error& e) {
        error = e.what();
      }
    });
    EXPECT_NE(error.find("all_reduce failed"), std::string::npos) << error;
    EXPECT_NE(error.find(launcher ? "the launcher's rendezvous store cannot be reached"
                                  : "rank 0 of 2 stopped answering (its rendezvous store cannot be reached"),
              std::string::npos)
        << error;
  }
}

TEST(FaultPlan, ReadsARankASumAndASignalAndNamesAMalformedValue) {
  EXPECT_EQ(FaultPlan::parse(nullptr).rank, -1);
  EXPECT_EQ(FaultPlan::parse("").rank, -1);
  const auto plan = FaultPlan::parse("1:all_reduce:7:KILL");
  EXPECT_EQ(plan.rank, 1);
  EXPECT_EQ(plan.nth, 7);
  EXPECT_EQ(plan.signal, SIGKILL);
  EXPECT_EQ(FaultPlan::parse("0:all_reduce:1:STOP").signal, SIGSTOP);
  for (const char* bad : {"1:all_reduce:7", "1:broadcast:7:KILL", "1:all_reduce:0:KILL", "-1:all_reduce:7:KILL",
                          "1:all_reduce:7:TERM", "x:all_reduce:7:KILL", "1:all_reduce:7:KILL:",
                          "1:all_reduce:99999999999:KILL"}) {
    try {
      (void)FaultPlan::parse(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("HYDRA_FAULT='" + std::string(bad) + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(ProcessGroup, AnUnknownBackendIsNamed) {
  DistEnv env;
  try {
    ProcessGroup group(env, "mpi", 1s);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'mpi'"), std::string::npos);
  }
}

}  // namespace
}  // namespace hydra::model
