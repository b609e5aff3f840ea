// libFuzzer harness: the rules a log names by its Tenhou lobby type and date (log_rules.hpp;
// docs/RULES.md "Tenhou's rules by era"). Input: one flags byte (bit 0: the log carries a GO
// type, the next two bytes, little-endian), then the text searched for a log id (a file name, a
// path, a log URL), which becomes the log's uri. Checked against an independent reading of the
// same rules:
//   - find_tenhou_log_id finds the first "YYYYMMDDHH" "gm-" "TTTT" "-" (ten digits, four hex
//     digits) as a plain scan does;
//   - tenhou_rules_name has no preset for 3-player (0x10) and anything above 0xFF, and otherwise a
//     name that table_rules() resolves (never an error) to rules whose length is hanchan exactly
//     when bit 0x08 is set, red fives exactly without 0x02, open tanyao exactly without 0x04, and
//     tenpai-yame (today's rules) exactly when the date is unknown or not before
//     kTenhou2009RulesUntil;
//   - rules_named_by and RulesChoice "auto" pick the GO type over the id's type, the id's date,
//     and the fallback where neither names a preset.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "harness.hpp"
#include "hydra/common/error.hpp"
#include "hydra/data/game_log.hpp"
#include "hydra/data/log_rules.hpp"
#include "hydra/game/rules.hpp"

namespace {

using namespace hydra;

void require(bool ok, const std::string& what) {
  if (!ok) fuzz::finding(what);
}

// The first log id in `text`, by a plain scan of every position.
std::optional<data::TenhouLogId> scan_id(std::string_view text) {
  for (std::size_t at = 0; at + 18 <= text.size(); ++at) {
    bool ok = text.substr(at + 10, 3) == "gm-" && text[at + 17] == '-';
    for (std::size_t i = 0; ok && i < 10; ++i) ok = std::isdigit(static_cast<unsigned char>(text[at + i])) != 0;
    for (std::size_t i = 13; ok && i < 17; ++i) ok = std::isxdigit(static_cast<unsigned char>(text[at + i])) != 0;
    if (!ok) continue;
    data::TenhouLogId id;
    for (std::size_t i = 0; i < 10; ++i) id.hour = id.hour * 10 + (text[at + i] - '0');
    for (std::size_t i = 13; i < 17; ++i) {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[at + i])));
      id.type = id.type * 16 + static_cast<unsigned>(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    return id;
  }
  return std::nullopt;
}

const game::TableRules* check_name(unsigned type, std::optional<std::int64_t> hour) {
  const std::optional<std::string> name = data::tenhou_rules_name(type, hour);
  const std::string what = "type " + std::to_string(type) + (hour ? " hour " + std::to_string(*hour) : std::string(" no date"));
  const bool preset = !(type & 0x10u) && type <= 0xFFu;
  require(name.has_value() == preset, what + ": a preset where none should be, or none where one should");
  if (!name) return nullptr;
  const game::TableRules* rules = nullptr;
  try {
    rules = &game::table_rules(*name);
  } catch (const Error& e) {
    fuzz::finding(what + ": the rules name '" + *name + "' does not resolve: " + e.what());
  }
  require((rules->length == game::GameLength::hanchan) == ((type & 0x08u) != 0), what + ": " + *name + ": the game length");
  require(rules->red_fives == !(type & 0x02u), what + ": " + *name + ": red fives");
  require(rules->scoring.kuitan == !(type & 0x04u), what + ": " + *name + ": open tanyao");
  const bool today = !hour || *hour >= data::kTenhou2009RulesUntil;
  require(rules->tenpai_yame == today, what + ": " + *name + ": the era's tenpai-yame");
  return rules;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  std::optional<unsigned> go_type;
  if (data[0] & 1) go_type = static_cast<unsigned>(data[1] | (data[2] << 8));
  const std::string_view text(reinterpret_cast<const char*>(data + 3), size - 3);

  const std::optional<data::TenhouLogId> id = data::find_tenhou_log_id(text);
  const std::optional<data::TenhouLogId> truth = scan_id(text);
  require(id.has_value() == truth.has_value(), "find_tenhou_log_id and the plain scan disagree on whether there is an id");
  if (id)
    require(id->hour == truth->hour && id->type == truth->type,
            "log id: hour " + std::to_string(id->hour) + " type " + std::to_string(id->type) + ", the plain scan: hour " +
                std::to_string(truth->hour) + " type " + std::to_string(truth->type));

  // Every lobby type, with and without the id's date.
  if (id) (void)check_name(id->type, id->hour);
  if (go_type) {
    (void)check_name(*go_type, std::nullopt);
    if (id) (void)check_name(*go_type, id->hour);
  }

  data::GameLog log;
  log.uri = std::string(text);
  log.tenhou_type = go_type;
  const std::optional<unsigned> type = go_type ? go_type : id ? std::optional(id->type) : std::nullopt;
  const game::TableRules* expected = type ? check_name(*type, id ? std::optional(id->hour) : std::nullopt) : nullptr;
  const game::TableRules* named = data::rules_named_by(log);
  require(named == expected, "rules_named_by picked " + (named ? named->name : std::string("none")) + ", expected " +
                                 (expected ? expected->name : std::string("none")));
  const data::RulesChoice choice = data::RulesChoice::parse("auto");
  const game::TableRules& picked = choice.of(log);
  require(&picked == (expected ? expected : &game::table_rules("tenhou")), "RulesChoice auto picked " + picked.name);
  if (fuzz::verbose()) std::fprintf(stderr, "  rules: %s\n", picked.name.c_str());
  return 0;
}
