#!/usr/bin/env bash
# fingerprint.sh HYDRA OUT: runs a fixed set of seeded commands with the binary HYDRA and writes
# one line per result (a game log, a checkpoint's tensors, a report, a bot's replies) with its
# SHA-256 into OUT/fingerprint.txt. Two binaries that play and train alike give equal files:
#   scripts/fingerprint.sh build-before/apps/hydra /tmp/before
#   scripts/fingerprint.sh build/apps/hydra /tmp/after
#   diff /tmp/before/fingerprint.txt /tmp/after/fingerprint.txt
# What it covers: the first three updates of `hydra train` with every advantage estimator
# (game logs and every checkpoint's tensors), `selfplay` with bots and with a checkpoint, `eval`
# with bots, a checkpoint and an external mjai agent, and `bot` on a real log. Timings and paths
# are left out of what is hashed. About two minutes on two cores.
set -euo pipefail
hydra=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "${out:?}"/*
fp=$out/fingerprint.txt
: > "$fp"
cd "$out"

# A line per file: its name relative to OUT and the hash of its content (game logs unzipped, so
# the gzip header's fields do not count; the binary's path, which an external agent's name holds,
# written as HYDRA).
hash_file() {
  local f=$1
  case "$f" in
    *.gz) printf '%s %s\n' "${f#"$out"/}" "$(zcat "$f" | sed "s#$hydra#HYDRA#g" | sha256sum | cut -d' ' -f1)" ;;
    *) printf '%s %s\n' "${f#"$out"/}" "$(sed "s#$hydra#HYDRA#g" "$f" | sha256sum | cut -d' ' -f1)" ;;
  esac >> "$fp"
}
# A checkpoint (a torch archive: a zip of pickled fields and tensor storages): every field but the
# metrics (timings) and the optimizers' keys (addresses), every tensor's bytes in order, and an
# optimizer's moments as a set (torch writes them in the order of the parameters' addresses); the
# critic's optimizer, an archive of its own in a byte tensor, the same way.
hash_checkpoint() {
  printf '%s %s\n' "${1#"$out"/}" "$(python3 - "$1" <<'PY'
import hashlib, io, pickletools, re, sys, zipfile

def digest(data):
    z = zipfile.ZipFile(io.BytesIO(data))
    h = hashlib.sha256()
    fields = [a for _, a, _ in pickletools.genops(z.read("archive/data.pkl")) if isinstance(a, str)]
    skip, first_opt, in_opt, nested, want = False, None, False, set(), False
    for f in fields:
        if skip or re.fullmatch(r"[0-9]{12,}", f):
            skip = False
            continue
        skip = f == "metrics"
        key = re.fullmatch(r"[0-9]{1,11}", f)
        if want and key:
            nested.add(int(f))
            want = False
        want = want or f == "critic_optimizer"
        in_opt = in_opt or f == "optimizer" or f == "state"
        if in_opt and first_opt is None and key:
            first_opt = int(f)
        if not (in_opt and key):
            h.update(f.encode() + b"\0")
    moments = []
    for k, name in sorted((int(n.rsplit("/", 1)[1]), n) for n in z.namelist() if re.search(r"/data/[0-9]+$", n)):
        body = z.read(name)
        if k in nested:
            body = digest(body).encode()
        if first_opt is not None and k >= first_opt:
            moments.append(hashlib.sha256(body).hexdigest())
        else:
            h.update(name.encode() + b"\0" + body)
    for m in sorted(moments):
        h.update(m.encode())
    return h.hexdigest()

print(digest(open(sys.argv[1], "rb").read()))
PY
)" >> "$fp"
}
hash_run() {
  local dir=$1
  find "$dir/games" -name '*.json.gz' | sort | while read -r f; do hash_file "$f"; done
  find "$dir/checkpoints" -name '*.ckpt' | sort | while read -r f; do hash_checkpoint "$out/$f"; done
}
# JSON without the fields that are timings or paths.
strip_json() { grep -v -E '"(seconds|wall_seconds|elapsed|time|games_per_hour|decisions_per_s|samples_per_s|[a-z_]*_seconds|[a-z_]*_per_s)":' ; }

small=(--set model.blocks=2 --set model.channels=32 --set selfplay.games=4 --set ppo.rollout_samples=256
       --set ppo.minibatch=128 --set train.checkpoint_every=1 --set train.tensorboard=false --set run.threads=2
       --set train.max_minutes=0 --stop-at 3 --game-logs --seed 7)

# 1. Training: the first three updates of each advantage estimator.
"$hydra" train --config "$root/configs/quickstart.json" "${small[@]}" --run-dir train_gae > train_gae.log 2>&1
hash_run train_gae
"$hydra" train --config "$root/configs/quickstart.json" "${small[@]}" --set ppo.critic=privileged \
  --run-dir train_privileged > train_privileged.log 2>&1
hash_run train_privileged
"$hydra" train --config "$root/configs/finetune.json" "${small[@]}" --set selfplay.play_outs=3 \
  --run-dir train_play_outs > train_play_outs.log 2>&1
hash_run train_play_outs
"$hydra" train --config "$root/configs/finetune.json" "${small[@]}" --set selfplay.play_outs=3 \
  --set ppo.policy_gradient=sampled --run-dir train_play_outs_sampled > train_play_outs_sampled.log 2>&1
hash_run train_play_outs_sampled
ckpt=$(ls train_gae/checkpoints/*.ckpt | sort | tail -1)

# 2. Self-play with bots and with a checkpoint.
"$hydra" selfplay --agents bot:greedy,bot:random,bot:greedy,bot:tsumogiri --games 3 --seed 5 --threads 2 \
  --out selfplay_bots > selfplay_bots.log 2>&1
"$hydra" selfplay --model "$ckpt" --games 2 --seed 5 --threads 2 --device cpu --out selfplay_ckpt > selfplay_ckpt.log 2>&1
"$hydra" selfplay --model "$ckpt" --games 2 --seed 5 --threads 2 --device cpu --sample --temperature 0.7 \
  --out selfplay_ckpt_sampled > selfplay_ckpt_sampled.log 2>&1
for d in selfplay_bots selfplay_ckpt selfplay_ckpt_sampled; do
  find "$d" -name '*.json.gz' | sort | while read -r f; do hash_file "$f"; done
done

# 3. Eval: bots, a checkpoint (argmax and sampled), an external mjai agent.
ev() {  # ev NAME CHALLENGER CHAMPION [FLAGS...]
  local name=$1; shift
  "$hydra" eval --challenger "$1" --champion "$2" --seeds 4 --seed 11 --json --device cpu --threads 2 \
    --logs "eval_$name" "${@:3}" 2> "eval_$name.err" | grep -v -E '"(challenger|champion)":' | strip_json > "eval_$name.json"
  hash_file "$out/eval_$name.json"
  find "eval_$name" -name '*.json.gz' | sort | while read -r f; do hash_file "$out/$f"; done
}
ev bots bot:greedy bot:random
ev ckpt "$ckpt" bot:greedy
ev ckpt_sampled "$ckpt" bot:greedy --sample --temperature 0.8
ev external "mjai:$hydra bot --model bot:greedy --seat {seat}" bot:random --mjai-logs "$out/mjai-logs"

# 4. Bot mode on a real game (every seat), with the greedy bot and the checkpoint.
if [ -n "${HYDRA_TESTDATA:-}" ] && [ -d "$HYDRA_TESTDATA/mjai" ]; then
  log=$(ls "$HYDRA_TESTDATA"/mjai/*.json.gz | sort | head -1)
  zcat "$log" > bot_in.jsonl
  for seat in 0 1 2 3; do
    "$hydra" bot --model bot:greedy --seat $seat < bot_in.jsonl > "bot_greedy_$seat.jsonl" 2> /dev/null
    "$hydra" bot --model "$ckpt" --device cpu --seat $seat < bot_in.jsonl > "bot_ckpt_$seat.jsonl" 2> /dev/null
    hash_file "$out/bot_greedy_$seat.jsonl"
    hash_file "$out/bot_ckpt_$seat.jsonl"
  done
else
  echo "fingerprint.sh: HYDRA_TESTDATA not set: bot mode left out" >&2
fi
echo "fingerprint.sh: $(wc -l < "$fp") results in $fp"
