#!/usr/bin/env python3
"""A small mjai bot for the fault tests of external agents (tests/cli/external_faults.sh).

    fault_bot.py [--connect PORT] MODE SEAT

Plays legally as a tsumogiri bot (discards every tile it draws, never calls, never wins) in
either protocol flavour (a line holding one event object or an array of them), until its first
own draw after the first kyoku started, where MODE decides what happens:
  ok       goes on playing legally
  crash    exits with status 3
  hang     stops answering (sleeps an hour) at its first own draw that is not in the line of
           start_kyoku (so the reply deadline, not the start deadline, is the one it misses)
  illegal  answers a chi at its own draw (never legal there)
  garbage  answers text that is not JSON
  bytes    answers bytes that are not UTF-8
  none     answers {"type":"none"} where it must discard
  silent   never answers anything (not even start_game)
With --connect it is a TCP client of an mjai server on 127.0.0.1:PORT instead (the original
protocol: "hello", "join", then one line each way; it leaves after end_game), for
scripts/mjai_tcp_bridge.py.
"""

import json
import sys
import time

args = sys.argv[1:]
port = None
if args[0] == "--connect":
    port, args = int(args[1]), args[2:]
mode, seat = args[0], int(args[1])
lines, out = sys.stdin, sys.stdout
if port is not None:
    import socket

    conn = socket.create_connection(("127.0.0.1", port))
    lines = conn.makefile("r", encoding="utf-8", newline="\n")
    out = conn.makefile("w", encoding="utf-8", newline="\n")
    assert json.loads(lines.readline())["type"] == "hello"
    out.write(json.dumps({"type": "join", "name": "fault_bot", "room": "default"}) + "\n")
    out.flush()


def reply(obj):
    out.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
    out.flush()


for line in lines:
    if mode == "silent":
        continue
    events = json.loads(line)
    if isinstance(events, dict):
        events = [events]
    last = events[-1]
    own_draw = last["type"] == "tsumo" and last["actor"] == seat
    starts_kyoku = any(e["type"] == "start_kyoku" for e in events)
    if own_draw and mode != "ok" and not (mode == "hang" and starts_kyoku):
        if mode == "crash":
            print("fault_bot: crashing on purpose", file=sys.stderr)
            sys.exit(3)
        if mode == "hang":
            time.sleep(3600)
        if mode == "illegal":
            reply({"type": "chi", "actor": seat, "target": (seat + 3) % 4, "pai": "1m", "consumed": ["2m", "3m"]})
            continue
        if mode == "garbage":
            reply("this is not json")
            continue
        if mode == "bytes":
            out.flush()
            out.buffer.write(b"\xff\xfe\x01 not utf-8\n")
            out.buffer.flush()
            continue
        if mode == "none":
            reply({"type": "none"})
            continue
    if own_draw:
        reply({"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True})
    else:
        reply({"type": "none"})
    if port is not None and last["type"] == "end_game":
        break
