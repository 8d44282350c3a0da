"""`dialtray selftest` as a builder meets it (issue 9, "Self-test says what a builder needs").

The installed program against the virtual tray, whose simulated AS5600s model the magnet's air
gap (STATUS MD/ML/MH and AGC follow it): every failure kind shows with its fix, the dials are
turned until each counts, and the lamp test asks the builder. The tests act on what the program
prints (they turn dials once it has asked), never on a clock.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from dialrig import config, proto
from dialtray.link.messages import SelfTest, SensorCheck, TrayEvent, sensor_check
from dialtray.link.session import TraySession
from dialtray.virtual.tray import VirtualTray

BIN = Path(sys.executable).parent
WAIT_S = 90.0


EOF = None  # the pump's last item: the program's stdout ended (it exited)


def start(argv: list[str]) -> tuple[subprocess.Popen[str], queue.Queue[str | None]]:
    proc = subprocess.Popen([str(BIN / "dialtray"), *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(EOF)

    threading.Thread(target=pump, daemon=True).start()
    return proc, lines


def wait_for(proc: subprocess.Popen[str], lines: queue.Queue[str | None], seen: list[str],
             text: str) -> str:
    """The first line containing text; fails at once, with the program's stderr, if the program
    ends first (rather than waiting WAIT_S for a line that cannot come)."""
    while True:
        try:
            line = lines.get(timeout=WAIT_S)
        except queue.Empty:
            raise AssertionError(f"no {text!r} within {WAIT_S:g} s; so far:\n"
                                 + "\n".join(seen)) from None
        if line is EOF:
            try:
                rc = proc.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                rc = None
            err = proc.stderr.read() if proc.stderr is not None and rc is not None else ""
            raise AssertionError(f"dialtray ended (rc={rc}) before {text!r}; stdout:\n"
                                 + "\n".join(seen) + f"\nstderr:\n{err}")
        seen.append(line)
        if text in line:
            return line


def finish(proc: subprocess.Popen[str], lines: queue.Queue[str | None], seen: list[str]) -> str:
    rc = proc.wait(timeout=WAIT_S)
    while True:
        try:
            line = lines.get(timeout=WAIT_S)
        except queue.Empty:
            break
        if line is EOF:
            break
        seen.append(line)
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert "Traceback" not in err, err
    return f"rc={rc}\n" + "\n".join(seen)


def row(out: str, part: str, check: str) -> tuple[str, str]:
    """(the table row for part/check, the fix line under it or '')."""
    rows = out.splitlines()
    for i, line in enumerate(rows):
        if line.startswith(part) and check in line:
            nxt = rows[i + 1] if i + 1 < len(rows) else ""
            return line, nxt.strip() if nxt.strip().startswith("fix:") else ""
    raise AssertionError(f"no row {part!r} {check!r} in:\n{out}")


@pytest.mark.slow
def test_every_failure_kind_shows_with_its_fix_on_the_virtual_tray() -> None:
    proc, lines = start(["selftest", "--sim", "--docks", "3", "--turn", "120",
                         "--sim-do", "gap 0 speed 4", "--sim-do", "gap 1 speed 0.2",
                         "--sim-do", "magnet 2 combat off", "--sim-do", "nak 2 speed on",
                         "--sim-do", "gap 1 combat 1.0"])
    seen: list[str] = []
    try:
        wait_for(proc, lines, seen, "Turn every dial")
        assert proc.stdin is not None
        # the builder types the virtual tray's console commands: every dial that can count
        proc.stdin.write("turn 0 combat 1\nturn 0 speed -1\nturn 1 combat 2\nturn 1 speed 1\n")
        proc.stdin.close()
        out = finish(proc, lines, seen)
    finally:
        proc.kill()
    assert out.startswith("rc=1"), out
    line, fix = row(out, "dock 0 combat", "AS5600")
    assert "magnet ok, AGC 64/128" in line and "FAIL" not in line and not fix
    line, fix = row(out, "dock 0 speed", "AS5600")
    assert "FAIL: magnet too far" in line and "AGC 128/128" in line
    assert "magnet too far: close the air gap by 0.5 mm" in fix and "shim" in fix
    line, fix = row(out, "dock 1 speed", "AS5600")
    assert "FAIL: magnet too close" in line and "AGC 0/128" in line
    assert "magnet too close: open the air gap by 0.5 mm" in fix
    line, fix = row(out, "dock 1 combat", "AS5600")  # 1 mm: the dock's design gap
    assert "magnet ok" in line and "FAIL" not in line
    agc = int(line.split("AGC ")[1].split("/")[0])
    assert 0 < agc < 128
    line, fix = row(out, "dock 2 combat", "AS5600")
    assert "FAIL: no magnet" in line and "fit the coupler with its magnet" in fix
    line, fix = row(out, "dock 2 speed", "AS5600 (mux 0x70 ch 5)")
    assert "FAIL: sensor not answering (I2C NAK)" in line
    assert "check the wiring of mux 0x70 channel 5" in fix
    for part in ("dock 0 combat", "dock 0 speed", "dock 1 combat", "dock 1 speed"):
        line, _ = row(out, part, "counts")
        assert "ok (" in line, line  # too far / too close still read: they count
    assert not [x for x in out.splitlines() if x.startswith("dock 2 ") and "counts" in x]
    # no magnet / not answering: nothing to turn
    line, _ = row(out, "LED dice", "lamp test (12 dice)")
    assert "not judged" in line
    assert "4 problem(s) to fix." in out


def test_on_a_tray_port_the_builder_judges_the_lamps_and_an_unturned_dial_fails() -> None:
    with VirtualTray(config.default_config(2), report=lambda _n: None) as tray:
        proc, lines = start(["selftest", tray.port, "--turn", "300"])
        seen: list[str] = []
        try:
            wait_for(proc, lines, seen, "LED lamp test")
            assert proc.stdin is not None
            proc.stdin.write("3, 5\n")  # dice 3 and 5 stayed dark
            proc.stdin.flush()
            wait_for(proc, lines, seen, "Turn every dial")
            tray.turn(0, "combat", 1)
            tray.turn(1, "speed", -2)
            wait_for(proc, lines, seen, "dock 0 combat counts")
            wait_for(proc, lines, seen, "dock 1 speed counts")
            proc.stdin.write("\n")  # Enter: done turning (dock 0 speed, dock 1 combat not)
            proc.stdin.close()
            out = finish(proc, lines, seen)
        finally:
            proc.kill()
    assert out.startswith("rc=1"), out
    assert "Did every LED of all 12 dice light red, green and blue?" in out
    line, fix = row(out, "LED dice", "lamp test")
    assert "FAIL: did not light: die 3, die 5" in line and "DOUT -> DIN" in fix
    assert "ok (1 click(s))" in row(out, "dock 0 combat", "counts")[0]
    assert "ok (2 click(s))" in row(out, "dock 1 speed", "counts")[0]
    line, fix = row(out, "dock 0 speed", "counts")
    assert "FAIL: no click seen" in line and "coupler is not keyed" in fix
    assert "FAIL" in row(out, "dock 1 combat", "counts")[0]
    for part in ("dock 0 combat", "dock 0 speed", "dock 1 combat", "dock 1 speed"):
        assert "magnet ok" in row(out, part, "AS5600")[0]
    assert "3 problem(s) to fix." in out


def test_all_good_is_exit_0_and_a_yes_confirms_the_lamps() -> None:
    with VirtualTray(config.default_config(1), report=lambda _n: None) as tray:
        proc, lines = start(["selftest", tray.port, "--turn", "0"])
        seen: list[str] = []
        try:
            wait_for(proc, lines, seen, "LED lamp test")
            assert proc.stdin is not None
            proc.stdin.write("y\n")
            proc.stdin.close()
            out = finish(proc, lines, seen)
        finally:
            proc.kill()
    assert out.startswith("rc=0"), out
    assert "ok: every LED lit" in row(out, "LED dice", "lamp test")[0]
    assert "not tested (--turn 0)" in row(out, "dock 0 combat", "counts")[0]
    assert "all good." in out


def test_a_dead_multiplexer_is_named_and_a_gap_survives_a_power_cycle() -> None:
    with VirtualTray(config.default_config(8), report=lambda _n: None) as tray:
        tray.set_gap(0, "combat", 5.0)  # too far
        tray.reboot()  # the dock is still built the same way after a power cycle
        tray.set_mux_nak(0x71, True)  # docks 4..7 lose their multiplexer
        proc, lines = start(["selftest", tray.port, "--turn", "0", "--no-lamps"])
        seen: list[str] = []
        try:
            proc.stdin.close()  # type: ignore[union-attr]
            out = finish(proc, lines, seen)
        finally:
            proc.kill()
    assert out.startswith("rc=1"), out
    line, fix = row(out, "dock 0 combat", "AS5600")
    assert "FAIL: magnet too far" in line and "close the air gap" in fix
    for dock in range(4, 8):
        for dial in ("combat", "speed"):
            line, fix = row(out, f"dock {dock} {dial}", "AS5600 (mux 0x71")
            assert "FAIL: multiplexer not answering" in line
            assert "multiplexer 0x71 does not answer" in fix and "A0 to 3V3" in fix
    assert "magnet ok" in row(out, "dock 3 speed", "AS5600 (mux 0x70 ch 7)")[0]
    assert "LED dice" not in out  # --no-lamps
    assert "9 problem(s) to fix." in out


def test_a_self_test_asked_during_boot_reports_after_the_boot_self_test() -> None:
    """A host that connects while the tray still walks its boot LED test (0.3 s) and asks for a
    self-test at once: the boot's SELFTEST event must not land inside the run's report, where
    the host took it for the report's end (no dials to turn, the lamp question too early)."""
    with VirtualTray(config.default_config(1), report=lambda _n: None) as tray:
        tray.set_gap(0, "combat", 5.0)  # too far: the run fails it, the boot test does not
        tray.reboot()
        with TraySession(tray.port, name="early") as session:
            session.wait_synced(WAIT_S)
            while not session.events.empty():
                session.events.get_nowait()
            mark = session.expected
            session.request(proto.C_SELFTEST, proto.SELFTEST_FMT, 1)
            got: list[TrayEvent] = []
            while not (got and isinstance(got[-1], SelfTest) and got[-1].failed_mask & 1):
                ev = session.events.get(timeout=WAIT_S)  # the run's end: dock 0 combat failed
                if ev.seq >= mark:
                    got.append(ev)
    kinds = [type(e).__name__ for e in got]
    first = kinds.index("SensorCheck")
    assert kinds[first:] == ["SensorCheck", "SensorCheck", "SelfTest"], kinds
    assert set(kinds[:first]) <= {"SelfTest", "DialFault"}, kinds  # the boot's, if seen live


def test_every_check_code_decodes_with_a_fix_only_for_failures() -> None:
    where = 3 << 20 | 0x71 << 23
    as5600 = proto.SENSOR_CODES["as5600"] << 8
    got = {c: sensor_check(1, 4, 1, where | 40 | 2000 << 8, c | as5600)
           for c in range(proto.SENSE_COUNTER)}
    assert all(isinstance(c, SensorCheck) for c in got.values())
    assert got[proto.SENSE_OK].agc == 40 and got[proto.SENSE_OK].magnitude == 2000
    assert got[proto.SENSE_NAK].mux == 0x71 and got[proto.SENSE_NAK].channel == 3
    for code, check in got.items():
        assert bool(check.fix()) == check.failed, code
        assert check.failed == (code not in (proto.SENSE_OK, proto.SENSE_NONE)), code
    assert "multiplexer 0x71 does not answer" in got[proto.SENSE_MUX_NAK].fix()
    assert "0x71 channel 3" in got[proto.SENSE_NAK].fix()
    enc = sensor_check(1, 0, 0, -17, proto.SENSE_COUNTER | proto.SENSOR_CODES["quadrature"] << 8)
    assert enc.count == -17 and not enc.failed and "turn it" in str(enc)


def test_at_an_80_column_terminal_the_table_wraps_between_words() -> None:
    """A builder's terminal: each result and fix wrapped between words under its own column
    (the fixes are sentences of 120-200 characters; the terminal cut them mid-word)."""
    import pexpect

    child = pexpect.spawn(str(BIN / "dialtray"), ["selftest", "--sim", "--sim-do",
                                                 "gap 0 combat 4", "--turn", "0", "--no-lamps"],
                          dimensions=(40, 80), timeout=60, encoding="utf-8",
                          env={"TERM": "dumb", "PATH": "/usr/bin:/bin"})
    child.expect(pexpect.EOF)
    child.close()
    out = child.before.replace("\r\n", "\n")
    assert child.exitstatus == 1, out
    lines = out.splitlines()
    assert max(len(ln) for ln in lines) < 80, out
    fix = [ln for ln in lines if ln.strip().startswith("fix: magnet too far")]
    assert fix, out
    at = lines.index(fix[0])
    assert lines[at + 1].startswith(" " * (fix[0].index("fix:") + 5) + "sensor board"), out
