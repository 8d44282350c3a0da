// The "Call the judge" button of a table at an event (dialtray serve --event): GET /api/call
// says whether the table is at an event and whether its call is pending (until a ruling from the
// hub reaches the table); POST /api/call makes the call. Without an event the button stays
// hidden. The state is always said in words (and a sign), never by colour alone.
"use strict";
(() => {
  const el = (id) => document.getElementById(id);
  const box = el("judge-call"), form = el("call-form"), btn = el("call-button"),
    note = el("call-note"), out = el("call-status");
  const q = new URLSearchParams(location.search);
  const key = q.get("key") ? "?key=" + encodeURIComponent(q.get("key")) : "";
  let refusal = "";  // the server's last refusal, shown until the state changes
  let lastState = "";
  const at = (t) => new Date(t * 1000).toLocaleTimeString();

  function show(s) {
    window.dialtray_call = s;  // for the tests that watch the page
    if (!s.at_event) { box.hidden = true; clearInterval(timer); return; }  // (for the server's life)
    box.hidden = false;
    let text, state;
    if (s.pending) {
      state = "pending";
      text = `◷ Judge called at ${at(s.pending.at)} (“${s.pending.note}”) — pending: the judge ` +
        "answers at the hub";
      btn.textContent = "◷ Judge called — pending";
    } else {
      state = s.answered ? "answered" : "idle";
      text = s.answered ? "✔ The judge answered" +
        (s.answered.ruling === "note" ? "" : `: ${s.answered.ruling}`) +
        (s.answered.why ? ` — ${s.answered.why}` : "") + ` (${at(s.answered.at)})` :
        `Table ${s.table} at event ${s.event}: the button calls the judge to this table.`;
      btn.textContent = "☎ Call the judge";
    }
    if (!s.connected) text += " (the hub is not reachable now: a call goes when it is)";
    if (state !== lastState) { refusal = ""; lastState = state; }
    btn.dataset.state = state;
    out.dataset.state = refusal ? "refused" : state;
    out.textContent = refusal ? "✖ " + refusal : text;
  }

  async function poll() {
    try {
      const r = await fetch("/api/call" + key, { cache: "no-store" });
      if (r.ok) show(await r.json());
    } catch (e) { /* the server is away: the websocket's status line says so */ }
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    btn.disabled = true;
    try {
      const r = await fetch("/api/call" + key, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ note: note.value }),
      });
      const m = await r.json();
      if (r.ok) { note.value = ""; refusal = ""; lastState = "pending"; }
      else refusal = m.error || `refused (${r.status})`;
      if (m.at_event) show(m); else { out.dataset.state = "refused"; out.textContent = "✖ " + refusal; }
    } catch (e) {
      refusal = "the table's server did not answer: try again";
      out.dataset.state = "refused"; out.textContent = "✖ " + refusal;
    } finally { btn.disabled = false; }
  });

  const timer = setInterval(poll, 1500);
  poll();
})();
