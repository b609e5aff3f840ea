// The replay checker (replay.hpp): one Checker per game walks the events through four views.

#include "hydra/data/replay.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "hydra/common/error.hpp"
#include "hydra/common/index.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/encoder/verify.hpp"
#include "hydra/game/kyoku.hpp"
#include "hydra/game/score.hpp"
#include "hydra/game/view.hpp"
#include "hydra/game/wall.hpp"

namespace hydra::data {
namespace {

using game::Event;
using game::EventType;
using game::PlayerView;
using game::Scores;
using game::Seat;


// A failed check; the message already names the place.
struct Mismatch {
  std::string message;
};

std::string scores_text(const Scores& s) {
  std::string out = "[";
  for (std::size_t p = 0; p < s.size(); ++p) out.append(p ? "," : "").append(std::to_string(s[p]));
  return out + "]";
}

std::string yakus_text(const game::MjaiYakuList& y) {
  std::string out = "[";
  for (int i = 0; i < y.size(); ++i)
    out.append(i ? "," : "").append(game::to_string(y[i].yaku)).append(" ").append(std::to_string(y[i].han));
  return out + "]";
}

game::MjaiYakuList sorted(game::MjaiYakuList y) {
  std::sort(y.begin(), y.end(), [](const game::MjaiYakuHan& a, const game::MjaiYakuHan& b) {
    return a.yaku != b.yaku ? a.yaku < b.yaku : a.han < b.han;
  });
  game::MjaiYakuList out;
  for (const auto& x : y)
    if (x.han != 0) out.push_back(x);
  return out;
}

// The game lengths a log may have been played at. A Tenhou lobby type (the mjlog's GO type, or
// the log id's: "2019021004gm-00a9-...") has bit 0x08 set for a hanchan; without one, the log
// does not say, and both hanchan and tonpuusen stay candidates until the events rule one out.
std::vector<game::GameLength> game_lengths(const GameLog& log, const game::TableRules& rules) {
  if (rules.length == game::GameLength::one_kyoku) return {rules.length};
  if (log.tenhou_type) return {(*log.tenhou_type & 0x08) ? game::GameLength::hanchan : game::GameLength::tonpuusen};
  const std::size_t gm = log.uri.find("gm-");
  if (gm != std::string::npos && gm + 7 <= log.uri.size()) {
    try {
      const int type = std::stoi(log.uri.substr(gm + 3, 4), nullptr, 16);
      return {(type & 0x08) ? game::GameLength::hanchan : game::GameLength::tonpuusen};
    } catch (const std::exception&) {
      // not a Tenhou id: fall through
    }
  }
  return {rules.length, rules.length == game::GameLength::hanchan ? game::GameLength::tonpuusen : game::GameLength::hanchan};
}

const Event* first_kyoku(const GameLog& log) {
  for (const Event& e : log.events)
    if (e.type == EventType::start_kyoku) return &e;
  return nullptr;
}

// Whether a kyoku is the first of a whole game: East 1, no honba, no sticks. A log that starts
// elsewhere is a fragment of a game (tenhou.net/6 files of single kyoku).
// What the hand would be worth with the scoring key kiriage_mangan flipped, or 0 when that
// changes nothing: names the rule when a log from another lobby values 4 han 30 fu as mangan.
int value_with_kiriage_flipped(const game::WinResult& r, const game::ScoringRules& rules, bool dealer, bool tsumo) {
  if (r.yakuman != 0) return 0;
  game::ScoringRules alt = rules;
  alt.kiriage_mangan = !alt.kiriage_mangan;
  const int base = game::base_points(r.han, r.fu, alt);
  return base == r.base ? 0 : game::points_of(base, dealer, tsumo);
}

std::string kyoku_name(game::TileType bakaze, int kyoku, int honba) {
  return std::string(game::wind_name(bakaze)) + std::to_string(kyoku) + "-" + std::to_string(honba);
}
std::string kyoku_name(const game::GameProgress& p) { return kyoku_name(p.bakaze(), p.kyoku(), p.honba); }

std::string tiles_text(std::vector<game::Pai> tiles) {
  std::sort(tiles.begin(), tiles.end(), [](game::Pai a, game::Pai b) { return tenhou_order(a) < tenhou_order(b); });
  std::string out;
  for (game::Pai p : tiles) out.append(out.empty() ? "" : " ").append(game::mjai_name(p));
  return out;
}

bool starts_game(const Event& k, const game::TableRules&) {
  return k.bakaze == game::TileType(27) && k.kyoku == 1 && k.honba == 0 && k.kyotaku == 0;
}

class Checker {
 public:
  Checker(const GameLog& log, const game::TableRules& rules, std::string_view name)
      : log_(log), rules_(rules), name_(name),
        views_{PlayerView(Seat(0), rules), PlayerView(Seat(1), rules), PlayerView(Seat(2), rules), PlayerView(Seat(3), rules)} {
    for (game::GameLength len : game_lengths(log, rules)) {
      Track t;
      t.rules = rules;
      t.progress = game::GameProgress::start(rules);
      t.rules.length = len;
      if (len != rules.length) t.rules.name += len == game::GameLength::tonpuusen ? " (tonpuusen)" : " (hanchan)";
      tracks_.push_back(t);
    }
  }

  void run(ReplayReport& report) {
    for (i_ = 0; i_ < log_.events.size(); ++i_) {
      const Event& e = log_.events[i_];
      try {
        step(e, report);
      } catch (const Error& err) {
        fail(err.what());
      }
      for (PlayerView& v : views_) {
        try {
          v.apply(e);
        } catch (const Error& err) {
          fail(std::string("seat ") + std::to_string(v.seat().index()) + "'s view rejects the event: " + err.what());
        }
      }
      ++report.events;
    }
    if (!ended_) fail("the game has no end_game");
    report.message = partial_;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw Mismatch{name_ + ":" + std::to_string(i_ + 1) + ": " + why};
  }
  void expect(bool ok, const std::string& why) const {
    if (!ok) fail(why);
  }

  void check_decision(const Event& e, Seat actor, ReplayReport& report) {
    std::string why;
    if (!views_[ix(actor)].is_legal(e, &why))
      fail("illegal " + std::string(game::to_string(e.type)) + " by seat " + std::to_string(actor.index()) + ": " + why +
           " [" + game::describe(e) + "]");
    ++report.decisions;
  }

  void step(const Event& e, ReplayReport& report) {
    if (ended_) fail("event after end_game");
    switch (e.type) {
      case EventType::none:
        return;
      case EventType::start_game:
        expect(!started_, "a second start_game");
        started_ = true;
        scores_ = game::GameProgress::start(rules_).scores;
        if (const Event* first = first_kyoku(log_); first && !starts_game(*first, rules_)) {
          // A fragment: the first kyoku's state is taken as given.
          fragment_ = true;
          scores_ = first->scores;
          kyotaku_ = first->kyotaku;
          for (Track& t : tracks_) {
            t.progress.round = game::round_index(first->bakaze, first->kyoku);
            t.progress.honba = first->honba;
          }
        }
        return;
      case EventType::start_kyoku:
        start_kyoku(e, report);
        for (const game::Tehai& t : e.tehais) no_red_unless_the_rules_have_them(t);
        no_red_unless_the_rules_have_them(std::array{e.dora_marker});
        return;
      case EventType::tsumo:
        expect(in_kyoku_ && !kyoku_over_, "tsumo outside a kyoku");
        no_red_unless_the_rules_have_them(std::array{e.pai});
        expect(e.actor == drawer_, "seat " + std::to_string(e.actor.index()) + " draws, but it is seat " +
                                       std::to_string(drawer_.index()) + "'s draw");
        expect(views_[0].live_left() > 0, "tsumo from an empty live wall");
        if (wall_) check_wall_draw(e, report);
        awaiting_ = e.actor;
        return;
      case EventType::dahai:
        expect(e.actor == awaiting_, "seat " + std::to_string(e.actor.index()) + " discards out of turn");
        check_decision(e, e.actor, report);
        drawer_ = e.actor.next();
        awaiting_ = Seat::none();
        return;
      case EventType::reach:
        expect(e.actor == awaiting_, "riichi out of turn");
        check_decision(e, e.actor, report);
        return;
      case EventType::chi:
      case EventType::pon:
      case EventType::daiminkan:
        check_decision(e, e.actor, report);
        awaiting_ = e.actor;
        drawer_ = e.actor;  // after a daiminkan: the rinshan draw
        rinshan_next_ = e.type == EventType::daiminkan;
        return;
      case EventType::kakan:
      case EventType::ankan:
        expect(e.actor == awaiting_, std::string(game::to_string(e.type)) + " out of turn");
        check_decision(e, e.actor, report);
        drawer_ = e.actor;
        awaiting_ = Seat::none();
        rinshan_next_ = true;
        return;
      case EventType::dora:
        expect(views_[0].dora_markers().size() <= views_[0].kans(), "a dora indicator without a kan");
        if (wall_) check_wall_dora(e, report);
        return;
      case EventType::reach_accepted: {
        Scores d{};
        d[ix(e.actor)] = -1000;
        expect(e.deltas == d, "reach_accepted deltas " + scores_text(e.deltas) + ", expected " + scores_text(d));
        pay(d, e);
        ++kyotaku_;
        return;
      }
      case EventType::hora:
        hora(e, report);
        return;
      case EventType::ryukyoku:
        ryukyoku(e, report);
        return;
      case EventType::end_kyoku:
        end_kyoku();
        return;
      case EventType::end_game:
        end_game(e);
        return;
    }
  }

  template <class Tiles>
  void no_red_unless_the_rules_have_them(const Tiles& tiles) const {
    if (rules_.red_fives) return;
    for (game::Pai p : tiles)
      expect(!p.is_red(), "a red five (" + std::string(game::mjai_name(p)) + ") under rules without red fives ('" +
                              rules_.name + "')");
  }

  void pay(const Scores& d, const Event& e) {
    for (int s = 0; s < game::kNumSeats; ++s) scores_[ix(s)] += d[ix(s)];
    expect(e.scores == scores_, "scores " + scores_text(e.scores) + ", expected " + scores_text(scores_));
  }

  void start_kyoku(const Event& e, ReplayReport& report) {
    expect(started_, "start_kyoku before start_game");
    expect(!in_kyoku_, "start_kyoku inside a kyoku");
    std::string first_why;
    std::vector<Track> alive;
    for (const Track& t : tracks_) {
      const game::GameProgress& p = t.progress;
      std::string why;
      if (t.over)
        why = "start_kyoku after the game should have ended (" + t.rules.name + "): kyoku " +
              kyoku_name(e.bakaze, e.kyoku, e.honba) + " is played, but the game ends after " + kyoku_name(t.last) + ": " +
              std::string(game::to_string(t.end));
      else if (!(e.bakaze == p.bakaze() && e.kyoku == p.kyoku() && e.honba == p.honba && e.oya == p.oya()))
        why = "kyoku " + kyoku_name(e.bakaze, e.kyoku, e.honba) + " oya " + std::to_string(e.oya.index()) + ", expected " +
              kyoku_name(p.bakaze(), p.kyoku(), p.honba) + " oya " + std::to_string(p.oya().index()) + " (" + t.rules.name + ")";
      if (why.empty()) alive.push_back(t);
      else if (first_why.empty()) first_why = why;
    }
    expect(!alive.empty(), first_why);
    tracks_ = std::move(alive);
    expect(e.kyotaku == kyotaku_, "kyotaku " + std::to_string(e.kyotaku) + ", expected " + std::to_string(kyotaku_));
    expect(e.scores == scores_, "start scores " + scores_text(e.scores) + ", expected " + scores_text(scores_));
    in_kyoku_ = true;
    kyoku_over_ = false;
    ++kyoku_count_;
    outcome_ = {};
    drawer_ = e.oya;
    awaiting_ = Seat::none();
    ++report.kyoku;
    start_wall(e, report);
  }

  // --- the wall (GameLog::walls): followed with a game::Wall, as the table deals and draws ---

  void start_wall(const Event& e, ReplayReport& report) {
    wall_.reset();
    rinshan_next_ = false;
    if (log_.walls.empty()) return;
    const std::size_t k = static_cast<std::size_t>(kyoku_count_ - 1);
    expect(k < log_.walls.size(), "the log records " + std::to_string(log_.walls.size()) + " walls, none for its kyoku " +
                                      std::to_string(k + 1));
    wall_.emplace(log_.walls[k]);
    wall_kyoku_ = "kyoku " + kyoku_name(e.bakaze, e.kyoku, e.honba) + ": ";
    for (int s = 0; s < game::kNumSeats; ++s) {
      const auto dealt = wall_->haipai(e.oya.distance_to(Seat(s)));
      const auto& logged = e.tehais[ix(s)];
      const std::string want = tiles_text({dealt.begin(), dealt.end()}), got = tiles_text({logged.begin(), logged.end()});
      expect(want == got, wall_kyoku_ + "seat " + std::to_string(s) + "'s dealt hand is " + got + ", the wall deals " + want);
    }
    expect_wall_tile(e.dora_marker, wall_->dora_indicators()[0], "the first dora indicator");
    ++report.wall_kyoku;
    ++report.wall_indicators;
  }

  void expect_wall_tile(game::Pai logged, game::Tile wall, const std::string& what) const {
    expect(logged == game::Pai(wall), wall_kyoku_ + what + " is " + std::string(game::mjai_name(logged)) + ", the wall gives " +
                                          std::string(game::mjai_name(game::Pai(wall))) + " (tile id " +
                                          std::to_string(wall.id()) + ")");
  }

  void check_wall_draw(const Event& e, ReplayReport& report) {
    const std::string who = "seat " + std::to_string(e.actor.index()) + "'s ";
    if (rinshan_next_) {
      rinshan_next_ = false;
      expect(wall_->kans() < game::Wall::kMaxKans && wall_->live_left() > 0,
             wall_kyoku_ + "a rinshan draw the wall does not have");
      const int kan = wall_->kans();
      expect_wall_tile(e.pai, wall_->draw_rinshan(), who + "rinshan draw " + std::to_string(kan + 1));
      ++report.wall_rinshan;
      return;
    }
    expect(wall_->live_left() > 0, wall_kyoku_ + "a draw from an empty live wall");
    const int k = game::Wall::kLiveTiles - wall_->live_left() - wall_->kans() + 1;
    expect_wall_tile(e.pai, wall_->draw(), who + "draw (live draw " + std::to_string(k) + ")");
    ++report.wall_draws;
  }

  void check_wall_dora(const Event& e, ReplayReport& report) {
    const int i = wall_->indicators_revealed();
    expect(i < game::Wall::kMaxIndicators && i <= wall_->kans() + 1, wall_kyoku_ + "more dora indicators than kans");
    wall_->reveal_kan_dora();
    expect_wall_tile(e.dora_marker, wall_->dora_indicators()[ix(i)],
                     "dora indicator " + std::to_string(i + 1));
    ++report.wall_indicators;
  }

  // Ura indicators: a riichi win shows one under each dora indicator; any the log gives must be
  // the wall's.
  void check_wall_ura(const Event& e, ReplayReport& report) {
    const auto ura = wall_->ura_indicators();
    const bool riichi = views_[ix(e.actor)].riichi(e.actor);
    if (e.ura_markers.empty() && !riichi) return;
    expect(ix(e.ura_markers.size()) == ura.size(),
           wall_kyoku_ + "seat " + std::to_string(e.actor.index()) + "'s hora shows " + std::to_string(e.ura_markers.size()) +
               " ura indicators, " + std::to_string(ura.size()) + " dora indicators are revealed");
    for (std::size_t i = 0; i < ura.size(); ++i) {
      expect_wall_tile(e.ura_markers[static_cast<int>(i)], ura[i], "ura indicator " + std::to_string(i + 1));
      ++report.wall_indicators;
    }
  }

  // The winners of the hora group starting at event i_ (a double ron is consecutive hora events).
  Seat sticks_winner(const Event& first) const {
    if (first.actor == first.target) return first.actor;
    Seat best = first.actor;
    std::size_t begin = i_;
    while (begin > 0 && log_.events[begin - 1].type == EventType::hora) --begin;
    for (std::size_t j = begin; j < log_.events.size() && log_.events[j].type == EventType::hora; ++j) {
      const Seat w = log_.events[j].actor;
      if (first.target.distance_to(w) < first.target.distance_to(best)) best = w;
    }
    return best;
  }

  void hora(const Event& e, ReplayReport& report) {
    expect(in_kyoku_, "hora outside a kyoku");
    const bool tsumo = e.actor == e.target;
    if (tsumo) expect(e.actor == awaiting_, "tsumo agari out of turn");
    check_decision(e, e.actor, report);
    if (wall_) check_wall_ura(e, report);
    const PlayerView& v = views_[ix(e.actor)];
    const game::WinResult r = v.evaluate_win(e.pai, tsumo, e.target, e.ura_markers);
    expect(r.is_win(), "hora that the scoring engine does not see as a win");
    const std::string who = "seat " + std::to_string(e.actor.index()) + " hora: ";
    if (e.detailed) {
      const auto mine = sorted(game::mjai_yakus(r)), theirs = sorted(e.yakus);
      expect(mine == theirs, who + "yaku " + yakus_text(theirs) + ", engine " + yakus_text(mine));
      expect(e.fan == game::mjai_fan(r), who + "fan " + std::to_string(e.fan) + ", engine " + std::to_string(game::mjai_fan(r)));
      // tenhou.net/6 names limit hands without their fu ("満貫8000点"): fu 0 means not given.
      if (r.yakuman == 0 && e.fu != 0)
        expect(e.fu == r.fu, who + "fu " + std::to_string(e.fu) + ", engine " + std::to_string(r.fu));
      std::string points_diff = who + "points " + std::to_string(e.hora_points) + ", engine " + std::to_string(r.points);
      if (e.hora_points != r.points &&
          e.hora_points == value_with_kiriage_flipped(r, rules_.scoring, e.actor == v.oya(), tsumo))
        points_diff += " (" + std::to_string(r.han) + " han " + std::to_string(r.fu) + " fu): the log's value is the one with " +
                       "scoring.kiriage_mangan " + (rules_.scoring.kiriage_mangan ? "false" : "true") +
                       ", a rule the rules '" + rules_.name + "' do not have";
      expect(e.hora_points == r.points, points_diff);
    }
    const bool first = e.actor == sticks_winner(e);
    const Seat pao = v.pao(e.actor);
    if (e.pao.valid() || pao.valid())
      expect(e.pao == pao || !e.pao.valid(), who + "pao seat " + std::to_string(e.pao.index()) + ", engine " +
                                                 std::to_string(pao.index()));
    const Scores d = game::win_deltas(r, e.actor, e.target, v.oya(), v.honba(), kyotaku_, pao, first);
    expect(e.deltas == d, who + "deltas " + scores_text(e.deltas) + ", engine " + scores_text(d));
    pay(d, e);
    if (first) kyotaku_ = 0;
    outcome_.win = true;
    if (e.actor == v.oya()) outcome_.dealer_won = true;
    kyoku_over_ = true;
    ++report.horas;
  }

  void ryukyoku(const Event& e, ReplayReport& report) {
    expect(in_kyoku_ && !kyoku_over_, "ryukyoku outside a kyoku");
    const PlayerView& v0 = views_[0];
    using R = game::RyukyokuReason;
    R reason = e.reason;
    if (reason == R::unknown) {
      // Mortal's ryukyoku does not say why: infer it from the position.
      if (v0.live_left() == 0) reason = R::fanpai;
      else if (awaiting_.valid() && views_[ix(awaiting_)].phase() == game::Phase::turn) reason = R::kyushukyuhai;
      else if (v0.riichi_count() == 4) reason = R::suchareach;
      else if (v0.suufon_renda()) reason = R::sufonrenta;
      else if (v0.suukaikan()) reason = R::sukaikan;
    }
    Scores d{};
    switch (reason) {
      case R::fanpai:
      case R::nagashimangan: {
        expect(v0.live_left() == 0, "exhaustive draw with " + std::to_string(v0.live_left()) + " tiles left");
        std::array<bool, game::kNumSeats> tenpai{}, nagashi{};
        for (int s = 0; s < game::kNumSeats; ++s) {
          tenpai[ix(s)] = views_[ix(s)].tenpai();
          nagashi[ix(s)] = v0.nagashi(Seat(s));
        }
        // A tenpai hand may be kept hidden (declared noten); a noten hand can not claim tenpai.
        if (e.detailed)
          for (int s = 0; s < game::kNumSeats; ++s) {
            expect(!e.tenpais[ix(s)] || tenpai[ix(s)], "seat " + std::to_string(s) + " declares tenpai with a noten hand");
            tenpai[ix(s)] = e.tenpais[ix(s)];
          }
        d = game::exhaustive_draw_deltas(tenpai, nagashi, v0.oya());
        outcome_.exhaustive = true;
        outcome_.dealer_tenpai = tenpai[ix(v0.oya())];
        break;
      }
      case R::kyushukyuhai: {
        expect(awaiting_.valid(), "kyuushu kyuuhai out of turn");
        Event decl = e;
        decl.actor = awaiting_;
        check_decision(decl, awaiting_, report);
        outcome_.abortive = true;
        break;
      }
      case R::suchareach:
        expect(v0.riichi_count() == 4, "four-riichi draw with " + std::to_string(v0.riichi_count()) + " riichi");
        outcome_.abortive = true;
        break;
      case R::sufonrenta:
        expect(v0.suufon_renda(), "four-winds draw without four equal winds");
        outcome_.abortive = true;
        break;
      case R::sukaikan:
        expect(v0.suukaikan(), "four-kan draw without four kans by several seats");
        outcome_.abortive = true;
        break;
      case R::sanchaho:
        expect(rules_.triple_ron_draw, "triple ron draw under rules that pay it");
        outcome_.abortive = true;
        break;
      case R::unknown:
        fail("ryukyoku whose reason can not be inferred");
    }
    expect(e.deltas == d, "ryukyoku deltas " + scores_text(e.deltas) + ", engine " + scores_text(d));
    pay(d, e);
    kyoku_over_ = true;
    ++report.ryukyokus;
  }

  void end_kyoku() {
    expect(in_kyoku_ && kyoku_over_, "end_kyoku before the kyoku ended");
    in_kyoku_ = false;
    for (Track& t : tracks_) {
      t.last = t.progress;
      t.end = game::game_end(t.progress, outcome_, scores_, t.rules);
      t.over = t.end != game::GameEnd::none;
      if (t.over) continue;
      t.why_on = game::why_game_goes_on(t.progress, outcome_, scores_, t.rules);
      t.progress = *game::next_kyoku(t.progress, outcome_, scores_, kyotaku_, t.rules);
    }
  }

  // A log whose end_game the source recorded must end exactly where the rules end the game
  // (stopping early fails here, going on fails at the next start_kyoku). Logs partial by
  // construction may stop anywhere: no recorded end (tenhou.net/6 without its result), a single
  // kyoku, or a fragment that starts mid-game.
  void end_game(const Event& e) {
    expect(started_ && !in_kyoku_, "end_game inside a kyoku");
    ended_ = true;
    const Track* done = nullptr;
    for (const Track& t : tracks_)
      if (t.over && (!done || e.scores == game::final_scores(scores_, kyotaku_, t.rules))) done = &t;
    if (done) {
      // Final scores the log does not give were filled in by the reader; the rules decide them.
      if (!log_.final_scores_recorded) return;
      const Scores final = game::final_scores(scores_, kyotaku_, done->rules);
      expect(e.scores == final, "final scores " + scores_text(e.scores) + ", expected " + scores_text(final) + " (" +
                                    done->rules.name + ")");
      return;
    }
    const Track& t = tracks_.front();
    const std::string where = kyoku_count_ == 0 ? "the log has no kyoku"
                                                : "the log ends after " + kyoku_name(t.last) + ", but under the rules '" +
                                                      t.rules.name + "' the game goes on to " + kyoku_name(t.progress) +
                                                      " (" + t.why_on + ")";
    if (!log_.end_recorded || kyoku_count_ <= 1 || fragment_) {
      partial_ = "partial game: " + where;
      return;
    }
    fail("game ends too early: " + where);
  }

  // One candidate game length: the log may not say whether it was a hanchan or a tonpuusen.
  struct Track {
    game::TableRules rules;
    game::GameProgress progress;  // the next kyoku (when not over)
    bool over = false;
    game::GameProgress last;      // the kyoku that ended last
    game::GameEnd end = game::GameEnd::none;  // why the game ended after it
    std::string why_on;           // why it went on after it
  };

  const GameLog& log_;
  const game::TableRules& rules_;
  std::string name_;
  std::array<PlayerView, game::kNumSeats> views_;
  std::size_t i_ = 0;
  bool started_ = false, in_kyoku_ = false, kyoku_over_ = false, ended_ = false;
  bool fragment_ = false;  // starts mid-game: its start scores were taken as given
  int kyoku_count_ = 0;
  std::string partial_;
  std::vector<Track> tracks_;
  Scores scores_{};
  int kyotaku_ = 0;
  game::KyokuOutcome outcome_;
  Seat drawer_;    // who draws next
  Seat awaiting_;  // who must decide (after a draw or a call)
  // The kyoku's wall, when the log has one (GameLog::walls), and its name for messages.
  std::optional<game::Wall> wall_;
  std::string wall_kyoku_;
  bool rinshan_next_ = false;  // the next tsumo is a kan's rinshan draw
};

}  // namespace

std::string_view to_string(ReplayStatus s) {
  switch (s) {
    case ReplayStatus::pass: return "pass";
    case ReplayStatus::fail: return "FAIL";
    case ReplayStatus::skipped: return "skipped";
    case ReplayStatus::error: return "ERROR";
  }
  return "?";
}

namespace {

// A file's fault (guard_file) in the report's terms.
void set_fault(ReplayReport& report, const FileFault& fault) {
  report.status = fault.unsupported ? ReplayStatus::skipped : ReplayStatus::error;
  report.message = fault.message;
}

}  // namespace

ReplayReport check_game(const GameLog& log, const game::TableRules& rules, std::string_view name) {
  ReplayReport report;
  report.file = std::string(name);
  report.rules = rules.name;
  // A whole game must start as the rules start it (a fragment's scores are taken as given).
  if (const auto why = unsupported_rule(log, rules)) {
    report.status = ReplayStatus::skipped;
    report.message = std::string(name) + ": unsupported rule: " + *why;
    return report;
  }
  try {
    Checker(log, rules, name).run(report);
  } catch (const Mismatch& m) {
    report.status = ReplayStatus::fail;
    report.message = m.message;
  } catch (const std::exception& e) {
    report.status = ReplayStatus::error;
    report.message = std::string(name) + ": internal error: " + e.what();
  }
  return report;
}

ReplayReport check_file(const std::filesystem::path& file, const RulesChoice& rules) {
  ReplayReport report;
  report.file = file.string();
  GameLog log;
  if (const auto fault = guard_file(file, [&] { log = read_log(file); })) {
    set_fault(report, *fault);
    return report;
  }
  return check_game(log, rules.of(log), file.string());
}

ReplayReport verify_encoder_file(const std::filesystem::path& file, const RulesChoice& choice) {
  ReplayReport r;
  r.file = file.string();
  const auto fault = guard_file(file, [&] {
    const GameLog log = read_log(file);
    const game::TableRules& rules = choice.of(log);
    r.rules = rules.name;
    require_supported(log, rules, file.string());
    const encoder::VerifyReport v = encoder::verify_encoder(log.events, rules);
    r.events = static_cast<int>(v.events);
    r.decisions = static_cast<int>(v.decisions);
    if (!v.ok()) {
      r.status = ReplayStatus::fail;
      r.message = "encoder: " + v.failure;
    } else {
      r.message = "encoder: " + std::to_string(v.decisions) + " decision points, " + std::to_string(v.permuted) +
                  " permuted checks";
    }
  });
  if (fault) set_fault(r, *fault);
  return r;
}

}  // namespace hydra::data
