// mjai writing and whole-file reading; the line parser is in mjai_parse.cpp.

#include "hydra/data/mjai.hpp"

#include <array>
#include <charconv>

#include <nlohmann/json.hpp>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/json.hpp"
#include "hydra/data/text_file.hpp"

namespace hydra::data {

using game::Event;
using game::EventType;
using game::Pai;
using nlohmann::json;

std::string to_mjai_line(const Event& e, const GameLog& log) { return hydra::json::dump(to_mjai_json(e, log)); }

nlohmann::ordered_json to_mjai_json(const Event& e, const GameLog& log) {
  nlohmann::ordered_json j;
  j["type"] = game::to_string(e.type);
  auto pais = [](const auto& v) {
    json a = json::array();
    for (Pai p : v) a.push_back(game::mjai_name(p));
    return a;
  };
  switch (e.type) {
    case EventType::start_game:
      j["names"] = log.names;
      if (!log.uri.empty()) j["uri"] = log.uri;
      break;
    case EventType::start_kyoku: {
      j["bakaze"] = game::wind_name(e.bakaze);
      j["dora_marker"] = game::mjai_name(e.dora_marker);
      j["kyoku"] = e.kyoku;
      j["honba"] = e.honba;
      j["kyotaku"] = e.kyotaku;
      j["oya"] = e.oya.index();
      j["scores"] = e.scores;
      json hands = json::array();
      for (const auto& h : e.tehais) hands.push_back(pais(h));
      j["tehais"] = std::move(hands);
      break;
    }
    case EventType::tsumo:
      j["actor"] = e.actor.index();
      j["pai"] = game::mjai_name(e.pai);
      break;
    case EventType::dahai:
      j["actor"] = e.actor.index();
      j["pai"] = game::mjai_name(e.pai);
      j["tsumogiri"] = e.tsumogiri;
      break;
    case EventType::chi:
    case EventType::pon:
    case EventType::daiminkan:
    case EventType::kakan:
    case EventType::ankan:
      j["actor"] = e.actor.index();
      if (game::takes_discard(e.type)) j["target"] = e.target.index();
      if (e.type != EventType::ankan) j["pai"] = game::mjai_name(e.pai);
      j["consumed"] = pais(e.consumed);
      break;
    case EventType::dora:
      j["dora_marker"] = game::mjai_name(e.dora_marker);
      break;
    case EventType::reach:
      j["actor"] = e.actor.index();
      break;
    case EventType::reach_accepted:
      j["actor"] = e.actor.index();
      j["deltas"] = e.deltas;
      j["scores"] = e.scores;
      break;
    case EventType::hora:
      j["actor"] = e.actor.index();
      j["target"] = e.target.index();
      if (!e.pai.is_unknown()) j["pai"] = game::mjai_name(e.pai);
      j["deltas"] = e.deltas;
      j["ura_markers"] = pais(e.ura_markers);
      if (e.pao.valid()) j["pao"] = e.pao.index();
      if (e.detailed) {
        j["hora_tehais"] = pais(e.hora_tehais);
        json ys = json::array();
        for (const auto& y : e.yakus) ys.push_back(json::array({game::to_string(y.yaku), y.han}));
        j["yakus"] = std::move(ys);
        j["fu"] = e.fu;
        j["fan"] = e.fan;
        j["hora_points"] = e.hora_points;
      }
      j["scores"] = e.scores;
      break;
    case EventType::ryukyoku:
      if (e.reason != game::RyukyokuReason::unknown) j["reason"] = game::to_string(e.reason);
      j["deltas"] = e.deltas;
      if (e.detailed) {
        j["tenpais"] = e.tenpais;
        json hands = json::array();
        for (const auto& h : e.tehais) hands.push_back(pais(h));
        j["tehais"] = std::move(hands);
      }
      j["scores"] = e.scores;
      break;
    case EventType::end_game:
      j["scores"] = e.scores;
      break;
    case EventType::end_kyoku:
    case EventType::none:
      break;
  }
  return j;
}

void MjaiGameBuilder::add(std::string_view line, int number) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;  // blank lines
  ParsedLine parsed;
  try {
    parsed = parse_mjai_line(line);
  } catch (const Error& e) {
    throw Error(name_ + ":" + std::to_string(number) + ": " + e.what());
  }
  if (parsed.event.type == EventType::start_game) {
    log_.names = std::move(parsed.names);
    log_.uri = std::move(parsed.uri);
  }
  if (parsed.search) {
    parsed.search->event = log_.events.size();
    log_.searches.push_back(std::move(*parsed.search));
  }
  log_.events.push_back(parsed.event);
  given_.push_back(parsed.given);
  lines_.push_back(number);
}

GameLog MjaiGameBuilder::finish(int last_line) {
  if (log_.events.empty()) throw Error(name_ + ": empty file (no mjai events)");
  normalize(log_, given_, [&](std::size_t i) {
    return name_ + ":" + std::to_string(i < lines_.size() ? lines_[i] : last_line);
  });
  return std::move(log_);
}

namespace {

// One game from mjai lines; `next(line, number)` yields each line and its number, false at the end.
template <class NextLine>
GameLog read_lines(const std::string& name, NextLine&& next) {
  MjaiGameBuilder game(name);
  std::string_view line;
  int number = 0;
  while (next(line, number)) game.add(line, number);
  return game.finish(number);
}

}  // namespace

GameLog read_mjai(const std::filesystem::path& path) {
  LineReader reader(path);
  return read_lines(path.string(), [&](std::string_view& line, int& number) {
    const bool more = reader.next(line);
    number = reader.line_number();
    return more;
  });
}

GameLog parse_mjai_text(std::string_view text, const std::string& name) {
  std::size_t pos = 0;
  return read_lines(name, [&](std::string_view& line, int& number) {
    if (pos >= text.size()) return false;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = end + 1;
    ++number;
    return true;
  });
}

namespace {

// A float as the double of its shortest decimal form: the line carries 0.1011749 where the float's
// exact binary value would print as 0.10117491334676743, and reading it back gives the same float.
double shortest_decimal(float v) {
  std::array<char, 32> buf{};
  const char* end = std::to_chars(buf.data(), buf.data() + buf.size(), v).ptr;
  double d = 0;
  std::from_chars(buf.data(), end, d);
  return d;
}

}  // namespace

std::string to_mjai_text(const GameLog& log) {
  std::string out;
  std::size_t k = 0;  // the next search note
  const auto note_error = [&](const std::string& what) {
    return Error("search note " + std::to_string(k) + " (on event " + std::to_string(log.searches[k].event) +
                 "): " + what);
  };
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    if (k < log.searches.size() && log.searches[k].event < i)
      throw note_error("not after the previous note's event (one note to an event, in event order)");
    if (k < log.searches.size() && log.searches[k].event == i) {
      const SearchNote& note = log.searches[k];
      nlohmann::ordered_json values = nlohmann::ordered_json::array();
      for (const float v : note.values) values.push_back(shortest_decimal(v));
      nlohmann::ordered_json j = to_mjai_json(log.events[i], log);
      j["meta"]["search"] = {{"actions", note.actions}, {"values", std::move(values)}, {"deals", note.deals}};
      std::string line = hydra::json::dump(j);
      try {  // the writer refuses what the reader would: the same checks, by reading the line
        parse_mjai_line(line);
      } catch (const Error& e) {
        throw note_error(e.what());
      }
      out += line;
      ++k;
    } else {
      out += to_mjai_line(log.events[i], log);
    }
    out += '\n';
  }
  if (k < log.searches.size())
    throw note_error("past the log's " + std::to_string(log.events.size()) + " events");
  return out;
}

void write_mjai(const std::filesystem::path& path, const GameLog& log) {
  const std::string text = to_mjai_text(log);
  hydra::write_file_atomic(path, path.extension() == ".gz" ? gzip_compress(text) : text, Durability::rename_only);
}

}  // namespace hydra::data
