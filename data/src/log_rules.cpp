// The rules a log names (log_rules.hpp).

#include "hydra/data/log_rules.hpp"

#include <cctype>

#include "hydra/common/error.hpp"

namespace hydra::data {
namespace {

bool all_of(std::string_view s, int (*pred)(int)) {
  for (char c : s)
    if (!pred(static_cast<unsigned char>(c))) return false;
  return !s.empty();
}

}  // namespace

std::optional<TenhouLogId> find_tenhou_log_id(std::string_view text) {
  // YYYYMMDDHH "gm-" TTTT "-": ten digits, then four hex digits.
  for (std::size_t gm = text.find("gm-"); gm != std::string_view::npos; gm = text.find("gm-", gm + 1)) {
    if (gm < 10 || gm + 8 > text.size() || text[gm + 7] != '-') continue;
    const std::string_view date = text.substr(gm - 10, 10), type = text.substr(gm + 3, 4);
    if (!all_of(date, [](int c) { return std::isdigit(c); }) || !all_of(type, [](int c) { return std::isxdigit(c); }))
      continue;
    TenhouLogId id;
    id.hour = std::stoll(std::string(date));
    id.type = static_cast<unsigned>(std::stoul(std::string(type), nullptr, 16));
    return id;
  }
  return std::nullopt;
}

std::optional<std::string> tenhou_rules_name(unsigned type, std::optional<std::int64_t> hour) {
  if ((type & 0x10) || (type & ~0xFFu)) return std::nullopt;  // 3-player; chips, ratio, custom lobbies
  std::string name = hour && *hour < kTenhou2009RulesUntil ? "tenhou-2009" : "tenhou";
  if (!(type & 0x08)) name += "-tonpuusen";
  if (type & 0x02) name += "+no-red";
  if (type & 0x04) name += "+no-kuitan";
  return name;
}

const game::TableRules* rules_named_by(const GameLog& log) {
  const auto id = find_tenhou_log_id(log.uri);
  const std::optional<unsigned> type = log.tenhou_type ? log.tenhou_type : id ? std::optional(id->type) : std::nullopt;
  if (!type) return nullptr;
  const auto name = tenhou_rules_name(*type, id ? std::optional(id->hour) : std::nullopt);
  return name ? &game::table_rules(*name) : nullptr;
}

void drop_red_fives(GameLog& log) {
  const auto plain = [](game::Pai& p) {
    if (p.is_red()) p = game::Pai(p.type());
  };
  const auto all = [&](auto& tiles) {
    for (game::Pai& p : tiles) plain(p);
  };
  for (game::Event& e : log.events) {
    plain(e.pai);
    plain(e.dora_marker);
    all(e.consumed);
    all(e.hora_tehais);
    all(e.ura_markers);
    for (game::Tehai& t : e.tehais) all(t);
  }
}

RulesChoice RulesChoice::per_log(const game::TableRules& fallback) {
  RulesChoice c(fallback);
  c.per_log_ = true;
  return c;
}

RulesChoice RulesChoice::parse(std::string_view text) {
  if (text == "auto") return per_log(game::table_rules("tenhou"));
  return RulesChoice(game::table_rules(text));
}

const game::TableRules& RulesChoice::of(const GameLog& log) const {
  if (!per_log_) return *rules_;
  const game::TableRules* named = rules_named_by(log);
  return named ? *named : *rules_;
}

std::string RulesChoice::describe() const {
  return per_log_ ? "auto (each Tenhou log's own; " + rules_->name + " for the others)" : rules_->name;
}

}  // namespace hydra::data
