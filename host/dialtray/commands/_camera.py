"""The camera at a tracked table: the glue between the tracker (``tracker.runner``) and the
camera (``vision.witness``, ``vision.camera_tray``), which know nothing of each other.

* ``camera_dials``: the tracker's bound readers as a camera-only tray's dials (which window,
  which way a rising click turns, how many clicks the figure's dial prints).
* ``CameraTrackedTray``: a ``TrackedTray`` whose events come from a ``CameraTray`` (no
  encoders): before each pump it tells the camera which click the rules want of each dial, so
  a turn between two clicks that print alike (invisible to any camera) is taken on the rules'
  word (``CameraTray.expect``).
* ``catalogue_figures``: which catalogue figure stands on each dock (the virtual camera draws
  it, the reader reads it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from dialtray.link.messages import Click, TrayEvent
from dialtray.link.session import TraySession
from dialtray.tracker.runner import TrackedTray
from dialtray.tracker.tracker import Tracker
from dialtray.vision.camera_tray import DIAL_NAMES, CameraDial, CameraTray
from dialtray.vision.witness import DISAGREE, MIDTURN, UNSURE, CameraWitness, Witnessed


def catalogue_figures(kind: str, tracker: Tracker) -> dict[int, str]:
    """dock -> the catalogue figure id of the figure bound there."""
    game: Any = tracker.game
    out: dict[int, str] = {}
    for slot, dial in tracker.binding.items():
        if slot.dial != 0 or dial.kind not in ("combat", "speed"):
            continue  # the dock's own figure is on its first reader (not an Ace card, not a
            # second Aces character sharing the dock)
        if kind == "airaction":
            plane = game.state.planes.get(dial.figure)
            if plane is not None:
                out[slot.dock] = str(plane.figure)
        else:
            ch = game.state.chars.get(dial.figure)
            if ch is not None:
                out[slot.dock] = str(ch.figure.id)
    return out


def camera_dials(tracker: Tracker, clicks: dict[tuple[int, str], int]
                 ) -> dict[tuple[int, int], CameraDial]:
    """Every bound reader as a camera dial; ``clicks``: (dock, window name) -> the clicks its
    figure's dial prints."""
    out = {}
    for slot, st in tracker.slots.items():
        name = DIAL_NAMES[slot.dial] if slot.dial < len(DIAL_NAMES) else ""
        if st.dial.kind != name:  # an Ace card, a second character on a dock: no window
            name = f"{st.dial.kind} (no window)"  # (CameraTray refuses it, saying so)
        out[(slot.dock, slot.dial)] = CameraDial(slot.dock, slot.dial, name, st.up,
                                                 clicks.get((slot.dock, name), st.detents))
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
    asks the camera to confirm it (``CameraWitness.settled``, which only queues). The dial's
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
        if d is None or d.name not in DIAL_NAMES or ev.dock not in self.witness.docks:
            return  # no window for it (an Ace card): the camera cannot confirm it
        self.pos[(ev.dock, ev.dial)] += ev.delta
        self.witness.settled(d.dock, d.name, (self.pos[(ev.dock, ev.dial)] * d.up) % d.clicks)


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
        session.subscribe(self.listener)
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
        self.session.subscribe(self.listener)
        return self

    def pump(self, tracker: Tracker) -> list[Witnessed]:
        new = record(self.witness, tracker, self.told)
        self.told += len(new)
        return new

    def close(self) -> None:
        self.session.unsubscribe(self.listener)
        self.witness.stop()
