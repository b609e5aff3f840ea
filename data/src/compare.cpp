// Readable differences between event streams: what a failing converter test or a replay check
// prints, down to the field.

#include "hydra/data/game_log.hpp"

namespace hydra::data {
namespace {

using game::Event;

std::string text(game::Pai p) { return std::string(game::mjai_name(p)); }
std::string text(game::Seat s) { return s.valid() ? std::to_string(s.index()) : "none"; }
std::string text(bool b) { return b ? "true" : "false"; }
std::string text(int v) { return std::to_string(v); }
std::string text(game::TileType t) { return text(game::Pai(t)); }
std::string text(game::RyukyokuReason r) { return std::string(game::to_string(r)); }
std::string text(const game::MjaiYakuHan& y) { return std::string(game::to_string(y.yaku)) + ":" + std::to_string(y.han); }

template <typename T, int N>
std::string text(const game::FixedVec<T, N>& v) {
  std::string s = "[";
  for (int i = 0; i < v.size(); ++i) s.append(i ? "," : "").append(text(v[i]));
  return s + "]";
}
template <typename T, std::size_t N>
std::string text(const std::array<T, N>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < N; ++i) s.append(i ? "," : "").append(text(v[i]));
  return s + "]";
}

}  // namespace

std::optional<std::string> first_difference(const Event& a, const Event& b) {
  std::optional<std::string> out;
  auto field = [&](const char* name, const auto& x, const auto& y) {
    if (!out && !(x == y)) out = "field '" + std::string(name) + "' " + text(x) + " vs " + text(y);
  };
  if (a.type != b.type)
    return "type " + std::string(game::to_string(a.type)) + " vs " + std::string(game::to_string(b.type));
  field("actor", a.actor, b.actor);
  field("target", a.target, b.target);
  field("pai", a.pai, b.pai);
  field("tsumogiri", a.tsumogiri, b.tsumogiri);
  field("consumed", a.consumed, b.consumed);
  field("bakaze", a.bakaze, b.bakaze);
  field("kyoku", int{a.kyoku}, int{b.kyoku});
  field("honba", int{a.honba}, int{b.honba});
  field("kyotaku", int{a.kyotaku}, int{b.kyotaku});
  field("oya", a.oya, b.oya);
  field("dora_marker", a.dora_marker, b.dora_marker);
  for (std::size_t p = 0; p < a.tehais.size(); ++p) field("tehais", a.tehais[p], b.tehais[p]);
  field("scores", a.scores, b.scores);
  field("deltas", a.deltas, b.deltas);
  field("detailed", a.detailed, b.detailed);
  field("hora_tehais", a.hora_tehais, b.hora_tehais);
  field("yakus", a.yakus, b.yakus);
  field("fu", int{a.fu}, int{b.fu});
  field("fan", int{a.fan}, int{b.fan});
  field("hora_points", int{a.hora_points}, int{b.hora_points});
  field("ura_markers", a.ura_markers, b.ura_markers);
  field("pao", a.pao, b.pao);
  field("reason", a.reason, b.reason);
  field("tenpais", a.tenpais, b.tenpais);
  if (!out && !(a == b)) out = "events differ";  // a field this list misses: keep it in sync
  return out;
}

std::optional<std::string> first_difference(const GameLog& a, const GameLog& b) {
  for (std::size_t p = 0; p < a.names.size(); ++p)
    if (a.names[p] != b.names[p]) return "name of seat " + std::to_string(p) + ": '" + a.names[p] + "' vs '" + b.names[p] + "'";
  const std::size_t n = std::min(a.events.size(), b.events.size());
  for (std::size_t i = 0; i < n; ++i)
    if (auto d = first_difference(a.events[i], b.events[i]))
      return "event " + std::to_string(i) + " (" + game::describe(a.events[i]) + "): " + *d;
  if (a.events.size() != b.events.size())
    return "event count " + std::to_string(a.events.size()) + " vs " + std::to_string(b.events.size());
  return std::nullopt;
}

}  // namespace hydra::data
