#!/usr/bin/env bash
# model_agents.sh HYDRA MAKE_CHECKPOINT: a freshly initialised checkpoint plays as an agent in
# hydra eval (same seed -> byte-identical report on 1 and 2 threads; the logs replay clean),
# hydra selfplay --model (gzipped logs + stats.json, replay clean) and hydra bot --model (one
# legal reply per line of a whole game, no errors).
set -eu
hydra=$1
make_checkpoint=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$make_checkpoint" "$dir/tiny.ckpt"

args=(eval --challenger "$dir/tiny.ckpt" --champion bot:random --seeds 2 --seed 7 --device cpu --json)
"$hydra" "${args[@]}" --threads 1 > "$dir/a.json"
"$hydra" "${args[@]}" --threads 2 --logs "$dir/eval_logs" > "$dir/b.json"
diff "$dir/a.json" "$dir/b.json"
grep -q '"games": 8' "$dir/a.json"
"$hydra" replay --check "$dir/eval_logs"

"$hydra" selfplay --model "$dir/tiny.ckpt" --games 2 --seed 3 --out "$dir/sp" --device cpu
[ "$(ls "$dir/sp/logs" | wc -l)" -eq 2 ] || { echo "model_agents.sh: expected 2 selfplay logs" >&2; exit 1; }
grep -q '"agent": "'"$dir"'/tiny.ckpt"' "$dir/sp/stats.json"
"$hydra" replay --check "$dir/sp/logs"
"$hydra" selfplay --agents "bot:greedy,$dir/tiny.ckpt,random,bot:tsumogiri" --games 1 --seed 3 --out "$dir/mixed" --device cpu

# The bot plays seat 1 of a recorded game: every line gets exactly one reply, none an error.
log=$(ls "$dir/sp/logs"/*.json.gz | head -n 1)
zcat "$log" > "$dir/game.jsonl"
"$hydra" bot --model "$dir/tiny.ckpt" --seat 1 --device cpu < "$dir/game.jsonl" > "$dir/replies.jsonl" 2> "$dir/bot.err"
lines=$(grep -c . "$dir/game.jsonl")
replies=$(wc -l < "$dir/replies.jsonl")
[ "$lines" -eq "$replies" ] || { echo "model_agents.sh: $lines lines but $replies replies" >&2; exit 1; }
if grep -q "hydra bot: line" "$dir/bot.err"; then cat "$dir/bot.err" >&2; exit 1; fi
grep -q '"type":"dahai"' "$dir/replies.jsonl"

# A search agent as the bot (docs/EVAL.md "Search"): the same game, one reply per line, and every
# decision with two likely actions searched on a table rebuilt from the events (none refused).
search="search:$dir/tiny.ckpt:walls=2:threshold=0.05:candidates=2"
"$hydra" bot --model "$search" --seat 1 --device cpu < "$dir/game.jsonl" > "$dir/search.jsonl" 2> "$dir/search.err"
[ "$lines" -eq "$(wc -l < "$dir/search.jsonl")" ] || { echo "model_agents.sh: the search bot missed replies" >&2; exit 1; }
if grep -q "hydra bot: line\|no search at this decision" "$dir/search.err"; then cat "$dir/search.err" >&2; exit 1; fi
grep -Eq "$search: [0-9]+ decisions, [1-9][0-9]* searched" "$dir/search.err" || { cat "$dir/search.err" >&2; exit 1; }
# The bot's reply times count the decisions it asked of the agent: the search's own count of them.
asked=$(sed -n 's/.*bot: [0-9]* lines in .* replies asked the agent (\([0-9]*\) decisions).*/\1/p' "$dir/search.err")
counted=$(grep -F "$search: " "$dir/search.err" | sed -n 's/.*: \([0-9]*\) decisions, [0-9]* searched.*/\1/p')
[ -n "$asked" ] && [ "$asked" = "$counted" ] || { echo "model_agents.sh: the bot asked '$asked' decisions, the search counted '$counted'" >&2; cat "$dir/search.err" >&2; exit 1; }
# And in a review: the page's data carries the searches.
"$hydra" review "$dir/game.jsonl" --model "$search" --seat 1 --device cpu --out "$dir/review.html" --json "$dir/review.json" 2> "$dir/review.err"
grep -q '"search":' "$dir/review.json" || { cat "$dir/review.err" >&2; exit 1; }
if grep -q "no search at this decision" "$dir/review.err"; then cat "$dir/review.err" >&2; exit 1; fi
# A journal knows its checkpoints by their bytes: continued with the checkpoint trained again at the
# same path, it is refused (the games of two different networks never mix).
jargs=(eval --challenger "$dir/tiny.ckpt" --champion bot:random --seeds 1 --seed 7 --device cpu --json --journal "$dir/j.jsonl")
"$hydra" "${jargs[@]}" > "$dir/j1.json" 2> /dev/null
"$hydra" "${jargs[@]}" > "$dir/j2.json" 2> "$dir/j.err"
cmp "$dir/j1.json" "$dir/j2.json"
grep -q "eval: 1 of 1 seeds read back from the journal" "$dir/j.err" || { cat "$dir/j.err" >&2; exit 1; }
"$make_checkpoint" "$dir/tiny.ckpt" 2 32
if "$hydra" "${jargs[@]}" > /dev/null 2> "$dir/j.err"; then
  echo "model_agents.sh: a journal was continued with another checkpoint at its path" >&2; exit 1
fi
grep -q "j.jsonl:1: field 'run.files': the journal is of another run" "$dir/j.err" || { cat "$dir/j.err" >&2; exit 1; }
echo "model_agents.sh: eval reports identical, selfplay, bot and review played the checkpoint and its search; a journal refused a changed checkpoint"
