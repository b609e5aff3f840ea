#!/usr/bin/env bash
# review_page.sh HYDRA MAKE_CHECKPOINT: hydra review of a real game (docs/REVIEW.md).
#   - bad input is one `hydra: error:` line naming the file or flag, status 1, nothing written;
#   - the page of seat 0, rendered by headless Chromium with every host name mapped to an
#     unreachable address, runs its #selftest (keyboard navigation through every decision, then
#     the summary) and the dumped DOM shows: one list entry per decision, at every decision the
#     top action, its probability and the taken action's exactly as `hydra review --json` gives
#     Hydra's evaluation, the last decision reached, and no resource loaded.
# Skips (77) without HYDRA_TESTDATA or without chromium (scripts/setup.sh installs it).
set -eu
hydra=$1
make_checkpoint=$2
if [ -z "${HYDRA_TESTDATA:-}" ] || [ ! -d "$HYDRA_TESTDATA/tenhou_xml" ]; then
  echo "review_page.sh: HYDRA_TESTDATA is not set or has no tenhou_xml/: real-data test skipped"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
game=$(ls "$HYDRA_TESTDATA"/tenhou_xml/*.xml | head -n 1)
"$make_checkpoint" "$dir/tiny.ckpt"

fail() { echo "review_page.sh: $*" >&2; exit 1; }
# expect_error PATTERN ARGS...: status 1, one error line matching PATTERN, no page written.
expect_error() {
  local pattern=$1
  shift
  set +e
  "$hydra" "$@" > "$dir/stdout.txt" 2> "$dir/stderr.txt"
  local rc=$?
  set -e
  [ "$rc" -eq 1 ] || { cat "$dir/stderr.txt" >&2; fail "expected status 1, got $rc: $*"; }
  [ "$(grep -c 'hydra: error:' "$dir/stderr.txt")" -eq 1 ] || { cat "$dir/stderr.txt" >&2; fail "expected one error line: $*"; }
  grep -Eq "hydra: error: .*$pattern" "$dir/stderr.txt" || { cat "$dir/stderr.txt" >&2; fail "expected /$pattern/: $*"; }
  [ ! -e "$dir/e.html" ] || fail "a page was written on error: $*"
  [ -z "$(ls -A "$dir" | grep '^\.e\.html')" ] || fail "a temporary file was left: $*"
}
ck=$dir/tiny.ckpt
expect_error "'$dir/none.xml': no such game file" review "$dir/none.xml" --model "$ck" --out "$dir/e.html"
printf 'not a log\n' > "$dir/bad.json"
expect_error "$dir/bad.json" review "$dir/bad.json" --model "$ck" --out "$dir/e.html"
expect_error "--seat: must be 0, 1, 2, 3 or all, got '4'" review "$game" --model "$ck" --seat 4 --out "$dir/e.html"
expect_error "--kyoku 99: '.*' has [0-9]+ kyoku, numbered 1 to [0-9]+" review "$game" --model "$ck" --kyoku 99 --out "$dir/e.html"
expect_error "--model: no checkpoint file '$dir/none.ckpt'" review "$game" --model "$dir/none.ckpt" --out "$dir/e.html"
expect_error "--model: 'bot:greedy' is a built-in bot" review "$game" --model bot:greedy --out "$dir/e.html"
expect_error "$game" review "$game" --model "$game" --out "$dir/e.html" --device cpu
expect_error "--out: cannot write '/nonexistent-dir/r.html'" review "$game" --model "$ck" --out /nonexistent-dir/r.html

"$hydra" review "$game" --model "$ck" --seat 0 --device cpu --out "$dir/r.html" --json "$dir/r.json" > "$dir/summary.txt"
grep -Eq "^review: [0-9]+ decisions, agreement [0-9.]+%, .*r.html \([0-9]+ KB\) in [0-9.]+ s$" "$dir/summary.txt" ||
  { cat "$dir/summary.txt" >&2; fail "unexpected summary line"; }
grep -q "default-src 'none'" "$dir/r.html" || fail "no Content-Security-Policy in the page"

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "review_page.sh: chromium is not installed (scripts/setup.sh installs Debian's chromium): browser checks skipped"
  exit 77
fi
# Every host name resolves to port 9 of a TEST-NET address, so a request could not succeed; the
# page reports the resources it loaded itself (performance entries), which must be none.
timeout 180 "$chromium" --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$dir/profile" \
  --host-resolver-rules="MAP * 192.0.2.1:9" --virtual-time-budget=20000 \
  --dump-dom "file://$dir/r.html#selftest" > "$dir/dom.html" 2> "$dir/chromium.err" ||
  { tail -n 20 "$dir/chromium.err" >&2; fail "chromium failed"; }

python3 - "$dir/dom.html" "$dir/r.json" <<'PY'
import html, json, re, sys
from decimal import Decimal, ROUND_HALF_UP
dom = open(sys.argv[1], encoding="utf-8").read()
review = json.load(open(sys.argv[2], encoding="utf-8"))
m = re.search(r'<pre id="selftest-result">(\{.*?)</pre>', dom, re.S)
if not m:
    sys.exit("review_page.sh: the page's self-test left no result in the DOM")
r = json.loads(html.unescape(m.group(1)))
ds = review["decisions"]
def pct(p):  # JavaScript's (p * 100).toFixed(1) + "%"
    return str(Decimal(p * 100).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)) + "%"
errors = []
if not ds: errors.append("no decisions")
if any(d["seat"] != 0 for d in ds): errors.append("a decision of another seat")
if r["entries"] != len(ds): errors.append(f"{r['entries']} list entries for {len(ds)} decisions")
if r["decisions"] != len(ds): errors.append("the page holds another number of decisions")
if r["last_reached"] != len(ds) - 1: errors.append(f"navigation reached {r['last_reached']}, not {len(ds) - 1}")
if not r["summary_shown"]: errors.append("the summary did not open")
if r["resources"] != 0: errors.append(f"{r['resources']} resources loaded")
if len(r["shown"]) != len(ds): errors.append(f"{len(r['shown'])} decisions visited of {len(ds)}")
for k, (s, d) in enumerate(zip(r["shown"], ds)):
    want = {"i": k, "top": d["choices"][0][1], "top_prob": pct(d["choices"][0][2]), "taken": d["taken_label"],
            "taken_prob": pct(d["taken_prob"]), "disagreement": d["taken"] != d["agent"]}
    if s != want:
        errors.append(f"decision {k}: shown {s}, expected {want}")
        if len(errors) > 5: break
if errors:
    sys.exit("review_page.sh: " + "; ".join(errors))
agree = sum(d["taken"] == d["agent"] for d in ds)
print(f"review_page.sh: {len(ds)} decisions shown as evaluated ({agree} agreements), last reached, no resource loaded")
PY
