#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <map>

#include "hydra/data/mjai.hpp"
#include "hydra/data/text_file.hpp"
#include "testdata.hpp"

namespace hydra::data {
namespace {

using game::EventType;

// A temporary folder for files the tests build, removed afterwards.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("hydra_test_mjai_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

void write(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

std::string error_of(const std::filesystem::path& p) {
  try {
    read_mjai(p);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// A short Mortal-dialect game, written by hand: scores and kyotaku in start_kyoku, ura_markers,
// reach_accepted without deltas, ankan without pai.
const char* kMortalGame =
    R"({"type":"start_game","names":["a","b","c","d"]}
{"type":"start_kyoku","bakaze":"E","dora_marker":"1m","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["1m","1m","1m","1m","2m","3m","4m","5m","6m","7m","8m","9m","9m"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"]]}
{"type":"tsumo","actor":0,"pai":"E"}
{"type":"ankan","actor":0,"consumed":["1m","1m","1m","1m"]}
{"type":"tsumo","actor":0,"pai":"5pr"}
{"type":"dora","dora_marker":"2p"}
{"type":"reach","actor":0}
{"type":"dahai","actor":0,"pai":"E","tsumogiri":false}
{"type":"reach_accepted","actor":0}
{"type":"tsumo","actor":1,"pai":"?"}
{"type":"dahai","actor":1,"pai":"9m","tsumogiri":true}
{"type":"hora","actor":0,"target":1,"deltas":[3900,-2900,0,0],"ura_markers":["S"]}
{"type":"end_kyoku"}
{"type":"start_kyoku","bakaze":"E","dora_marker":"1m","kyoku":2,"honba":0,"kyotaku":0,"oya":1,"scores":[27900,22100,25000,25000],"tehais":[["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],["?","?","?","?","?","?","?","?","?","?","?","?","?"]]}
{"type":"ryukyoku","deltas":[1500,-1500,1500,-1500]}
{"type":"end_kyoku"}
{"type":"end_game"}
)";

TEST(Mjai, MortalDialectIsNormalised) {
  TempDir tmp;
  write(tmp / "g.json", kMortalGame);
  const GameLog log = read_mjai(tmp / "g.json");
  ASSERT_EQ(log.events.size(), 17u);
  EXPECT_EQ(log.names[2], "c");
  // The dora of an ankan is revealed before the rinshan tsumo (Tenhou order).
  EXPECT_EQ(log.events[3].type, EventType::ankan);
  EXPECT_TRUE(log.events[3].pai.is_unknown());
  EXPECT_EQ(log.events[4].type, EventType::dora);
  EXPECT_EQ(log.events[5].type, EventType::tsumo);
  // reach_accepted gets the stick as deltas, hora and the end get the running scores.
  EXPECT_EQ(log.events[8].deltas, (game::Scores{-1000, 0, 0, 0}));
  EXPECT_EQ(log.events[8].scores, (game::Scores{24000, 25000, 25000, 25000}));
  EXPECT_EQ(log.events[11].scores, (game::Scores{27900, 22100, 25000, 25000}));
  EXPECT_EQ(log.events[11].ura_markers.size(), 1);
  // Mortal's hora has no pai: the winning tile is the discard it takes.
  EXPECT_EQ(log.events[11].pai, game::parse_mjai("9m"));
  EXPECT_EQ(log.events[16].scores, (game::Scores{29400, 20600, 26500, 23500}));
}

// Open-kan dora written before the rinshan tsumo, or after the discard (when Tenhou shows it on
// screen), move to Tenhou's log order: after the rinshan tsumo, before the discard.
TEST(Mjai, OpenKanDoraMovesToTenhouOrder) {
  const std::string head = std::string(kMortalGame).substr(0, std::string(kMortalGame).find(R"({"type":"tsumo","actor":0,"pai":"E"})"));
  const std::string tail = R"({"type":"ryukyoku","deltas":[0,0,0,0]}
{"type":"end_kyoku"}
{"type":"end_game"}
)";
  const std::string kan = R"({"type":"tsumo","actor":0,"pai":"E"}
{"type":"dahai","actor":0,"pai":"9m","tsumogiri":false}
{"type":"daiminkan","actor":1,"target":0,"pai":"9m","consumed":["9m","9m","9m"]}
)";
  const std::string before = R"({"type":"dora","dora_marker":"3s"}
{"type":"tsumo","actor":1,"pai":"C"}
{"type":"dahai","actor":1,"pai":"C","tsumogiri":true}
)";
  const std::string after = R"({"type":"tsumo","actor":1,"pai":"C"}
{"type":"dahai","actor":1,"pai":"C","tsumogiri":true}
{"type":"dora","dora_marker":"3s"}
)";
  TempDir tmp;
  for (const std::string& body : {before, after}) {
    write(tmp / "kan.json", head + kan + body + tail);
    const GameLog log = read_mjai(tmp / "kan.json");
    ASSERT_GT(log.events.size(), 8u);
    EXPECT_EQ(log.events[4].type, EventType::daiminkan);
    EXPECT_EQ(log.events[5].type, EventType::tsumo);
    EXPECT_EQ(log.events[6].type, EventType::dora);
    EXPECT_EQ(log.events[7].type, EventType::dahai);
  }
}

// Mortal and RiichiEnv write hora without pai: a ron wins on the target's discard (or robbed
// kakan tile), a tsumo on the winner's own draw; a hora with no such tile names the line. RiichiEnv's ryukyoku
// reasons read as the Tenhou ones; its error draws (a host's penalty) are refused naming it.
TEST(Mjai, HoraWithoutPaiAndRiichiEnvReasons) {
  TempDir tmp;
  const std::string game = kMortalGame;
  const std::string ron = R"({"type":"hora","actor":0,"target":1,"deltas":[3900,-2900,0,0],"ura_markers":["S"]})";
  std::string wrong = game;
  wrong.replace(wrong.find(ron), ron.size(), R"({"type":"hora","actor":0,"target":2,"deltas":[3900,0,-2900,0],"ura_markers":["S"]})");
  write(tmp / "wrong.json", wrong);
  const std::string err = error_of(tmp / "wrong.json");
  EXPECT_NE(err.find("wrong.json:12: hora: no field 'pai' and no discard or kan of the target just before it"), std::string::npos)
      << err;

  const std::string draw = R"({"type":"ryukyoku","deltas")";
  std::string riichienv = game;
  riichienv.replace(riichienv.find(draw), draw.size(), R"({"type":"ryukyoku","reason":"exhaustive_draw","deltas")");
  write(tmp / "re.json", riichienv);
  EXPECT_EQ(read_mjai(tmp / "re.json").events[14].reason, game::RyukyokuReason::fanpai);
  for (const auto& [name, reason] : std::map<std::string, game::RyukyokuReason>{
           {"kyushu_kyuhai", game::RyukyokuReason::kyushukyuhai}, {"suucha_riichi", game::RyukyokuReason::suchareach},
           {"sufuurenta", game::RyukyokuReason::sufonrenta}, {"suukansansen", game::RyukyokuReason::sukaikan},
           {"sanchaho", game::RyukyokuReason::sanchaho}, {"nagashimangan", game::RyukyokuReason::nagashimangan}})
    EXPECT_EQ(game::parse_ryukyoku_reason(name), reason) << name;
  std::string error_draw = game;
  error_draw.replace(error_draw.find(draw), draw.size(),
                     R"({"type":"ryukyoku","reason":"Error: Illegal Action by Player 2","deltas")");
  write(tmp / "penalty.json", error_draw);
  const std::string penalty = error_of(tmp / "penalty.json");
  EXPECT_NE(penalty.find("penalty.json:15: field 'reason': ryukyoku reason 'Error: Illegal Action by Player 2': an error draw"),
            std::string::npos)
      << penalty;
}

TEST(Mjai, InconsistentScoresNameTheLine) {
  TempDir tmp;
  std::string text = kMortalGame;
  text.replace(text.find("[27900,22100"), 12, "[28000,22100");
  write(tmp / "g.json", text);
  const std::string err = error_of(tmp / "g.json");
  EXPECT_NE(err.find("g.json:14: start_kyoku: field 'scores' [28000,22100,25000,25000] disagrees"), std::string::npos) << err;
}

TEST(Mjai, CorruptInputsNameFileAndLine) {
  TempDir tmp;
  const std::string good = kMortalGame;
  const std::string gz = gzip_compress(good);

  write(tmp / "truncated.json.gz", gz.substr(0, gz.size() / 2));
  EXPECT_NE(error_of(tmp / "truncated.json.gz").find("truncated.json.gz:"), std::string::npos);
  EXPECT_NE(error_of(tmp / "truncated.json.gz").find("truncated gzip data"), std::string::npos) << error_of(tmp / "truncated.json.gz");

  std::string corrupt = gz;
  for (std::size_t i = 20; i < 60; ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
  write(tmp / "corrupt.json.gz", corrupt);
  EXPECT_NE(error_of(tmp / "corrupt.json.gz").find("corrupt.json.gz:1: "), std::string::npos) << error_of(tmp / "corrupt.json.gz");

  std::string broken = good;
  broken.replace(broken.find(R"("pai":"E"})"), 10, R"("pai":"E")");  // line 3 loses its brace
  write(tmp / "broken.json", broken);
  EXPECT_NE(error_of(tmp / "broken.json").find("broken.json:3: broken JSON"), std::string::npos) << error_of(tmp / "broken.json");

  std::string unknown = good;
  unknown.replace(unknown.find(R"("type":"reach","actor":0)"), 14, R"("type":"riichi")");
  write(tmp / "unknown.json", unknown);
  EXPECT_NE(error_of(tmp / "unknown.json").find("unknown.json:7: field 'type': unknown event type 'riichi'"), std::string::npos)
      << error_of(tmp / "unknown.json");

  std::string bad_tile = good;
  bad_tile.replace(bad_tile.find(R"("pai":"5pr")"), 11, R"("pai":"0p")");
  write(tmp / "tile.json", bad_tile);
  EXPECT_NE(error_of(tmp / "tile.json").find("tile.json:5: field 'pai': unknown mjai tile '0p'"), std::string::npos) << error_of(tmp / "tile.json");

  write(tmp / "cut.json", good.substr(0, good.find(R"({"type":"end_kyoku"})")));
  EXPECT_NE(error_of(tmp / "cut.json").find("truncated log"), std::string::npos) << error_of(tmp / "cut.json");

  EXPECT_NE(error_of(tmp / "missing.json").find("missing.json: cannot open"), std::string::npos);
  write(tmp / "empty.json", "");
  EXPECT_NE(error_of(tmp / "empty.json").find("empty.json: empty file"), std::string::npos) << error_of(tmp / "empty.json");
}

// Hydra's search notes ("meta": {"search": ...}) are read onto their event; another "meta" (Mortal
// writes its q-values there) is not; a bad note names the file, line and field.
TEST(Mjai, SearchNotesAreReadAndBadOnesNamed) {
  TempDir tmp;
  const std::string line = R"({"type":"dahai","actor":1,"pai":"9m","tsumogiri":true})";
  const auto with_meta = [&](const std::string& meta) {
    std::string text = kMortalGame;
    text.replace(text.find(line), line.size(), line.substr(0, line.size() - 1) + R"(,"meta":)" + meta + "}");
    return text;
  };
  const GameLog mortal = parse_mjai_text(with_meta(R"({"q_values":[1.5,2],"mask_bits":3})"), "m");
  EXPECT_TRUE(mortal.searches.empty());
  const GameLog noted = parse_mjai_text(with_meta(R"({"search":{"actions":[8,0],"values":[0.5,-0.25],"deals":32}})"), "n");
  ASSERT_EQ(noted.searches.size(), 1U);
  EXPECT_EQ(noted.searches[0].event, 10U);  // line 11
  EXPECT_EQ(noted.searches[0].actions, (std::vector<int>{8, 0}));
  EXPECT_EQ(noted.searches[0].values, (std::vector<float>{0.5F, -0.25F}));
  EXPECT_EQ(noted.searches[0].deals, 32);
  EXPECT_EQ(parse_mjai_text(to_mjai_text(noted), "again").searches[0].values, noted.searches[0].values);
  const std::map<std::string, std::string> bad = {
      {R"({"search":{"actions":[8],"values":[0.5],"deals":32}})", "field 'meta.search.actions': 1 candidates, not 2..8"},
      {R"({"search":{"actions":[8,46],"values":[0.5,1],"deals":32}})", "field 'meta.search.actions': 46 is outside 0..45"},
      {R"({"search":{"actions":[8,8],"values":[0.5,1],"deals":32}})", "field 'meta.search.actions': action 8 twice"},
      {R"({"search":{"actions":[8,0],"values":[0.5],"deals":32}})", "field 'meta.search.values': 1 values for 2 actions"},
      {R"({"search":{"actions":[8,0],"values":[0.5,"x"],"deals":32}})", "field 'meta.search.values': expected a number"},
      {R"({"search":{"actions":[8,0],"values":[0.5,1e39],"deals":32}})", "field 'meta.search.values': expected a number within a float's range"},
      {R"({"search":{"actions":[8,0],"values":[0.5,1]}})", "field 'deals': missing"},
      {R"({"search":[1,2]})", "field 'meta.search': expected an object"},
  };
  for (const auto& [meta, message] : bad) {
    write(tmp / "bad.json", with_meta(meta));
    const std::string err = error_of(tmp / "bad.json");
    EXPECT_NE(err.find("bad.json:11: " + message), std::string::npos) << meta << " -> " << err;
  }
}

// The writer writes a value as its float's shortest decimal, read back to the same float, and
// refuses a note the reader would refuse or that is out of event order, naming the note.
TEST(Mjai, SearchNotesAreWrittenShortAndBadOnesRefused) {
  GameLog log = parse_mjai_text(kMortalGame, "g");
  ASSERT_GT(log.events.size(), 12U);
  log.searches = {SearchNote{10, {8, 0}, {0.1F, -0.3F}, 32}, SearchNote{12, {3, 5}, {1.0F / 3.0F, 2.5e-7F}, 64}};
  const std::string text = to_mjai_text(log);
  EXPECT_NE(text.find(R"("values":[0.1,-0.3],"deals":32)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("values":[0.33333334,2.5e-07],"deals":64)"), std::string::npos) << text;
  const GameLog again = parse_mjai_text(text, "again");
  ASSERT_EQ(again.searches.size(), 2U);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(again.searches[k].event, log.searches[k].event);
    EXPECT_EQ(again.searches[k].values, log.searches[k].values);  // the same floats, bit for bit
  }
  const auto refusal = [&](std::vector<SearchNote> notes) {
    GameLog bad = log;
    bad.searches = std::move(notes);
    try {
      to_mjai_text(bad);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const SearchNote good{10, {8, 0}, {0.5F, 1.0F}, 32};
  const std::size_t past = log.events.size();
  EXPECT_EQ(refusal({SearchNote{12, {8, 0}, {0.5F, 1.0F}, 32}, good}),
            "search note 1 (on event 10): not after the previous note's event (one note to an event, in event order)");
  EXPECT_EQ(refusal({good, good}),
            "search note 1 (on event 10): not after the previous note's event (one note to an event, in event order)");
  EXPECT_EQ(refusal({SearchNote{past, {8, 0}, {0.5F, 1.0F}, 32}}),
            "search note 0 (on event " + std::to_string(past) + "): past the log's " + std::to_string(past) + " events");
  EXPECT_EQ(refusal({SearchNote{10, {8}, {0.5F}, 32}}),
            "search note 0 (on event 10): field 'meta.search.actions': 1 candidates, not 2..8");
  EXPECT_EQ(refusal({SearchNote{10, {8, 0}, {0.5F, 1.0F}, 0}}),
            "search note 0 (on event 10): field 'meta.search.deals': 0 is outside 1..2147483647");
  EXPECT_EQ(refusal({SearchNote{10, {8, 0}, {0.5F, std::numeric_limits<float>::infinity()}, 32}}).substr(0, 55),
            "search note 0 (on event 10): field 'meta.search.values'");
}

// Every gimite file reads, and writing it in the Mortal dialect (gzipped and plain) and reading
// it back gives the same events.
TEST(Mjai, RealLogsRoundTripThroughTheMortalDialect) {
  HYDRA_REQUIRE_TESTDATA(dir, "mjai");
  TempDir tmp;
  int files = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(f.path().string());
    const GameLog log = read_mjai(f.path());
    for (const char* ext : {".json.gz", ".json"}) {
      const auto out = tmp / ("out" + std::string(ext));
      write_mjai(out, log);
      const auto diff = first_difference(log, read_mjai(out));
      EXPECT_FALSE(diff) << *diff;
    }
    // The gimite scores were checked against the deltas while reading; the last ones are final.
    EXPECT_EQ(log.events.back().type, EventType::end_game);
    ++files;
  }
  EXPECT_EQ(files, 34);
}

// mjai carries no rule flags: games under other rules either read and are flagged by their start
// scores, or fail the score check with a message naming file and line (gimite wrote 25,000-based
// scores into reach_accepted of a 30,000-start game). The chip and ratio1 games look like
// ordinary 25,000 games in mjai and read as such.
TEST(Mjai, OtherRulesAreReadOrRejectedWithAReason) {
  HYDRA_REQUIRE_TESTDATA(dir, "other_rules/mjai");
  int files = 0, refused = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(f.path().string());
    ++files;
    try {
      const GameLog log = read_mjai(f.path());
      if (const auto why = unsupported_rule(log, game::rules_preset("tenhou"))) {
        EXPECT_NE(why->find("start scores"), std::string::npos) << *why;
        ++refused;
      }
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(f.path().string() + ":"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("field 'scores'"), std::string::npos) << e.what();
      ++refused;
    }
  }
  EXPECT_EQ(files, 5);
  EXPECT_EQ(refused, 3);  // ratio and sanma (1,000 start), newattr2023 (30,000 start)
}

}  // namespace
}  // namespace hydra::data
