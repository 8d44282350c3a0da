"""The camera plugged into the one table every front end drives (``dialtray.table.Table``,
issue 30): a camera-only tray is the table's link (``table.camera_game.camera_only_table``:
the camera's reads are its dial events), bots play Air Action with its Ace cards (each
filmed on a dock of its own) through ``Table.pump`` to its end, and the table's view shows the
finished game. Clean photographs, 1 turn (CPU kept small).
"""

from __future__ import annotations

import time

import pytest
from camera_truth import misread
from dialtray.table.camera_game import camera_only_table
from dialtray.vision.layout import Layout

SEED = 9975


@pytest.mark.slow
def test_a_camera_only_tray_plays_through_the_table(layout: Layout) -> None:
    table, cam = camera_only_table("airaction", SEED, 1, ["bot", "bot"], layout=layout,
                                   profile="clean")
    try:
        table.link.sync(300)  # every dial's first read (a hard window: re-read, re-seated)
        table.start()
        end = time.monotonic() + 600
        while not table.over and time.monotonic() < end:
            table.pump(0.02)
        view = table.view()
    finally:
        table.close("test over")
        cam.camera_tray.close()
    assert view.over is not None, view.waiting_for
    assert view.over.winner, view.over
    assert cam.camera_tray.events, "no dial event came from the camera"
    assert any("winner" in line.lower() or "wins" in line.lower() for line in table.narration)
    assert all(w.encoder is None for w in cam.witness.results)
    # every dial's camera-read click is where the world left it (or prints alike)
    tray = cam.camera_tray
    assert sum(d.name == "ace" for d in tray.dials.values()) == 2, tray.dials
    assert not misread(tray, cam.world, cam.witness.docks)
    print(f"camera-only game through the table: {len(tray.events)} camera events, "
          f"{len(tray.assumed)} taken on the rules' word (clicks that print alike), "
          f"{len(cam.reseats)} re-seats asked for, {cam.witness.frames} frames, "
          f"{cam.witness.cpu_s:.0f} s reader CPU")
