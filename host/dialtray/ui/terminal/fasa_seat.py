"""A person's seat at `dialtray play fasa`: typing a secret plot without anyone at the screen
seeing it, checking it before it is sealed, and the salt and digest that seal it (FS-M33).

Hot-seat play on one screen stays honest: the plot is typed with the terminal's echo off, the
program keeps it (and a random salt) until every seat has sealed, the others see only its
SHA-256 digest (``actions.seal_digest``), and all plots are revealed together.
"""

from __future__ import annotations

import importlib.util
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from dialtray.rules.core.errors import IllegalActionError
from dialtray.rules.fasa.actions import Reveal, Seal, seal_digest
from dialtray.rules.fasa.legal import H_PLOT, plots_for
from dialtray.rules.fasa.movement import caps, pushes, refusal
from dialtray.rules.fasa.state import FasaState
from dialtray.rules.fasa.template import parse_plot

Secret = tuple[tuple[tuple[str, str, bool], ...], str]  # (plots, salt)


class Quit(Exception):
    """The person typed quit, the input ended or the dice failed: stop, write the log so far
    (``failed``: the exit status says the game did not end as the players chose)."""

    def __init__(self, why: str, failed: bool = False) -> None:
        super().__init__(why)
        self.failed = failed


@contextmanager
def no_echo() -> Iterator[None]:
    """The terminal's echo off while a secret is typed (a pipe echoes nothing anyway; without
    termios, e.g. on Windows, ``hidden_line`` asks getpass instead)."""
    fd = sys.stdin.fileno() if hasattr(sys.stdin, "fileno") else -1
    try:
        import termios
    except ImportError:  # not a POSIX terminal
        yield
        return
    try:
        old = termios.tcgetattr(fd)
    except (termios.error, OSError, ValueError):  # not a terminal: nothing is echoed
        yield
        return
    new = list(old)
    new[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSADRAIN, new)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def hidden_line(prompt: str) -> str:
    """One line typed with echo off; ``Quit`` when the input ended."""
    if importlib.util.find_spec("termios") is None and sys.stdin.isatty():
        import getpass  # Windows' console: getpass reads without echo (msvcrt)

        try:
            return getpass.getpass(prompt).strip()
        except EOFError:
            raise Quit("input ended") from None
    with no_echo():  # before the prompt: a line sent as soon as it shows is not echoed
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
    sys.stdout.write("\n")  # the Enter was not echoed either
    sys.stdout.flush()
    if not line:
        raise Quit("input ended")
    return line.strip()


def check_secret_plot(st: FasaState, plane: str, text: str) -> tuple[str, bool, str]:
    """(maneuver, bail, note) for a secret plot typed for ``plane`` ('3L2F', 'bail 3SA'); an
    ``IllegalActionError`` naming the rule if it may not be flown (FS-M34/FS-M35 the template,
    ``movement.refusal`` the performance diagram). Caught here, before the seal: sealed, an
    illegal plot would be flown as random movement (FS-M44). A push is legal (FS-M40): the
    note says so."""
    words = text.split()
    bail = bool(words) and words[0].lower() == "bail"
    body = " ".join(words[1:] if bail else words)
    shown = f"plot {plane} {'bail ' if bail else ''}{body}"
    try:
        m = parse_plot(body)
    except ValueError as exc:
        raise IllegalActionError(shown, str(exc), "FS-M35", "Legal moves") from None
    c = caps(st.planes[plane], st.turn)
    why = refusal(c, m, bail)
    if why is not None:
        raise IllegalActionError(shown, why[0], why[1], H_PLOT)
    over = pushes(c, m)
    note = ("; ".join(f"pushes {p.kind} by {p.over}: TN {p.tn} [{p.rule}]" for p in over)
            if over else "")
    return body.strip().upper(), bail, note


def legal_plots(st: FasaState, plane: str) -> str:
    """Every plot the plane may record now (pushes included, FS-M40), as one line."""
    shown = [("bail " if a.bail else "") + a.maneuver for a in plots_for(st, st.planes[plane])]
    return f"{plane} may plot ({len(shown)}): " + " ".join(shown)


def seal(seat: str, turn: int, plots: list[tuple[str, str, bool]]) -> tuple[Seal, Secret]:
    """The seal action for the seat's plots (or picks) and the secret kept for the reveal: a
    random 64-bit salt, so a short plot cannot be guessed from its digest."""
    body = tuple(sorted(plots))
    salt = secrets.token_hex(8)
    return Seal(seat, seal_digest(seat, turn, body, salt)), (body, salt)


def reveal(seat: str, secret: Secret) -> Reveal:
    return Reveal(seat, secret[0], secret[1])


def ask_faces(count: int, purpose: str) -> list[int]:
    """``--dice typed``: the faces of real dice the players rolled (``purpose`` names the die,
    e.g. 'A1 mg1 to-hit on B1 (d10)'); asked again, saying why, until they are faces of that
    die (a d10's 0 is a 10), so a typo never stops a bot's move."""
    sides = 10 if purpose.endswith("(d10)") else 6
    while True:
        try:
            text = input(f"roll {count} {'die' if count == 1 else 'dice'} for {purpose} and "
                         f"type the face{'s' if count > 1 else ''}: ")
        except EOFError:
            raise Quit("input ended while dice were asked for") from None
        try:
            faces = [int(tok) for tok in text.replace(",", " ").split()]
        except ValueError:
            faces = []
        if sides == 10:
            faces = [10 if f == 0 else f for f in faces]
        if len(faces) == count and all(1 <= f <= sides for f in faces):
            return faces
        print(f"{text.strip()!r}: type {count} face(s) of a d{sides} (1..{sides}"
              + (", a 0 is a 10" if sides == 10 else "") + "), separated by spaces")
