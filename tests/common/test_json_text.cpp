// The JSON reading and text output policy (hydra/common/json.hpp, text.hpp): nesting bounded,
// numbers out of range and invalid UTF-8 reported with their place, output always UTF-8.
#include <gtest/gtest.h>

#include <string>

#include "hydra/common/config_io.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"

namespace hydra {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(Text, ValidUtf8FollowsRfc3629) {
  EXPECT_TRUE(text::valid_utf8(""));
  EXPECT_TRUE(text::valid_utf8("ascii"));
  EXPECT_TRUE(text::valid_utf8("\xE6\xB5\x81\xE5\xB1\x80"));  // 流局
  EXPECT_TRUE(text::valid_utf8("\xF0\x9F\x80\x84"));          // U+1F004 MAHJONG TILE RED DRAGON
  EXPECT_TRUE(text::valid_utf8("\xF4\x8F\xBF\xBF"));          // U+10FFFF, the last code point
  EXPECT_FALSE(text::valid_utf8("\xFF"));
  EXPECT_FALSE(text::valid_utf8("\xC0\x80"));          // overlong NUL
  EXPECT_FALSE(text::valid_utf8("\xE0\x80\xAF"));      // overlong '/'
  EXPECT_FALSE(text::valid_utf8("\xED\xA0\x80"));      // UTF-16 surrogate D800
  EXPECT_FALSE(text::valid_utf8("\xF4\x90\x80\x80"));  // beyond U+10FFFF
  EXPECT_FALSE(text::valid_utf8("\xE6\xB5"));          // cut short
  EXPECT_FALSE(text::valid_utf8("a\x80"));             // a lone continuation byte
}

// The Unicode Standard's own example of U+FFFD substitution of maximal subparts (chapter 3,
// "U+FFFD Substitution of Maximal Subparts", table 3-8): 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64.
TEST(Text, InvalidSequencesBecomeOneReplacementPerMaximalSubpart) {
  const std::string in = "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
  const std::string want = "a" + kFffd + kFffd + kFffd + "b" + kFffd + "c" + kFffd + kFffd + "d";
  EXPECT_EQ(text::to_utf8(in), want);
  EXPECT_EQ(text::to_utf8("\xE6\xB5\x81"), "\xE6\xB5\x81");
  EXPECT_TRUE(text::valid_utf8(text::to_utf8("\xFF\xFE\xC0\xAF\xED\xBF\xBF\xF0\x9F")));
}

TEST(Text, ExcerptsAreBoundedPrintableAndValid) {
  EXPECT_EQ(text::excerpt("5mr"), "5mr");
  EXPECT_EQ(text::excerpt("a\nb\x01"), "a\\x0Ab\\x01");
  const std::string cut = text::excerpt(std::string(100'000, 'x'), 10);
  EXPECT_EQ(cut, "xxxxxxxxxx... (100000 bytes)");
  // Never cut inside a character: 流 is 3 bytes.
  std::string ryuu;
  for (int i = 0; i < 10; ++i) ryuu += "\xE6\xB5\x81";
  EXPECT_TRUE(text::valid_utf8(text::excerpt(ryuu, 4)));
  EXPECT_EQ(text::excerpt("\xFF" "a"), kFffd + "a");
}

json::ParseError parse_error(const std::string& text) {
  try {
    (void)json::parse(text);
  } catch (const json::ParseError& e) {
    return e;
  }
  ADD_FAILURE() << "no parse error for " << text.substr(0, 40);
  return json::ParseError(json::ParseError::Kind::syntax, 0, 0, "");
}

// The reported crash: a value nested ~75,000 deep overflowed the stack when printed. Parsing
// stops at the bound, with the place, before any value that deep exists.
TEST(Json, NestingIsBoundedWithThePlace) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  const auto e = parse_error(deep);
  EXPECT_EQ(e.kind(), json::ParseError::Kind::too_deep);
  EXPECT_EQ(e.line(), 1);
  EXPECT_EQ(e.column(), json::kMaxDepth + 1);  // the first bracket past the bound
  EXPECT_NO_THROW((void)json::parse(std::string(json::kMaxDepth, '[') + std::string(json::kMaxDepth, ']')));
  std::string nested = "{\"a\":\n";
  for (int i = 0; i < 200; ++i) nested += "{\"a\":";
  const auto objects = parse_error(nested);
  EXPECT_EQ(objects.kind(), json::ParseError::Kind::too_deep);
  EXPECT_EQ(objects.line(), 2);
  EXPECT_NE(std::string(objects.what()).find("nested deeper than 64 levels"), std::string::npos) << objects.what();
}

TEST(Json, NumbersOutOfRangeAreParseErrorsWithThePlace) {
  const auto e = parse_error("{\n  \"lr\": 1e999\n}");
  EXPECT_EQ(e.kind(), json::ParseError::Kind::number_range);
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(std::string(e.what()), "line 2, column 9: number out of range: 1e999");
  EXPECT_EQ(parse_error("[-1e400]").kind(), json::ParseError::Kind::number_range);
  EXPECT_DOUBLE_EQ(json::parse("1e308").get<double>(), 1e308);
}

TEST(Json, SyntaxErrorsAreBoundedAndValidText) {
  const auto e = parse_error("{\"name\": \"\xFF" + std::string(10'000, 'x'));
  EXPECT_EQ(e.kind(), json::ParseError::Kind::syntax);
  EXPECT_TRUE(text::valid_utf8(e.what()));
  EXPECT_LT(std::string(e.what()).size(), 400u);
  EXPECT_EQ(parse_error("").line(), 1);
  EXPECT_NO_THROW((void)json::parse("// note\n{}", {.comments = true}));
  EXPECT_EQ(parse_error("// note\n{}").kind(), json::ParseError::Kind::syntax);
}

TEST(Json, DumpReplacesInvalidUtf8) {
  nlohmann::json j = {{"name", "ab\xFF" "c"}};
  EXPECT_THROW((void)j.dump(), nlohmann::json::type_error);  // what json::dump exists for
  EXPECT_EQ(json::dump(j), "{\"name\":\"ab" + kFffd + "c\"}");
  nlohmann::ordered_json o = {{"n", "\xC3"}};
  EXPECT_EQ(json::dump(o, 1), "{\n \"n\": \"" + kFffd + "\"\n}");
  EXPECT_EQ(json::excerpt(nlohmann::json(std::string(1000, 'y')), 5), "\"yyyy... (1002 bytes)");
}

void expect_config_error(std::string_view text, const std::vector<std::string>& sets,
                         const std::vector<std::string>& fragments) {
  try {
    (void)config::parse(text, "cfg/test.json", sets);
    FAIL() << "expected a config error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_TRUE(text::valid_utf8(msg)) << msg;
    EXPECT_LT(msg.size(), 600u) << msg;
    for (const auto& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
  }
}

TEST(ConfigInput, DeepNestingNumbersOutOfRangeAndInvalidUtf8) {
  expect_config_error("{\"run\": " + std::string(75'000, '['), {}, {"cfg/test.json", "line 1", "nested deeper"});
  expect_config_error("{\"ppo\": {\n\"lr\": 1e999}}", {}, {"cfg/test.json", "line 2", "number out of range: 1e999"});
  expect_config_error("{}", {"ppo.lr=1e999"}, {"--set 'ppo.lr=1e999'", "number out of range"});
  expect_config_error("{}", {"run.name=" + std::string(75'000, '[')}, {"--set", "nested deeper"});
  expect_config_error("{}", {"run.name=\xFF"}, {"--set run.name=", "run.name", "not valid UTF-8"});
  expect_config_error("{}", {"run.device=" + std::string(100'000, 'x')}, {"run.device", "100000 bytes"});
  EXPECT_EQ(config::parse("{}", "x", {"run.name=\xE6\xB5\x81"}).run.name, "\xE6\xB5\x81");
}

}  // namespace
}  // namespace hydra
