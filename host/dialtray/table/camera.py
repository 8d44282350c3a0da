"""The camera at a tracked table: the glue between the tracker (``tracker.runner``) and the
camera (``vision.witness``, ``vision.camera_tray``), which know nothing of each other.

* ``camera_pieces``: which piece each bound reader turns and where the camera sees its dial:
  a dock's own seat (a plane, an Aces figure, an Ace card on its first reader) or the dock's
  holder (a one-dial piece on its second reader: a second Aces figure or an Ace card sharing
  the dock), and through which window (``combat``, ``speed``, an Ace card's ``ace``).
* ``camera_dials``: the tracker's bound readers as a camera-only tray's dials (which place and
  window, which way a rising click turns, how many clicks the figure's dial prints).
* ``CameraTrackedTray``: a ``TrackedTray`` whose events come from a ``CameraTray`` (no
  encoders): before each pump it tells the camera which click the rules want of each dial, so
  a turn between two clicks that print alike (invisible to any camera) is taken on the rules'
  word (``CameraTray.expect``).
* ``catalogue_figures``: which catalogue piece sits in each place (the virtual camera draws
  it, the reader reads it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from dialtray.link.messages import Click, TrayEvent
from dialtray.link.session import TraySession
from dialtray.tracker.binding import Slot
from dialtray.tracker.runner import TrackedTray
from dialtray.tracker.tracker import Tracker
from dialtray.vision.camera_tray import CameraDial, CameraTray
from dialtray.vision.layout import place_of
from dialtray.vision.witness import DISAGREE, MIDTURN, UNSURE, CameraWitness, Witnessed


@dataclass(frozen=True)
class Piece:
    """What the camera sees of one bound reader: the place its piece sits in (a dock, or
    ``HOLDER + dock``), the window its dial shows through, the piece's catalogue id."""

    place: int
    window: str
    figure: str


def camera_pieces(kind: str, tracker: Tracker) -> dict[Slot, Piece]:
    """Every bound reader's piece (see ``Piece``). A plane's two dials are its base's two
    windows on its dock; a one-dial piece (an Aces figure, an Ace card) sits on the dock's
    own seat when on the dock's first reader, in the dock's holder when on its second."""
    game: Any = tracker.game
    out: dict[Slot, Piece] = {}
    for slot, dial in tracker.binding.items():
        if kind == "airaction":
            plane = game.state.planes.get(dial.figure)
            if plane is None:
                continue
            if dial.kind == "ace":  # the Ace card of the Ace flying the plane (AA-M10)
                if plane.ace is None:
                    continue
                figure, window = str(plane.ace), "ace"
            elif dial.kind in ("combat", "speed"):
                figure, window = str(plane.figure), dial.kind
            else:
                continue
        else:
            ch = game.state.chars.get(dial.figure)
            if ch is None or dial.kind != "combat":
                continue
            figure, window = str(ch.figure.id), "combat"
        one_dial = window != "speed" and (kind == "aces" or window == "ace")
        out[slot] = Piece(place_of(slot.dock, one_dial and slot.dial == 1), window, figure)
    return out


def catalogue_figures(kind: str, tracker: Tracker) -> dict[int, str]:
    """place -> the catalogue id of the piece sitting there (``camera_pieces``; a place two
    pieces would share keeps the first: ``table.camera_only.unreadable`` names the other)."""
    out: dict[int, str] = {}
    for _slot, p in sorted(camera_pieces(kind, tracker).items()):
        out.setdefault(p.place, p.figure)
    return out


def camera_dials(tracker: Tracker, clicks: dict[tuple[int, str], int], kind: str | None = None
                 ) -> dict[tuple[int, int], CameraDial]:
    """Every bound reader the camera sees as a camera dial; ``clicks``: (place, window name)
    -> the clicks its piece's dial prints. A reader with no piece the camera knows (see
    ``camera_pieces``) is named with "(no window)" (``CameraTray`` refuses it, saying so)."""
    kind = kind or str(tracker.game.kind)
    pieces = camera_pieces(kind, tracker)
    out = {}
    for slot, st in tracker.slots.items():
        p = pieces.get(slot)
        place, name = (p.place, p.window) if p is not None else \
            (slot.dock, f"{st.dial.kind} (no window)")
        out[(slot.dock, slot.dial)] = CameraDial(slot.dock, slot.dial, name, st.up,
                                                 clicks.get((place, name), st.detents), place)
    return out


class CameraTrackedTray(TrackedTray):
    """A ``TrackedTray`` on a camera-only tray (see the module docstring)."""

    def __init__(self, tracker: Tracker, tray: CameraTray, **kw: Any) -> None:
        super().__init__(tracker, cast(TraySession, tray), **kw)
        self.tray = tray

    def wants(self) -> dict[tuple[int, int], int]:
        from dialtray.table.camera_only import wants

        return wants(self.tracker, self.tray.dials)

    def pump(self, timeout: float = 0.0) -> int:
        self.tray.expect(self.wants())
        return super().pump(timeout)


class EncoderWitness:
    """A tray session's listener (the link thread): every encoder click that settles a dial
    asks the camera to confirm it (``CameraWitness.settled``, which only queues). Subscribed
    ``first``: the witness hears of a settle before the tracker's queue has it, so no hand
    acting on the tracker turns the dial on before the read is asked for, and the settle ->
    answer time is counted from the link's delivery. The dial's
    click is counted from the clicks reported (unwrapped, as the tracker counts them), in
    the figure's printed clicks."""

    def __init__(self, witness: CameraWitness, dials: dict[tuple[int, int], CameraDial],
                 start: dict[tuple[int, int], int] | None = None) -> None:
        self.witness, self.dials = witness, dials
        self.pos = dict.fromkeys(dials, 0) | dict(start or {})

    def __call__(self, ev: TrayEvent) -> None:
        if type(ev) is not Click:
            return
        d = self.dials.get((ev.dock, ev.dial))
        if d is None or d.place not in self.witness.docks:
            return  # nothing the camera knows sits there: it cannot confirm it
        self.pos[(ev.dock, ev.dial)] += ev.delta
        self.witness.settled(d.place, d.name, (self.pos[(ev.dock, ev.dial)] * d.up) % d.clicks)


class WitnessedTray(TrackedTray):
    """A ``TrackedTray`` whose clicks the camera confirms: the session's clicks go to an
    ``EncoderWitness`` too, and each answer of the camera is written into the game's log (a
    ``# camera`` line: comments change no state, replay reads past them), on the tracker's
    own thread at the next pump; a disagreement, a dial left unsure or seen mid-turn is also
    a note for the judge (``Tracker.notes``: the tray view shows them, the store keeps them
    as the game's records)."""

    def __init__(self, tracker: Tracker, session: TraySession, witness: CameraWitness,
                 dials: dict[tuple[int, int], CameraDial], **kw: Any) -> None:
        super().__init__(tracker, session, **kw)
        self.witness = witness
        self.listener = EncoderWitness(witness, dials)
        session.subscribe(self.listener, first=True)  # before the tracker's queue (above)
        for (dock, reader), d in dials.items():  # each dial's start photographed: a rival
            if d.place in witness.docks:  # click this scene's camera has seen (scene_looks)
                witness.photograph(d.place, d.name,
                                   (self.listener.pos[(dock, reader)] * d.up) % d.clicks)
        self._told = 0

    def close(self) -> None:
        self.session.unsubscribe(self.listener)
        super().close()

    def pump(self, timeout: float = 0.0) -> int:
        n = super().pump(timeout)
        self._told += len(record(self.witness, self.tracker, self._told))
        return n


def record(witness: CameraWitness, tracker: Tracker, told: int) -> list[Witnessed]:
    """The camera's answers from ``told`` on, written into the game: each a ``# camera``
    line of the log, a disagreement, a dial left unsure or seen mid-turn also a note for the
    judge (shown on the tray view, stored with the game's records). Call it on the tracker's
    own thread. Returns the answers written."""
    new = list(witness.results[told:])
    write(new, tracker)
    return new


def write(answers: list[Witnessed], tracker: Tracker) -> None:
    """Each answer a ``# camera`` line of the game's log; a disagreement, a dial left unsure
    or seen mid-turn also a note for the judge."""
    for w in answers:
        tracker.lines.append(f"# camera {w.line()}")
        if w.state in (DISAGREE, UNSURE, MIDTURN):
            tracker.notes.append(f"camera: {w.line()}")


class TableCamera:
    """A camera watching a tray whose link is someone else's (``play``/``serve``: their
    stored table owns the session): subscribes an ``EncoderWitness`` to the session, and
    ``pump`` writes the camera's new answers into the tracker (``record``). ``film``: the
    virtual camera's world turned as a person's typed turn turns the virtual tray."""

    def __init__(self, witness: CameraWitness, session: TraySession,
                 dials: dict[tuple[int, int], CameraDial],
                 film: Callable[[int, str, int], None] | None = None) -> None:
        self.witness, self.session, self.film = witness, session, film
        self.listener = EncoderWitness(witness, dials)
        self.told = 0

    def start(self) -> TableCamera:
        self.witness.start()
        self.session.subscribe(self.listener, first=True)  # before the table's own queue
        return self

    def pump(self, tracker: Tracker) -> list[Witnessed]:
        new = record(self.witness, tracker, self.told)
        self.told += len(new)
        return new

    def close(self) -> None:
        self.session.unsubscribe(self.listener)
        self.witness.stop()
