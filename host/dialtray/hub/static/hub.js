// The event hub page: follows the hub over a websocket (each message is the whole state) and
// sends the judge's rulings. Text is always set with textContent (table ids and notes come from
// the tables).
"use strict";
let retry = 300;
const $ = (id) => document.getElementById(id);
function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}
function conn(state, text) { const c = $("conn"); c.dataset.state = state; c.textContent = text; }

let clock = null;
function tick() {
  if (!clock) return;
  const left = Math.max(0, Math.round(clock.ends - Date.now() / 1000));
  const mm = String(Math.floor(left / 60)).padStart(2, "0"), ss = String(left % 60).padStart(2, "0");
  $("round").textContent = `round ${clock.round}: ${left ? mm + ":" + ss + " left" : "time is up"}`;
}
setInterval(tick, 1000);

function render(s) {
  clock = s.round ? { round: s.round.round, ends: Date.now() / 1000 + s.round.left_s } : null;
  tick();
  renderCalls(s);
  const board = $("tables");
  board.replaceChildren();
  for (const t of s.tables) {
    const st = t.state || {};
    const d = el("div", null, { class: "tbl", "data-table": t.id, "data-presence": t.presence });
    d.append(el("strong", t.id), el("div", `${t.presence === "online" ? "● online" : "○ " + t.presence}`),
             el("div", st.phase ? `phase: ${st.phase}` : "phase: —", { class: "phase" }),
             el("div", `records held: ${t.records}`));
    if (st.dials) d.append(el("div", `dials: ${Object.entries(st.dials).map(([k, v]) => k + " " + v).join(", ")}`, { class: "dials" }));
    if (st.game !== undefined) d.append(el("div", `game ${st.game ?? "?"}${st.to_move ? ", to move: " + st.to_move : ""}`, { class: "game" }));
    if (st.due && Object.keys(st.due).length) d.append(el("div", `to turn: ${Object.entries(st.due).map(([k, v]) => k + " " + (v > 0 ? "+" : "") + v).join(", ")}`, { class: "due" }));
    if (st.flags && st.flags.length) d.append(el("div", `⚑ ${st.flags.join(", ")}`, { class: "flags" }));
    if (typeof st.left_s === "number") d.append(el("div", `table's clock: ${Math.floor(st.left_s / 60)}:${String(st.left_s % 60).padStart(2, "0")} left`, { class: "left" }));
    if (st.click !== undefined) d.append(el("div", `click #${st.click}`, { class: "click" }));
    board.append(d);
  }
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  s.standings.forEach((r, i) => {
    const tr = el("tr", null, { "data-player": r.player });
    for (const v of [i + 1, r.player, r.points, r.vp, r.sos, r.played, r.byes]) tr.append(el("td", v));
    body.append(tr);
  });
  const q = $("quarantine");
  q.replaceChildren(...s.quarantine.map((x) => el("li", x.reason)));
  if (s.quarantined > s.quarantine.length) q.append(el("li", `… ${s.quarantined - s.quarantine.length} older quarantined messages (hub_quarantine)`));
  const db = $("db");
  db.hidden = !s.db;
  db.textContent = s.db || "";
}

// The judge's queue is updated in place, each call's row kept by its id: rebuilt on every
// state push (several a second while tables play), a "Rule" button could be replaced between
// the press and the release of a click, and the click was lost.
function renderCalls(s) {
  const calls = $("calls");
  const open = s.calls.filter((c) => c.status === "open");
  $("calls-more").textContent = s.open_calls > open.length ? `… and ${s.open_calls - open.length} more open calls` : "";
  $("no-calls").hidden = open.length > 0;
  const ids = new Set(open.map((c) => String(c.id)));
  for (const li of [...calls.children]) if (!ids.has(li.dataset.call)) li.remove();
  for (const c of open) {
    const st = (s.tables.find((t) => t.id === c.table) || {}).state;  // the table as it is now
    const now = st ? `[${st.phase || "—"}${st.flags && st.flags.length ? "; ⚑ " + st.flags.join(", ") : ""}] ` : "";
    let li = [...calls.children].find((x) => x.dataset.call === String(c.id));
    if (!li) {
      li = el("li", `table ${c.table}, game ${c.game ?? "?"}: ${c.note} `, { "data-call": c.id });
      const b = el("button", "Rule: play on", { "data-rule": c.id });
      b.onclick = () => rule(c.id, b);
      li.append(el("span", now, { class: "call-state" }), b);
      calls.append(li);
    } else {
      const span = li.querySelector(".call-state");
      if (span.textContent !== now) span.textContent = now;
    }
  }
}

async function rule(call, button) {
  button.disabled = true;
  const r = await fetch("/api/rule", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ call, ruling: "note", args: {}, why: "judge: play on" }) });
  if (!r.ok) { button.disabled = false; alert((await r.json()).error); }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  ws.onopen = () => { retry = 300; conn("live", "● hub connected"); };
  ws.onmessage = (m) => {
    const s = JSON.parse(m.data);
    if (s.op === "state") { render(s); document.body.dataset.at = s.at; }
    else if (s.op === "error") conn("down", s.message);
  };
  ws.onclose = () => { conn("down", "○ reconnecting…"); setTimeout(connect, retry); retry = Math.min(retry * 2, 5000); };
}
connect();
