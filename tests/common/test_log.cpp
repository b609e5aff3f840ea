#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "hydra/common/error.hpp"
#include "hydra/common/log.hpp"

namespace hydra {
namespace {

TEST(Log, FileSinkReceivesMessagesWithLevelAndThread) {
  log::init("info");
  const auto file = std::filesystem::temp_directory_path() / "hydra_test_log.txt";
  std::filesystem::remove(file);
  log::add_file(file);
  log::info("hello {}", 42);
  log::debug("hidden at info level");
  log::flush();
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("[info] [t"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("hello 42"), std::string::npos);
  EXPECT_EQ(text.str().find("hidden"), std::string::npos);
}

TEST(Log, UnknownLevelIsAnError) {
  EXPECT_THROW(log::set_level("loud"), Error);
  EXPECT_NO_THROW(log::set_level("off"));
}

TEST(Check, InvariantFailureCarriesExpressionAndLocation) {
  try {
    HYDRA_CHECK(1 + 1 == 3, "arithmetic");
    FAIL();
  } catch (const InvariantError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("1 + 1 == 3"), std::string::npos);
    EXPECT_NE(msg.find("test_log.cpp"), std::string::npos);
    EXPECT_NE(msg.find("arithmetic"), std::string::npos);
  }
}

}  // namespace
}  // namespace hydra
