"""The table's screen (issue 13): a local web UI for the live tray, the game, the report and
the judge.

One more consumer at the end of the chain (sensor → link → tracker → engine → store → *UI*): it
reads the tracker's plain-data views and the store, and hands the players' decisions to the
tracker's public API (``Tracker.decide``) — it adds no rules of its own.

* :mod:`layout` — where each dock sits on the tray (the camera helper's tray layout, or a grid).
* :mod:`state` — a tracked game as the page's JSON: tray, game, dice, log.
* :mod:`svg` — the pictures made on the server: dial windows, LED dice, the odds bar chart.
* :mod:`odds` — exact odds of the shots the rules allow now (the engine's own numbers).
* :mod:`live` — the table's thread: pumps the tray into the tracker (and the store), runs the
  bots' hands when they play, executes the page's requests (decisions, a judge's rulings, which
  the live tracker applies at once), publishes every change.
* :mod:`push` — every change serialised once for all pages, as a patch (what changed) with
  the whole state for a page that cannot take it; each page's socket fed in order.
* :mod:`views` — the report and the judge's views and rulings, from the store.
* :mod:`app` — the Starlette application (HTTP + websocket), static assets in ``static/``.
* :mod:`calls` — the "Call the judge" button of a table at an event (``serve --event``):
  the call through the event's table (the hub's judge queue), pending until the hub's ruling.
* :mod:`serve` — `dialtray serve`'s front end: the page served over the table, tied to an
  event's table when ``--event`` gave one, until Ctrl-C (``commands.serve`` parses).
* :mod:`terminal` — the terminal front ends (`play`, `demo`, FASA's sealed plots).

The web framework (Starlette, uvicorn) is the optional extra ``dialtray[ui]``; nothing outside
this package imports it, and ``dialtray serve`` imports it only when run.
"""
