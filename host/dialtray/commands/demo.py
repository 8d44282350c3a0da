"""`dialtray demo`: the whole rig on the virtual tray, no hardware needed."""

from __future__ import annotations

import argparse
import queue
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dialrig import config

from dialtray.commands._args import int_range
from dialtray.commands._common import MAX_DOCKS, CommandError, require_sim
from dialtray.link.messages import Click, LinkState, TrayEvent
from dialtray.link.session import TraySession

if TYPE_CHECKING:  # the virtual tray needs POSIX and the sim extra: imported when run
    from dialtray.virtual.tray import VirtualTray

NOT_YET = ("The rules engine is not wired into the demo yet: this run shows the tray, the "
           "firmware and the link. Dial meanings (damage, fate, throttle) come with the "
           "tracker.")


MIN_DOCKS = 2  # the scene plays two planes, on docks 0 and 1


@dataclass(frozen=True)
class Step:
    say: str
    turns: tuple[tuple[int, str, int], ...] = ()
    action: str = ""


SCENE = (
    Step("Setting up: dock 0 is Show-stopper's plane, dock 1 Charlie Steele's. Each player "
         "sets a starting speed by turning the speed dial counter-clockwise.",
         ((0, "speed", -4), (1, "speed", -5))),
    Step("A shot hits Charlie's plane twice: two clockwise clicks on dock 1's combat dial.",
         ((1, "combat", 2),)),
    Step("The tray rolls 6 dice from its hardware entropy.", action="roll"),
    Step("Someone presses the roll button on the tray.", action="button"),
    Step("The USB cable is pulled; meanwhile Show-stopper throttles down one click.",
         ((0, "speed", 1),), action="unplug"),
    Step("The cable is back: the host asks the tray to replay what it missed.", action="replug"),
    Step("The tray loses power; while it is off a player clicks dock 0's combat dial once. "
         "The tray comes back, and the host recovers the click from the absolute sensors.",
         ((0, "combat", 1),), action="power-cycle"),
    Step("Charlie takes one more click of damage.", ((1, "combat", 1),)),
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="a scene on the virtual tray (no hardware needed)",
                       description="Start the virtual tray, play a scripted scene on it and "
                                   "show every click arriving at the host.",
                       epilog=NOT_YET)
    p.add_argument("--fast", action="store_true", help="no pauses for reading")
    p.add_argument("--docks", type=int_range(MIN_DOCKS, MAX_DOCKS), default=config.DEFAULT_DOCKS,
                   help=f"docks on the tray, {MIN_DOCKS}..{MAX_DOCKS} (the scene uses docks 0 "
                        "and 1; default %(default)s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pause = 0.0 if args.fast else 1.2
    expected: dict[tuple[int, int], int] = {}
    seen: dict[tuple[int, int], int] = {}
    require_sim()
    from dialtray.virtual.tray import VirtualTray

    print("dialtray demo: starting the virtual tray (firmware under MicroPython) …", flush=True)
    with VirtualTray(config.default_config(args.docks), seed=2026) as tray, \
            TraySession(tray.port, name="demo") as session:
        print(f"waiting for the virtual tray on {tray.port} to boot and answer …", flush=True)
        try:
            session.wait_synced(30)
        except TimeoutError as e:
            raise CommandError(f"the virtual tray did not answer: {e}") from e
        print(f"connected to the tray on {tray.port}\n", flush=True)
        drain(session, seen, 0.4)
        for n, step in enumerate(SCENE, 1):
            print(f"[{n}/{len(SCENE)}] {step.say}", flush=True)
            if step.action == "power-cycle":
                tray.power_off()
            elif step.action == "unplug":
                tray.unplug()
            for dock, dial, clicks in step.turns:
                tray.turn(dock, dial, clicks)
                key = (dock, config.DIAL_NAMES.index(dial))
                expected[key] = expected.get(key, 0) + clicks
            act(step.action, tray, session)
            drain(session, seen, 1.5 if step.action else 0.6)
            time.sleep(pause)
        drain(session, seen, 1.0)
    print()
    ok = all(seen.get(k, 0) == v for k, v in expected.items())
    for (dock, index), want in sorted(expected.items()):
        got = seen.get((dock, index), 0)
        mark = "ok" if got == want else "MISMATCH"
        name = config.DIAL_NAMES[index]
        print(f"  dock {dock} {name:6}: turned {want:+d}, host saw {got:+d}  {mark}")
    print("\nevery click arrived exactly once." if ok else "\nclicks were lost or doubled!")
    print(NOT_YET)
    return 0 if ok else 1


def act(action: str, tray: VirtualTray, session: TraySession) -> None:
    if action == "roll":
        rolled = session.roll_dice(6, timeout=5)
        print(f"    host asked for 6d6; tray logged {' '.join(map(str, rolled.faces))}")
    elif action == "button":
        tray.press_button()
    elif action == "unplug":
        time.sleep(0.4)  # the click happens, the host cannot hear it
    elif action == "replug":
        tray.replug()
    elif action == "power-cycle":
        time.sleep(0.2)
        tray.power_on()


def drain(session: TraySession, seen: dict[tuple[int, int], int], seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            ev: TrayEvent = session.events.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(ev, Click):
            key = (ev.dock, ev.dial)
            seen[key] = seen.get(key, 0) + ev.delta
        if isinstance(ev, LinkState) and ev.connected:
            continue
        print(f"    host ← {ev}", flush=True)
        end = max(end, time.monotonic() + 0.2)  # keep listening while events flow
    sys.stdout.flush()
