// dialtray's table screen: follows the live game over a websocket, asks the server for the
// report, the odds and the judge's actions. No libraries, nothing fetched from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) =>
  ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

// What the page has shown, for people and for the tests/bench that watch it.
const seen = { rev: 0, state: null, renders: [], turns: [], odds: [], flags: [] };
window.dialtray = seen;

let ws = null;
let retry = 300;
let G = null;  // the game's latest message (legal decisions, odds)
let S = null;  // the latest state (tray, dice, log)
let lastFacts = "";
let gameRev = 0, gameShown = -1;
let resyncing = false;

// ---- tabs ----------------------------------------------------------------------------------
// One table screen (issue 30): the tray's docks and the full notation are panels on it (#tray,
// #game open them), the report and the judge are the other views.
const TABS = ["table", "report", "judge"];
const PANELS = ["tray", "game"];
function show(name) {
  const panel = PANELS.includes(name);
  if (panel) $("view-" + name).open = true;
  const view = panel ? "table" : name;
  for (const t of TABS) {
    $("tab-" + t).setAttribute("aria-selected", String(t === view));
    $("view-" + t).hidden = t !== view;
  }
  if (view === "report") loadGames();
  location.hash = name;
  if (panel) $("view-" + name).scrollIntoView({ block: "start" });
}
for (const t of TABS) $("tab-" + t).addEventListener("click", () => show(t));

// ---- the live game -------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = new URLSearchParams(location.search);
  const game = q.get("game");
  ws = new WebSocket(`${proto}//${location.host}/ws${game ? "?game=" + encodeURIComponent(game) : ""}`);
  ws.onopen = () => { retry = 300; conn("live", "● page connected"); };
  ws.onmessage = (ev) => {
    const arrived = performance.timeOrigin + performance.now();
    const m = JSON.parse(ev.data);
    if (m.op === "patch") { m.arrived = arrived; patch(m); }
    else if (m.op === "state") { m.arrived = arrived; resyncing = false; render(m, null); }
    else if (m.op === "game") { G = m.game; gameRev = m.game_rev; seen.game = G; seen.gameRev = gameRev; if (S) { renderGame(S); seen.state = { ...S, game: G }; if (window.tableView) window.tableView(S, G); } }
    else if (m.op === "seated") result(m);
    else if (m.op === "result") result(m);
    else if (m.op === "turned" && !m.ok) result(m);
    else if (m.op === "error") { conn("down", "✖ " + m.message); $("result").textContent = "✖ " + m.message; $("result").className = "result bad"; }
  };
  ws.onclose = (ev) => {
    const why = ev.code === 1009 ? "message too big: the server closed the connection" :
      ev.code === 4404 ? "" : "connection lost";
    if (why) conn("down", `○ ${why} — reconnecting…`);
    setTimeout(connect, ev.code === 4404 ? 5000 : retry);
    retry = Math.min(retry * 2, 5000);
  };
}
const htmlOf = new Map();
function setHtml(id, html) {  // touch the DOM only when the content changed
  if (htmlOf.get(id) !== html) { htmlOf.set(id, html); $(id).innerHTML = html; }
}
const textOf = new Map();
function setText(id, text) {  // likewise: an unchanged text is not written (no relayout)
  if (textOf.get(id) !== text) { textOf.set(id, text); $(id).textContent = text; }
}
function conn(state, text) { const c = $("conn"); c.dataset.state = state; c.textContent = text; }

window.dialtraySend = (obj) => send(obj);
function send(obj) {
  if (!ws || ws.readyState !== WebSocket.OPEN) { result({ ok: false, message: "not connected: try again in a moment" }); return; }
  ws.send(JSON.stringify(obj));
}

// A patch: what changed since the state whose rev is its base (the docks that changed, whole;
// other keys with their new values). A page that missed its base asks for the whole state.
function patch(m) {
  if (!S || m.rev <= seen.rev) return;
  if (m.base !== seen.rev) {  // asked once; the whole state comes in order, after the patches before it
    if (!resyncing) { resyncing = true; send({ op: "resync" }); }
    return;
  }
  const s = Object.assign({}, S, m.set, { rev: m.rev, received: m.received, sent: m.sent, arrived: m.arrived });
  for (const [k, [add, n]] of Object.entries(m.tails || {})) s[k] = (S[k] || []).concat(add).slice(-n);
  let only = new Set(m.docks.map((d) => d.dock));
  if (m.docks.length) {  // a dock whole, or its readers' changed fields
    const by = new Map(m.docks.map((d) => [d.dock, d]));
    s.docks = S.docks.map((d) => {
      const p = by.get(d.dock);
      if (!p) return d;
      if (p.readers) return p;
      const readers = d.readers.slice();
      for (const [i, f] of p.changes) readers[i] = Object.assign({}, readers[i], f);
      return { ...d, readers };
    });
  }
  if ("layout" in m.set || "sim" in m.set || "bots" in m.set) only = null;
  render(s, only);
}

function render(s, only) {
  S = s;
  seen.rev = s.rev; seen.state = { ...s, game: G };
  renderTray(s, only);
  const facts = JSON.stringify([s.dice.source, s.dice.error, s.dice.fairness, s.phase, s.bots]);
  if (G && gameShown !== gameRev) renderGame(s);
  else if (facts !== lastFacts && G) { lastFacts = facts; renderFacts(s); }
  const log = $("log");
  const text = s.log.join("\n");
  if (G && window.tableView) window.tableView(s, G);
  if (text === log.textContent) return finish(s);
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.textContent = text;
  if (atEnd) log.scrollTop = log.scrollHeight;  // follow the newest line unless scrolled back
  finish(s);
}

function finish(s) {
  const now = performance.timeOrigin + performance.now();  // ms since the epoch, sub-ms
  seen.renders.push({ rev: s.rev, received: s.received, sent: s.sent, arrived: s.arrived, shown: now });
  if (seen.renders.length > 5000) seen.renders.splice(0, 1000);
}

let simTray = false;
// A reader: its dial window (a picture from the server) and its words, drawn apart so a click —
// which changes the words, not the picture — redraws only the words.
function readerHtml(r, dock, i) {
  return `<div class="reader" id="dock-${dock}-r${i}" data-reader="${esc(r.reader)}" data-kind="${esc(r.kind)}">` +
    `${r.window}<div class="rbody">${readerBody(r, dock)}</div></div>`;
}

function readerBody(r, dock) {
  const bits = [];
  const click = r.click === null ? "not set yet" : `click ${r.click}`;
  bits.push(`<p>${esc(r.figure)} ${esc(r.kind)} dial — the rules say ${esc(click)}${r.in_play ? "" : " — out of play"}</p>`);
  if (r.damage !== null) bits.push(`<p>damage so far: <b>${r.damage}</b> click${r.damage === 1 ? "" : "s"}</p>`);
  if (r.fault && !(r.flag && r.flag.text === r.fault)) bits.push(`<p class="flag" role="alert">⚠ ${esc(r.fault)}</p>`);
  if (r.flag) bits.push(`<p class="flag" role="alert" data-flag="${esc(r.flag.kind)}">⚑ ${esc(r.flag.text)}</p>`);
  if (r.eye) {  // its encoder lost track: a player looks at it and says which click it shows
    const what = `dock ${dock} ${r.reader} dial`;
    bits.push(`<form class="eye" data-dock="${dock}" data-reader="${r.reader_index}">` +
      `<label>it shows click <input type="number" name="click" min="0" max="${r.eye.clicks - 1}" step="1" required value="${r.eye.click === null ? "" : r.eye.click}" aria-label="the click the ${esc(what)} shows"></label> ` +
      `<button type="submit" class="eye" aria-label="confirm the ${esc(what)} by eye">Confirm by eye</button></form>`);
  }
  else if (r.expect) bits.push(`<p class="expect" data-expect="${r.turn}">↻ ${esc(r.expect)}</p>`);
  else if (r.turn) bits.push(`<p class="moving" data-off="${-r.turn}">⋯ being turned: ${Math.abs(r.turn)} click${Math.abs(r.turn) === 1 ? "" : "s"} off</p>`);
  else if (r.status === "ok") bits.push(`<p class="okline">✔ as the rules say</p>`);
  if (simTray) {
    const what = `dock ${dock} ${r.reader} dial`;
    bits.push(`<div class="simturn">` +
      `<button type="button" class="turn" data-dock="${dock}" data-reader="${r.reader_index}" data-clicks="-1" aria-label="turn the virtual ${esc(what)} 1 click counter-clockwise">⟲ −1</button>` +
      `<button type="button" class="turn" data-dock="${dock}" data-reader="${r.reader_index}" data-clicks="1" aria-label="turn the virtual ${esc(what)} 1 click clockwise">⟳ +1</button></div>`);
  }
  return bits.join("");
}

// The docks keep their places on the table: columns and rows are the layout's distinct x and y
// centres in order (a grid, so a dock's card never hides its neighbour).
function places(L) {
  const xs = [...new Set(Object.values(L.docks).map((c) => Math.round(c[0])))].sort((a, b) => a - b);
  const ys = [...new Set(Object.values(L.docks).map((c) => Math.round(c[1])))].sort((a, b) => a - b);
  return { xs, ys };
}

let trayFrame = "";
const drawn = new Map();

function dockHead(d, L, P) {
  const c = L.docks[String(d.dock)] || [0, 0];
  const flag = d.readers.some((r) => r.flag || r.fault);
  const due = d.readers.some((r) => r.expect);
  const out = d.readers.every((r) => !r.in_play);
  const status = flag ? "flag" : due ? "turn" : out ? "out" : "ok";
  const icon = { flag: "⚑", turn: "↻", out: "✕", ok: "✔" }[status];
  const names = [...new Set(d.readers.map((r) => r.figure))].join(" + ");
  return `<article class="dock" id="dock-${d.dock}" data-dock="${d.dock}" data-status="${status}" ` +
    `style="grid-column:${P.xs.indexOf(Math.round(c[0])) + 1};grid-row:${P.ys.indexOf(Math.round(c[1])) + 1}" ` +
    `aria-label="dock ${d.dock}: ${esc(names)}, ${status}">` +
    `<h3>${icon} dock ${d.dock}: ${esc(names)}</h3>`;
}

// Redraw what changed of a dock: all of it when its card (status, names) changed, else only the
// readers' windows or words that did.
function drawDock(d, L) {
  const head = dockHead(d, L, trayPlaces);
  const wins = d.readers.map((r) => r.window);
  const bodies = d.readers.map((r) => readerBody(r, d.dock));
  const was = drawn.get(d.dock);
  drawn.set(d.dock, { head, wins, bodies });
  if (!was || was.head !== head || was.wins.length !== wins.length) {
    $("dock-" + d.dock).outerHTML = head + d.readers.map((r, i) => readerHtml(r, d.dock, i)).join("") + "</article>";
    return;
  }
  d.readers.forEach((r, i) => {
    const el = $(`dock-${d.dock}-r${i}`);
    if (was.wins[i] !== wins[i]) el.firstElementChild.outerHTML = wins[i];
    if (was.bodies[i] !== bodies[i]) el.lastElementChild.innerHTML = bodies[i];
  });
}

let trayPlaces = null;
// only = the docks a patch changed (a click changes one): only those are rebuilt and redrawn,
// so the page keeps up; null = everything (a whole state).
function renderTray(s, only) {
  simTray = s.sim && !s.bots;
  const L = s.layout;
  const tray = $("tray");
  if (!only || !trayPlaces) {
    only = null;
    trayPlaces = places(L);
    tray.style.gridTemplateColumns = `repeat(${trayPlaces.xs.length}, minmax(0, 1fr))`;
    const frame = JSON.stringify([L, s.docks.map((d) => d.dock), simTray]);
    if (frame !== trayFrame) {
      trayFrame = frame;
      tray.innerHTML = s.docks.map((d) => `<article id="dock-${d.dock}"></article>`).join("");
      drawn.clear();
    }
  }
  for (const d of s.docks) {
    if (only && !only.has(d.dock)) continue;
    drawDock(d, L);
    const now = performance.timeOrigin + performance.now();  // in the DOM now
    for (const r of d.readers) {
      if (r.expect) seen.turns.push({ dock: d.dock, text: r.expect, rev: s.rev });
      if (r.flag) seen.flags.push({ dock: d.dock, kind: r.flag.kind, text: r.flag.text, rev: s.rev, shown: now });
    }
  }
  if (seen.turns.length > 2000) seen.turns.splice(0, 500);
  if (seen.flags.length > 2000) seen.flags.splice(0, 500);
  setText("layout-note", L.source === "grid" ?
    "No tray layout file: docks drawn on a grid (the camera calibration writes calibration/tray_layout.json)." :
    `Tray layout: ${L.source}`);
  const link = s.link === "live" || s.link === "catching up" ? "" :
    ` — ✖ the tray's link is ${s.link}: clicks are kept on the tray and arrive when it is back`;
  setText("phase-line", s.error ? "✖ " + s.error : (link ? link.slice(3) + " · " : "") +
    `${s.phase === "start-check" ? "Start check: set every dial to its start click" :
      s.phase === "over" ? "■ The game is over" : "▶ Play"} — ${s.to_move ? s.to_move + " to decide" : ""}`);
  setHtml("waiting", "<b>The tray waits for:</b><ul>" +
    s.waiting_for.map((w) => `<li>${esc(w)}</li>`).join("") + "</ul>");
  setHtml("rulings", !(s.rulings || []).length ? "" : "<b>⚖ The judge:</b><ul>" +
    s.rulings.map((w) => `<li${w.startsWith("a ruling was refused") ? ' class="bad"' : ""}>${esc(w)}</li>`).join("") + "</ul>");
  const d = s.dice.last;
  setHtml("dice", d ? `<p>${esc(d.purpose)}: <b>${d.faces.join(" ")}</b></p>${d.svg}` : "<p>no roll yet</p>");
}

function renderFacts(s) {
  $("g-phase").textContent = s.phase;
  $("g-dice").textContent = s.dice.source + (s.dice.error ? ` — ✖ ${s.dice.error}` : "");
  $("g-fair").textContent = s.dice.fairness;
  $("bots-note").hidden = !s.bots;
  $("typed").querySelector("button").disabled = s.bots;
  for (const b of $("legal").querySelectorAll("button")) b.disabled = s.bots;
}

function renderGame(s) {
  const g = G;
  gameShown = gameRev;
  lastFacts = JSON.stringify([s.dice.source, s.dice.error, s.dice.fairness, s.phase, s.bots]);
  renderFacts(s);
  $("g-move").textContent = g.to_move || "—";
  $("g-history").textContent = g.history;
  $("g-outcome").textContent = (g.outcome || "not over") +
    (Object.keys(g.vp).length ? " — VP " + Object.entries(g.vp).map(([k, v]) => `${k} ${v}`).join(", ") : "");
  const seat = $("seat");
  if (seat.options.length !== g.seats.length + 1) {
    seat.innerHTML = '<option value="">whoever is to decide</option>' +
      g.seats.map((x) => `<option>${esc(x)}</option>`).join("");
  }
  $("legal-count").textContent = `(${g.legal_count}${g.legal_count > g.legal.length ? ", first " + g.legal.length + " shown" : ""})`;
  $("legal").innerHTML = g.legal.map((t) =>
    `<button type="button" class="act" data-text="${esc(t)}"${s.bots ? " disabled" : ""}>${esc(t)}</button>`).join("");
  $("calc").hidden = g.kind !== "airaction";  // the calculator is an Air Action shot's
  if (g.kind !== "airaction") $("calc-out").innerHTML = "";
  const odds = $("odds");
  if (!g.odds_model) odds.innerHTML = `<p class="note">No odds model for ${esc(g.kind)} shots.</p>`;
  else if (!g.odds.length) odds.innerHTML = '<p class="note">No shot is legal right now.</p>';
  else {
    odds.innerHTML = g.odds.map((o) => `<div class="shot"><h3>${esc(o.label)}</h3>` +
      `<p>${o.dice} dice, hit on ${o.target}+ · expected clicks ${o.expected_clicks.toFixed(3)} · ` +
      `<b>shot down: ${(100 * o.shot_down).toFixed(2)}%</b> (${esc(o.shot_down_exact)})</p>${o.svg}</div>`).join("");
    for (const o of g.odds) seen.odds.push({ label: o.label, dice: o.dice, target: o.target, clicks_left: o.clicks_left, clicks: o.clicks, shot_down: o.shot_down });
  }
}

function result(m) {
  for (const id of ["result", "t-result"]) said(id, m);
}
function said(id, m) {
  const r = $(id);
  r.className = "result " + (m.ok ? "ok" : "bad");
  const said = String(m.message || "");
  r.textContent = (m.ok ? "✔ " : "✖ ") + (m.text && !said.startsWith(m.text) ? m.text + ": " : "") + said;
}

$("tray").addEventListener("click", (ev) => {
  const b = ev.target.closest("button.turn");
  if (b) send({ op: "turn", dock: Number(b.dataset.dock), reader: Number(b.dataset.reader), clicks: Number(b.dataset.clicks) });
});
$("tray").addEventListener("submit", (ev) => {
  const f = ev.target.closest("form.eye");
  if (!f) return;
  ev.preventDefault();
  const v = f.elements.click.value.trim();
  send({ op: "eye", dock: Number(f.dataset.dock), reader: Number(f.dataset.reader), click: v === "" ? null : Number(v), seat: $("seat").value || null });
});
$("legal").addEventListener("click", (ev) => {
  const b = ev.target.closest("button.act");
  if (b) send({ op: "decide", text: b.dataset.text, seat: $("seat").value || null });
});
$("typed").addEventListener("submit", (ev) => {
  ev.preventDefault();
  send({ op: "decide", text: $("typed-text").value, seat: $("seat").value || null });
});

// ---- odds calculator -----------------------------------------------------------------------
$("calc").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const q = new URLSearchParams({ dice: $("c-dice").value, target: $("c-target").value });
  if ($("c-left").value) q.set("clicks_left", $("c-left").value);
  if ($("c-fate").checked) q.set("defensive_fate", "1");
  const r = await fetch("/api/odds?" + q);
  const o = await r.json();
  $("calc-out").innerHTML = r.ok ?
    `<p>${esc(o.label)} · <b>shot down: ${(100 * o.shot_down).toFixed(2)}%</b> (${esc(o.shot_down_exact)})</p>${o.svg}` :
    `<p class="bad" role="alert">✖ ${esc(o.error)}</p>`;
});

// ---- report --------------------------------------------------------------------------------
async function loadGames() {
  const r = await fetch("/api/games");
  const j = await r.json();
  if (!r.ok) { $("report-error").textContent = "✖ " + j.error; return; }
  const sel = $("report-game");
  const keep = sel.value;
  sel.innerHTML = j.games.map((g) => `<option value="${g.id}">${g.id}: ${esc(g.kind)} — ${esc(g.status)}${g.live ? " (live)" : ""}</option>`).join("");
  if (keep) sel.value = keep; else if (j.live) sel.value = String(j.live);
  if (!$("j-game").value && j.live) $("j-game").value = j.live;
}
$("report-refresh").addEventListener("click", loadGames);
$("report-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const r = await fetch("/api/report/" + encodeURIComponent($("report-game").value));
  const j = await r.json();
  $("report-error").textContent = r.ok ? "" : "✖ " + j.error;
  $("report").innerHTML = r.ok ? j.html : "";
});

// ---- judge ---------------------------------------------------------------------------------
async function judge(what, body) {
  const r = await fetch("/api/judge/" + what, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: $("j-token").value, game: $("j-game").value, ...body }) });
  const j = await r.json();
  const out = $("judge-result");
  out.className = "result " + (r.ok ? "ok" : "bad");
  out.dataset.status = String(r.status);
  out.textContent = r.ok ? "✔ " + (j.done || j.summary) + ((j.shown || []).length ? " — " + j.shown.join("; ") : "") : "✖ " + j.error;
  return r.ok ? j : null;
}
$("judge-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const dock = $("j-dock").value;
  const j = await judge("verify", dock === "" ? {} : { dock: Number(dock) });
  $("judge-out").innerHTML = !j ? "" : '<ul class="verify">' + j.dials.map((d) =>
    `<li class="${d.ok ? "ok" : "bad"}">${d.ok ? "✔" : "✖"} <b>${esc(d.label)}</b>: ${esc(d.status)}` +
    (d.fix ? ` — <b>${d.look ? "" : "put right: "}${esc(d.fix)}</b>` : "") +
    `<details><summary>click history (${d.history.length})</summary><pre>${esc(d.history.join("\n") || "never turned")}</pre></details></li>`).join("") + "</ul>";
});
$("ruling-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const args = {};
  for (const m of $("j-args").value.matchAll(/(\w+)=("[^"]*"|\S+)/g)) {
    const v = m[2].replace(/^"|"$/g, "");
    args[m[1]] = /^[+-]?\d+$/.test(v) ? Number(v) : v;
  }
  await judge("rule", { ruling: $("j-ruling").value, args, why: $("j-why").value });
});

show([...TABS, ...PANELS].includes(location.hash.slice(1)) ? location.hash.slice(1) : "table");
connect();
