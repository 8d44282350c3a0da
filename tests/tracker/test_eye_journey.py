"""A tracked game on a tray built with incremental encoders, end to end: the real firmware under
MicroPython (``config.quadrature_config``: the first seven dials on encoders, the rest on
AS5600s), a real pty, the link, the tracker, the store, the table, a bot.

The firmware reports every encoder lost track for its whole boot. The person looks at their
dials and confirms each by eye through the table (``Table.confirm_eye``, what `play`'s ``eye``
command and the page's button call); the bot confirms its own. Play goes on with the encoders'
clicks tracked; the tray restarts (its counts start again): the dials are flagged again and
confirmed again; the report shows every confirmation, who made it and in which boot.

Each wait is on a condition (flags raised, clicks sensed, decisions taken)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from dialrig import config
from dialtray.link.session import TraySession
from dialtray.rules.core.dice import SeededDice
from dialtray.store import GameRecorder
from dialtray.store.report import build, text
from dialtray.store.table import StoredTable
from dialtray.store.verify import verify_game
from dialtray.table.games import new_game, setup_of
from dialtray.table.stored import StorePlace, pick_resume, resumed_table, resync
from dialtray.table.table import Table
from dialtray.tracker import OVER, PLAY, Slot, TableDice, Timing, Tracker, auto_bind
from dialtray.tracker import marks as mk
from dialtray.tracker.state import SlotState
from dialtray.ui.terminal.view import plain_lines
from dialtray.virtual.hands import VirtualHands
from dialtray.virtual.tray import VirtualTray

TIMING = Timing(judge_s=0.25, grace_s=0.5)
MINE = ("A1", "A2", "A3")


def encoder_tray() -> dict[str, object]:
    """``quadrature_config(8, SENSOR_AS5600)``: docks 0-2 and dock 3's combat dial on encoders
    (seven PIO state machines), the other readers on AS5600s."""
    cfg = config.quadrature_config(8, config.SENSOR_AS5600)
    cfg["settle_ms"] = 10
    cfg["sample_ms"] = 1
    assert not config.validate(cfg)
    return cfg  # type: ignore[no-any-return]


def shows(tray: VirtualTray, st: SlotState) -> int:
    """The click a person reads on the virtual dial (a speed dial's clicks rise
    counter-clockwise: AA-M02)."""
    return tray.detent(st.slot.dock, st.slot.dial) * st.up % st.detents


def test_encoder_dials_confirmed_by_eye_played_rebooted_and_confirmed_again(
        tmp_path: Path) -> None:
    place = StorePlace(tmp_path / "games.sqlite3", tmp_path / "keys")
    store = place.open()
    dice = TableDice(SeededDice(5))
    setup = new_game("airaction", dice, 5, 1)
    t = Tracker(setup.game, auto_bind(setup.game.dials(), 8, setup.order), dice,
                header=setup.header, timing=TIMING)
    encoders = [t.slots[Slot(k // 2, k % 2)] for k in range(7)]
    assert [st.dial.figure for st in encoders] == ["A1", "A1", "A2", "A2", "A3", "A3", "B1"]
    person = random.Random(5)
    with VirtualTray(encoder_tray(), seed=5) as vtray:
        session = TraySession(vtray.port, name="eye", ack_policy="manual")
        link = StoredTable(GameRecorder.start(store, t, origin="test"), session)
        session.start()
        table = Table(setup, ["human", "bot"], link, hand=VirtualHands(vtray).turn, pace=0)
        table.start()

        def until(done: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
            """Pump the table (the bot acts) and play the person's part until ``done``."""
            end = link.clock() + timeout
            while not done():
                assert link.clock() < end, f"waited for {what}; the tray waits for " \
                    f"{t.waiting_for()}"
                table.pump(0.01)
                v = table.view()
                mine = [d for d in v.due if d.figure in MINE]
                if mine:  # the person turns what the tray says, and waits to see it sensed
                    d = mine[0]
                    st = t.slots[Slot(d.dock, d.reader)]
                    target = (st.seen or 0) + d.clicks
                    table.turn(d.dock, d.reader, d.clicks)
                    link.wait_until(lambda st=st, target=target: st.seen == target, 20,
                                    f"{st.label} turned")
                elif v.mover == "human" and t.ready():
                    action = setup.brain.choose(t.game)
                    if not table.decide(action.text()).ok:
                        table.decide(person.choice(list(t.game.legal_actions())).text())

        def confirm_mine(boot: str) -> None:
            """The person reads each of their dials and confirms it (combat: the rules' click,
            the default; speed: the click read)."""
            for st in encoders[:6]:
                click = None if st.dial.kind == "combat" else shows(vtray, st)
                r = table.confirm_eye(st.slot.dock, st.slot.dial, click)
                assert r.ok, (boot, r.message)
                assert r.message.startswith(f"{st.label}: confirmed by eye at click ")
                assert r.message.endswith(" by P1 (where the rules put it)") or click is not \
                    None

        # ---- the first boot: every encoder dial flagged, the game waits ------------------
        link.wait_until(lambda: all(st.lost for st in encoders), 20, "the encoders flagged")
        lines = plain_lines(table.view(), ("P1",))
        assert f"! {encoders[0].flag.text}" in lines  # type: ignore[union-attr]
        assert "type `eye 0 combat` to confirm it by eye" in encoders[0].flag.text  # type: ignore[union-attr]
        assert any(ln.startswith("look at each dial whose encoder lost track and confirm it "
                                 "by eye: 'eye 0 combat', 'eye 0 speed'") for ln in lines)
        assert t.phase != PLAY
        r = table.confirm_eye(4, 0)  # an AS5600: nothing to confirm
        assert not r.ok and "its sensor reads it (it has not lost track)" in r.message
        r = table.confirm_eye(0, 1, 12)
        assert not r.ok and r.message.endswith("there is no click 12: its dial has clicks 0 "
                                               "to 11")
        confirm_mine("first boot")
        until(lambda: t.phase == PLAY, "the bot's confirmation and the start check")
        assert not encoders[6].lost and t.eyes[-1].by == "P2 (a bot)"

        # ---- play, the encoders' clicks tracked like any dial's ----------------------------
        def encoder_turns() -> int:
            keys = {st.dial for st in encoders}
            return sum(1 for c in t.confirmed if c.dial in keys and c.clicks)

        def moves() -> int:
            return sum(1 for e in t.game.history if e.action.text().startswith("moved "))

        until(lambda: encoder_turns() >= 2 and moves() >= 2, "planes moving", 60)
        assert t.game.outcome() is None
        gid = link.recording.recorder.gid

        # ---- the host crashes; the next resumes the stored game in the same tray boot ------
        session.stop()  # gone at once: every pump committed what it took
        store.close()
        res = pick_resume(place, None, ("airaction",))
        session = TraySession(vtray.port, name="eye-resumed", ack_policy="manual",
                              **res.session_args)
        t, link = resumed_table(res, TableDice(SeededDice(6)), session)
        store = res.store
        session.start()
        assert resync(link) == []
        encoders = [t.slots[st.slot] for st in encoders]
        assert not [st.label for st in encoders if st.lost or st.flag]  # confirmations kept
        setup = setup_of("airaction", t.game, t.header, 5, 1)
        table = Table(setup, ["human", "bot"], link, hand=VirtualHands(vtray).turn, pace=0)
        until(lambda: moves() >= 3, "play going on after the resume", 60)

        # ---- the tray restarts: its counts start from 0, the dials stay put ----------------
        first_boot = t.boot
        vtray.reboot()
        link.wait_until(lambda: t.boot != first_boot and all(st.lost for st in encoders[:6]),
                        30, "the encoders flagged again")
        until(lambda: not encoders[6].lost, "the bot's confirmation")
        assert not t.ready()
        confirm_mine("second boot")
        a1 = encoders[0]  # knocked: judged from the new boot's counts like any dial
        table.turn(0, 0, 1)
        link.wait_until(lambda: a1.flag is not None, 20, "the knock flagged")
        knock = a1.flag
        assert knock is not None and knock.kind == mk.UNEXPECTED and knock.text == (
            f"{a1.label}: turned 1 click clockwise that nobody caused (AA-M81: dials turn only "
            "when clicks are due): turn it 1 click counter-clockwise back")
        until(lambda: t.phase == OVER, "the game's end", 60)  # (the person turns it back)
        assert knock.resolution == "dial agrees"
        assert not [st for st in encoders if st.lost or st.fault]
        link.close()
        assert link.recording.recorder.gid == gid

    assert len(t.eyes) == 7  # this host's: the tray's second boot
    report = text(build(store, gid))
    boots = {int(ln.split("tray boot ")[1][:8], 16) for ln in report.splitlines()
             if "tray boot " in ln}
    assert len(boots) == 2 and t.boot in boots
    assert report.count("by P2 (a bot)") >= 2
    assert "Dials confirmed by eye (14): encoders that lost track" in report, report
    for b in boots:
        assert report.count(f"tray boot {b:08x}") == 7, report
    assert "dock 3 combat dial (B1): confirmed by eye at click 0 by P2 (a bot)" in report
    assert "NEVER PUT RIGHT" not in report, report
    assert verify_game(store, gid).ok
    store.close()
