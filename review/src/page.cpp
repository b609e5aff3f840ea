// render_page (review.hpp): the review as one self-contained HTML document. The data goes in as
// one JSON object (common/json.hpp's UTF-8-safe writer; every '<' written as \u003c so no
// "</script>" or "<!--" can end the script element early); the page's own CSS and script
// (page_assets.cpp) draw the tiles as inline SVG. A Content-Security-Policy meta element allows
// nothing but the inline style and script, so the page cannot load anything.

#include <algorithm>
#include <cmath>
#include <string>

#include "hydra/common/index.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/text.hpp"
#include "hydra/review/review.hpp"

namespace hydra::review {

// page_assets.cpp
extern const char* const kPageStyle;
extern const char* const kPageScript;

namespace {


// Probabilities and values with 4 decimals: what the page shows (percent with one decimal)
// never depends on float-to-double noise.
double round4(double x) { return std::round(x * 1e4) / 1e4; }

std::string html_escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

nlohmann::ordered_json table_json(const Table& t) {
  nlohmann::ordered_json j;
  j["bakaze"] = t.bakaze;
  j["kyoku"] = t.kyoku;
  j["honba"] = t.honba;
  j["kyotaku"] = t.kyotaku;
  j["oya"] = t.oya;
  j["live"] = t.live_left;
  j["scores"] = t.scores;
  j["hand"] = t.hand;
  j["drawn"] = t.drawn;
  auto rivers = nlohmann::ordered_json::array();
  for (const auto& river : t.rivers) {
    auto rj = nlohmann::ordered_json::array();
    // [tile, flags]: 1 tsumogiri, 2 riichi declaration, 4 called away
    for (const RiverTile& r : river)
      rj.push_back({r.pai, (r.tsumogiri ? 1 : 0) | (r.riichi ? 2 : 0) | (r.called ? 4 : 0)});
    rivers.push_back(std::move(rj));
  }
  j["rivers"] = std::move(rivers);
  auto melds = nlohmann::ordered_json::array();
  for (const auto& seat : t.melds) {
    auto mj = nlohmann::ordered_json::array();
    for (const ShownMeld& m : seat) mj.push_back({{"kind", m.kind}, {"tiles", m.tiles}, {"called", m.called}, {"from", m.from}});
    melds.push_back(std::move(mj));
  }
  j["melds"] = std::move(melds);
  j["riichi"] = t.riichi;
  j["dora"] = t.dora;
  j["offered"] = t.offered;
  j["offered_by"] = t.offered_by;
  return j;
}

}  // namespace

nlohmann::ordered_json review_json(const Review& r) {
  nlohmann::ordered_json j;
  j["game"] = r.game;
  j["names"] = r.names;
  j["model"] = r.model;
  j["step"] = r.model_step;
  j["seats"] = r.seats;
  auto kyoku = nlohmann::ordered_json::array();
  for (const Kyoku& k : r.kyoku) kyoku.push_back({{"label", k.label}, {"scores", k.scores}, {"result", k.result}});
  j["kyoku"] = std::move(kyoku);
  j["final_scores"] = r.final_scores;
  auto points = nlohmann::ordered_json::array();
  for (const float p : r.final_points) points.push_back(round4(p));
  j["final_points"] = std::move(points);

  // The summary: agreement overall and per seat, the largest disagreements (the agent's
  // probability minus the taken action's), the value head's estimate at each seat's first
  // decision of every kyoku.
  const Summary s = summarize(r);
  nlohmann::ordered_json sum;
  sum["decisions"] = s.decisions;
  sum["agreed"] = s.agreed;
  sum["agreement"] = round4(s.agreement());
  auto per_seat = nlohmann::ordered_json::array();
  for (const int seat : r.seats) {
    int n = 0, agreed = 0;
    double value = 0;
    for (const Decision& d : r.decisions) {
      if (d.seat != seat) continue;
      ++n;
      agreed += d.taken == d.agent ? 1 : 0;
      value += d.value;
    }
    per_seat.push_back({{"seat", seat},
                        {"decisions", n},
                        {"agreed", agreed},
                        {"agreement", round4(n > 0 ? static_cast<double>(agreed) / n : 0.0)},
                        {"mean_value", round4(n > 0 ? value / n : 0.0)},
                        {"final_points", round4(r.final_points[ix(seat)])}});
  }
  sum["seats"] = std::move(per_seat);
  std::vector<int> worst;
  for (std::size_t i = 0; i < r.decisions.size(); ++i)
    if (r.decisions[i].taken != r.decisions[i].agent) worst.push_back(static_cast<int>(i));
  auto gap = [&](int i) {
    const Decision& d = r.decisions[ix(i)];
    return round4(d.choices.front().prob) - round4(d.taken_prob);
  };
  std::stable_sort(worst.begin(), worst.end(), [&](int a, int b) { return gap(a) > gap(b); });
  if (worst.size() > 10) worst.resize(10);
  sum["largest_disagreements"] = worst;
  auto values = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < r.kyoku.size(); ++k) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array({nullptr, nullptr, nullptr, nullptr});
    for (const Decision& d : r.decisions)
      if (d.kyoku == static_cast<int>(k) && row[ix(d.seat)].is_null()) row[ix(d.seat)] = round4(d.value);
    values.push_back(std::move(row));
  }
  sum["kyoku_values"] = std::move(values);
  j["summary"] = std::move(sum);

  auto decisions = nlohmann::ordered_json::array();
  for (const Decision& d : r.decisions) {
    nlohmann::ordered_json dj;
    dj["seat"] = d.seat;
    dj["kyoku"] = d.kyoku;
    dj["event"] = d.event;
    dj["turn"] = d.turn;
    dj["phase"] = d.phase;
    dj["taken"] = d.taken;
    dj["taken_label"] = d.taken_label;
    dj["taken_prob"] = round4(d.taken_prob);
    dj["agent"] = d.agent;
    dj["value"] = round4(d.value);
    auto choices = nlohmann::ordered_json::array();
    for (const Choice& c : d.choices) choices.push_back({c.action, c.label, round4(c.prob)});
    dj["choices"] = std::move(choices);
    if (d.search) {
      nlohmann::ordered_json sj;
      sj["action"] = d.search->action;
      sj["label"] = d.search->label;
      auto means = nlohmann::ordered_json::array();
      for (const auto& [action, value] : d.search->values) means.push_back({action, round4(value)});
      sj["values"] = std::move(means);
      dj["search"] = std::move(sj);
    }
    dj["table"] = table_json(d.table);
    decisions.push_back(std::move(dj));
  }
  j["decisions"] = std::move(decisions);
  return j;
}

std::string script_json(const nlohmann::ordered_json& j) {
  const std::string text = json::dump(j);
  std::string out;
  out.reserve(text.size() + text.size() / 64);
  for (const char c : text) {
    // '<' only ever occurs inside JSON strings, where \u003c is the same character.
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

std::string render_page(const Review& r) {
  std::string title = "hydra review: " + text::to_utf8(r.game);
  std::string html;
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "script-src 'unsafe-inline'; img-src data:\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<title>" + html_escape(title) + "</title>\n<style>\n";
  html += kPageStyle;
  html += "</style>\n</head>\n<body>\n";
  html += "<noscript>This review needs JavaScript.</noscript>\n";
  html += "<div id=\"app\"></div>\n";
  html += "<script type=\"application/json\" id=\"review-data\">";
  html += script_json(review_json(r));
  html += "</script>\n<script>\n";
  html += kPageScript;
  html += "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace hydra::review
