#include "hydra/common/stop.hpp"

#include <csignal>

#include <gtest/gtest.h>

TEST(StopSignal, FirstSignalSetsTheFlag) {
  hydra::StopSignal stop;
  EXPECT_FALSE(stop.requested());
  EXPECT_EQ(stop.signal(), 0);
  ASSERT_EQ(std::raise(SIGINT), 0);  // the handler runs before raise returns
  EXPECT_TRUE(stop.requested());
  EXPECT_EQ(stop.signal(), SIGINT);
}

TEST(StopSignal, SigtermToo) {
  hydra::StopSignal stop;
  ASSERT_EQ(std::raise(SIGTERM), 0);
  EXPECT_EQ(stop.signal(), SIGTERM);
}

TEST(StopSignal, AFreshSignalObjectStartsClear) {
  {
    hydra::StopSignal stop;
    std::raise(SIGINT);
  }
  hydra::StopSignal stop;
  EXPECT_FALSE(stop.requested());
}

TEST(StopSignal, RequestStopsWithoutASignal) {
  hydra::StopSignal stop;
  stop.request();
  EXPECT_TRUE(stop.requested());
  EXPECT_EQ(stop.signal(), 0);
  // A Ctrl-C after request() is still a first signal: the process survives it.
  ASSERT_EQ(std::raise(SIGINT), 0);
  EXPECT_EQ(stop.signal(), SIGINT);
}

TEST(StopSignalDeathTest, SecondSignalKills) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        hydra::StopSignal stop;
        std::raise(SIGINT);
        std::raise(SIGINT);
        std::exit(0);  // not reached
      },
      ::testing::KilledBySignal(SIGINT), "");
}

TEST(StopSignal, DestructorRestoresThePreviousHandler) {
  static volatile std::sig_atomic_t seen = 0;
  auto* previous = std::signal(SIGTERM, [](int) { seen = 1; });
  { hydra::StopSignal stop; }
  std::raise(SIGTERM);
  EXPECT_EQ(seen, 1);
  std::signal(SIGTERM, previous);
}
