"""``Served``: a tracked game at a tray (virtual or real), recorded in the store, followed by the
web UI on an HTTP port — what ``dialtray serve`` runs and what the UI's tests and bench drive.

The tray's link thread, the table's thread (``live``) and uvicorn's event loop (its own thread)
each do one job; ``close`` stops them in reverse order.
"""

from __future__ import annotations

import contextlib
import ipaddress
import secrets
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from dialtray.link.session import TraySession
from dialtray.rules.core.dice import SeededDice, TrayDice
from dialtray.store.db import GameStore
from dialtray.store.recorder import GameRecorder
from dialtray.table.build import binding_for, tracker_for
from dialtray.table.seeds import tray_seed
from dialtray.tracker import TableDice, Timing
from dialtray.tracker.hands import Mistakes
from dialtray.ui.app import WS_MAX_FRAME, Server, make_app
from dialtray.ui.board import board
from dialtray.ui.guard import Guard
from dialtray.ui.layout import TrayLayout
from dialtray.ui.live import LiveTable
from dialtray.ui.push import Hub

MakeGame = Callable[[TableDice], Any]  # → an object with game, header, brain, order


def is_local(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass
class Options:
    make_game: MakeGame
    db: Path
    layout: TrayLayout
    docks: int = 8
    sim: bool = True
    rp2040: bool = False  # the virtual tray on an emulated Pico (``--rp2040``, issue 29)
    quadrature: bool = False  # the virtual tray's first 7 dials on encoders (``--quadrature``)
    serial_port: str | None = None  # a real tray's port (sim=False)
    bots: bool = False
    mistakes: tuple[str, ...] = ()
    host: str = "127.0.0.1"
    port: int = 0  # 0: any free port
    seed: int = 2026  # the virtual tray's (its dice and physics)
    hold: bool = False  # bots wait for ``live.go()`` (a test opens its pages first)
    timing: Timing | None = None
    # who takes each seat, in seating order: "human" (a person on the page) or "bot"; None:
    # every seat a bot with ``bots``, else every seat a person (no bot at all)
    players: tuple[str, ...] | None = None
    pace: float = 0.0  # seconds a bot waits before each move (0: at once)
    ask: bool = False  # the page's first screen picks who takes each seat (the virtual tray)
    # the camera at the table (issue 33, ``ui.camera.attach``): (tracker,
    # session, hand) -> (a started ``TableCamera``, the hand that turns what it films too)
    camera: Any = None
    # a camera-only tray (``--no-encoders``): (tracker) -> a ``table.camera_only.CameraLink``
    # in the session's place (no virtual tray, no LED dice: the game's dice are seeded)
    camera_only: Any = None


class Served:
    """Everything running; ``url`` is the page's address (with the access key off localhost)."""

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        self.tray: Any = None
        self._stack = contextlib.ExitStack()
        try:
            self._start()
        except BaseException:
            self._stack.close()
            raise


    def _camera_thread(self, cam: Any) -> None:
        """The camera's answers written into the game on the table's own thread (between
        two pumps), every 0.1 s, until the table stops: shown on the page (its log and
        notes), stored by the recorder."""
        stop = threading.Event()
        self._stack.callback(stop.set)

        def loop() -> None:
            while not stop.wait(0.1):
                try:
                    if self.live.call(lambda: cam.pump(self.tracker)).exception(10):
                        return  # the table has stopped
                except TimeoutError:
                    continue
        threading.Thread(target=loop, name="serve-camera", daemon=True).start()

    def _start(self) -> None:
        o = self.opts
        if o.camera_only is not None:
            dice, turn = TableDice(SeededDice(o.seed)), None
        elif o.sim:
            from dialtray.virtual.factory import tray_config, virtual_tray
            from dialtray.virtual.hands import VirtualHands

            self.tray = self._stack.enter_context(virtual_tray(
                tray_config(o.docks, o.quadrature), rp2040=o.rp2040, seed=tray_seed(o.seed)))
            port = self.tray.port
            turn = VirtualHands(self.tray).turn
        else:
            port, turn = o.serial_port, None
        if o.camera_only is None:
            self.session: Any = TraySession(port, name="serve")
            dice = TableDice(TrayDice(self.session))
        setup = o.make_game(dice)
        # the table package's tracker: a game with no dial on the docks (FASA, Sky Ace) is
        # one the tracker sees no dial of
        self.tracker = tracker_for(setup, binding_for(setup, o.docks), dice, o.timing)
        game = self.tracker.game
        self.camera: Any = None
        if o.camera_only is not None:  # the camera's reads are the dial events (issue 33)
            self.session = o.camera_only(self.tracker)
            self._stack.callback(self.session.stop)
            port, turn, self.camera = "the camera", self.session.hand, self.session.camera
        self.store = GameStore.open(o.db)
        self._stack.callback(self.store.close)
        self.recorder = GameRecorder.start(self.store, self.tracker, origin="serve")
        self.recorder.commit()
        self.hub = Hub()
        if o.camera is not None and o.camera_only is None:  # every settled click confirmed
            self.camera, turn = o.camera(self.tracker, self.session, turn)  # (issue 33)
            self._stack.callback(self.camera.close)
        seats = game.seats()
        if o.players is not None and len(o.players) != len(seats):
            raise ValueError(f"seats: this game has {len(seats)} seats ({', '.join(seats)}), "
                             f"{len(o.players)} given")
        bots = (o.bots or o.ask or o.players is not None) and turn is not None
        bot_seats = None if o.players is None else \
            [x for x, who in zip(seats, o.players, strict=True) if who == "bot"]
        self.live = LiveTable(
            self.tracker, self.session, self.recorder, o.layout, self.hub.publish,
            brain=setup.brain if bots else None, turn=turn if bots else None,
            mistakes=Mistakes(kinds=list(o.mistakes)) if bots else None,
            source="camera-only virtual tray (no encoders)" if o.camera_only is not None
            else f"virtual tray on {port}" if o.sim else f"tray on {port}",
            hold=o.hold, sim_turn=turn, bot_seats=bot_seats, setup=setup,
            owner=getattr(setup, "owner", None), pace=o.pace,
            board=lambda: board(game, setup.brain), ask=o.ask and o.players is None)
        self.session.start()
        self._stack.callback(self.session.stop)
        self._stack.callback(self.live.stop)
        self.session.wait_synced(180 if o.rp2040 else 60)  # the emulated Pico: slower
        if o.sim:
            self.session.set_timing(5, 2)  # quick settling: the virtual tray's hands are quick
        self.live.start()
        if self.camera is not None:
            self._camera_thread(self.camera)
        self.key = None if is_local(o.host) else secrets.token_urlsafe(12)
        self.server = Server(o.db, self.live, self.hub, self.key,
                             snapshot=lambda: self.session.snapshot(5))
        self._serve()

    def _serve(self) -> None:
        o = self.opts
        family = socket.AF_INET6 if ":" in o.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((o.host, o.port))
        self._stack.callback(sock.close)
        self.port = sock.getsockname()[1]
        app = Guard(make_app(self.server), o.host, self.port)  # Host, Origin, sizes (issue 31)
        cfg = uvicorn.Config(app, log_level="warning", ws_max_size=WS_MAX_FRAME,
                             lifespan="on", ws="websockets-sansio")
        self.uvicorn = uvicorn.Server(cfg)
        started = threading.Event()

        def run() -> None:
            self.uvicorn.run(sockets=[sock])

        self.thread = threading.Thread(target=run, name="dialtray-http", daemon=True)
        self.thread.start()
        self._stack.callback(self._stop_http)
        for _ in range(200):
            if self.uvicorn.started or not self.thread.is_alive():
                break
            started.wait(0.05)
        if not self.uvicorn.started:
            raise OSError(f"the web server did not start on {o.host}:{self.port}")

    def _stop_http(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(10)

    @property
    def url(self) -> str:
        host = f"[{self.opts.host}]" if ":" in self.opts.host else self.opts.host
        return f"http://{host}:{self.port}/" + (f"?key={self.key}" if self.key else "")

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
