"""Decisions: typed in notation words, read from a settled input dial (``dialinput``), or a
dispute (AA-M84). Each applied action's dial changes become expectations; a refusal changes
nothing and says why (the rule id the engine quotes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialtray.rules.core.errors import DiceError, IllegalActionError, InvalidActionError
from dialtray.rules.core.game import TABLE, Seat
from dialtray.rules.core.notation import format_action_line
from dialtray.tracker.dialinput import DialOption, extend_notation, refusal
from dialtray.tracker.expectations import expect
from dialtray.tracker.flags import remind
from dialtray.tracker.state import OVER, Result, SlotState, turn

if TYPE_CHECKING:
    from dialtray.tracker.tracker import Tracker


def decide(t: Tracker, text: str, now: float, seat: Seat | None = None) -> Result:
    """A decision typed in notation words (``shoot A1 front B2``)."""
    if t.phase == OVER:
        return Result(False, "the game is over")
    if not t.ready():
        remind(t, now)
        return Result(False, "the tray waits for the dials first: "
                      + "; ".join(t.waiting_for()))
    who = t.game.to_move()
    if seat is not None and who not in (seat, TABLE):
        return Result(False, f"{who} decides now, not {seat}")
    try:
        action = t.game.parse_action(text)
        events = apply(t, action, now, f"typed by {seat or who}")
    except (InvalidActionError, IllegalActionError) as e:
        return Result(False, str(e))
    except (DiceError, OSError) as e:  # the engine left no trace of the action: try again
        return Result(False, f"the dice could not be rolled, so {text!r} was not taken "
                      f"(try again): {e}", retry=True)
    t._changed(now)
    return Result(True, action.text(), tuple(events))


def dispute(t: Tracker, about: str, now: float) -> Result:
    """AA-M84 (Etiquette 4): one die from the game's dice; 1–3 not allowed, 4–6 allowed.
    Engines with a ``dispute`` action log it; otherwise the tracker rolls and logs it."""
    try:
        action = t.game.parse_action(f"dispute {about}")
    except InvalidActionError:
        action = None
    try:
        if action is not None:
            events = apply(t, action, now, "dispute")
            face = t.dice.last.faces[0] if t.dice.last else 0
        else:
            face = t.dice.roll(1, f"dispute: {about}")[0]
    except IllegalActionError as e:
        return Result(False, str(e))
    except (DiceError, OSError) as e:
        return Result(False, f"the die for the dispute could not be rolled: {e}", retry=True)
    if action is None:
        t.dice.take()
        events = [f"dispute {about}: rolled {face}"]
        t.lines.append(f"# dispute {about} | {face} (AA-M84)")
    verdict = "allowed" if face >= 4 else "not allowed"
    text = f"dispute '{about}': rolled {face} — {verdict} (AA-M84: 1-3 no, 4-6 yes)"
    t.notes.append(text)
    t.lines.append(f"# judge: {text}")
    t._changed(now)
    return Result(face >= 4, text, tuple(events))


def apply(t: Tracker, action: Any, now: float, how: str) -> list[str]:
    """Apply a legal action: logged with its dice, its dial changes due on the readers."""
    t.dice.take()
    events = t.game.apply(action)
    rolls = t.dice.take()
    faces = [f for r in rolls for f in r.faces]
    sides = [r.sides for r in rolls for _ in r.faces]  # FASA's d10s marked ``d10:``
    texts = [e.text() for e in events]
    t.lines.append(format_action_line(action.text(), faces, texts,
                                      sides if any(n != 6 for n in sides) else None))
    t.lines.append(f"# ({how})")
    for ch in t.game.dial_changes():
        expect(t, ch, now)
    return texts


def read_dial(t: Tracker, st: SlotState, now: float) -> str | None:
    """Read a settled input dial as its owner's decision: None when it became one, else
    why not ("" when the dial is no decision now)."""
    opts = [o for o in t.options() if o.dial == st.dial]
    if not opts or not t.ready(ignore=st):
        return ""
    assert st.seen is not None
    for o in opts:
        if o.delta is None:
            if st.free and (st.seen - st.phys(o.to_click)) % st.detents == 0:
                _apply_input(t, st, o, now)
                return None
        elif st.want is not None and st.seen == st.want + st.phys(o.delta):
            _apply_input(t, st, o, now)
            return None
    if st.free or st.want is None:
        return "not a setting the rules allow here"
    delta = st.offset * st.up
    text = extend_notation(opts, delta)
    why = refusal(t.game, t.dice, text) if text else None
    if why:
        t.lines.append(f"# refused: {why}")
    return why or f"{turn(st.offset)} is not a legal {st.dial.kind} change now"


def _apply_input(t: Tracker, st: SlotState, o: DialOption, now: float) -> None:
    seat = t.game.to_move()
    events = apply(t, o.action, now, f"{seat}: read from {st.label}")
    if st.want is not None and st.offset != 0:  # the engine did not take the dial there
        st.failed = f"the rules did not take it ({'; '.join(events) or o.text})"
        st.judged = False
        st.moved_at = now - t.timing.judge_s


__all__ = ["apply", "decide", "dispute", "read_dial"]
