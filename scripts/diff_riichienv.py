#!/usr/bin/env python3
"""Differential test of Hydra's engine against RiichiEnv (PyPI `riichienv==0.4.11`, Tenhou rules).

Two directions, each a subcommand (`all` runs both):

  hydra      Hydra's own games stepped through a live RiichiEnv on the same walls. `hydra selfplay`
             plays --games hanchan per agent set (random: bot:random x4; greedy: bot:greedy x4;
             mixed: greedy, random, greedy, random) and writes gzipped mjai logs; --logs takes
             logs written before. Every log names its master seed and game index
             (`start_game.uri`, hydra-selfplay:seed=S:game=G), so each kyoku's wall is rebuilt with
             the independent Python reference of docs/WALL.md (tests/game/data/make_walls_golden.py)
             and dealt to RiichiEnv with `reset(wall=...)` (the tile order mapped below). Each
             player action of the log is then played as RiichiEnv's own legal action (a move it does
             not list is a disagreement), the other responders pass, and at the end of every kyoku
             the events RiichiEnv wrote (deal, draws, discards, calls, riichi, dora, hora with its
             deltas and ura indicators, ryukyoku with its reason and deltas) must equal Hydra's;
             RiichiEnv's own choice of the next kyoku (round, dealer, honba, sticks, scores) must
             equal Hydra's next start_kyoku, and it must end the game where Hydra's log ends, with
             the same final scores. RiichiEnv's MjaiReplay is not used: it rebuilds ankan wins
             wrongly, and stepping the env checks its legality at every decision.
  riichienv  RiichiEnv's own hanchan (--games, seeded agents in Python: wins whenever offered,
             riichi when offered, discards by shanten with random ties, random calls) written as
             mjai logs and checked by `hydra replay --check`.

Tile order (both use Tenhou tile ids, red fives 16, 52, 88, and deal 4-4-4-1 from the dealer):
RiichiEnv's reset(wall=L) draws L[52], L[53], ... and takes rinshan tiles from L[135] down, dora
indicators L[131], L[129], ..., ura indicators L[130], L[128], ...; Hydra's wall H draws H[52]..,
rinshan H[122..125], dora H[126], H[128], ..., ura H[127], H[129], ... (docs/WALL.md). So
L[0..121] = H[0..121], L[135 - k] = H[122 + k], L[131 - 2k] = H[126 + 2k], L[130 - 2k] = H[127 + 2k].

    scripts/diff_riichienv.py all [--games-hydra 1000] [--games-riichienv 2000] [--seed S] [--work DIR]
    scripts/diff_riichienv.py hydra [--agents random,greedy,mixed] [--games N] [--logs DIR ...]
    scripts/diff_riichienv.py riichienv [--games N] [--seed S] [--riichienv-logs DIR]

Exit 0 only when nothing disagreed. The package is pinned and lives in its own virtual
environment under ~/.cache/hydra/riichienv-venv (scripts/pinned_venv.py).
"""

import argparse
import collections
import glob
import gzip
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import traceback

import pinned_venv

RIICHIENV_VERSION = "0.4.11"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AGENT_SETS = {
    "random": "bot:random,bot:random,bot:random,bot:random",
    "greedy": "bot:greedy,bot:greedy,bot:greedy,bot:greedy",
    "mixed": "bot:greedy,bot:random,bot:greedy,bot:random",
}
WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
# RiichiEnv's ryukyoku reasons and Hydra's (Tenhou's) names of the same draws.
REASONS = {
    "exhaustive_draw": "fanpai", "kyushu_kyuhai": "kyushukyuhai", "sufuurenta": "sufonrenta",
    "suukansansen": "sukaikan", "suucha_riichi": "suchareach", "sanchaho": "sanchaho",
    "nagashi_mangan": "nagashimangan",
}


def load_wall_reference():
    path = os.path.join(ROOT, "tests", "game", "data", "make_walls_golden.py")
    spec = importlib.util.spec_from_file_location("make_walls_golden", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.wall


def env_wall(h):
    """Hydra's wall (docs/WALL.md order) as the list RiichiEnv's reset(wall=...) takes."""
    w = list(h[:122]) + [None] * 14
    for k in range(4):
        w[135 - k] = h[122 + k]
    for k in range(5):
        w[131 - 2 * k] = h[126 + 2 * k]
        w[130 - 2 * k] = h[127 + 2 * k]
    assert sorted(w) == list(range(136))
    return w


class Disagreement(Exception):
    def __init__(self, kind, where, detail):
        super().__init__(f"{kind} at {where}: {detail}")
        self.kind, self.where, self.detail = kind, where, detail


def short(path):
    """A log's name with its folder (the agent set), as reports name it."""
    parts = os.path.normpath(path).split(os.sep)
    return os.path.join(*parts[-3:]) if len(parts) >= 3 else path


def kyoku_name(sk):
    return f"{sk['bakaze']}{sk['kyoku']}-{sk['honba']}"


def norm(e):
    """An event as the tuple both engines must agree on (None: not compared in sequence)."""
    t = e["type"]
    if t == "start_kyoku":
        return (t, e["bakaze"], e["kyoku"], e["honba"], e["kyotaku"], e["oya"], tuple(e["scores"]),
                tuple(tuple(sorted(h)) for h in e["tehais"]), e["dora_marker"])
    if t == "tsumo":
        return (t, e["actor"], e["pai"])
    if t == "dahai":
        return (t, e["actor"], e["pai"], e["tsumogiri"])
    if t in ("chi", "pon", "daiminkan"):
        return (t, e["actor"], e["target"], e["pai"], tuple(sorted(e["consumed"])))
    if t == "kakan":
        return (t, e["actor"], e["pai"], tuple(sorted(e["consumed"])))
    if t == "ankan":
        return (t, e["actor"], tuple(sorted(e["consumed"])))
    if t in ("reach", "reach_accepted"):
        return (t, e["actor"])
    if t == "hora":
        return (t, e["actor"], e["target"], tuple(e["deltas"]), tuple(e.get("ura_markers") or ()))
    if t == "ryukyoku":
        reason = e.get("reason")
        return (t, REASONS.get(reason, reason), tuple(e["deltas"]))
    return None  # start_game, end_kyoku, dora (compared as a list), end_game


def compare_kyoku(hydra_events, env_events, where):
    """Hydra's events of one kyoku (start_kyoku .. end_kyoku) against RiichiEnv's."""
    h = [norm(e) for e in hydra_events if norm(e) is not None]
    r = [norm(e) for e in env_events if norm(e) is not None]
    # Riichi sticks: RiichiEnv's hora and ryukyoku deltas carry no stick of a riichi declared in
    # this kyoku that Hydra's deltas do not carry either; both write the stick in reach_accepted.
    for i, (a, b) in enumerate(zip(h, r)):
        if a != b:
            raise Disagreement("event", f"{where}, event {i}", f"hydra {a} / riichienv {b}")
    if len(h) != len(r):
        extra = h[len(r):] if len(h) > len(r) else r[len(h):]
        who = "hydra" if len(h) > len(r) else "riichienv"
        raise Disagreement("event", f"{where}, event {min(len(h), len(r))}", f"only {who} goes on: {extra[:3]}")
    hd = [e["dora_marker"] for e in hydra_events if e["type"] == "dora"]
    rd = [e["dora_marker"] for e in env_events if e["type"] == "dora"]
    if hd != rd:
        raise Disagreement("dora", where, f"hydra {hd} / riichienv {rd}")


class Stepper:
    """Plays one of Hydra's logs through a live RiichiEnv."""

    def __init__(self, riichienv, wall_of):
        self.rie = riichienv
        self.wall_of = wall_of
        self.stats = collections.Counter()

    def action_for(self, obs, env, e):
        """RiichiEnv's legal action for Hydra's event e, or None."""
        legal = obs.legal_actions()
        t = e["type"]
        want = {"dahai": "DISCARD", "reach": "RIICHI", "chi": "CHI", "pon": "PON", "daiminkan": "DAIMINKAN",
                "kakan": "KAKAN", "ankan": "ANKAN", "ryukyoku": "KYUSHU_KYUHAI", "none": "PASS"}.get(t)
        if t == "hora":
            want = "TSUMO" if e["actor"] == e["target"] else "RON"
        cands = []
        for a in legal:
            if str(a.action_type).split(".")[-1].upper() != want:
                continue
            m = json.loads(a.to_mjai())
            if t == "dahai":
                if m["pai"] != e["pai"]:
                    continue
                drawn = env.drawn_tile
                is_drawn = drawn is not None and a.tile == drawn
                cands.append((0 if is_drawn == e["tsumogiri"] else 1, a))
                continue
            if t in ("chi", "pon", "daiminkan", "kakan") and m.get("pai") != e["pai"]:
                continue
            if t in ("chi", "pon", "daiminkan", "kakan", "ankan"):
                if sorted(m.get("consumed", [])) != sorted(e["consumed"]):
                    continue
            cands.append((0, a))
        if not cands:
            return None
        return min(cands, key=lambda c: c[0])[1]

    def play(self, path):
        with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
            events = [json.loads(line) for line in f if line.strip()]
        m = re.match(r"hydra-(?:selfplay|eval):seed=(\d+):game=(\d+)", events[0].get("uri", ""))
        if not m:
            raise SystemExit(f"{path}: start_game has no hydra-selfplay uri with the seed and game index")
        seed, game = int(m.group(1)), int(m.group(2))
        kyokus, cur = [], None
        for e in events[1:]:
            if e["type"] == "start_kyoku":
                cur = [e]
                kyokus.append(cur)
            elif e["type"] == "end_game":
                end_game = e
            elif cur is not None:
                cur.append(e)
        env = self.rie.RiichiEnv(game_mode="4p-red-half", rule=self.rie.GameRule.default_tenhou())
        expected = None  # RiichiEnv's own start_kyoku for the next kyoku
        for n, ky in enumerate(kyokus):
            sk = ky[0]
            where = f"{short(path)} {kyoku_name(sk)}"
            if expected is not None:
                mine = {k: sk[k] for k in ("bakaze", "kyoku", "honba", "kyotaku", "oya", "scores")}
                theirs = {k: expected[k] for k in mine}
                if mine != theirs:
                    raise Disagreement("next kyoku", where, f"hydra starts {mine} / riichienv {theirs}")
            kyoku_index = WINDS[sk["bakaze"]] * 4 + sk["kyoku"] - 1
            wall = env_wall(self.wall_of(seed, game, kyoku_index, sk["honba"]))
            obs = env.reset(oya=sk["oya"], wall=wall, round_wind=WINDS[sk["bakaze"]], scores=sk["scores"],
                            honba=sk["honba"], kyotaku=sk["kyotaku"])
            self.step_kyoku(env, obs, ky, where)
            log = env.mjai_log
            end = next(i for i, e in enumerate(log) if e["type"] == "end_kyoku")
            compare_kyoku(ky, log[1:end + 1], where)
            self.stats["kyoku"] += 1
            horas = [e for e in ky if e["type"] == "hora"]
            self.stats["hora"] += len(horas)
            self.stats["double_ron"] += len(horas) == 2
            self.stats["triple_ron"] += len(horas) == 3
            self.stats["ryukyoku"] += any(e["type"] == "ryukyoku" for e in ky)
            nxt = [e for e in log[end + 1:] if e["type"] == "start_kyoku"]
            if env.done():
                if n + 1 != len(kyokus):
                    raise Disagreement("game end", where, "riichienv ends the game here, hydra plays on")
            else:
                if n + 1 == len(kyokus):
                    raise Disagreement("game end", where, f"hydra ends the game here, riichienv plays on ({kyoku_name(nxt[0])})")
                expected = nxt[0]
        final = env.scores()
        if final != end_game["scores"]:
            # The end-game scores: Hydra gives leftover riichi sticks to the top (docs/RULES.md).
            raise Disagreement("final scores", short(path),
                               f"hydra {end_game['scores']} / riichienv {final} (sticks left {env.riichi_sticks})")
        self.stats["games"] += 1

    def step_kyoku(self, env, obs, ky, where):
        acts, drawer = [], None
        for e in ky[1:]:
            if e["type"] == "tsumo":
                drawer = e["actor"]
            if e["type"] in ("dahai", "reach", "chi", "pon", "daiminkan", "kakan", "ankan", "hora"):
                acts.append(e)
            elif e["type"] == "ryukyoku" and e.get("reason") == "kyushukyuhai":
                acts.append(dict(e, actor=drawer))  # the log names no actor: the seat that just drew
        key = (env.round_wind, env.oya, env.honba)
        k = 0
        steps = 0
        while True:
            if env.done() or (env.round_wind, env.oya, env.honba) != key:
                break
            steps += 1
            if steps > 2000:
                raise Disagreement("stuck", where, "riichienv never ends the kyoku")
            if not obs:
                raise Disagreement("stuck", where, "riichienv waits for no player")
            nxt = acts[k] if k < len(acts) else None
            actions = {}
            if int(env.phase) == 0:  # WaitAct: the current player's own move
                (p,) = obs.keys()
                if nxt is None:
                    raise Disagreement("kyoku end", where, f"riichienv asks seat {p} to move, hydra's kyoku is over")
                if nxt["actor"] != p:
                    raise Disagreement("turn", where, f"riichienv asks seat {p}, hydra's next move is {nxt}")
                a = self.action_for(obs[p], env, nxt)
                if a is None:
                    raise Disagreement("illegal in riichienv", where,
                                       f"{nxt}; riichienv lists {[x.to_mjai() for x in obs[p].legal_actions()]}")
                actions[p] = a
                k += 1
                self.stats["decisions"] += 1
            else:  # WaitResponse: every responder answers; those without a logged call pass
                taken = {}
                # One call, or one or more ron on the same tile (double ron).
                while nxt is not None and (nxt["type"] in ("chi", "pon", "daiminkan")
                                           or (nxt["type"] == "hora" and nxt["actor"] != nxt["target"])):
                    if taken and (nxt["type"] != "hora" or any(t["type"] != "hora" for t in taken.values())):
                        break
                    if nxt["actor"] not in obs:
                        raise Disagreement("not offered by riichienv", where,
                                           f"{nxt}; riichienv asks {sorted(obs.keys())}")
                    taken[nxt["actor"]] = nxt
                    k += 1
                    nxt = acts[k] if k < len(acts) else None
                for p, o in obs.items():
                    e = taken.get(p, {"type": "none"})
                    a = self.action_for(o, env, e)
                    if a is None:
                        raise Disagreement("illegal in riichienv", where,
                                           f"seat {p}: {e}; riichienv lists {[x.to_mjai() for x in o.legal_actions()]}")
                    actions[p] = a
                    self.stats["decisions"] += 1
            obs = env.step(actions)
        if k != len(acts):
            raise Disagreement("kyoku end", where, f"riichienv ends the kyoku, hydra goes on with {acts[k]}")


# ---------------------------------------------------------------------------------------------

def run_hydra(a, logs):
    import riichienv

    stepper = Stepper(riichienv, load_wall_reference())
    problems = []
    t0 = time.time()
    for i, path in enumerate(logs):
        try:
            stepper.play(path)
        except Disagreement as d:
            problems.append({"file": path, "kind": d.kind, "where": d.where, "detail": d.detail})
        except Exception as e:  # a log this script cannot follow is reported, not skipped
            problems.append({"file": path, "kind": "harness", "where": short(path),
                             "detail": f"{type(e).__name__}: {e} ({traceback.format_exc(limit=-2).strip()})"})
        if a.progress and (i + 1) % a.progress == 0:
            print(f"  {i + 1}/{len(logs)} logs, {len(problems)} disagreements, {time.time() - t0:.0f} s", flush=True)
    s = stepper.stats
    return {"direction": "hydra -> riichienv", "logs": len(logs), "games_agreed": s["games"],
            "disagreements": len(problems), "by_kind": dict(collections.Counter(p["kind"] for p in problems)),
            "kyoku": s["kyoku"], "decisions": s["decisions"], "hora": s["hora"], "ryukyoku": s["ryukyoku"],
            "double_ron": s["double_ron"], "seconds": round(time.time() - t0, 1), "problems": problems}


def hydra_selfplay(a, work):
    logs = []
    for name in a.agents.split(","):
        if name not in AGENT_SETS:
            raise SystemExit(f"diff_riichienv: unknown agent set '{name}' (random, greedy, mixed)")
        out = os.path.join(work, f"hydra-{name}")
        if os.path.exists(out):
            shutil.rmtree(out)
        cmd = ["nice", "-n", "10", a.hydra, "--log-level", "warn", "selfplay", "--agents", AGENT_SETS[name],
               "--games", str(a.games_hydra), "--seed", str(a.seed), "--rules", "tenhou", "--out", out]
        if a.threads:
            cmd += ["--threads", str(a.threads)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        logs += sorted(glob.glob(os.path.join(out, "logs", "*.json.gz")))
    return logs


# RiichiEnv's own games ---------------------------------------------------------------------------

def choose(rng, riichienv, obs):
    legal = obs.legal_actions()
    kinds = {}
    for x in legal:
        kinds.setdefault(str(x.action_type).split(".")[-1].upper(), []).append(x)
    for win in ("TSUMO", "RON"):
        if win in kinds:
            return kinds[win][0]
    if "RIICHI" in kinds and rng.random() < 0.9:
        return kinds["RIICHI"][0]
    for call, p in (("ANKAN", 0.5), ("KAKAN", 0.5), ("DAIMINKAN", 0.3), ("PON", 0.3), ("CHI", 0.2),
                    ("KYUSHU_KYUHAI", 0.5)):
        if call in kinds and rng.random() < p:
            return rng.choice(kinds[call])
    if "DISCARD" in kinds:
        hand = list(obs.hand)
        best, picks = None, []
        for x in kinds["DISCARD"]:
            rest = list(hand)
            rest.remove(x.tile)
            s = riichienv.calculate_shanten(rest)
            if best is None or s < best:
                best, picks = s, [x]
            elif s == best:
                picks.append(x)
        return rng.choice(picks)
    if "PASS" in kinds:
        return kinds["PASS"][0]
    return rng.choice(legal)


def riichienv_games(a, work):
    import riichienv

    out = os.path.join(work, "riichienv")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    t0 = time.time()
    for g in range(a.games_riichienv):
        rng = random.Random(a.seed * 1_000_003 + g)
        env = riichienv.RiichiEnv(game_mode="4p-red-half", seed=a.seed * 1_000_003 + g,
                                  rule=riichienv.GameRule.default_tenhou())
        obs = env.reset()
        while not env.done():
            obs = env.step({p: choose(rng, riichienv, o) for p, o in obs.items()})
        with gzip.open(os.path.join(out, f"riichienv_{g:05d}.json.gz"), "wt") as f:
            for e in env.mjai_log:
                f.write(json.dumps(e, separators=(",", ":")) + "\n")
        if a.progress and (g + 1) % a.progress == 0:
            print(f"  riichienv: {g + 1}/{a.games_riichienv} games, {time.time() - t0:.0f} s", flush=True)
    return out, time.time() - t0


def run_riichienv(a, work):
    if a.riichienv_logs:
        out, play_s = a.riichienv_logs, 0.0
        a.games_riichienv = len(glob.glob(os.path.join(out, "*.json.gz")))
    else:
        out, play_s = riichienv_games(a, work)
    t0 = time.time()
    res = subprocess.run(["nice", "-n", "10", a.hydra, "--log-level", "warn", "replay", "--check", out, "--json"],
                         capture_output=True, text=True)
    try:
        report = json.loads(res.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"diff_riichienv: hydra replay --check printed no report:\n{res.stdout[-2000:]}{res.stderr[-2000:]}")
    problems = [{"file": f["file"], "kind": f["status"], "detail": f["message"]}
                for f in report["files"] if f["status"] != "pass"]
    s = report["summary"]
    by_kind = collections.Counter()
    for p in problems:
        # The message without its file, line, numbers and quoted values names the check that failed.
        msg = re.sub(r"^.*?\.json(\.gz)?:\d+: ", "", p["detail"])
        by_kind[re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'...'", msg))[:100]] += 1
    return {"direction": "riichienv -> hydra replay --check", "games": a.games_riichienv,
            "passed": s["pass"], "disagreements": len(problems), "by_kind": dict(by_kind),
            "kyoku": s["kyoku"], "decisions": s["decisions"], "hora": s["horas"], "ryukyoku": s["ryukyokus"],
            "play_seconds": round(play_s, 1), "check_seconds": round(time.time() - t0, 1), "problems": problems}


def print_result(r, show):
    rest = {k: v for k, v in r.items() if k != "problems"}
    print(json.dumps(rest, indent=2))
    for p in r["problems"][:show]:
        print(f"  {p['kind']}: {p.get('where', p['file'])}: {p['detail'][:600]}")
    if len(r["problems"]) > show:
        print(f"  ... {len(r['problems']) - show} more (see the JSON report)")


def main():
    pinned_venv.reexec_in_venv(__file__, "riichienv-venv", "riichienv", RIICHIENV_VERSION)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("direction", choices=["hydra", "riichienv", "all"])
    ap.add_argument("--agents", default="random,greedy,mixed", help="hydra: agent sets (random, greedy, mixed)")
    ap.add_argument("--games-hydra", "--games", dest="games_hydra", type=int, default=1000,
                    help="hydra: hanchan per agent set; riichienv: hanchan (with --games)")
    ap.add_argument("--games-riichienv", type=int, default=2000)
    ap.add_argument("--logs", nargs="*", help="hydra: step these selfplay logs (files or folders) instead of playing")
    ap.add_argument("--riichienv-logs", help="riichienv: check the games in this folder (written before) instead of playing")
    ap.add_argument("--seed", type=int, default=20261123)
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "diff_riichienv"))
    ap.add_argument("--hydra", default=os.path.join(ROOT, "build", "apps", "hydra"))
    ap.add_argument("--threads", type=int, default=0, help="hydra selfplay --threads (0: all cores)")
    ap.add_argument("--progress", type=int, default=0, help="print progress every N games")
    ap.add_argument("--show", type=int, default=20, help="disagreements printed per direction")
    ap.add_argument("--report", help="write the full JSON report here")
    a = ap.parse_args()
    if a.direction == "riichienv" and "--games" in sys.argv:
        a.games_riichienv = a.games_hydra
    a.hydra = os.path.abspath(a.hydra)
    if not os.path.exists(a.hydra):
        raise SystemExit(f"diff_riichienv: {a.hydra} is missing: build first (scripts/build.sh)")
    os.makedirs(a.work, exist_ok=True)
    results = []
    if a.direction in ("hydra", "all"):
        if a.logs:
            logs = []
            for p in a.logs:
                found = glob.glob(os.path.join(p, "**", "*.json*"), recursive=True) if os.path.isdir(p) else [p]
                logs += sorted(f for f in found if f.endswith((".json", ".json.gz")) and os.path.basename(f) != "stats.json")
        else:
            logs = hydra_selfplay(a, a.work)
        results.append(run_hydra(a, logs))
        print_result(results[-1], a.show)
    if a.direction in ("riichienv", "all"):
        results.append(run_riichienv(a, a.work))
        print_result(results[-1], a.show)
    if a.report:
        with open(a.report, "w") as f:
            json.dump(results, f, indent=2)
    sys.exit(1 if any(r["disagreements"] for r in results) else 0)


if __name__ == "__main__":
    main()
