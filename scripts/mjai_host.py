#!/usr/bin/env python3
"""`hydra bot` inside the mjai.app simulator (PyPI `mjai==0.2.1`, the RiichiLab competition host).

The package's `Simulator` plays a hanchan in its Rust arena (`mjai.mlibriichi.arena.Match`), which
validates every reply of every bot: an impossible action becomes an error draw (`ryukyoku` with
reason `error`, 8,000 points from the offender) and the match restarts from the next kyoku. Each
bot normally runs in the Docker image `smly/mjai-client:v3`: `docker run` mounts the submission
zip at /bot.zip and the package's own HTTP handler (`mjai/http_server/server.py`) at
/workspace/00__server__.py, which unzips the bot and pipes each POSTed line to `python bot.py ID`.

That image cannot be pulled here, so this script puts a `docker` of its own first on PATH and
replaces only the container: `docker run -d` starts the same server.py as a local process (paths
mapped as the mounts say, the container's port 3000 on the published host port), `docker logs`
prints its captured output, `docker rm -f` ends its process group. Everything else (the arena,
the event batching and hiding of `mjai.engine`, the HTTP client with its timeouts, the restart
after an error, the log merge) is the package's own code, unchanged.

Games (`--games`, default 48), four kinds in turn, the seat under test rotating every four games:
  hydra4          `hydra bot` in all four seats
  rulebase        `hydra bot` in one seat, the package's RulebaseBot in the other three
  hydra4-low      as hydra4, the seat under test starting with --low points (the others share the rest)
  rulebase-low    as rulebase, Hydra starting with --low points
(`--kinds` picks others; `rulebase4`, four RulebaseBots, checks the host without Hydra.) A game
started below the 1,000 points riichi needs goes through the package's `py_match_continue`, the
call its own restart after an error uses.

Per game the report gives the arena's error draws, the simulator's error reports (a bot's
timeout, a `none` answer to its own tsumo, a crash), the lines `hydra bot` itself refused
(`hydra bot: line N: ...` on its stderr), the kyoku played and the final scores; with --check
every game that started from the standard 25,000 also goes through `hydra replay --check`.
Exit 0 only when no game had an error draw, an error report or a refused line.

    scripts/mjai_host.py [--games N] [--first I] [--out DIR] [--hydra PATH] [--model bot:greedy] [--low 800]
                         [--kinds K,...] [--seed S] [--timeout 2.0] [--check] [--json]

The package is pinned and lives in its own virtual environment under ~/.cache/hydra/mjai-venv
(scripts/pinned_venv.py creates it on first use, pip from PyPI).
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile

import pinned_venv

MJAI_VERSION = "0.2.1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATE_ENV = "HYDRA_MJAI_CONTAINERS"  # where the local "containers" keep their pid and output
CONTAINER_PYTHON = "/workspace/.pyenv/shims/python"  # the image's interpreter, mapped to ours
CONTAINER_PORT = 3000
KINDS = ("hydra4", "rulebase", "hydra4-low", "rulebase-low", "rulebase4")


# ---------------------------------------------------------------------------------------------
# The local stand-in for `docker` (run -d / logs / rm -f), called by the package as a program.

def parse_run(args):
    """The parts of `docker run` that mjai.player.MjaiPlayerClient.launch_container passes."""
    mounts, port, workdir, i = {}, None, None, 0
    while i < len(args) and args[i].startswith("-"):
        flag = args[i]
        if flag in ("-d", "--rm"):
            i += 1
            continue
        value = args[i + 1]
        if flag == "-p":
            host, inner = value.split(":")
            if int(inner) != CONTAINER_PORT:
                raise SystemExit(f"docker (local): only the container port {CONTAINER_PORT} is served, not {inner}")
            port = int(host)
        elif flag == "--mount":
            fields = dict(kv.split("=", 1) for kv in value.split(",") if "=" in kv)
            mounts[fields["dst"]] = fields["src"]
        elif flag == "-w":
            workdir = value
        i += 2
    image, command = args[i], args[i + 1:]
    if port is None:
        raise SystemExit("docker (local): docker run without -p")
    return {"image": image, "command": command, "mounts": mounts, "port": port, "workdir": workdir}


def fake_docker(args):
    state = os.environ.get(STATE_ENV)
    if not state:
        raise SystemExit(f"docker (local): {STATE_ENV} is not set")
    if args[:1] == ["run"]:
        spec = parse_run(args[1:])
        cid = f"local-{spec['port']}-{time.time_ns()}"
        cdir = os.path.join(state, cid)
        os.makedirs(os.path.join(cdir, "workspace"))
        with open(os.path.join(cdir, "spec.json"), "w") as f:
            json.dump(spec, f)
        with open(os.path.join(cdir, "stdout"), "wb") as out, open(os.path.join(cdir, "stderr"), "wb") as err:
            proc = subprocess.Popen([sys.executable, "-u", os.path.abspath(__file__), "container", cdir],
                                    stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True)
        with open(os.path.join(cdir, "pid"), "w") as f:
            f.write(str(proc.pid))
        print(cid, flush=True)
        return 0
    if args[:1] == ["logs"]:
        cdir = os.path.join(state, args[1])
        for name, stream in (("stdout", sys.stdout), ("stderr", sys.stderr)):
            with open(os.path.join(cdir, name), "rb") as f:
                stream.buffer.write(f.read())
            stream.flush()
        return 0
    if args[:1] == ["rm"]:
        cdir = os.path.join(state, args[-1])
        try:
            with open(os.path.join(cdir, "pid")) as f:
                pid = int(f.read())
            os.killpg(pid, signal.SIGKILL)  # the server and the bot it started: one session
            os.waitpid(pid, 0)
        except (FileNotFoundError, ProcessLookupError, ChildProcessError):
            pass
        return 0
    if args[:1] in (["pull"], ["images"]):
        return 0
    raise SystemExit(f"docker (local): unsupported command {args}")


def container(cdir):
    """The 'container': the package's server.py as a local process, paths mapped as mounted."""
    import runpy

    with open(os.path.join(cdir, "spec.json")) as f:
        spec = json.load(f)
    mounts = dict(spec["mounts"])
    workspace = os.path.join(cdir, "workspace")

    def local(path):
        if path == CONTAINER_PYTHON:
            return sys.executable
        if path in mounts:
            return mounts[path]
        if spec["workdir"] and path.startswith(spec["workdir"] + "/"):
            return os.path.join(workspace, path[len(spec["workdir"]) + 1:])
        if path.startswith("/") and not os.path.exists(path):
            raise SystemExit(f"container (local): {path} is neither mounted nor in the workdir")
        return path

    os.chdir(workspace)
    command = [local(a) for a in spec["command"]]
    python, script, argv = command[0], None, []
    # The image runs `python -u /workspace/00__server__.py ID`: run that file here, in this
    # interpreter, so its Popen calls (unzip /bot.zip, python bot.py) can be mapped the same way.
    rest = command[1:]
    while rest and rest[0].startswith("-"):
        rest = rest[1:]
    script, argv = rest[0], rest[1:]
    if python != sys.executable:
        raise SystemExit(f"container (local): unexpected interpreter {spec['command'][0]}")

    real_popen = subprocess.Popen

    def mapped_popen(cmd, *a, **kw):
        cmd = [local(c) for c in cmd]
        if cmd[0] == "unzip" and shutil.which("unzip") is None:  # the image has unzip; this machine may not
            cmd = [sys.executable, "-m", "zipfile", "-e", cmd[-1], "."]
        return real_popen(cmd, *a, **kw)

    subprocess.Popen = mapped_popen
    sys.argv = [script] + argv
    server = runpy.run_path(script, run_name="mjai_container_server")
    subprocess.Popen = real_popen
    # The container listens on 0.0.0.0:3000 and docker publishes it on the host port.
    server["main"].__globals__["address"] = ("127.0.0.1", spec["port"])
    server["main"]()
    return 0


# ---------------------------------------------------------------------------------------------
# Submissions: the zip the image unpacks, with the bot.py it runs as `python -u bot.py ID`.

def hydra_zip(path, hydra, model, seed, rules):
    bot = ("import os, sys\n"
           f"hydra = {hydra!r}\n"
           f"os.execv(hydra, [hydra, '--log-level', 'warn', 'bot', '--model', {model!r}, '--seat', sys.argv[1],"
           f" '--seed', {str(seed)!r}, '--rules', {rules!r}])\n")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("bot.py", bot)


def rulebase_zip(path):
    bot = ("import sys\n"
           "from loguru import logger\n"
           "from mjai.bot.rulebase import RulebaseBot\n"
           "logger.remove()\n"
           "RulebaseBot(player_id=int(sys.argv[1])).start()\n")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("bot.py", bot)


# ---------------------------------------------------------------------------------------------
# Games

def plan(first, games, kinds):
    """(index, kind, seat under test) in turn; the seat rotates every len(kinds) games."""
    return [(i, kinds[i % len(kinds)], (i // len(kinds)) % 4) for i in range(first, first + games)]


def low_scores(seat, low):
    rest = 100000 - low
    others = [rest // 300 * 100] * 3
    others[0] += rest - sum(others)
    scores = others[:seat] + [low] + others[seat:]
    return scores


def play(index, kind, seat, a, hydra_zip_path, rulebase_zip_path):
    from mjai.game import Simulator

    if kind == "rulebase4":
        subs, hydra_seats = [rulebase_zip_path] * 4, []
    elif kind.startswith("hydra4"):
        subs, hydra_seats = [hydra_zip_path] * 4, [0, 1, 2, 3]
    else:
        subs = [rulebase_zip_path] * 4
        subs[seat] = hydra_zip_path
        hydra_seats = [seat]
    logs = os.path.join(a.out, f"game_{index:03d}_{kind}_seat{seat}")
    if os.path.exists(logs):
        shutil.rmtree(logs)
    sim = Simulator(subs, logs_dir=logs, timeout=a.timeout, port=a.port, seed=(a.seed + index, 2000))
    start = None
    if kind.endswith("-low"):
        start = {"scores": low_scores(seat, a.low), "kyoku": 0, "honba": 0, "kyotaku": 0}
    t0 = time.time()
    if start is None:
        sim.run()
    else:
        # Simulator.run() with a first state: the loop it runs after an error draw, from the start.
        os.makedirs(logs, exist_ok=True)
        state = start
        for run_idx in range(10):
            state = sim._internal_run(run_idx, state)
            if state is None:
                break
        sim.merge_logs()
    return summarize(index, kind, seat, hydra_seats, start, logs, time.time() - t0, a)


def summarize(index, kind, seat, hydra_seats, start, logs, seconds, a):
    with open(os.path.join(logs, "mjai_log.json")) as f:
        events = [json.loads(line) for line in f if line.strip()]
    with open(os.path.join(logs, "errors.json")) as f:
        runs = json.load(f)  # one entry per arena match the simulator ran, {} when it ended cleanly
    reports = [e for e in runs if e]
    error_draws = [e for e in events if e["type"] == "ryukyoku" and e.get("reason") == "error"]
    refused = []
    for p in hydra_seats:
        with open(os.path.join(logs, f"player_logs.{p}.stderr.txt")) as f:
            refused += [f"seat {p}: {line.strip()}" for line in f if re.match(r"hydra bot: line \d+", line)]
    kyoku = [e for e in events if e["type"] == "start_kyoku"]
    scores = list(kyoku[0]["scores"]) if kyoku else [0] * 4
    for e in events:
        if e["type"] == "start_kyoku":
            scores = list(e["scores"])
        if "deltas" in e:
            scores = [s + d for s, d in zip(scores, e["deltas"])]
        if e["type"] == "reach_accepted":
            scores[e["actor"]] -= 1000
    row = {"game": index, "kind": kind, "seat": seat, "hydra_seats": hydra_seats,
           "start_scores": kyoku[0]["scores"] if kyoku else None, "kyoku": len(kyoku),
           "hydra_riichi": sum(1 for e in events if e["type"] == "reach_accepted" and e["actor"] in hydra_seats),
           "hydra_hora": sum(1 for e in events if e["type"] == "hora" and e["actor"] in hydra_seats),
           "scores_before_sticks": scores, "error_draws": len(error_draws), "error_reports": reports,
           "refused_lines": refused, "runs": len(runs), "seconds": round(seconds, 1), "logs": logs}
    if a.check and start is None:
        out = subprocess.run([a.hydra, "--log-level", "warn", "replay", "--check", os.path.join(logs, "mjai_log.json")],
                             capture_output=True, text=True)
        row["replay_check"] = "pass" if out.returncode == 0 else (out.stdout + out.stderr).strip()[-2000:]
    return row


def main():
    if sys.argv[1:2] == ["docker"]:
        sys.exit(fake_docker(sys.argv[2:]))
    if sys.argv[1:2] == ["container"]:
        sys.exit(container(sys.argv[2]))
    pinned_venv.reexec_in_venv(__file__, "mjai-venv", "mjai", MJAI_VERSION)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=48)
    ap.add_argument("--first", type=int, default=0, help="index of the first game (to split a run over processes)")
    ap.add_argument("--kinds", default="hydra4,rulebase,hydra4-low,rulebase-low",
                    help="comma-separated, played in turn: " + ", ".join(KINDS))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "mjai_host"))
    ap.add_argument("--hydra", default=os.path.join(ROOT, "build", "apps", "hydra"))
    ap.add_argument("--model", default="bot:greedy", help="hydra bot --model (a bot: name or a checkpoint)")
    ap.add_argument("--rules", default="tenhou", help="hydra bot --rules")
    ap.add_argument("--low", type=int, default=800, help="start score of the seat under test in the -low kinds")
    ap.add_argument("--seed", type=int, default=10000, help="arena seed of game 0 (game i: seed + i)")
    ap.add_argument("--timeout", type=float, default=2.0, help="seconds per reply (the package's default)")
    ap.add_argument("--port", type=int, default=28090, help="first of the four local ports")
    ap.add_argument("--check", action="store_true", help="also run hydra replay --check on games from 25,000")
    ap.add_argument("--json", action="store_true", help="print every game's row as JSON")
    a = ap.parse_args()
    kinds = a.kinds.split(",")
    for k in kinds:
        if k not in KINDS:
            raise SystemExit(f"mjai_host: unknown kind '{k}' (known: {', '.join(KINDS)})")
    a.hydra = os.path.abspath(a.hydra)
    if any(k != "rulebase4" for k in kinds) and not os.path.exists(a.hydra):
        raise SystemExit(f"mjai_host: {a.hydra} is missing: build first (scripts/build.sh)")
    if not 0 < a.low < 100000:
        raise SystemExit("mjai_host: --low must be between 1 and 99,999")
    a.out = os.path.abspath(a.out)
    os.makedirs(a.out, exist_ok=True)

    from loguru import logger

    logger.remove()
    logger.add(os.path.join(a.out, "simulator.log"), level="INFO")

    with tempfile.TemporaryDirectory(prefix="hydra-mjai-") as tmp:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        with open(os.path.join(bindir, "docker"), "w") as f:
            f.write(f"#!/bin/sh\nexec {sys.executable!r} {os.path.abspath(__file__)!r} docker \"$@\"\n")
        os.chmod(os.path.join(bindir, "docker"), 0o755)
        os.makedirs(os.path.join(tmp, "containers"))
        os.environ["PATH"] = bindir + os.pathsep + os.environ["PATH"]
        os.environ[STATE_ENV] = os.path.join(tmp, "containers")
        hz, rz = os.path.join(a.out, "hydra_bot.zip"), os.path.join(a.out, "rulebase_bot.zip")
        hydra_zip(hz, a.hydra, a.model, 0, a.rules)
        rulebase_zip(rz)

        rows = []
        for index, kind, seat in plan(a.first, a.games, kinds):
            row = play(index, kind, seat, a, hz, rz)
            rows.append(row)
            bad = row["error_draws"] or row["error_reports"] or row["refused_lines"]
            print(f"game {index:3d} {kind:12s} seat {seat} start {row['start_scores']}: {row['kyoku']:2d} kyoku, "
                  f"final {row['scores_before_sticks']}, hydra riichi {row['hydra_riichi']} hora {row['hydra_hora']}, "
                  f"error draws {row['error_draws']}, error reports {len(row['error_reports'])}, "
                  f"refused lines {len(row['refused_lines'])}, arena runs {row['runs']}"
                  + (f", replay --check {'pass' if row.get('replay_check') == 'pass' else 'FAIL'}"
                     if "replay_check" in row else "")
                  + f" ({row['seconds']} s){'  <-- ' + row['logs'] if bad else ''}", flush=True)
            if a.json:
                print(json.dumps(row), flush=True)

    total = {
        "games": len(rows),
        "games_by_kind": {k: sum(1 for r in rows if r["kind"] == k) for k in kinds},
        "seats_covered": sorted({s for r in rows for s in r["hydra_seats"]}),
        "games_hydra_below_1000": sum(1 for r in rows if r["start_scores"] and r["hydra_seats"]
                                      and min(r["start_scores"][s] for s in r["hydra_seats"]) < 1000),
        "kyoku": sum(r["kyoku"] for r in rows),
        "hydra_riichi": sum(r["hydra_riichi"] for r in rows),
        "hydra_hora": sum(r["hydra_hora"] for r in rows),
        "error_draws": sum(r["error_draws"] for r in rows),
        "error_reports": sum(len(r["error_reports"]) for r in rows),
        "refused_lines": sum(len(r["refused_lines"]) for r in rows),
        # mjai 0.2.1's Simulator.get_next_state sums start scores and deltas without the riichi
        # deposits, so after a game its arena ended (tobi, agari-yame) it may start the match again
        # from wrong scores: a second run without any error (docs/PEERS.md).
        "games_continued_without_error": sum(1 for r in rows if r["runs"] > 1 and not r["error_reports"]),
    }
    if a.check:
        checked = [r for r in rows if "replay_check" in r]
        total["replay_checked"] = len(checked)
        total["replay_passed"] = sum(1 for r in checked if r["replay_check"] == "pass")
        total["replay_failed_in_continued_games"] = sum(1 for r in checked if r["replay_check"] != "pass" and r["runs"] > 1)
    print(json.dumps(total, indent=2))
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump({"total": total, "games": rows}, f, indent=2)
    failed = total["error_draws"] or total["error_reports"] or total["refused_lines"]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
