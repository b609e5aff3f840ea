#pragma once

// `hydra review` (docs/REVIEW.md): a model's view of every decision of one game.
//
// review_game() finds the decisions with the pretraining sample extractor (data::extract_samples:
// every point where a seat had a choice, labelled with what the log says it did, forced moves
// left out) and scores them through a selfplay::ModelAgent of each reviewed seat, fed with the
// game's events exactly as `hydra eval` feeds it: prepare() writes the observation, score context
// and legal mask of each decision into one batch, the policy evaluates the batch, finish() picks
// the agent's action (greedy: the argmax of the masked policy, ties to the lowest action index).
// So the top action shown for a decision is what the checkpoint agent plays there.
//
// Torch-free: the caller supplies the policy (apps/ loads a checkpoint through
// torch_side::load().policy_loader, the loader of `hydra eval`; tests use LinearTestPolicy).

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "hydra/data/game_log.hpp"
#include "hydra/game/rules.hpp"
#include "hydra/selfplay/policy.hpp"
#include "hydra/selfplay/search.hpp"

namespace hydra::review {

// One tile of a river as the seat saw it.
struct RiverTile {
  std::string pai;  // mjai name ("5mr", "E")
  bool tsumogiri = false;
  bool riichi = false;  // the riichi declaration tile (drawn sideways)
  bool called = false;  // taken by another seat's call
};

struct ShownMeld {
  std::string kind;                // chi, pon, daiminkan, kakan, ankan
  std::vector<std::string> tiles;  // faces, lowest first
  std::string called;              // the called tile (empty for ankan)
  int from = 0;                    // relative seat it came from: 1 shimocha, 2 toimen, 3 kamicha
};

// The table as the deciding seat saw it when the decision opened.
struct Table {
  std::string bakaze;  // round wind: E, S, W, N
  int kyoku = 1;       // 1-4 within the round wind
  int honba = 0;
  int kyotaku = 0;     // riichi sticks on the table
  int oya = 0;         // dealer seat
  int live_left = 0;   // tiles left in the live wall
  std::array<int, 4> scores{};
  std::vector<std::string> hand;  // closed tiles in tile order, the just-drawn tile excluded
  std::string drawn;              // the tile just drawn (own turn after a draw), else empty
  std::array<std::vector<RiverTile>, 4> rivers;
  std::array<std::vector<ShownMeld>, 4> melds;
  std::array<bool, 4> riichi{};   // declared riichi (accepted or pending)
  std::vector<std::string> dora;  // dora indicators
  std::string offered;            // the tile a response answers (another seat's discard or kan)
  int offered_by = -1;            // its seat, -1 for the seat's own turn
};

struct Choice {
  int action = 0;     // 0-45 (a kan-select decision: the tile type 0-33)
  std::string label;  // "discard 5m", "riichi", "chi 3m4m", "pass", ...
  float prob = 0;
};

struct Decision {
  int seat = 0;
  int kyoku = 0;        // index into Review::kyoku
  int event = 0;        // 1-based position of the event that answered it in the game's events
  int turn = 0;         // the seat's discards in this kyoku so far, plus one on its own turn
  std::string phase;    // turn, riichi_discard, kan_select, response, chankan
  bool kan_select = false;
  Table table;
  int taken = 0;        // the logged action
  std::string taken_label;
  float taken_prob = 0;
  int agent = 0;        // the checkpoint agent's action (greedy), always choices[0].action
  std::vector<Choice> choices;  // every legal action, most probable first (ties: lower action)
  float value = 0;      // the value head's estimate for the deciding seat
  // With a search (Options::searcher), where it searched: what it played and each candidate's
  // mean reward over its play-outs (docs/EVAL.md "Search at decision time"), most likely first.
  struct Searched {
    int action = 0;
    std::string label;
    std::vector<std::pair<int, double>> values;  // (action, mean reward)
  };
  std::optional<Searched> search;
};

struct Kyoku {
  std::string label;  // "E1-0": round wind, kyoku, honba
  std::array<int, 4> scores{};  // at its start
  std::string result;           // "hora by 2 (ron from 0, 8000)", "ryukyoku", ...
};

struct Review {
  std::string game;   // the log's name as given
  std::array<std::string, 4> names;
  std::string model;  // the checkpoint as named
  std::int64_t model_step = 0;
  std::vector<int> seats;  // reviewed seats
  std::vector<Kyoku> kyoku;
  std::array<int, 4> final_scores{};
  std::array<float, 4> final_points{};  // rules.uma_train of each seat's final rank
  std::vector<Decision> decisions;      // in game order
};

struct Options {
  std::vector<int> seats = {0, 1, 2, 3};
  std::optional<int> kyoku;  // 0-based index of the only kyoku to review
  int batch = 256;           // decisions per evaluate() call
  // A search agent of the model (`hydra review --model search:CKPT...`), one per reviewed seat:
  // each is fed the game's events and asked at every decision, after the model's batch.
  std::function<std::unique_ptr<selfplay::SearchAgent>()> searcher;
};

// Every decision of the chosen seats (and kyoku), scored by `policy`. Throws hydra::Error naming
// `name` for a log that does not replay, rules the engine does not play, or a kyoku index past
// the game's (the message gives the number of kyoku).
Review review_game(const data::GameLog& log, std::string_view name, const game::TableRules& rules,
                   selfplay::BatchPolicy& policy, const Options& options = {});

// The number of kyoku in a game (start_kyoku events).
int kyoku_count(const data::GameLog& log);

// Label of an action of a decision ("discard 5mr", "chi 3m4m", "kan 5m", "pass"); `kan_select`:
// the action is a tile type of the kan-select decision.
std::string action_label(int action, bool kan_select);

// Agreement and the value head, for the summary (and the one-line report).
struct Summary {
  int decisions = 0;
  int agreed = 0;  // taken == agent
  double agreement() const { return decisions > 0 ? static_cast<double>(agreed) / decisions : 0.0; }
};
Summary summarize(const Review& r);

// The data the page embeds: the review, its summary (agreement overall and per seat, the ten
// largest disagreements, the value at each seat's first decision of every kyoku) and every
// decision, probabilities and values rounded to 4 decimals (also `hydra review --json`).
nlohmann::ordered_json review_json(const Review& r);

// JSON text (common/json.hpp's UTF-8-safe writer) that is safe inside a <script> element: every
// '<' is written \u003c, so neither "</script>" nor "<!--" can appear.
std::string script_json(const nlohmann::ordered_json& j);

// The page: one self-contained HTML document (inline CSS, script and SVG tiles, no network).
std::string render_page(const Review& r);

}  // namespace hydra::review
