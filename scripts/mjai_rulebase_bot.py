#!/usr/bin/env python3
"""The PyPI `mjai` package's RulebaseBot (mjai 0.2.1, `mjai/bot/rulebase.py`) as an mjai bot over
stdin/stdout, for `hydra eval` (docs/EVAL.md "A bot Hydra did not write"):

    hydra eval --challenger bot:greedy --champion 'mjai.app:python3 scripts/mjai_rulebase_bot.py {seat}'

Each input line is a JSON array of events (the mjai.app flavour) or one event object (the
classic flavour, wrapped into an array of one); each gets the bot's reply line. The bot's own
progress logging (loguru, INFO) is turned down to warnings; its errors still go to stderr. The
package lives in its pinned virtual environment under ~/.cache/hydra/mjai-venv (created on
first use by scripts/pinned_venv.py).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pinned_venv  # noqa: E402

MJAI_VERSION = "0.2.1"


def main():
    pinned_venv.reexec_in_venv(__file__, "mjai-venv", "mjai", MJAI_VERSION)
    if len(sys.argv) != 2:
        raise SystemExit("usage: mjai_rulebase_bot.py SEAT")
    from loguru import logger
    from mjai.bot.rulebase import RulebaseBot

    logger.remove()
    logger.add(sys.stderr, level="WARNING")
    bot = RulebaseBot(player_id=int(sys.argv[1]))
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        events = json.loads(line)
        if isinstance(events, dict):
            events = [events]
        sys.stdout.write(bot.react(json.dumps(events, separators=(",", ":"))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
