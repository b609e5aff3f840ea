// hydra review GAME --model CKPT [--seat N|all] [--kyoku K] --out review.html [--json FILE]
//              [--device D] [--rules NAME]
// A model's view of every decision of one game (docs/REVIEW.md): the log (any format hydra
// reads) replayed through the chosen seats' views, each decision scored by the checkpoint agent
// of `hydra eval` (review/review.hpp), written as one self-contained HTML page. Everything the
// user can get wrong (the files, the flags, the kyoku) is checked before LibTorch is loaded and
// before anything is written; the page is written atomically. A one-line summary goes to stdout,
// progress to stderr.

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "agent_flags.hpp"
#include "command_threads.hpp"
#include "commands.hpp"
#include "flag_checks.hpp"
#include "hydra/common/atomic_file.hpp"
#include "hydra/common/error.hpp"
#include "hydra/common/json.hpp"
#include "hydra/common/log.hpp"
#include "hydra/data/convert.hpp"
#include "hydra/review/review.hpp"
#include "hydra/selfplay/bots.hpp"
#include "hydra/selfplay/search.hpp"
#include "hydra/selfplay/model_agent.hpp"
#include "torch_side.hpp"

namespace hydra::apps {
namespace {

namespace fs = std::filesystem;

struct ReviewFlags {
  std::string game;
  std::string model;
  std::string seat = "all";
  std::optional<int> kyoku;
  std::string out;
  std::string json;
  std::string device = "cpu";
  std::string rules = "tenhou";
};

// An output file's folder must exist and be writable (checked before the work, so a long review
// does not end in an error; write_file_atomic still reports whatever goes wrong later).
void check_writable(const std::string& flag, const std::string& file) {
  const fs::path p(file);
  if (fs::is_directory(p)) throw Error(flag + ": '" + file + "' is a directory, not a file");
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir)) throw Error(flag + ": cannot write '" + file + "': folder '" + dir.string() + "' does not exist");
  if (access(dir.c_str(), W_OK) != 0) throw Error(flag + ": cannot write '" + file + "': folder '" + dir.string() + "' is not writable");
}

std::vector<int> parse_seats(const std::string& s) {
  if (s == "all") return {0, 1, 2, 3};
  if (s.size() == 1 && s[0] >= '0' && s[0] <= '3') return {s[0] - '0'};
  throw Error("--seat: must be 0, 1, 2, 3 or all, got '" + s + "'");
}

void run_review(const ReviewFlags& f) {
  const auto t0 = std::chrono::steady_clock::now();
  review::Options options;
  options.seats = parse_seats(f.seat);
  check_writable("--out", f.out);
  if (!f.json.empty()) check_writable("--json", f.json);
  if (selfplay::is_bot_name(f.model))
    throw Error("--model: '" + f.model + "' is a built-in bot; a review needs a checkpoint file");
  // search:CKPT[:...]: CKPT's probabilities, and beside them what its search plays.
  const bool search = selfplay::is_search_name(f.model);
  const std::string checkpoint = search ? selfplay::parse_search_name(f.model).checkpoint : f.model;
  if (!fs::is_regular_file(checkpoint)) throw Error("--model: no checkpoint file '" + checkpoint + "'");
  const game::TableRules& rules = game::table_rules(f.rules);
  if (!fs::exists(f.game)) throw Error("'" + f.game + "': no such game file");
  if (fs::is_directory(f.game)) throw Error("'" + f.game + "' is a directory; a review takes one game file");
  const data::GameLog log = data::read_log(f.game);
  data::require_supported(log, rules, f.game);
  if (f.kyoku) {
    const int n = review::kyoku_count(log);
    if (*f.kyoku < 1 || *f.kyoku > n)
      throw Error("--kyoku " + std::to_string(*f.kyoku) + ": '" + f.game + "' has " + std::to_string(n) +
                  " kyoku, numbered 1 to " + std::to_string(n));
    options.kyoku = *f.kyoku - 1;
  }
  // The model: LibTorch from here on (hydra re-executes hydra-torch, which checks the above again).
  torch_side::require();
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  const auto t_load = std::chrono::steady_clock::now();
  // One thread: a batch of a few hundred rows gains little from more on the CPU, and on a loaded
  // machine torch's waiting threads cost several times the work (command_threads.hpp).
  const CommandThreads threads(1);
  const auto policy = torch_side::load().policy_loader(checkpoint, f.device, false);
  log::info("review: {} with checkpoint {} (step {}) on {}, loaded in {:.2f} s", f.game, checkpoint, policy->version(),
            f.device, since(t_load));
  std::optional<selfplay::ModelAgents> agents;
  if (search) {
    // The search's own checkpoint is the policy loaded above; another (a continuation) loads.
    selfplay::PolicyLoader loader = [policy, checkpoint, load = torch_side::load().policy_loader](
                                        const std::string& path, const std::string& device, bool cpu_bf16) {
      return path == checkpoint && !cpu_bf16 ? policy : load(path, device, cpu_bf16);
    };
    agents.emplace(f.device, rules, selfplay::ModelAgentOptions{}, std::move(loader), torch_side::load().reward_loader);
    (void)agents->make(f.model);  // its options and checkpoints are checked before the review starts
    options.searcher = [&agents, &f] {
      std::unique_ptr<game::Agent> a = agents->make(f.model);
      auto* s = dynamic_cast<selfplay::SearchAgent*>(a.get());
      HYDRA_CHECK(s != nullptr, "review: a search name made another agent");
      (void)a.release();
      return std::unique_ptr<selfplay::SearchAgent>(s);
    };
  }
  const auto t_score = std::chrono::steady_clock::now();
  review::Review r = review::review_game(log, f.game, rules, *policy, options);
  log::info("review: {} decisions replayed and scored in {:.2f} s", r.decisions.size(), since(t_score));
  r.model = f.model;
  if (agents) log_searches(*agents, since(t_score));
  r.model_step = policy->version();
  const std::string page = review::render_page(r);
  if (!f.json.empty()) write_file_atomic(f.json, json::dump(review::review_json(r), 1) + "\n", Durability::rename_only);
  write_file_atomic(f.out, page, Durability::rename_only);
  const review::Summary s = review::summarize(r);
  const double seconds = since(t0);
  std::cout << fmt::format("review: {} decisions, agreement {:.1f}%, {} ({:.0f} KB) in {:.1f} s\n", s.decisions,
                           100.0 * s.agreement(), f.out, static_cast<double>(page.size()) / 1024.0, seconds);
}

}  // namespace

void register_review(CLI::App& app) {
  auto f = std::make_shared<ReviewFlags>();
  CLI::App* cmd = app.add_subcommand("review", "a web page with a model's view of every decision of a game (docs/REVIEW.md)");
  cmd->add_option("game", f->game, "the game: a Tenhou XML, tenhou.net/6 or mjai log")->required();
  cmd->add_option("--model", f->model, "the checkpoint (hydra_net) whose decisions are shown; search:CKPT[:KEY=VALUE...] also shows what its search plays (docs/REVIEW.md)")->required();
  cmd->add_option("--seat", f->seat, "the seat to review: 0-3 or all")->capture_default_str();
  cmd->add_option("--kyoku", f->kyoku, "review only this kyoku (1 = the game's first)");
  cmd->add_option("--out", f->out, "the HTML page to write")->required();
  cmd->add_option("--json", f->json, "also write the reviewed decisions as JSON");
  cmd->add_option("--device", f->device, "device of the model: cpu, cuda or auto")->capture_default_str();
  cmd->add_option("--rules", f->rules, std::string("the rules the game is replayed under: ") + kRulesHelp)->capture_default_str();
  cmd->callback([f] { run_review(*f); });
}

}  // namespace hydra::apps
