// The table view: the map or play area with every figure, the decisions of the figure you
// select (its squares and targets light up on the board), the dials the tray waits for (with
// the virtual tray's turn buttons), the narrated move list, the odds, the winner, and the first
// screen that picks who takes each seat. Drawn from the server's plain data (no rules here).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) =>
    ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const SEAT_COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a"];
  let selected = null;  // the figure whose decisions are shown
  let cellPick = null;  // a lit square reached more than one way: its options shown
  let lastKey = "";
  let G = null, S = null, lastG = null, gameN = 0;

  const seatColour = (g, seat) => SEAT_COLOURS[Math.max(0, g.seats.indexOf(seat)) % 4];
  const mine = (g, s) => g.to_move && s.people.includes(g.to_move) && !s.asking && s.phase !== "over";

  function send(obj) { window.dialtraySend(obj); }

  // ---- the first screen: who takes each seat ---------------------------------------------------
  function picker(g, s) {
    const box = $("seat-picker");
    box.hidden = !s.asking;
    if (!s.asking) return;
    const n = g.seats.length;
    const opts = [];
    g.seats.forEach((seat, i) => {
      const players = g.seats.map((_, j) => (j === i ? "human" : "bot"));
      opts.push([`Play ${seat} against ${n > 2 ? "bots" : "a bot"}`, players]);
    });
    opts.push(["Hot-seat: every seat a person at this screen", g.seats.map(() => "human")]);
    opts.push(["Watch: bots in every seat", g.seats.map(() => "bot")]);
    const html = `<h2>${esc(g.title)}: who plays?</h2>` + opts.map(([label, players]) =>
      `<button type="button" class="pick" data-players="${players.join(",")}">${esc(label)}</button>`).join("");
    if (box.dataset.html !== html) { box.dataset.html = html; box.innerHTML = html; }
  }
  $("seat-picker").addEventListener("click", (ev) => {
    const b = ev.target.closest("button.pick");
    if (b) send({ op: "seats", players: b.dataset.players.split(",") });
  });

  // ---- the board --------------------------------------------------------------------------------
  const CELL = 24;
  function gridSvg(g, b, sel, act) {
    const W = b.w * CELL, H = b.h * CELL;
    const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="-14 -14 ${W + 16} ${H + 16}" role="img" aria-label="the map ${esc(b.name)}: ${b.w} by ${b.h} squares">`];
    for (let i = 0; i < b.terrain.length; i++) {
      const x = (i % b.w) * CELL, y = Math.floor(i / b.w) * CELL, t = b.terrain[i];
      const fill = t === "#" ? "#4e342e" : t === "~" ? "#a5d6a7" : "#f5f0e1";
      parts.push(`<rect x="${x}" y="${y}" width="${CELL}" height="${CELL}" fill="${fill}" stroke="#cfc8b0" stroke-width="0.5"/>`);
    }
    for (let x = 0; x < b.w; x++) parts.push(`<text x="${x * CELL + CELL / 2}" y="-4" font-size="9" text-anchor="middle">${String.fromCharCode(97 + x)}</text>`);
    for (let y = 0; y < b.h; y++) parts.push(`<text x="-7" y="${y * CELL + CELL / 2 + 3}" font-size="9" text-anchor="middle">${y + 1}</text>`);
    for (const [i, j] of b.walls) {
      const [ax, ay, bx, by] = [i % b.w, Math.floor(i / b.w), j % b.w, Math.floor(j / b.w)];
      if (ay === by) parts.push(`<line x1="${Math.max(ax, bx) * CELL}" x2="${Math.max(ax, bx) * CELL}" y1="${ay * CELL}" y2="${(ay + 1) * CELL}" stroke="#212121" stroke-width="3"/>`);
      else parts.push(`<line y1="${Math.max(ay, by) * CELL}" y2="${Math.max(ay, by) * CELL}" x1="${ax * CELL}" x2="${(ax + 1) * CELL}" stroke="#212121" stroke-width="3"/>`);
    }
    for (const m of act.moves) {
      const x = m.to.charCodeAt(0) - 97, y = Number(m.to.slice(1)) - 1;
      parts.push(`<rect class="dest" tabindex="0" role="button" aria-label="${esc(m.label)}" data-text="${esc(m.text)}" data-square="${esc(m.to)}" x="${x * CELL + 2}" y="${y * CELL + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4"><title>${esc(m.label)}</title></rect>`);
    }
    for (const f of b.figures) {
      if (!f.at) continue;
      const cx = f.at[0] * CELL + CELL / 2, cy = f.at[1] * CELL + CELL / 2;
      parts.push(figureMark(g, f, cx, cy, CELL * 0.42, sel, act, null));
    }
    parts.push("</svg>");
    return parts.join("");
  }

  function areaSvg(g, b, sel, act) {
    const k = 14, W = b.w * k, H = b.h * k;
    const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="-20 -20 ${W + 40} ${H + 40}" role="img" aria-label="the play area, ${b.w} by ${b.h} inches">`,
      `<rect width="${W}" height="${H}" fill="#bbdefb" stroke="#0d47a1" stroke-width="2"/>`];
    for (let i = 6; i < b.w; i += 6) parts.push(`<line x1="${i * k}" x2="${i * k}" y1="0" y2="${H}" stroke="#90caf9"/><line y1="${i * k}" y2="${i * k}" x1="0" x2="${W}" stroke="#90caf9"/>`);
    for (const f of b.figures) {
      if (!f.at) continue;
      // the approximate table may put a plane past the edge: drawn on the edge, said in words
      const [x, y] = [Math.min(b.w, Math.max(0, f.at[0])), Math.min(b.h, Math.max(0, f.at[1]))];
      const out = x !== f.at[0] || y !== f.at[1];
      parts.push(figureMark(g, out ? { ...f, state: "past the edge" } : f, x * k, y * k, 13, sel, act, f.heading));
    }
    parts.push("</svg>");
    return parts.join("");
  }

  // FASA: flat-topped hexes, odd columns half a hex down (the mapsheet's column,row); a plane's
  // arrow points along its facing (A up the sheet).
  function hexSvg(g, b, sel, act) {
    const R = 16, dx = 1.5 * R, dy = Math.sqrt(3) * R;
    const at = (c, r) => [c * dx + R, (r + (c & 1) / 2) * dy + dy / 2];
    const W = b.w * dx + R, H = (b.h + 0.5) * dy;
    const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="-4 -4 ${W + 8} ${H + 8}" role="img" aria-label="the mapsheet ${esc(b.name)}: ${b.w} by ${b.h} hexes">`];
    const hexPath = (cx, cy, r) => [0, 60, 120, 180, 240, 300].map((a) => `${(cx + r * Math.cos(a * Math.PI / 180)).toFixed(1)},${(cy + r * Math.sin(a * Math.PI / 180)).toFixed(1)}`).join(" ");
    const objs = new Map(b.objects.map((o) => [o.at.join(","), o]));
    for (let c = 0; c < b.w; c++) for (let r = 0; r < b.h; r++) {
      const [cx, cy] = at(c, r);
      const o = objs.get(`${c},${r}`);
      const fill = o ? (o.blocks ? "#5d4037" : "#ffe082") : "#e3f2fd";
      parts.push(`<polygon points="${hexPath(cx, cy, R - 0.5)}" fill="${fill}" stroke="#90caf9">${o ? `<title>${esc(o.name)}</title>` : ""}</polygon>`);
    }
    for (const f of b.figures) {
      if (!f.at) continue;
      const [cx, cy] = at(f.at[0], f.at[1]);
      parts.push(figureMark(g, f, cx, cy, R * 0.55, sel, act, (f.heading + 180) % 360, `facing ${f.facing}`));
    }
    parts.push("</svg>");
    return parts.join("");
  }

  // Sky Ace: the playmat's cells around the start (0,0), each with the cards laid on it (the top
  // card drawn last), the pawns on their cells, a lit cell where the selected pawn may move.
  function matSvg(g, b, sel, act) {
    const C = 58;
    const pts = b.cells.map((c) => c.at).concat(b.figures.filter((f) => f.at).map((f) => f.at)).concat(act.moves.map((m) => m.to.split(",").map(Number)));
    if (!pts.length) pts.push([0, 0]);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const x0 = Math.min(...xs) - 1, y0 = Math.min(...ys) - 1, x1 = Math.max(...xs) + 1, y1 = Math.max(...ys) + 1;
    const X = (x) => (x - x0) * C, Y = (y) => (y - y0) * C;
    const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 ${(x1 - x0 + 1) * C} ${(y1 - y0 + 1) * C}" role="img" aria-label="the playmat">`,
      `<rect width="100%" height="100%" fill="#33691e"/>`];
    for (const c of b.cells) {
      const top = c.cards[c.cards.length - 1];
      const col = top.colour === "red" ? "#c62828" : "#111";
      parts.push(`<g><title>${esc(c.cell)}: ${esc(c.cards.map((k) => k.card + " (" + k.owner + ")").join(", "))}</title>` +
        `<rect x="${X(c.at[0]) + 3}" y="${Y(c.at[1]) + 3}" width="${C - 6}" height="${C - 6}" rx="6" fill="#fff" stroke="${seatColour(g, top.owner)}" stroke-width="3"/>` +
        `<text x="${X(c.at[0]) + 8}" y="${Y(c.at[1]) + 20}" font-size="15" font-weight="bold" fill="${col}">${esc(top.card)}</text>` +
        (c.cards.length > 1 ? `<text x="${X(c.at[0]) + C - 8}" y="${Y(c.at[1]) + C - 8}" font-size="10" text-anchor="end">×${c.cards.length}</text>` : "") + "</g>");
    }
    const seen = new Set();
    for (const m of act.moves) {
      if (seen.has(m.to)) continue;
      seen.add(m.to);
      const [x, y] = m.to.split(",").map(Number);
      parts.push(`<rect class="dest" tabindex="0" role="button" aria-label="move to ${esc(m.to)}" data-square="${esc(m.to)}" x="${X(x) + 6}" y="${Y(y) + 6}" width="${C - 12}" height="${C - 12}" rx="6"><title>move to ${esc(m.to)}</title></rect>`);
    }
    for (const f of b.figures) {
      if (!f.at) continue;
      parts.push(figureMark(g, f, X(f.at[0]) + C * 0.62, Y(f.at[1]) + C * 0.62, 13, sel, act, null));
    }
    parts.push("</svg>");
    return parts.join("");
  }

  // Every figure in a line: its seat, name, what its dial shows (HeroClix's dial trackers).
  function roster(g, b) {
    const vals = (f) => Object.entries(f.values || {}).map(([k, v]) => `${k} ${v}`).join(" · ") ||
      (f.speed !== undefined ? `speed ${f.speed} · combat click ${f.click}` : "");
    return `<table class="roster"><tr><th>figure</th><th>seat</th><th>now</th></tr>` + b.figures.map((f) =>
      `<tr data-figure="${esc(f.label)}" class="${f.state ? "down" : ""}${f.label === selected ? " sel" : ""}"><td><b>${esc(f.label)}</b> ${esc(f.name)}${f.facing ? " (facing " + esc(f.facing) + ")" : ""}</td>` +
      `<td><span class="dot" style="background:${seatColour(g, f.seat)}"></span>${esc(f.seat)}</td><td>${esc(f.state || vals(f))}</td></tr>`).join("") + "</table>";
  }

  function hands(g, s, b) {
    if (!b.hands) return "";
    return b.hands.map((h) => {
      const shown = !s.people.length || s.people.includes(h.seat);
      const cards = shown ? h.cards.map((c) => `<span class="card ${/[DH]$/.test(c) ? "red" : ""}">${esc(c)}</span>`).join("") :
        `<span class="note">${h.cards.length} cards (hidden)</span>`;
      return `<p class="hand"><b>${esc(h.seat)}'s hand</b> (${b.draw[h.seat] ?? 0} to draw): ${cards || '<span class="note">empty</span>'}</p>`;
    }).join("");
  }

  // A figure: a disc (a character) or a plane's arrow pointing where it faces, in its seat's
  // colour, its label written on it; the selected one ringed, a target ringed red.
  function figureMark(g, f, cx, cy, r, sel, act, heading, facingWords) {
    const col = seatColour(g, f.seat);
    const target = act.targets.some((t) => t.target === f.label);
    const cls = ["fig", f.label === sel ? "sel" : "", target ? "target" : "", f.state ? "down" : ""].join(" ");
    const shape = heading === null ?
      `<circle r="${r}" fill="${col}"/>` :
      `<g transform="rotate(${heading})"><polygon points="0,${r * 1.3} ${-r},${-r} 0,${-r * 0.4} ${r},${-r}" fill="${col}"/></g>`;
    const facing = heading === null ? "" : `, ${facingWords || "facing " + Math.round(heading) + "°"}`;
    return `<g class="${cls}" data-figure="${esc(f.label)}" transform="translate(${cx.toFixed(1)},${cy.toFixed(1)})" tabindex="0" role="button" aria-label="${esc(f.label)} (${esc(f.seat)})${facing}">` +
      `<title>${esc(f.name)} — ${esc(f.seat)}${facing}${f.state ? " — " + esc(f.state) : ""}</title>` +
      (target ? `<circle r="${r + 5}" class="ring-target"/>` : "") +
      (f.label === sel ? `<circle r="${r + 4}" class="ring-sel"/>` : "") + shape +
      `<text y="${heading === null ? 4 : r + 12}" font-size="${heading === null ? 9 : 11}" text-anchor="middle" class="figlabel">${esc(f.label.slice(0, heading === null ? 3 : 4))}</text></g>`;
  }

  // ---- decisions --------------------------------------------------------------------------------
  function actOf(g, label) {
    const f = g.choices.figures.find((x) => x.label === label);
    return f || { label, moves: [], targets: [], other: [] };
  }
  const btn = (d, cls) => `<button type="button" class="act ${cls || ""}" data-text="${esc(d.text)}" title="${esc(d.text)}">${esc(d.label)}</button>`;

  function decisions(g, s, act) {
    const me = mine(g, s);
    const figs = g.choices.figures;
    const parts = [];
    if (g.pending && s.people.length) {
      parts.push(`<p class="pending">The table will take <b>${esc(g.pending)}</b> unless you object ` +
        `<button type="button" class="object">✋ Object</button></p>`);
    }
    if (!me) {
      parts.push(`<p class="note">${g.winner ? "The game is over." : s.asking ? "Pick the seats first." :
        g.to_move ? esc(g.to_move) + (s.people.includes(g.to_move) ? " to decide" : " is a bot: it decides") + " — watch the board and the move list." : "The table settles a step."}</p>`);
      return parts.join("");
    }
    if (figs.length) {
      parts.push(`<p class="figpick"><b>Select a figure:</b> ` + figs.map((f) =>
        `<button type="button" class="figbtn${f.label === selected ? " on" : ""}" data-figure="${esc(f.label)}">${esc(f.label)}</button>`).join(" ") + "</p>");
    }
    if (act && (act.moves.length || act.targets.length || act.other.length)) {
      parts.push(`<h3>${esc(act.label)}</h3>`);
      const there = cellPick ? act.moves.filter((m) => m.to === cellPick) : [];
      if (there.length) parts.push(`<div class="group"><b>To ${esc(cellPick)}:</b> ${there.map((d) => btn(d, "how")).join("")}</div>`);
      else if (act.moves.length) parts.push(`<p class="note">${new Set(act.moves.map((m) => m.to)).size} places it may move to light up on the board: click one.</p>`);
      if (act.targets.length) parts.push(`<div class="group"><b>Targets</b> ${act.targets.map((d) => btn(d, "tgt")).join("")}</div>`);
      if (act.other.length) parts.push(`<div class="group"><b>Other</b> ${act.other.map((d) => btn(d)).join("")}</div>`);
      if (act.moves.length) parts.push(`<details class="group"><summary>squares as a list (${act.moves.length})</summary>${act.moves.map((d) => btn(d)).join("")}</details>`);
    }
    if (g.choices.general.length) parts.push(`<div class="group"><b>Decide</b> ${g.choices.general.map((d) => btn(d)).join("")}</div>`);
    return parts.join("");
  }

  function fullList(g, s) {
    const me = mine(g, s);
    const all = [];
    for (const f of g.choices.figures) for (const k of ["moves", "targets", "other"]) for (const d of f[k]) all.push(d.text);
    for (const d of g.choices.general) all.push(d.text);
    return `<summary>All ${g.choices.count} legal decisions in notation</summary>` +
      (me ? `<form class="typed t-typed"><label for="t-typed-text">Type a decision</label>` +
        `<input id="t-typed-text" autocomplete="off" maxlength="200"><button type="submit">Decide</button></form>` : "") +
      (me ? all.map((t) => `<button type="button" class="act note-act" data-text="${esc(t)}">${esc(t)}</button>`).join("") : "<p class='note'>(none for you now)</p>");
  }

  // ---- the dials the tray waits for ---------------------------------------------------------
  function dials(s, g) {
    const out = [];
    const seatOf = new Map(g.board.figures.map((f) => [f.label, f.seat]));
    for (const d of s.docks) d.readers.forEach((r) => {
      if (!r.expect && !r.flag && !r.fault && !r.turn) return;
      const what = `dock ${d.dock} ${r.reader} dial`;
      const say = r.flag ? `⚑ ${r.flag.text}` : r.fault ? `⚠ ${r.fault}` : r.expect ? `↻ ${r.expect}` : `⋯ being turned`;
      const seat = seatOf.get(r.figure);
      const person = s.people.includes(seat) || (seat === undefined && s.people.length > 0);
      const buttons = s.sim && person ? `<span class="simturn">` +
        `<button type="button" class="turn" data-dock="${d.dock}" data-reader="${r.reader_index}" data-clicks="-1" aria-label="turn the virtual ${esc(what)} 1 click counter-clockwise">⟲ −1</button>` +
        `<button type="button" class="turn" data-dock="${d.dock}" data-reader="${r.reader_index}" data-clicks="1" aria-label="turn the virtual ${esc(what)} 1 click clockwise">⟳ +1</button></span>` : "";
      out.push(`<li class="${r.flag || r.fault ? "flag" : r.expect ? "expect" : "moving"}" data-dock="${d.dock}" data-reader="${r.reader_index}" data-turn="${r.turn}" data-mine="${person ? 1 : 0}"><span>${esc(r.figure)}${seat ? " (" + esc(seat) + ")" : ""}, ${esc(what)}: ${esc(say)}</span>${buttons}</li>`);
    });
    return out.length ? `<h3>Turn these dials</h3><ul class="dials">${out.join("")}</ul>` : "";
  }

  // The dial list is patched in place, row by row (keyed by dock and reader): rewriting it whole
  // on every push (a bot's dial turning, a flag's words) replaced the +1/−1 buttons between a
  // person's press and release, and the click was lost.
  function patchDials(box, html) {
    if (box.dataset.html === html) return;
    box.dataset.html = html;
    const tpl = document.createElement("template");
    tpl.innerHTML = html;
    const fresh = tpl.content.querySelector("ul.dials"), ul = box.querySelector("ul.dials");
    if (!fresh || !ul) { box.innerHTML = html; return; }
    const key = (li) => `${li.dataset.dock}/${li.dataset.reader}`;
    const old = new Map([...ul.children].map((li) => [key(li), li]));
    const rows = [...fresh.children].map((li) => {
      const o = old.get(key(li));
      if (!o) return li;
      for (const a of ["class", "data-turn", "data-mine"]) {
        if (o.getAttribute(a) !== li.getAttribute(a)) o.setAttribute(a, li.getAttribute(a));
      }
      const said = o.querySelector(":scope > span:not(.simturn)"), says = li.querySelector(":scope > span:not(.simturn)");
      if (said && says && said.outerHTML !== says.outerHTML) said.replaceWith(says);
      const ob = o.querySelector(".simturn"), nb = li.querySelector(".simturn");
      if ((ob ? ob.outerHTML : "") !== (nb ? nb.outerHTML : "")) { if (ob) ob.remove(); if (nb) o.appendChild(nb); }
      return o;
    });
    for (const li of [...ul.children]) if (!rows.includes(li)) li.remove();
    rows.forEach((li, i) => { if (ul.children[i] !== li) ul.insertBefore(li, ul.children[i] || null); });
  }

  // ---- the move list, odds, winner ----------------------------------------------------------
  function moves(g) {
    return g.moves.map((m) => `<li value="${m.n}"><b>${esc(m.who ? m.who + ": " : "")}${esc(m.text)}</b>` +
      (m.caused.length ? ` — ${esc(m.caused.join("; "))}` : "") +
      (m.clicks.length ? `<br><span class="clicks">↻ ${esc(m.clicks.join("; "))}</span>` : "") + "</li>").join("");
  }

  function odds(g, act) {
    if (!g.odds_model) return `<p class="note">No odds model for ${esc(g.title)} yet.</p>`;
    const mineOdds = act ? g.odds.filter((o) => o.label.split(" ").includes(act.label)) : g.odds;
    const list = mineOdds.length ? mineOdds : g.odds;
    if (!list.length) return '<p class="note">No attack is legal right now.</p>';
    const what = (o) => g.kind === "fasa" ? `${o.dice} to-hit roll${o.dice === 1 ? "" : "s"} · expected hits ${o.expected_clicks.toFixed(2)} · <b>at least one hit: ` :
      g.kind === "skyace" ? `${o.target} attack successes · expected LIFE lost ${o.expected_clicks.toFixed(2)} · <b>knock-out: ` :
      g.kind === "aces" ? `${o.dice} dice against defense ${o.target} · expected clicks ${o.expected_clicks.toFixed(2)} · <b>${o.label.startsWith("capture") ? "captured" : "knocked out"}: ` :
      `${o.dice} dice, hit on ${o.target}+ · expected clicks ${o.expected_clicks.toFixed(2)} · <b>shot down: `;
    return list.slice(0, 4).map((o) => `<div class="shot"><h4>${esc(o.label)}</h4><p>${what(o)}` +
      `${(100 * (g.kind === "fasa" ? 1 - o.clicks[0] : o.shot_down)).toFixed(1)}%</b></p>${o.svg}</div>`).join("");
  }

  function winner(g) {
    const w = g.winner;
    if (!w) return "";
    return `<h2>■ ${w.winner ? esc(w.winner) + " wins" : "No winner"}</h2><p>${esc(w.why)}</p>` +
      `<table class="vp"><tr><th>seat</th><th>VP</th></tr>${w.vp.map((r) => `<tr><td>${esc(r.seat)}</td><td>${r.vp}</td></tr>`).join("")}</table>`;
  }

  function draw() {
    const g = G, s = S;
    if (!g || !s) return;
    picker(g, s);
    const figs = g.choices.figures;
    if (!figs.some((f) => f.label === selected)) selected = figs.length === 1 || (figs.length && mine(g, s)) ? figs[0].label : null;
    const act = selected && mine(g, s) ? actOf(g, selected) : { moves: [], targets: [], other: [] };
    if (g !== lastG) { lastG = g; gameN++; cellPick = null; }
    const key = JSON.stringify([gameN, selected, cellPick, s.asking, s.people, s.phase]);
    const dialsHtml = dials(s, g);
    patchDials($("t-dials"), dialsHtml);
    const you = g.to_move && s.people.includes(g.to_move) ? (s.people.length > 1 ? " (a person here)" : " (you)") : g.to_move ? " (a bot)" : "";
    $("t-head").textContent = `${g.title} — ${g.header || ""}${g.to_move ? " — " + g.to_move + " to decide" + you : ""}` +
      (s.phase === "over" ? " — the game is over" : "") + (s.error ? " — ✖ " + s.error : "") +
      (s.link && s.link !== "live" && s.link !== "catching up" ? ` — ✖ the tray's link is ${s.link}` : "");
    if (key === lastKey) return;
    lastKey = key;
    const b = g.board;
    $("board").innerHTML = (b.kind === "grid" ? gridSvg(g, b, selected, act) :
      b.kind === "area" ? areaSvg(g, b, selected, act) : b.kind === "hex" ? hexSvg(g, b, selected, act) :
      b.kind === "mat" ? matSvg(g, b, selected, act) : '<p class="note">No board for this game.</p>') + hands(g, s, b) +
      `<details class="t-roster"><summary>Figures (${b.figures.length})</summary>${roster(g, b)}</details>`;
    const off = b.figures.filter((f) => !f.at);
    $("board-note").textContent = (b.places ? `Places: ${b.places}. ` : "") +
      (off.length ? "Not on the board: " + off.map((f) => f.label + (f.state ? ` (${f.state})` : "")).join(", ") : "");
    $("t-decide").innerHTML = decisions(g, s, act);
    $("t-all").innerHTML = fullList(g, s);
    const ml = $("t-moves"), mhtml = moves(g);
    if (ml.dataset.html !== mhtml) {  // only a new move redraws the list (and scrolls to it)
      ml.dataset.html = mhtml;
      ml.innerHTML = mhtml;
      ml.scrollTop = ml.scrollHeight;
    }
    $("t-odds").innerHTML = odds(g, selected ? act : null);
    $("t-winner").innerHTML = winner(g);
    $("t-winner").hidden = !g.winner;
    window.dialtray.table = { selected, key, shown: performance.timeOrigin + performance.now() };
  }

  function pick(label) { selected = label; cellPick = null; lastKey = ""; draw(); }
  function decide(text) { $("t-result").textContent = ""; send({ op: "decide", text, seat: G && G.to_move }); }

  $("view-table").addEventListener("click", (ev) => {
    if (ev.target.closest("details.panel")) return;  // the tray's and notation's own buttons
    const dest = ev.target.closest(".dest");
    if (dest && G && selected) {
      const options = actOf(G, selected).moves.filter((m) => m.to === dest.dataset.square);
      if (options.length === 1) return decide(options[0].text);
      cellPick = dest.dataset.square;  // several ways to get there: the page asks which
      lastKey = "";
      return draw();
    }
    const a = ev.target.closest("button.act");
    if (a) return decide(a.dataset.text);
    if (ev.target.closest("button.object")) return send({ op: "object" });
    const t = ev.target.closest("button.turn");
    if (t) return send({ op: "turn", dock: Number(t.dataset.dock), reader: Number(t.dataset.reader), clicks: Number(t.dataset.clicks) });
    const f = ev.target.closest("[data-figure]");
    if (f && G) {
      const label = f.dataset.figure;
      const act = selected ? actOf(G, selected) : null;
      const hit = act && act.targets.filter((x) => x.target === label);
      if (hit && hit.length === 1 && label !== selected) return decide(hit[0].text);
      return pick(label);
    }
  });

  $("view-table").addEventListener("submit", (ev) => {
    if (!ev.target.closest(".t-typed")) return;
    ev.preventDefault();
    decide($("t-typed-text").value);
  });

  // the board by keyboard: a figure or a lit square takes Enter or Space like a click
  $("view-table").addEventListener("keydown", (ev) => {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest && ev.target.closest("#board [data-figure], #board .dest")) {
      ev.preventDefault();
      ev.target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });

  window.tableView = (s, g) => { S = s; G = g; draw(); };
})();
