#!/usr/bin/env python3
"""Runs an mjai bot that connects to a server over TCP (the original mjai protocol: akochan's
`system.exe mjai_client PORT ...`, the Ruby mjai-manue) as a stdin/stdout bot for Hydra's
external agents (docs/EVAL.md "External agents"):

    hydra eval --challenger bot:greedy \
        --champion 'mjai:python3 scripts/mjai_tcp_bridge.py -- ./system.exe mjai_client {port} setup_mjai.json'

The bridge listens on 127.0.0.1 (a free port, put where the client command says {port}),
starts the client, greets it as an mjai server does ({"type":"hello",...}, its reply is the
"join"), and then relays: every line on stdin goes to the client, every line the client sends
comes out on stdout. Use the classic flavour (mjai:): the TCP protocol is one event per line with a
reply to each. A client that disconnects (many end after end_game) is started again before the
next line, so the bridge itself plays game after game. The client's output and the bridge's
messages go to stderr. Standard library only.
"""

import socket
import subprocess
import sys

HELLO = '{"type":"hello","protocol":"mjsonp","protocol_version":3}'


def log(msg):
    print(f"mjai_tcp_bridge: {msg}", file=sys.stderr, flush=True)


class Client:
    def __init__(self, command):
        self.command = command
        self.proc = None
        self.conn = None
        self.reader = None

    def start(self):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        argv = [w.replace("{port}", str(port)) for w in self.command]
        log(f"starting {' '.join(argv)}")
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr)
        listener.settimeout(30)
        try:
            self.conn, _ = listener.accept()
        finally:
            listener.close()
        self.conn.settimeout(None)
        self.reader = self.conn.makefile("r", encoding="utf-8", newline="\n")
        self.send(HELLO)
        join = self.reader.readline()
        if not join:
            raise RuntimeError("the client closed the connection before joining")
        log(f"joined: {join.strip()}")

    def send(self, line):
        self.conn.sendall((line + "\n").encode("utf-8"))

    def exchange(self, line):
        """Sends one line and returns the client's reply line, or None when it disconnected."""
        try:
            self.send(line)
            reply = self.reader.readline()
        except OSError:
            reply = ""
        return reply.rstrip("\n") if reply else None

    def stop(self):
        for closer in (self.reader, self.conn):
            try:
                if closer:
                    closer.close()
            except OSError:
                pass
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
        if self.proc:
            self.proc.wait()
        self.proc = self.conn = self.reader = None


def main():
    args = sys.argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        raise SystemExit("usage: mjai_tcp_bridge.py -- CLIENT COMMAND ({port} is replaced by the port)")
    client = Client(args)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if client.conn is None:
            client.start()
        reply = client.exchange(line)
        if reply is None:
            if not line.startswith('{"type":"start_game"'):
                raise SystemExit("mjai_tcp_bridge: the client disconnected in the middle of a game")
            # It ended after the last game (many clients do): start it again for this one.
            client.stop()
            client.start()
            reply = client.exchange(line)
            if reply is None:
                raise SystemExit("mjai_tcp_bridge: the client disconnected without answering")
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
    client.stop()


if __name__ == "__main__":
    main()
