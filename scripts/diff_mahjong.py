#!/usr/bin/env python3
"""Differential test of Hydra's scoring against the PyPI `mahjong` package.

Generates random winning hands (closed and open, every kind of meld, red fives, dora and ura
indicators, situation flags, honba and sticks), scores each with `hydra hand --batch` and with
the `mahjong` package configured for Tenhou rules, and compares han, fu, the yaku, yakuman
count and the payments. Every disagreement must fall under a documented rule difference (see
RULE_DIFFERENCES and docs/SCORING.md); the script exits 1 when any does not.

    scripts/diff_mahjong.py [--hands N] [--seed S] [--hydra PATH] [--show K]

The package is pinned and lives in its own virtual environment under ~/.cache/hydra/; the script
creates it on first use (pip, from PyPI) and re-runs itself inside it.
"""

import argparse
import collections
import json
import os
import random
import subprocess
import sys

import pinned_venv

MAHJONG_VERSION = "2.1.0"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ensure_venv():
    """Re-executes inside the pinned venv, creating it when needed (scripts/pinned_venv.py)."""
    pinned_venv.reexec_in_venv(__file__, "mahjong-venv", "mahjong", MAHJONG_VERSION)


# ---- random winning hands -----------------------------------------------------------------

RED_IDS = {16, 52, 88}  # the red copies of 5m, 5p, 5s


def kind_of(tile_id):
    return tile_id // 4


def tile_text(kinds_ids):
    """Compact notation of 136-ids, red fives as 0."""
    suits = {0: [], 1: [], 2: [], 3: []}
    for i in kinds_ids:
        k = kind_of(i)
        suit, number = (3, k - 26) if k >= 27 else (k // 9, k % 9 + 1)
        suits[suit].append("0" if i in RED_IDS else str(number))
    out = ""
    for suit, letter in zip(range(4), "mpsz"):
        if suits[suit]:
            digits = sorted(suits[suit], key=lambda d: "5" if d == "0" else d)
            out += "".join(digits) + letter
    return out


def kobalab_meld(kind, ids, called):
    """Hydra's --meld text (kobalab notation); the called tile is marked as from kamicha ('-')."""
    suit = "mpsz"[kind_of(ids[0]) // 9] if kind_of(ids[0]) < 27 else "z"

    def digit(i):
        k = kind_of(i)
        return "0" if i in RED_IDS else str(k - 26 if k >= 27 else k % 9 + 1)

    if kind == "ankan":
        return suit + "".join(digit(i) for i in ids)
    if kind == "chi":
        return suit + "".join(digit(i) + ("-" if i == called else "") for i in sorted(ids, key=kind_of))
    own = [i for i in ids if i != called]
    if kind == "kakan":
        pon_own, added = own[:2], own[2]
        return suit + "".join(digit(i) for i in pon_own) + digit(called) + "-" + digit(added)
    return suit + "".join(digit(i) for i in own) + digit(called) + "-"  # pon, daiminkan


class Wall:
    """The 136 tiles not yet used by the hand being built."""

    def __init__(self, rng):
        self.rng = rng
        self.free = {k: [k * 4 + c for c in range(4)] for k in range(34)}
        for ids in self.free.values():
            rng.shuffle(ids)

    def take(self, kind, n=1):
        if len(self.free[kind]) < n:
            raise LookupError
        return [self.free[kind].pop() for _ in range(n)]

    def any_tile(self):
        kinds = [k for k in range(34) if self.free[k]]
        return self.take(self.rng.choice(kinds))[0]


def random_hand(rng):
    """One random winning hand as a dict of Hydra batch keys plus the mahjong-package inputs."""
    while True:
        try:
            return build_hand(rng)
        except LookupError:
            continue


def build_hand(rng):
    wall = Wall(rng)
    style = rng.random()
    if style < 0.04:
        return seven_pairs_or_kokushi(rng, wall, kokushi=rng.random() < 0.3)
    if style < 0.05:
        return nine_gates(rng, wall)
    # Tile kinds to draw from: sometimes one suit (+ honours), sometimes terminals and honours,
    # sometimes only runs (pinfu, ittsu, sanshoku shapes), now and then only green tiles.
    run_share = 0.6
    if style < 0.07:
        kinds = [19, 20, 21, 23, 25, 32]
    elif style < 0.25:
        suit = rng.randrange(3)
        kinds = list(range(suit * 9, suit * 9 + 9)) + (list(range(27, 34)) if rng.random() < 0.5 else [])
    elif style < 0.32:
        kinds = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
    elif style < 0.37:
        kinds = list(range(27, 34))
    elif style < 0.55:
        kinds, run_share = list(range(34)), 0.95
    else:
        kinds = list(range(34))
    num_melds = rng.choices([0, 1, 2, 3, 4], weights=[45, 20, 15, 12, 8])[0]
    sets = []
    for s in range(4):
        k = rng.choice(kinds)
        run_ok = k < 27 and k % 9 <= 6 and k + 1 in kinds and k + 2 in kinds
        if run_ok and rng.random() < run_share:
            sets.append(("run", [wall.take(k)[0], wall.take(k + 1)[0], wall.take(k + 2)[0]]))
        else:
            is_kan = s < num_melds and rng.random() < 0.3
            sets.append(("kan" if is_kan else "triplet", wall.take(k, 4 if is_kan else 3)))
    pair_kind = rng.choice(kinds)
    pair = wall.take(pair_kind, 2)

    melds, meld_specs, closed = [], [], list(pair)
    for index, (shape, ids) in enumerate(sets):
        if index >= num_melds:
            closed += ids
            continue
        called = rng.choice(ids)
        if shape == "run":
            kind = "chi"
        elif shape == "triplet":
            kind = "pon"
        else:
            kind = rng.choice(["daiminkan", "kakan", "ankan"])
        if kind == "kakan":
            called = rng.choice(ids)
            added = rng.choice([i for i in ids if i != called])
            ids = [i for i in ids if i != added] + [added]
        melds.append(kobalab_meld(kind, ids, called))
        meld_specs.append((kind, ids, called))
    win = rng.choice(closed)
    closed_before = list(closed)
    closed_before.remove(win)
    return situation(rng, wall, closed_before, win, melds, meld_specs)


def nine_gates(rng, wall):
    """1112345678999 of one suit plus one more of that suit: chuuren, often junsei."""
    base = rng.randrange(3) * 9
    counts = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    counts[rng.randrange(9)] += 1
    ids = [i for k in range(9) for i in wall.take(base + k, counts[k])]
    win = rng.choice(ids)
    ids.remove(win)
    return situation(rng, wall, ids, win, [], [])


def seven_pairs_or_kokushi(rng, wall, kokushi):
    if kokushi:
        orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
        ids = [wall.take(k)[0] for k in orphans] + [wall.take(rng.choice(orphans))[0]]
    else:
        kinds = rng.sample(range(34), 7)
        ids = [i for k in kinds for i in wall.take(k, 2)]
    win = rng.choice(ids)
    ids.remove(win)
    return situation(rng, wall, ids, win, [], [])


def situation(rng, wall, closed_before, win, melds, meld_specs):
    closed_hand = not any(kind != "ankan" for kind, _, _ in meld_specs)
    has_kan = any(kind in ("daiminkan", "kakan", "ankan") for kind, _, _ in meld_specs)
    tsumo = rng.random() < 0.45
    seat, round_ = rng.randrange(4), rng.randrange(2)
    spec = {"hand": tile_text(closed_before), "melds": melds, "win": tile_text([win]), "tsumo": tsumo,
            "seat": "ESWN"[seat], "round": "ESWN"[round_], "honba": rng.randrange(4), "sticks": rng.randrange(3)}
    riichi = closed_hand and rng.random() < 0.45
    if riichi:
        if rng.random() < 0.07:
            spec["double_riichi"] = True
        else:
            spec["riichi"] = True
        spec["ippatsu"] = rng.random() < 0.2
    if tsumo:
        if has_kan and rng.random() < 0.3:
            spec["rinshan"] = True
        elif rng.random() < 0.05:
            spec["haitei"] = True
        if not melds and not riichi and rng.random() < 0.02:
            spec["tenhou" if seat == 0 else "chiihou"] = True
    else:
        spec["from"] = rng.choice(["kamicha", "toimen", "shimocha"])
        if rng.random() < 0.05:
            spec["houtei"] = True
        elif rng.random() < 0.04:
            spec["chankan"] = True
    dora = [wall.any_tile() for _ in range(1 + (rng.random() < 0.3) + has_kan)]
    ura = [wall.any_tile() for _ in dora] if riichi else []
    spec["dora"] = tile_text(dora)
    if ura:
        spec["ura"] = tile_text(ura)
    mahjong_in = {"closed": closed_before, "win": win, "melds": meld_specs, "dora": dora, "ura": ura}
    return spec, mahjong_in


# ---- the mahjong package ------------------------------------------------------------------

NAMES = {
    "Riichi": "riichi", "Double Riichi": "double riichi", "Ippatsu": "ippatsu", "Menzen Tsumo": "menzen tsumo",
    "Pinfu": "pinfu", "Tanyao": "tanyao", "Iipeiko": "iipeikou", "Haitei Raoyue": "haitei",
    "Houtei Raoyui": "houtei", "Rinshan Kaihou": "rinshan kaihou", "Chankan": "chankan",
    "Yakuhai (haku)": "yakuhai haku", "Yakuhai (hatsu)": "yakuhai hatsu", "Yakuhai (chun)": "yakuhai chun",
    "Chiitoitsu": "chiitoitsu", "Sanshoku Doujun": "sanshoku doujun", "Ittsu": "ittsu", "Chantai": "chanta",
    "Toitoi": "toitoi", "San Ankou": "sanankou", "Sanshoku Doukou": "sanshoku doukou", "San Kantsu": "sankantsu",
    "Shou Sangen": "shousangen", "Honroutou": "honroutou", "Ryanpeikou": "ryanpeikou", "Junchan": "junchan",
    "Honitsu": "honitsu", "Chinitsu": "chinitsu", "Dora": "dora", "Aka Dora": "aka dora", "Ura Dora": "ura dora",
    "Kokushi Musou": "kokushi musou", "Kokushi Musou Juusanmen Matchi": "kokushi musou 13-sided",
    "Suu Ankou": "suuankou", "Suu Ankou Tanki": "suuankou tanki", "Daisangen": "daisangen",
    "Shousuushii": "shousuushii", "Dai Suushii": "daisuushii", "Tsuu Iisou": "tsuuiisou", "Ryuuiisou": "ryuuiisou",
    "Chinroutou": "chinroutou", "Chuuren Poutou": "chuuren poutou",
    "Daburu Chuuren Poutou": "junsei chuuren poutou", "Suu Kantsu": "suukantsu", "Tenhou": "tenhou",
    "Chiihou": "chiihou",
}


def mahjong_score(spec, m, preset):
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld

    melds, tiles = [], list(m["closed"]) + [m["win"]]
    for kind, ids, called in m["melds"]:
        tiles += ids
        meld_type = {"chi": Meld.CHI, "pon": Meld.PON, "daiminkan": Meld.KAN, "ankan": Meld.KAN,
                     "kakan": Meld.SHOUMINKAN}[kind]
        melds.append(Meld(meld_type=meld_type, tiles=sorted(ids), opened=kind != "ankan", called_tile=called))
    # The presets: Tenhou has no double yakuman; Mahjong Soul doubles kokushi 13-sided, suuankou
    # tanki, junsei chuuren and daisuushii, which is the package's own double yakuman list.
    rules = OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=preset == "mahjongsoul",
                          kazoe_limit=HandConstants.KAZOE_LIMITED, kiriage=False, fu_for_open_pinfu=True,
                          fu_for_pinfu_tsumo=False)
    config = HandConfig(
        is_tsumo=spec["tsumo"], is_riichi=spec.get("riichi", False) or spec.get("double_riichi", False),
        is_daburu_riichi=spec.get("double_riichi", False), is_ippatsu=spec.get("ippatsu", False),
        is_rinshan=spec.get("rinshan", False), is_chankan=spec.get("chankan", False),
        is_haitei=spec.get("haitei", False), is_houtei=spec.get("houtei", False),
        is_tenhou=spec.get("tenhou", False), is_chiihou=spec.get("chiihou", False),
        player_wind=EAST + "ESWN".index(spec["seat"]), round_wind=EAST + "ESWN".index(spec["round"]),
        tsumi_number=spec["honba"], kyoutaku_number=spec["sticks"], options=rules)
    r = HandCalculator.estimate_hand_value(tiles, m["win"], melds=melds, dora_indicators=m["dora"], config=config,
                                           ura_dora_indicators=m["ura"] or None)
    if r.error:
        return {"error": r.error}
    yaku = sorted(yaku_name(y.name) for y in r.yaku)
    yakuman = sum(1 for y in yaku if y in YAKUMAN)
    return {"han": 0 if yakuman else r.han, "fu": 0 if yakuman else r.fu, "yaku": yaku, "yakuman": r.han // 13 if yakuman else 0,
            "main": r.cost["main"], "additional": r.cost["additional"]}


def yaku_name(name):
    if name.startswith("Yakuhai (seat wind"):
        return "seat wind"
    if name.startswith("Yakuhai (round wind"):
        return "round wind"
    return NAMES.get(name, "?" + name)


YAKUMAN = {"kokushi musou", "kokushi musou 13-sided", "suuankou", "suuankou tanki", "daisangen", "shousuushii",
           "daisuushii", "tsuuiisou", "ryuuiisou", "chinroutou", "chuuren poutou", "junsei chuuren poutou", "suukantsu",
           "tenhou", "chiihou"}


def hydra_view(result):
    w = result.get("win", {})
    if "error" in result or w.get("status") != "win":
        return {"error": result.get("error") or w.get("status")}
    p = w["payments"]
    main, additional = (p["ron"], 0) if "ron" in p else (p["dealer"] or p["non_dealer"], p["non_dealer"])
    return {"han": w["han"], "fu": w["fu"], "yaku": sorted(y["name"] for y in w["yaku"]), "yakuman": w["yakuman"],
            "main": main, "additional": additional}


# ---- documented rule differences ------------------------------------------------------------
# A disagreement that comes from a known difference between the package's rules and the preset's
# is explained by a function here: it gets (args, spec, ours, theirs) and returns the reason, or
# None. The package is configured to the preset (mahjong_rules), and on every seed tried so far
# (docs/SCORING.md, "Differential test") no rule difference remains, so the list is empty: any
# disagreement is a failure until it is argued from the rules and documented here.
RULE_DIFFERENCES = []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hydra", default=os.path.join(ROOT, "build", "apps", "hydra"))
    ap.add_argument("--rules", choices=["tenhou", "mahjongsoul"], default="tenhou")
    ap.add_argument("--show", type=int, default=10, help="unexplained disagreements printed")
    args = ap.parse_args()
    ensure_venv()
    import mahjong  # noqa: F401  (inside the venv now)

    rng = random.Random(args.seed)
    hands = [random_hand(rng) for _ in range(args.hands)]
    batch = "".join(json.dumps(spec) + "\n" for spec, _ in hands)
    proc = subprocess.run([args.hydra, "hand", "--rules", args.rules, "--batch", "-"], input=batch, capture_output=True,
                          text=True)
    if proc.returncode != 0:
        sys.exit(f"hydra failed: {proc.stderr}")
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(results) == len(hands)

    agree, explained, unexplained = 0, collections.defaultdict(list), []
    seen = collections.Counter()
    for (spec, m), result in zip(hands, results):
        ours, theirs = hydra_view(result), mahjong_score(spec, m, args.rules)
        seen.update(ours.get("yaku", []))
        if "error" in ours:
            seen["(no win: " + ours["error"] + ")"] += 1
        if ours == theirs:
            agree += 1
            continue
        reason = None
        if "error" not in ours and "error" not in theirs:
            for rule in RULE_DIFFERENCES:
                reason = rule(args, spec, ours, theirs)
                if reason:
                    break
        if reason:
            explained[reason].append((spec, ours, theirs))
        else:
            unexplained.append((spec, ours, theirs))

    print(f"mahjong {MAHJONG_VERSION} vs hydra ({args.rules}) on {len(hands)} random winning hands"
          f" (seed {args.seed}):")
    print(f"  agree {agree}, explained by a documented rule difference {sum(map(len, explained.values()))},"
          f" unexplained {len(unexplained)}")
    for reason, cases in explained.items():
        print(f"  {len(cases):6d}  {reason}")
    print("  coverage (hands with each yaku, by hydra):")
    print("    " + ", ".join(f"{name} {n}" for name, n in sorted(seen.items(), key=lambda x: -x[1])))
    for spec, ours, theirs in unexplained[: args.show]:
        print("UNEXPLAINED", json.dumps(spec))
        print("    hydra  ", ours)
        print("    mahjong", theirs)
    sys.exit(1 if unexplained else 0)


if __name__ == "__main__":
    main()
