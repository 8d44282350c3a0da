"""A small command language for driving the virtual tray by hand or from a file.

One command per line; ``#`` starts a comment. Docks count from 0; a dial is
``combat`` or ``speed``; clicks are positive clockwise (damage, fate, throttle
down) and negative counter-clockwise (throttle up)::

    turn 2 combat 1      # one click of damage on dock 2
    turn 2 speed -2 40   # throttle up two clicks, taking 40 ms
    press                # press the roll button (press 3500: hold it 3.5 s)
    magnet 3 speed off   # lift the magnet off dock 3's speed dial
    gap 2 combat 4.5     # dock 2's combat magnet 4.5 mm off its chip (too far)
    gap 2 combat ok      # back in range
    unplug / replug      # the USB cable
    off / on / reboot    # the tray's power
    garbage 1048576      # pour random bytes (every value) into the port
    sleep 0.5"""

from __future__ import annotations

import os
import random
import select
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from dialtray.virtual.tray import VirtualTray

if TYPE_CHECKING:
    from dialtray.virtual.rp2040.tray import Rp2040Tray

# Either virtual tray (the unix-port one or the emulated Pico): the same physical world.
Tray = Union[VirtualTray, "Rp2040Tray"]

# what `help` prints at the sim> prompt: the docstring without its reST markup
HELP = (__doc__ or "").replace("``", "").replace("::", ":")


class ScriptError(ValueError):
    """A line that is not a valid command; the message names the line."""


@dataclass
class Command:
    name: str
    usage: str
    run: Callable[[Tray, list[str]], str]


def _on_off(word: str) -> bool:
    if word not in ("on", "off"):
        raise ValueError(f"expected on or off, got {word!r}")
    return word == "on"


def _turn(tray: Tray, a: list[str]) -> str:
    ms = int(a[3]) if len(a) > 3 else None
    tray.turn(int(a[0]), a[1], int(a[2]), ms)
    return f"turned dock {a[0]} {a[1]} by {a[2]}"


def _magnet(tray: Tray, a: list[str]) -> str:
    tray.set_magnet(int(a[0]), a[1], _on_off(a[2]))
    return f"magnet {a[2]} under dock {a[0]} {a[1]}"


def _gap(tray: Tray, a: list[str]) -> str:
    mm = None if a[2] == "ok" else float(a[2])
    if mm is not None and not 0 <= mm <= 50:
        raise ValueError(f"a gap is 0..50 mm, got {a[2]}")
    tray.set_gap(int(a[0]), a[1], mm)
    where = "back in range" if mm is None else f"{mm:g} mm above its chip"
    return f"dock {a[0]} {a[1]} magnet {where}"


def _muxnak(tray: Tray, a: list[str]) -> str:
    addr = int(a[0], 0)
    tray.set_mux_nak(addr, _on_off(a[1]))
    return f"multiplexer 0x{addr:02x} {'stops answering' if a[1] == 'on' else 'answers again'}"


def _nak(tray: Tray, a: list[str]) -> str:
    tray.set_nak(int(a[0]), a[1], _on_off(a[2]))
    return f"dock {a[0]} {a[1]} sensor {'stops answering' if a[2] == 'on' else 'answers again'}"


def _status(tray: Tray, a: list[str]) -> str:
    dials = ", ".join(f"{k // 2}{'cs'[k % 2]}={d.detent}" for k, d in enumerate(tray.dials))
    state = "running" if tray.running else "off"
    cable = "plugged" if tray.bridge.plugged else "unplugged"
    resets = ", ".join(tray.resets[-5:]) or "none"
    return (f"tray {state}, cable {cable}, boots {tray.boots}, resets {len(tray.resets)} "
            f"(last: {resets}), port {tray.port}\n  dials: {dials}")


def _console(tray: Tray, a: list[str]) -> str:
    tail = bytes(tray.bridge.device_tail[-2000:])
    text = "".join(chr(b) if 32 <= b < 127 or b in (10, 13) else "." for b in tail)
    return "device console (last 2000 bytes, frames shown as dots):\n" + text


def _simple(action: Callable[[Tray], object], said: str) -> Callable[
        [Tray, list[str]], str]:
    def run(tray: Tray, a: list[str]) -> str:
        action(tray)
        return said
    return run


def _press(tray: Tray, a: list[str]) -> str:
    """``press`` (a tap) or ``press 3500``: held that long (3 s calls an event's judge)."""
    ms = int(a[0]) if a else 60
    if not 1 <= ms <= 60000:
        raise ValueError(f"MS must be 1..60000, got {ms}")
    tray.press_button(hold_ms=ms)
    return "roll button pressed" if not a else f"roll button held {ms} ms"


def _bounce(tray: Tray, a: list[str]) -> str:
    tray.set_bounce(_on_off(a[0]))
    return f"contact bounce {a[0]}"


def _hang(tray: Tray, a: list[str]) -> str:
    tray.hang(int(a[0]))
    return f"firmware blocks its event loop for {a[0]} ms"


GARBAGE_MAX = 16 << 20
GARBAGE_DEADLINE_S = 600.0


def _garbage(tray: Tray, a: list[str]) -> str:
    n = int(a[0])
    if not 1 <= n <= GARBAGE_MAX:
        raise ValueError(f"BYTES must be 1..{GARBAGE_MAX}, got {n}")
    rng = random.Random(int(a[1]) if len(a) > 1 else None)
    data = (bytes(range(256)) + rng.randbytes(max(0, n - 256)))[:n]
    if not tray.bridge.plugged:
        raise ValueError("the cable is unplugged: replug first")
    before = (tray.bridge.interrupts, len(tray.resets))
    fd = os.open(tray.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    done, deadline = 0, time.monotonic() + GARBAGE_DEADLINE_S
    try:
        while done < n and time.monotonic() < deadline:
            select.select([], [fd], [], 0.5)  # the cable is flow-controlled: wait for room
            try:
                done += os.write(fd, data[done:done + 4096])
            except BlockingIOError:
                continue
    finally:
        os.close(fd)
    state = "running" if tray.running else "NOT running"
    return (f"poured {done} of {n} random bytes into the port: "
            f"{tray.bridge.interrupts - before[0]} Ctrl-C, {len(tray.resets) - before[1]} "
            f"resets; the tray is {state} (a host's connect brings it back from the REPL)")


def _sleep(tray: Tray, a: list[str]) -> str:
    time.sleep(float(a[0]))
    return ""


COMMANDS = {c.name: c for c in (
    Command("turn", "turn DOCK combat|speed CLICKS [MS]", _turn),
    Command("press", "press [MS]", _press),
    Command("magnet", "magnet DOCK DIAL on|off", _magnet),
    Command("nak", "nak DOCK DIAL on|off", _nak),
    Command("gap", "gap DOCK DIAL MM|ok", _gap),
    Command("muxnak", "muxnak 0x70|0x71 on|off", _muxnak),
    Command("bounce", "bounce on|off", _bounce),
    Command("unplug", "unplug", _simple(lambda t: t.unplug(), "cable unplugged")),
    Command("replug", "replug", lambda t, a: f"cable plugged in: {t.replug()}"),
    Command("off", "off", _simple(lambda t: t.power_off(), "power off")),
    Command("on", "on", _simple(lambda t: t.power_on(), "power on")),
    Command("reboot", "reboot", _simple(lambda t: t.reboot(), "power cycled")),
    Command("hang", "hang MS", _hang),
    Command("garbage", "garbage BYTES [SEED]", _garbage),
    Command("sleep", "sleep SECONDS", _sleep),
    Command("status", "status", _status),
    Command("console", "console", _console),
)}


def run_line(tray: Tray, line: str, where: str = "") -> str:
    """Run one command line; returns what happened. ScriptError names the place at fault."""
    words = line.split("#", 1)[0].split()
    if not words:
        return ""
    cmd = COMMANDS.get(words[0])
    at = f"{where}: " if where else ""
    if cmd is None:
        raise ScriptError(f"{at}unknown command {words[0]!r}; commands: {', '.join(COMMANDS)}")
    try:
        return cmd.run(tray, words[1:])
    except (IndexError, ValueError) as e:
        raise ScriptError(f"{at}{e or 'missing argument'} (usage: {cmd.usage})") from e
