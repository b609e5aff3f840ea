// Tenhou mjlog XML -> mjai events. The tags, in file order: GO (rule flags), UN (names),
// TAIKYOKU, then per kyoku INIT, T/U/V/W<id> draws and D/E/F/G<id> discards of seats 0-3,
// N (calls, bit-packed in `m`), REACH (step 1 declare, step 2 stick paid), DORA, AGARI and
// RYUUKYOKU; the last result carries `owari`. Tile ids are Tenhou's 0-135. A SHUFFLE seed gives
// every kyoku's wall (tenhou_wall.hpp): GameLog::walls, its dice checked against INIT's here.

#include <pugixml.hpp>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>

#include "hydra/common/text.hpp"
#include "hydra/data/log_rules.hpp"
#include "hydra/data/tenhou.hpp"
#include "hydra/data/tenhou_wall.hpp"
#include "hydra/data/text_file.hpp"
#include "tenhou_yaku.hpp"
#include "hydra/common/index.hpp"

namespace hydra::data {
namespace {

using game::Event;
using game::EventType;
using game::Pai;
using game::Seat;
using game::Tile;

// GO type bits (Tenhou): 0x01 vs humans, 0x02 no red fives, 0x04 no open tanyao, 0x08 hanchan,
// 0x10 3-player, 0x20 tokujou, 0x40 fast, 0x80 joukyuu/houou; higher bits mark chip, ratio and
// custom lobbies. The rules each lobby plays: log_rules.hpp.
void check_go_type(unsigned type, const std::string& name) {
  auto reject = [&](const std::string& why) {
    throw UnsupportedRule(name + ": unsupported rule: " + why + " (GO type " + std::to_string(type) + ")");
  };
  if (type & 0x10) reject("3-player (sanma)");
  if (type & ~0xFFu) reject("chip, ratio or custom lobby rules");
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    int v = 0;
    if (s[i] == '%' && i + 2 < s.size() && std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16).ptr == s.data() + i + 3) {
      out.push_back(static_cast<char>(v));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

constexpr int kMaxAttributeInt = 1'000'000;

class XmlReader {
 public:
  explicit XmlReader(std::string name) : name_(std::move(name)) {}

  GameLog run(const pugi::xml_node& root, std::vector<std::uint8_t>& given) {
    for (const pugi::xml_node& node : root.children()) {
      tag_ = node.name();
      step(node);
      if (finished_) break;
    }
    if (!finished_)
      throw Error(name_ + ": the log ends before the end of the game (no 'owari' result): truncated log?");
    given = std::move(given_);
    return std::move(log_);
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const { throw Error(name_ + ": <" + text::excerpt(tag_, 40) + ">: " + msg); }

  std::vector<int> ints(const pugi::xml_node& n, const char* attr, bool required = true) const {
    const pugi::xml_attribute a = n.attribute(attr);
    if (!a) {
      if (required) fail("attribute '" + std::string(attr) + "' is missing");
      return {};
    }
    std::vector<int> out;
    const std::string_view s = a.value();
    std::size_t i = 0;
    while (i < s.size()) {
      int v = 0;
      const auto [ptr, ec] = std::from_chars(s.data() + i, s.data() + s.size(), v);
      if (ec != std::errc()) fail("attribute '" + std::string(attr) + "': '" + text::excerpt(s) + "' is not a list of integers");
      // Tile ids, meld codes, scores in hundreds: all far inside this, and scores are scaled by
      // 100 later without overflowing.
      if (v < -kMaxAttributeInt || v > kMaxAttributeInt)
        fail("attribute '" + std::string(attr) + "': " + std::to_string(v) + " is out of range");
      i = static_cast<std::size_t>(ptr - s.data());
      if (i < s.size() && s[i] == '.') {  // owari's uma points ("-21.0"): the fraction is not needed
        while (i < s.size() && s[i] != ',') ++i;
      }
      out.push_back(v);
      if (i < s.size() && s[i] == ',') ++i;
    }
    return out;
  }
  int one_int(const pugi::xml_node& n, const char* attr, int lo, int hi) const {
    const auto v = ints(n, attr);
    if (v.size() != 1 || v[0] < lo || v[0] > hi)
      fail("attribute '" + std::string(attr) + "' must be one integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    return v[0];
  }
  Pai tile(int id, const char* attr) const {
    if (id < 0 || id >= game::kNumTiles) fail("attribute '" + std::string(attr) + "': tile id " + std::to_string(id) + " is not 0-135");
    return Pai(Tile(id));
  }
  game::Scores hundreds(const std::vector<int>& v, int stride, int offset) const {
    game::Scores s{};
    for (std::size_t p = 0; p < s.size(); ++p) s[p] = v[p * ix(stride) + ix(offset)] * 100;
    return s;
  }

  void emit(const Event& e, std::uint8_t given = kGivenAll) {
    log_.events.push_back(e);
    given_.push_back(given);
    const auto seat = static_cast<std::size_t>(e.actor.valid() ? e.actor.index() : 0);
    switch (e.type) {  // closed-hand sizes: a noten hand is shown as that many "?"
      case EventType::tsumo: ++closed_[seat]; break;
      case EventType::dahai: --closed_[seat]; break;
      case EventType::chi: case EventType::pon: closed_[seat] -= 2; break;
      case EventType::daiminkan: closed_[seat] -= 3; break;
      case EventType::kakan: closed_[seat] -= 1; break;
      case EventType::ankan: closed_[seat] -= 4; break;
      default: break;
    }
  }
  void close_kyoku() {
    if (!in_kyoku_) return;
    Event e;
    e.type = EventType::end_kyoku;
    emit(e);
    in_kyoku_ = false;
  }

  void step(const pugi::xml_node& n) {
    const std::string_view tag = tag_;
    if (tag.size() >= 2 && std::strchr("TUVWDEFG", tag[0]) && tag.find_first_not_of("0123456789", 1) == std::string_view::npos) {
      draw_or_discard(tag);
    } else if (tag == "GO") {
      log_.tenhou_type = static_cast<unsigned>(one_int(n, "type", 0, 1 << 30));
      check_go_type(*log_.tenhou_type, name_);
    } else if (tag == "UN") {
      if (!names_seen_ && n.attribute("n0")) {
        names_seen_ = true;
        constexpr const char* kAttrs[] = {"n0", "n1", "n2", "n3"};
        for (std::size_t p = 0; p < log_.names.size(); ++p) log_.names[p] = percent_decode(n.attribute(kAttrs[p]).value());
      }
    } else if (tag == "SHUFFLE") {
      shuffle(n);
    } else if (tag == "INIT") {
      init(n);
    } else if (tag == "N") {
      const int who = one_int(n, "who", 0, 3);
      const auto m = ints(n, "m");
      if (m.size() != 1 || m[0] < 0) fail("attribute 'm' must be one meld code");
      try {
        emit(decode_tenhou_meld(who, static_cast<unsigned>(m[0])));
      } catch (const UnsupportedRule&) {
        throw;
      } catch (const Error& e) {
        fail(e.what());
      }
      last_draw_[ix(who)] = -1;
    } else if (tag == "REACH") {
      Event e;
      e.actor = Seat(one_int(n, "who", 0, 3));
      if (one_int(n, "step", 1, 2) == 1) {
        e.type = EventType::reach;
      } else {
        e.type = EventType::reach_accepted;
        e.deltas[ix(e.actor.index())] = -1000;
        const auto ten = ints(n, "ten", false);  // older logs leave the scores out
        if (ten.empty()) {
          emit(e, kGivenDeltas | kGivenKyotaku);
          return;
        }
        if (ten.size() != game::kNumSeats) fail("attribute 'ten' must hold 4 scores");
        e.scores = hundreds(ten, 1, 0);
      }
      emit(e);
    } else if (tag == "DORA") {
      Event e;
      e.type = EventType::dora;
      e.dora_marker = tile(one_int(n, "hai", 0, 135), "hai");
      emit(e);
    } else if (tag == "AGARI") {
      agari(n);
    } else if (tag == "RYUUKYOKU") {
      ryuukyoku(n);
    }
    // TAIKYOKU and BYE (a disconnect: Tenhou plays on for the player) carry no events.
  }

  // How the walls were built. The older hex seed form is recognised and not rebuilt (its dead
  // wall differs; docs/WALL.md); any other seed must be one Tenhou's generator reads.
  void shuffle(const pugi::xml_node& n) {
    if (walls_) fail("a second SHUFFLE");
    if (started_) fail("SHUFFLE after the first INIT: the walls of the kyoku before it are unknown");
    const pugi::xml_attribute seed = n.attribute("seed");
    if (!seed) fail("attribute 'seed' is missing");
    if (std::string_view(seed.value()).starts_with(tenhou::kHexShufflePrefix)) return;
    try {
      walls_.emplace(tenhou::parse_shuffle_seed(seed.value()));
    } catch (const Error& e) {
      fail(e.what());
    }
  }

  // The next wall from the seed, for the kyoku `e` starts; its dice must be the ones INIT logs.
  void next_wall(const Event& e, int die1, int die2) {
    const tenhou::TenhouWall w = walls_->next();
    if (w.dice[0] != die1 + 1 || w.dice[1] != die2 + 1)
      fail("kyoku " + std::string(game::wind_name(e.bakaze)) + std::to_string(e.kyoku) + "-" + std::to_string(e.honba) +
           " (wall " + std::to_string(log_.walls.size() + 1) + " of the SHUFFLE seed): the dice are " +
           std::to_string(die1 + 1) + " and " + std::to_string(die2 + 1) + ", the seed's wall gives " +
           std::to_string(w.dice[0]) + " and " + std::to_string(w.dice[1]) + ": the seed does not belong to this log");
    log_.walls.push_back(w.to_game_wall());
  }

  void init(const pugi::xml_node& n) {
    if (!started_) {
      Event g;
      g.type = EventType::start_game;
      emit(g);
      started_ = true;
    }
    close_kyoku();
    if (n.attribute("chip")) throw UnsupportedRule(name_ + ": unsupported rule: chip (shuugi) lobby");
    const auto seed = ints(n, "seed");
    if (seed.size() != 6) fail("attribute 'seed' must hold 6 numbers");
    const auto ten = ints(n, "ten");
    if (ten.size() != game::kNumSeats) fail("attribute 'ten' must hold 4 scores");
    Event e;
    e.type = EventType::start_kyoku;
    if (seed[0] < 0 || seed[0] >= 16) fail("attribute 'seed': round " + std::to_string(seed[0]) + " is not 0-15");
    e.bakaze = game::TileType(27 + seed[0] / 4);
    e.kyoku = static_cast<std::uint8_t>(seed[0] % 4 + 1);
    e.honba = static_cast<std::uint8_t>(std::clamp(seed[1], 0, 255));
    e.kyotaku = static_cast<std::uint8_t>(std::clamp(seed[2], 0, 255));
    e.dora_marker = tile(seed[5], "seed");
    e.oya = Seat(one_int(n, "oya", 0, 3));
    e.scores = hundreds(ten, 1, 0);
    if (log_.events.size() == 1)
      for (int s : ten)
        if (s != 250)
          throw UnsupportedRule(name_ + ": unsupported rule: start scores of " + std::to_string(s * 100) + " (Hydra plays 25,000 starts)");
    for (int p = 0; p < game::kNumSeats; ++p) {
      const std::string attr = "hai" + std::to_string(p);
      const auto hai = ints(n, attr.c_str());
      if (hai.empty()) throw UnsupportedRule(name_ + ": unsupported rule: 3-player (seat " + std::to_string(p) + " has no hand)");
      if (hai.size() != 13) fail("attribute '" + attr + "' must hold 13 tiles");
      for (int id : hai) e.tehais[ix(p)].push_back(tile(id, attr.c_str()));
    }
    if (walls_) next_wall(e, seed[3], seed[4]);
    last_draw_.fill(-1);
    closed_.fill(13);
    emit(e);
    in_kyoku_ = true;
  }

  void draw_or_discard(std::string_view tag) {
    const char* kinds = "TUVWDEFG";
    const int k = static_cast<int>(std::strchr(kinds, tag[0]) - kinds);
    int id = -1;
    std::from_chars(tag.data() + 1, tag.data() + tag.size(), id);
    Event e;
    e.actor = Seat(k % 4);
    e.pai = tile(id, "tile");
    int& last = last_draw_[static_cast<std::size_t>(k % 4)];
    if (k < 4) {
      e.type = EventType::tsumo;
      last = id;
    } else {
      e.type = EventType::dahai;
      e.tsumogiri = id == last;  // Tenhou marks no tsumogiri: the id of the drawn tile tells
      last = -1;
    }
    emit(e);
  }

  // sc="s0,d0,s1,d1,..." in hundreds: scores before and the deltas.
  void payments(const pugi::xml_node& n, Event& e) const {
    const auto sc = ints(n, "sc");
    if (sc.size() != 8) fail("attribute 'sc' must hold 4 score/delta pairs (more mean a chip lobby)");
    e.deltas = hundreds(sc, 2, 1);
    for (std::size_t p = 0; p < e.scores.size(); ++p) e.scores[p] = (sc[2 * p] + sc[2 * p + 1]) * 100;
  }

  void finish_if_owari(const pugi::xml_node& n) {
    if (!n.attribute("owari")) return;
    const auto owari = ints(n, "owari");
    if (owari.size() < 8) fail("attribute 'owari' must hold 4 score/uma pairs");
    close_kyoku();
    Event e;
    e.type = EventType::end_game;
    e.scores = hundreds(owari, 2, 0);
    emit(e);
    finished_ = true;
  }

  void agari(const pugi::xml_node& n) {
    Event e;
    e.type = EventType::hora;
    e.actor = Seat(one_int(n, "who", 0, 3));
    e.target = Seat(one_int(n, "fromWho", 0, 3));
    if (n.attribute("paoWho")) e.pao = Seat(one_int(n, "paoWho", 0, 3));
    const int machi = one_int(n, "machi", 0, 135);
    e.pai = tile(machi, "machi");
    bool removed = false;
    for (int id : ints(n, "hai")) {
      if (id == machi && !removed) {
        removed = true;
        continue;
      }
      if (e.hora_tehais.full()) fail("attribute 'hai' holds more than 14 tiles");
      e.hora_tehais.push_back(tile(id, "hai"));
    }
    if (!removed) fail("the winning tile (machi) is not in 'hai'");
    const auto ten = ints(n, "ten");
    if (ten.size() != 3) fail("attribute 'ten' must be fu,points,limit");
    e.fu = static_cast<std::uint8_t>(std::clamp(ten[0], 0, 255));
    e.hora_points = ten[1];
    int fan = 0;
    auto add = [&](int id, int han) {
      const auto y = tenhou::yaku_from_id(id);
      if (!y) fail("unknown yaku id " + std::to_string(id));
      if (han <= 0) return;  // "53,0": ura dora counted and none hit
      if (e.yakus.full()) fail("too many yaku");
      e.yakus.push_back({*y, static_cast<std::uint8_t>(han)});
      fan += han;
    };
    const auto yaku = ints(n, "yaku", false);
    if (yaku.size() % 2) fail("attribute 'yaku' must hold id,han pairs");
    for (std::size_t i = 0; i + 1 < yaku.size(); i += 2) add(yaku[i], yaku[i + 1]);
    const auto yakuman = ints(n, "yakuman", false);
    for (int id : yakuman) add(id, game::kYakumanHan);
    e.fan = static_cast<std::uint8_t>(yakuman.empty() ? std::min(fan, 255) : game::kYakumanHan);
    for (int id : ints(n, "doraHaiUra", false)) {
      if (e.ura_markers.full()) fail("attribute 'doraHaiUra' holds more than 5 tiles");
      e.ura_markers.push_back(tile(id, "doraHaiUra"));
    }
    e.detailed = true;
    payments(n, e);
    emit(e);
    finish_if_owari(n);
  }

  void ryuukyoku(const pugi::xml_node& n) {
    Event e;
    e.type = EventType::ryukyoku;
    const std::string_view type = n.attribute("type").value();
    using R = game::RyukyokuReason;
    e.reason = type.empty() ? R::fanpai : type == "yao9" ? R::kyushukyuhai : type == "reach4" ? R::suchareach
             : type == "ron3" ? R::sanchaho : type == "kan4" ? R::sukaikan : type == "kaze4" ? R::sufonrenta
             : type == "nm" ? R::nagashimangan : R::unknown;
    if (e.reason == R::unknown) fail("unknown draw type '" + text::excerpt(type) + "'");
    for (int p = 0; p < game::kNumSeats; ++p) {
      const std::string attr = "hai" + std::to_string(p);
      auto& hand = e.tehais[ix(p)];
      e.tenpais[ix(p)] = static_cast<bool>(n.attribute(attr.c_str()));
      if (!e.tenpais[ix(p)]) {
        for (int i = 0; i < std::clamp(closed_[ix(p)], 0, 14); ++i) hand.push_back(Pai::unknown());
        continue;
      }
      for (int id : ints(n, attr.c_str())) {
        if (hand.full()) fail("attribute '" + attr + "' holds more than 14 tiles");
        hand.push_back(tile(id, attr.c_str()));
      }
    }
    e.detailed = true;
    payments(n, e);
    emit(e);
    finish_if_owari(n);
  }

  std::string name_;
  std::string tag_;
  GameLog log_;
  std::optional<tenhou::WallGenerator> walls_;
  std::vector<std::uint8_t> given_;
  std::array<int, game::kNumSeats> last_draw_{-1, -1, -1, -1};
  std::array<int, game::kNumSeats> closed_{};
  bool started_ = false, in_kyoku_ = false, finished_ = false, names_seen_ = false;
};

}  // namespace

GameLog parse_tenhou_xml(std::string_view xml, const std::string& name) {
  pugi::xml_document doc;
  const pugi::xml_parse_result r = doc.load_buffer(xml.data(), xml.size());
  if (!r) {
    const auto offset = static_cast<std::size_t>(std::max<std::ptrdiff_t>(r.offset, 0));
    const auto line = 1 + std::count(xml.begin(), xml.begin() + static_cast<std::ptrdiff_t>(std::min(offset, xml.size())), '\n');
    throw Error(name + ":" + std::to_string(line) + ": broken XML: " + r.description() + " at byte " + std::to_string(offset));
  }
  const pugi::xml_node root = doc.child("mjloggm");
  if (!root) throw Error(name + ": not a Tenhou mjlog (no <mjloggm> element)");
  std::vector<std::uint8_t> given;
  GameLog log = XmlReader(name).run(root, given);
  if (const auto slash = name.find_last_of('/'); name.find("gm-") != std::string::npos) {
    std::string id = name.substr(slash == std::string::npos ? 0 : slash + 1);
    if (const auto dot = id.find('.'); dot != std::string::npos) id.resize(dot);
    log.uri = "http://tenhou.net/0/?log=" + id + "&tw=0";
  }
  if (log.tenhou_type && (*log.tenhou_type & 0x02)) drop_red_fives(log);  // a lobby without red fives
  normalize(log, given, [&](std::size_t i) { return name + ": event " + std::to_string(i); });
  return log;
}

GameLog read_tenhou_xml(const std::filesystem::path& path) {
  return parse_tenhou_xml(read_text_file(path), path.string());
}

}  // namespace hydra::data
