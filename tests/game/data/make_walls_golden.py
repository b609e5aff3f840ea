#!/usr/bin/env python3
"""Independent reference for Hydra's seeded walls (docs/WALL.md), in plain Python.

Writes walls_golden.txt: one wall per line, `master game kyoku honba` then the 136 tile ids in
wall order. SHA-256 comes from hashlib; xoshiro256** is transcribed from the reference C code
of Blackman and Vigna (prng.di.unimi.it/xoshiro256starstar.c); bounded sampling is Lemire's
method on 32-bit words. Run once; the C++ test compares against the checked-in output.

    python3 tests/game/data/make_walls_golden.py > tests/game/data/walls_golden.txt
"""
import hashlib
import struct
import sys

M64 = (1 << 64) - 1


def le64(v):
    return struct.pack("<Q", v)


def game_key(master, game):
    return hashlib.sha256(le64(master) + b"game" + le64(game)).digest()


def wall_key(gkey, kyoku, honba):
    return hashlib.sha256(gkey + b"wall" + le64(kyoku) + le64(honba)).digest()


class Xoshiro256ss:
    def __init__(self, key):
        self.s = list(struct.unpack("<4Q", key))
        if not any(self.s):
            self.s[0] = 0x9E3779B97F4A7C15

    @staticmethod
    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & M64

    def next(self):
        s = self.s
        result = (self.rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self.rotl(s[3], 45)
        return result

    def below(self, bound):
        m = (self.next() >> 32) * bound
        low = m & 0xFFFFFFFF
        if low < bound:
            threshold = (1 << 32) % bound
            while low < threshold:
                m = (self.next() >> 32) * bound
                low = m & 0xFFFFFFFF
        return m >> 32


def wall(master, game, kyoku, honba):
    rng = Xoshiro256ss(wall_key(game_key(master, game), kyoku, honba))
    tiles = list(range(136))
    for i in range(136, 1, -1):
        j = rng.below(i)
        tiles[i - 1], tiles[j] = tiles[j], tiles[i - 1]
    return tiles


def main():
    masters = [0, 1, 20260101, M64]
    games = list(range(14)) + [1 << 32, (1 << 63) + 5]
    out = sys.stdout
    out.write("# master game kyoku honba : 136 tile ids in wall order (docs/WALL.md); "
              "written by make_walls_golden.py\n")
    for master in masters:
        for game in games:
            for kyoku in range(8):
                for honba in (0, 3):
                    ids = wall(master, game, kyoku, honba)
                    out.write(f"{master} {game} {kyoku} {honba} : {' '.join(map(str, ids))}\n")


if __name__ == "__main__":
    main()
