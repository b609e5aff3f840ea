// The journal of a duplicate's finished seeds (eval_journal.hpp).

#include "hydra/selfplay/eval_journal.hpp"

#include <cerrno>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "hydra/common/atomic_file.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/read_file.hpp"
#include "hydra/common/index.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/common/text.hpp"

namespace hydra::selfplay {
namespace {

constexpr const char* kTitle = "hydra eval";

// SeatGame as the journal writes it: its fields in this order.
struct Field {
  const char* name;
  long (*get)(const SeatGame&);
  void (*set)(SeatGame&, long);
};
#define HYDRA_SEAT_FIELD(f)                                                  \
  Field {                                                                    \
    #f, [](const SeatGame& g) { return static_cast<long>(g.f); },            \
        [](SeatGame& g, long v) { g.f = static_cast<decltype(g.f)>(v); }     \
  }
const std::array<Field, 12>& fields() {
  static const std::array<Field, 12> f{
      HYDRA_SEAT_FIELD(rank),       HYDRA_SEAT_FIELD(pt),         HYDRA_SEAT_FIELD(score),
      HYDRA_SEAT_FIELD(kyoku),      HYDRA_SEAT_FIELD(wins),       HYDRA_SEAT_FIELD(tsumo_wins),
      HYDRA_SEAT_FIELD(deal_ins),   HYDRA_SEAT_FIELD(riichi),     HYDRA_SEAT_FIELD(call_kyoku),
      HYDRA_SEAT_FIELD(ryuukyoku),  HYDRA_SEAT_FIELD(win_points), HYDRA_SEAT_FIELD(deal_in_points)};
  return f;
}
#undef HYDRA_SEAT_FIELD

std::string quoted(const nlohmann::ordered_json& j) { return text::excerpt(json::dump(j)); }

nlohmann::ordered_json header(const nlohmann::ordered_json& run) {
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (const Field& f : fields()) names.push_back(f.name);
  return {{"journal", kTitle}, {"run", run}, {"seat_game_fields", names}};
}

nlohmann::ordered_json seed_line(const JournalSeed& s) {
  nlohmann::ordered_json games = nlohmann::ordered_json::array();
  for (const GameStats& g : s.games.games) {
    nlohmann::ordered_json seats = nlohmann::ordered_json::array();
    for (const SeatGame& seat : g) {
      nlohmann::ordered_json v = nlohmann::ordered_json::array();
      for (const Field& f : fields()) v.push_back(f.get(seat));
      seats.push_back(std::move(v));
    }
    games.push_back(std::move(seats));
  }
  return {{"seed", s.games.seed}, {"kyoku", s.kyoku}, {"decisions", s.decisions}, {"games", std::move(games)}};
}

// Reads the journal's lines; `where` prefixes every message with the file and line.
class Reader {
 public:
  Reader(const std::filesystem::path& file, int line) : where_(file.string() + ":" + std::to_string(line)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& why) const {
    throw Error(where_ + ": field '" + field + "': " + why);
  }
  long integer(const nlohmann::json& j, const std::string& field, long lo, long hi) const {
    if (!j.is_number_integer()) fail(field, "must be an integer, got " + json::excerpt(j));
    const auto v = j.get<std::int64_t>();
    if (v < lo || v > hi) fail(field, "must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + std::to_string(v));
    return static_cast<long>(v);
  }
  const nlohmann::json& member(const nlohmann::json& j, const std::string& key) const {
    const auto it = j.find(key);
    if (it == j.end()) fail(key, "missing");
    return *it;
  }

  JournalSeed seed(const nlohmann::json& j) const {
    JournalSeed s;
    const auto& seed = member(j, "seed");
    if (!seed.is_number_unsigned()) fail("seed", "must be a seed index, got " + json::excerpt(seed));
    s.games.seed = seed.get<std::uint64_t>();
    constexpr long kMax = std::numeric_limits<int>::max();
    s.kyoku = integer(member(j, "kyoku"), "kyoku", 0, kMax);
    s.decisions = integer(member(j, "decisions"), "decisions", 0, kMax);
    const auto& games = member(j, "games");
    if (!games.is_array() || games.size() != game::kNumSeats) fail("games", "must be 4 games of 4 seats");
    for (std::size_t c = 0; c < game::kNumSeats; ++c) {
      const auto& seats = games[c];
      const std::string name = "games[" + std::to_string(c) + "]";
      if (!seats.is_array() || seats.size() != game::kNumSeats) fail(name, "must be 4 seats");
      for (std::size_t p = 0; p < game::kNumSeats; ++p) {
        const auto& v = seats[p];
        const std::string seat = name + "[" + std::to_string(p) + "]";
        if (!v.is_array() || v.size() != fields().size())
          fail(seat, "must be " + std::to_string(fields().size()) + " numbers, one per seat_game_fields");
        SeatGame& g = s.games.games[c][p];
        for (std::size_t k = 0; k < fields().size(); ++k)
          fields()[k].set(g, integer(v[k], seat + "." + fields()[k].name, std::numeric_limits<int>::min(), kMax));
        if (g.rank < 1 || g.rank > 4) fail(seat + ".rank", "must be from 1 to 4, got " + std::to_string(g.rank));
      }
    }
    return s;
  }

 private:
  std::string where_;
};

}  // namespace

EvalJournal::EvalJournal(const std::filesystem::path& file, const nlohmann::ordered_json& run) : file_(file) {
  const nlohmann::ordered_json head = header(run);
  std::vector<std::string> lines;
  bool torn = false;
  if (std::filesystem::exists(file)) {
    const std::string all = read_file(file, "the journal");
    std::size_t at = 0;
    while (at < all.size()) {
      const std::size_t end = all.find('\n', at);
      if (end == std::string::npos) {  // no newline: the write was cut off
        torn = true;
        break;
      }
      lines.push_back(all.substr(at, end - at));
      at = end + 1;
    }
  }
  if (lines.empty()) {
    if (torn) log::warn("{}: dropping a torn header line (a run killed as it started)", file.string());
    std::error_code ec;
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
    write_file_atomic(file, json::dump(head) + "\n");
  } else {
    nlohmann::ordered_json first;
    try {
      first = json::parse_ordered(lines.front());
    } catch (const json::ParseError& e) {
      throw Error(file.string() + ":1: not a journal of hydra eval (" + e.what() + ")");
    }
    if (!first.is_object() || first.value("journal", "") != kTitle)
      throw Error(file.string() + ":1: not a journal of hydra eval (no \"journal\": \"hydra eval\" header)");
    if (first != head) {
      const auto theirs = first.contains("run") ? first["run"] : nlohmann::ordered_json();
      for (const auto& [key, value] : run.items()) {
        const bool has = theirs.is_object() && theirs.contains(key);
        if (!has || theirs[key] != value)
          throw Error(file.string() + ":1: field 'run." + key + "': the journal is of another run (" +
                      (has ? quoted(theirs[key]) : std::string("absent")) + ", this run has " +
                      quoted(value) + "); give another --journal file or the run's own flags");
      }
      throw Error(file.string() + ":1: the journal's header differs from this run's: " + quoted(first));
    }
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const Reader r(file, static_cast<int>(i + 1));
      nlohmann::json j;
      try {
        j = json::parse(lines[i]);
      } catch (const json::ParseError& e) {
        throw Error(file.string() + ":" + std::to_string(i + 1) + ": " + e.what());
      }
      if (!j.is_object()) r.fail("seed", "the line is not a JSON object");
      JournalSeed s = r.seed(j);
      const std::uint64_t key = s.games.seed;
      if (!finished_.emplace(key, std::move(s)).second) r.fail("seed", "seed " + std::to_string(key) + " is twice in the journal");
    }
    if (torn) {
      log::warn("{}: dropping a torn last line (a run killed mid-write); {} seeds kept", file.string(), finished_.size());
      std::string kept;
      for (const std::string& l : lines) kept += l + "\n";
      write_file_atomic(file, kept);
    }
  }
  out_.open(file, std::ios::app | std::ios::binary);
  if (!out_) throw Error(file.string() + ": cannot append to the journal: " + std::strerror(errno));
}

void EvalJournal::write(const JournalSeed& seed) {
  const std::string line = json::dump(seed_line(seed)) + "\n";
  const std::scoped_lock lock(mutex_);
  out_ << line;
  out_.flush();
  if (!out_) throw Error(file_.string() + ": cannot append to the journal: " + std::strerror(errno));
}

}  // namespace hydra::selfplay
