// The review page's own style and script (page.cpp puts them inline). The script reads the JSON
// in #review-data and draws everything; text from the data is always escaped (esc) or set as
// textContent. Tiles are inline SVG drawn by tileSvg(). docs/REVIEW.md describes the page.

namespace hydra::review {

extern const char* const kPageStyle;
extern const char* const kPageScript;

const char* const kPageStyle = R"CSS(
:root { --bg: #f4f1ea; --panel: #fffdf8; --ink: #222; --muted: #777; --bad: #c0392b; --good: #2e7d32; --accent: #1f5f99; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--ink); }
header { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 8px 12px; background: #23313f; color: #eee; }
header h1 { font-size: 16px; margin: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 40vw; }
header .meta { color: #bcc; font-size: 12px; }
header button { background: #3b5166; color: #fff; border: 0; border-radius: 4px; padding: 4px 10px; cursor: pointer; font: inherit; }
header button:hover { background: #4d6a86; }
#kyoku-tabs { display: flex; flex-wrap: wrap; gap: 4px; padding: 6px 12px; background: #dfe6ec; }
#kyoku-tabs button { border: 1px solid #9ab; background: #fff; border-radius: 4px; padding: 2px 8px; cursor: pointer; font: inherit; font-size: 12px; }
#kyoku-tabs button.current { background: var(--accent); color: #fff; border-color: var(--accent); }
#kyoku-tabs button.has-bad { box-shadow: inset 0 -3px 0 var(--bad); }
main { display: grid; grid-template-columns: 230px 1fr 330px; gap: 10px; padding: 10px; align-items: start; }
#list { position: relative; max-height: calc(100vh - 120px); overflow-y: auto; background: var(--panel); border: 1px solid #ccc; border-radius: 6px; }
#list h3 { margin: 0; padding: 4px 8px; font-size: 12px; background: #e8e3d6; position: sticky; top: 0; }
.entry { display: flex; gap: 6px; padding: 2px 8px; cursor: pointer; font-size: 12px; border-left: 4px solid transparent; }
.entry:hover { background: #eef3f8; }
.entry.bad { border-left-color: var(--bad); background: #fbeeee; }
.entry.current { background: #d6e6f6; outline: 1px solid var(--accent); }
.entry .t { color: var(--muted); min-width: 48px; }
#board { background: #2f6b4f; border-radius: 8px; padding: 10px; color: #f3f3f3; display: grid; gap: 8px;
  grid-template-areas: ". top ." "left center right" ". bottom ."; grid-template-columns: 1fr 230px 1fr; }
.seat { background: rgba(0,0,0,0.18); border-radius: 6px; padding: 6px; min-height: 90px; }
.seat.me { outline: 2px solid #f5d76e; }
.seat .who { font-size: 12px; margin-bottom: 4px; display: flex; gap: 8px; align-items: center; }
.seat .riichi-stick { display: inline-block; width: 40px; height: 6px; background: #fff; border-radius: 3px; position: relative; }
.seat .riichi-stick::after { content: ""; position: absolute; left: 17px; top: 0; width: 6px; height: 6px; border-radius: 3px; background: var(--bad); }
.river, .melds, .hand { display: flex; flex-wrap: wrap; gap: 1px; align-items: flex-end; }
.river { max-width: 160px; }
.melds { margin-top: 4px; gap: 6px; }
.meld { display: flex; gap: 1px; align-items: flex-end; }
#center { grid-area: center; background: rgba(0,0,0,0.28); border-radius: 6px; padding: 8px; text-align: center; font-size: 13px; }
#center .round { font-size: 18px; font-weight: 600; }
#seat-top { grid-area: top; } #seat-left { grid-area: left; } #seat-right { grid-area: right; } #seat-bottom { grid-area: bottom; }
.hand-row { grid-column: 1 / -1; background: rgba(0,0,0,0.25); border-radius: 6px; padding: 8px; display: flex; gap: 14px; align-items: flex-end; flex-wrap: wrap; }
.hand-row .label { font-size: 12px; color: #dde; }
.offered { display: inline-flex; gap: 6px; align-items: center; font-size: 12px; }
#side { background: var(--panel); border: 1px solid #ccc; border-radius: 6px; padding: 10px; }
#side.bad { border: 2px solid var(--bad); }
#side h2 { font-size: 15px; margin: 0 0 6px; }
.verdict { font-weight: 600; padding: 4px 8px; border-radius: 4px; margin: 6px 0; }
.verdict.ok { background: #e3f3e4; color: var(--good); }
.verdict.bad { background: #fbe4e1; color: var(--bad); }
table.choices { width: 100%; border-collapse: collapse; font-size: 13px; }
table.choices td { padding: 2px 4px; }
table.choices tr.taken td { font-weight: 700; }
table.choices tr.agent td:first-child::before { content: "\2605 "; color: #b8860b; }
.bar { height: 10px; background: var(--accent); border-radius: 2px; }
.kv { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; font-size: 13px; margin-top: 8px; }
.kv b { font-weight: 600; }
#summary-view { background: var(--panel); border: 1px solid #ccc; border-radius: 6px; padding: 12px 16px; margin: 10px; }
#summary-view h2 { margin-top: 0; }
#summary-view table { border-collapse: collapse; margin: 6px 0 14px; font-size: 13px; }
#summary-view th, #summary-view td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
#summary-view th { background: #eee; }
#summary-view td.l, #summary-view th.l { text-align: left; }
#summary-view tr.link { cursor: pointer; }
#summary-view tr.link:hover { background: #eef3f8; }
.help { font-size: 12px; color: var(--muted); margin-top: 10px; }
kbd { border: 1px solid #aaa; border-radius: 3px; padding: 0 4px; background: #fafafa; font-size: 11px; }
.hidden { display: none !important; }
svg.tile { display: block; }
)CSS";

const char* const kPageScript = R"JS(
"use strict";
const DATA = JSON.parse(document.getElementById("review-data").textContent);
const D = DATA.decisions;
const WIND = { E: "East", S: "South", W: "West", N: "North" };
const SEATWORD = ["self", "shimocha", "toimen", "kamicha"];
let cur = 0;
let view = "decision";

function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
// The address follows the view (a link opens one decision); some browsers refuse it for files.
function setHash(h) {
  try { history.replaceState(null, "", h); } catch (e) { /* the view works without it */ }
}
function pct(p) { return (p * 100).toFixed(1) + "%"; }
function seatName(s) { return "seat " + s + (DATA.names[s] ? " (" + DATA.names[s] + ")" : ""); }

// A tile as inline SVG: suit tiles show the number in the suit's colour over the suit letter,
// red fives in red on a tinted face; winds E S W N; dragons: haku an empty blue frame, hatsu F,
// chun C. opts: side (drawn sideways), dim (tsumogiri), gone (called away), small.
const SUIT = { m: ["#8b1a1a", "m"], p: ["#1f4e8c", "p"], s: ["#1d6b33", "s"] };
function tileSvg(name, opts) {
  opts = opts || {};
  const w = opts.small ? 18 : 24, h = opts.small ? 24 : 32;
  const W = opts.side ? h : w, H = opts.side ? w : h;
  let face = "#fbf8ef", body = "";
  const red = name.length === 3 && name[2] === "r";
  if (name === "?") {
    face = "#c9a45c";
  } else if (/^[1-9][mps]r?$/.test(name)) {
    const [col, letter] = SUIT[name[1]];
    if (red) face = "#fde3e0";
    body = '<text x="12" y="17" font-size="15" font-weight="700" text-anchor="middle" fill="' + (red ? "#d11" : col) + '">' + name[0] + "</text>" +
      '<text x="12" y="28" font-size="9" text-anchor="middle" fill="' + col + '">' + letter + "</text>";
  } else if ("ESWN".includes(name)) {
    body = '<text x="12" y="22" font-size="16" font-weight="700" text-anchor="middle" fill="#222">' + name + "</text>";
  } else if (name === "P") {
    body = '<rect x="6" y="8" width="12" height="16" fill="none" stroke="#2a5db0" stroke-width="2"/>';
  } else if (name === "F") {
    body = '<text x="12" y="22" font-size="16" font-weight="700" text-anchor="middle" fill="#1d7a3a">F</text>';
  } else if (name === "C") {
    body = '<text x="12" y="22" font-size="16" font-weight="700" text-anchor="middle" fill="#c0392b">C</text>';
  }
  const rot = opts.side ? ' transform="translate(32 0) rotate(90)"' : "";
  const op = opts.gone ? 0.35 : opts.dim ? 0.62 : 1;
  return '<svg class="tile" width="' + W + '" height="' + H + '" viewBox="0 0 ' + (opts.side ? "32 24" : "24 32") + '" opacity="' + op + '">' +
    '<title>' + esc(name) + (opts.dim ? " (tsumogiri)" : "") + (opts.side ? " (riichi)" : "") + (opts.gone ? " (called)" : "") + "</title>" +
    "<g" + rot + '><rect x="0.5" y="0.5" width="23" height="31" rx="3" fill="' + face + '" stroke="#6b6b6b"/>' + body + "</g></svg>";
}
function tiles(list, opts) { return list.map(t => tileSvg(t, opts)).join(""); }

function decisionLabel(d) {
  return DATA.kyoku[d.kyoku].label + " t" + d.turn;
}

function buildLayout() {
  const app = document.getElementById("app");
  app.innerHTML =
    '<header><h1 id="title"></h1><span class="meta" id="meta"></span>' +
    '<button id="btn-prev" title="previous decision (Left)">&larr;</button>' +
    '<span id="pos"></span>' +
    '<button id="btn-next" title="next decision (Right)">&rarr;</button>' +
    '<button id="btn-bad" title="next disagreement (N)">next disagreement</button>' +
    '<button id="btn-summary" title="summary (S)">summary</button></header>' +
    '<nav id="kyoku-tabs"></nav>' +
    // Not id="summary": the address #summary would make the browser scroll to it.
    '<div id="summary-view" class="hidden"></div>' +
    '<main id="decision-view"><div id="list"></div><div id="board"></div><div id="side"></div></main>';
  document.getElementById("title").textContent = "Review of " + DATA.game.split("/").pop();
  document.getElementById("title").title = DATA.game;
  document.getElementById("meta").textContent = "model " + DATA.model + " (step " + DATA.step + "), seats " +
    DATA.seats.join(", ") + ", " + D.length + " decisions, agreement " + pct(DATA.summary.agreement);
  document.getElementById("btn-prev").onclick = () => go(cur - 1);
  document.getElementById("btn-next").onclick = () => go(cur + 1);
  document.getElementById("btn-bad").onclick = () => nextBad(1);
  document.getElementById("btn-summary").onclick = () => showSummary(view !== "summary");
  const tabs = document.getElementById("kyoku-tabs");
  DATA.kyoku.forEach((k, i) => {
    const first = D.findIndex(d => d.kyoku === i);
    const b = document.createElement("button");
    b.textContent = k.label;
    b.dataset.kyoku = i;
    if (first < 0) b.disabled = true;
    if (D.some(d => d.kyoku === i && d.taken !== d.agent)) b.classList.add("has-bad");
    b.onclick = () => { if (first >= 0) go(first); };
    tabs.appendChild(b);
  });
  const list = document.getElementById("list");
  let html = "", k = -1;
  D.forEach((d, i) => {
    if (d.kyoku !== k) { k = d.kyoku; html += "<h3>" + esc(DATA.kyoku[k].label) + "</h3>"; }
    html += '<div class="entry' + (d.taken !== d.agent ? " bad" : "") + '" data-i="' + i + '"><span class="t">' +
      (DATA.seats.length > 1 ? "S" + d.seat + " " : "") + "t" + d.turn + "</span><span>" + esc(d.taken_label) + "</span></div>";
  });
  list.innerHTML = html || "<h3>no decisions</h3>";
  list.addEventListener("click", e => {
    const el = e.target.closest(".entry");
    if (el) go(Number(el.dataset.i));
  });
  buildSummary();
}

function seatPanel(t, s, me) {
  const rel = (s - me + 4) % 4;
  const name = DATA.names[s] || "";
  let h = '<div class="who"><b>' + (s === t.oya ? "[dealer] " : "") + "seat " + s + "</b> " + esc(name) +
    " <span>" + t.scores[s] + "</span>" + (t.riichi[s] ? ' <span class="riichi-stick" title="riichi"></span>' : "") +
    ' <span style="opacity:.7">' + SEATWORD[rel] + "</span></div>";
  h += '<div class="river">' + t.rivers[s].map(([p, f]) => tileSvg(p, { dim: f & 1, side: f & 2, gone: f & 4, small: true })).join("") + "</div>";
  h += '<div class="melds">' + t.melds[s].map(m =>
    '<span class="meld" title="' + esc(m.kind) + '">' + m.tiles.map(p => tileSvg(m.kind === "ankan" ? p : p, { small: true })).join("") + "</span>").join("") + "</div>";
  return h;
}

function renderBoard(d) {
  const t = d.table, me = d.seat;
  const place = ["bottom", "right", "top", "left"];
  let h = "";
  for (let s = 0; s < 4; s++) {
    const rel = (s - me + 4) % 4;
    h += '<div class="seat' + (rel === 0 ? " me" : "") + '" id="seat-' + place[rel] + '">' + seatPanel(t, s, me) + "</div>";
  }
  h += '<div id="center"><div class="round">' + esc(WIND[t.bakaze] || t.bakaze) + " " + t.kyoku + "</div>" +
    "<div>" + t.honba + " honba, " + t.kyotaku + " riichi stick" + (t.kyotaku === 1 ? "" : "s") + "</div>" +
    "<div>" + t.live + (t.live === 1 ? " tile" : " tiles") + " left</div>" +
    '<div style="margin-top:6px">dora indicators</div><div class="hand" style="justify-content:center">' + tiles(t.dora, { small: true }) + "</div></div>";
  h += '<div class="hand-row"><div><div class="label">' + esc(seatName(me)) + " hand</div><div class=\"hand\">" + tiles(t.hand) +
    (t.drawn ? '<span style="width:10px"></span>' + tileSvg(t.drawn) : "") + "</div></div>";
  if (t.offered) h += '<div class="offered">answering ' + tileSvg(t.offered) + " from seat " + t.offered_by + "</div>";
  h += "</div>";
  document.getElementById("board").innerHTML = h;
}

function renderSide(d, i) {
  const bad = d.taken !== d.agent;
  const side = document.getElementById("side");
  side.className = bad ? "bad" : "";
  let h = "<h2>Decision " + (i + 1) + " of " + D.length + "</h2>";
  h += '<div class="kv"><b>round</b><span>' + esc(decisionLabel(d)) + "</span><b>seat</b><span>" + esc(seatName(d.seat)) +
    "</span><b>phase</b><span>" + esc(d.phase) + "</span><b>log event</b><span>" + d.event + "</span></div>";
  h += '<div class="verdict ' + (bad ? "bad" : "ok") + '" id="verdict">' + (bad ? "Disagreement" : "Agreement") + "</div>";
  const top = d.choices[0];
  h += '<div class="kv"><b>played</b><span id="taken">' + esc(d.taken_label) + ' <span id="taken-prob">' + pct(d.taken_prob) + "</span></span>" +
    '<b>model</b><span id="top">' + '<span id="top-label">' + esc(top[1]) + '</span> <span id="top-prob">' + pct(top[2]) + "</span></span>" +
    '<b>value</b><span id="value">' + d.value.toFixed(3) + "</span></div>";
  h += '<table class="choices"><tbody>';
  const most = Math.max(top[2], 1e-9);  // bars relative to the most probable action
  d.choices.slice(0, 8).forEach(c => {
    h += '<tr class="' + (c[0] === d.taken ? "taken " : "") + (c[0] === d.agent ? "agent" : "") + '"><td>' + esc(c[1]) + "</td><td>" + pct(c[2]) +
      '</td><td style="width:45%"><div class="bar" style="width:' + (100 * c[2] / most).toFixed(1) + '%"></div></td></tr>';
  });
  if (d.choices.length > 8) h += '<tr><td colspan="3" style="color:#777">' + (d.choices.length - 8) + " more legal actions</td></tr>";
  h += "</tbody></table>";
  if (d.search) {
    const label = a => (d.choices.find(c => c[0] === a) || [a, String(a)])[1];
    h += '<div class="kv"><b>search</b><span id="search">' + esc(d.search.label) + "</span></div>";
    h += '<table class="choices"><tbody>';
    d.search.values.forEach(v => {
      h += '<tr class="' + (v[0] === d.search.action ? "agent" : "") + '"><td>' + esc(label(v[0])) + "</td><td>" + v[1].toFixed(3) + "</td></tr>";
    });
    h += "</tbody></table>";
  }
  h += '<div class="help">&#9733; the model\'s choice, bold: what was played. <kbd>&larr;</kbd>/<kbd>&rarr;</kbd> decision, ' +
    "<kbd>&uarr;</kbd>/<kbd>&darr;</kbd> kyoku, <kbd>N</kbd>/<kbd>P</kbd> next/previous disagreement, <kbd>Home</kbd>/<kbd>End</kbd>, <kbd>S</kbd> summary</div>";
  side.innerHTML = h;
}

function render() {
  if (!D.length) return;
  const d = D[cur];
  renderBoard(d);
  renderSide(d, cur);
  document.getElementById("pos").textContent = (cur + 1) + " / " + D.length;
  document.querySelectorAll(".entry.current").forEach(e => e.classList.remove("current"));
  const el = document.querySelector('.entry[data-i="' + cur + '"]');
  if (el) {
    // Scrolls the list only (never the window), leaving room for the sticky kyoku heading.
    el.classList.add("current");
    const list = document.getElementById("list");
    const top = el.offsetTop - 26, bottom = el.offsetTop + el.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }
  document.querySelectorAll("#kyoku-tabs button").forEach(b => b.classList.toggle("current", Number(b.dataset.kyoku) === d.kyoku));
  document.body.dataset.current = String(cur);
}

function go(i) {
  if (!D.length) return;
  cur = Math.max(0, Math.min(D.length - 1, i));
  showSummary(false);
  render();
  if (!selftesting) setHash("#d=" + (cur + 1));
}
function nextKyoku(dir) {
  const k = D[cur].kyoku;
  if (dir > 0) { const i = D.findIndex(d => d.kyoku > k); if (i >= 0) go(i); }
  else {
    const firstOfThis = D.findIndex(d => d.kyoku === k);
    if (cur > firstOfThis) { go(firstOfThis); return; }
    let i = firstOfThis - 1;
    if (i < 0) return;
    const kk = D[i].kyoku;
    go(D.findIndex(d => d.kyoku === kk));
  }
}
function nextBad(dir) {
  for (let i = cur + dir; i >= 0 && i < D.length; i += dir)
    if (D[i].taken !== D[i].agent) { go(i); return; }
}

function buildSummary() {
  const S = DATA.summary;
  let h = "<h2>Summary</h2><p>" + S.decisions + " decisions reviewed, the model agrees with " + S.agreed + " (" + pct(S.agreement) + ").</p>";
  h += '<table><tr><th class="l">seat</th><th>decisions</th><th>agreement</th><th>mean value</th><th>final score</th><th>final placement points</th></tr>';
  S.seats.forEach(s => {
    h += '<tr><td class="l">' + esc(seatName(s.seat)) + "</td><td>" + s.decisions + "</td><td>" + pct(s.agreement) + "</td><td>" +
      s.mean_value.toFixed(3) + "</td><td>" + DATA.final_scores[s.seat] + "</td><td>" + s.final_points + "</td></tr>";
  });
  h += "</table><h3>Largest disagreements</h3>";
  if (!S.largest_disagreements.length) h += "<p>none</p>";
  else {
    h += '<table><tr><th class="l">decision</th><th class="l">seat</th><th class="l">played</th><th>p</th><th class="l">model</th><th>p</th></tr>';
    S.largest_disagreements.forEach(i => {
      const d = D[i];
      h += '<tr class="link" data-i="' + i + '"><td class="l">' + (i + 1) + " (" + esc(decisionLabel(d)) + ')</td><td class="l">' + d.seat + '</td><td class="l">' +
        esc(d.taken_label) + "</td><td>" + pct(d.taken_prob) + '</td><td class="l">' + esc(d.choices[0][1]) + "</td><td>" + pct(d.choices[0][2]) + "</td></tr>";
    });
    h += "</table>";
  }
  h += "<h3>Expected placement points (value head, first decision of each kyoku)</h3>";
  h += '<table><tr><th class="l">kyoku</th>' + DATA.seats.map(s => "<th>seat " + s + "</th>").join("") + '<th class="l">result</th></tr>';
  DATA.kyoku.forEach((k, i) => {
    h += '<tr><td class="l">' + esc(k.label) + "</td>" + DATA.seats.map(s => {
      const v = S.kyoku_values[i][s];
      return "<td>" + (v === null ? "-" : v.toFixed(3)) + "</td>";
    }).join("") + '<td class="l">' + esc(k.result) + "</td></tr>";
  });
  h += "</table>";
  h += '<p class="help">Keys: <kbd>&larr;</kbd>/<kbd>&rarr;</kbd> decision, <kbd>&uarr;</kbd>/<kbd>&darr;</kbd> kyoku, <kbd>N</kbd>/<kbd>P</kbd> disagreement, ' +
    "<kbd>Home</kbd>/<kbd>End</kbd> first/last, <kbd>S</kbd> summary. Click a row to open it.</p>";
  const el = document.getElementById("summary-view");
  el.innerHTML = h;
  el.addEventListener("click", e => {
    const tr = e.target.closest("tr.link");
    if (tr) go(Number(tr.dataset.i));
  });
}
function showSummary(on) {
  view = on ? "summary" : "decision";
  document.getElementById("summary-view").classList.toggle("hidden", !on);
  document.getElementById("decision-view").classList.toggle("hidden", on);
  if (on) window.scrollTo(0, 0);
  if (on && !selftesting) setHash("#summary");
}

document.addEventListener("keydown", e => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const k = e.key;
  if (k === "ArrowRight" || k === "j") go(cur + 1);
  else if (k === "ArrowLeft" || k === "k") go(cur - 1);
  else if (k === "ArrowDown" || k === "PageDown") nextKyoku(1);
  else if (k === "ArrowUp" || k === "PageUp") nextKyoku(-1);
  else if (k === "n" || k === "N") nextBad(1);
  else if (k === "p" || k === "P") nextBad(-1);
  else if (k === "Home") go(0);
  else if (k === "End") go(D.length - 1);
  else if (k === "s" || k === "S") showSummary(view !== "summary");
  else return;
  e.preventDefault();
});

// #selftest: steps through every decision with the keyboard handler, as a user would, reads
// back what the page shows, and writes the result as JSON into the element #selftest-result for a headless
// browser's --dump-dom (tests/cli/review_page.sh).
let selftesting = false;
function selftest() {
  selftesting = true;
  const key = k => document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
  const shown = [];
  key("Home");
  for (let step = 0; step < D.length; step++) {
    shown.push({
      i: Number(document.body.dataset.current),
      top: document.getElementById("top-label").textContent,
      top_prob: document.getElementById("top-prob").textContent,
      taken: document.getElementById("taken").firstChild.textContent.trim(),
      taken_prob: document.getElementById("taken-prob").textContent,
      disagreement: document.getElementById("side").classList.contains("bad"),
    });
    key("ArrowRight");
  }
  key("End");
  const last = Number(document.body.dataset.current);
  key("s");
  const summaryShown = !document.getElementById("summary-view").classList.contains("hidden");
  const result = {
    entries: document.querySelectorAll("#list .entry").length,
    decisions: D.length,
    last_reached: last,
    summary_shown: summaryShown,
    resources: performance.getEntriesByType("resource").length,
    shown: shown,
  };
  const pre = document.createElement("pre");
  pre.id = "selftest-result";
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
}

buildLayout();
const hash = location.hash;
const m = /^#d=(\d+)$/.exec(hash);
if (m) go(Number(m[1]) - 1);
else go(0);
if (hash === "#summary") showSummary(true);
if (hash === "#selftest") selftest();
)JS";

}  // namespace hydra::review
