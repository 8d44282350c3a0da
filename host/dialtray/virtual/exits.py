"""Why the virtual tray's firmware process ended, in the supervisor's words
(``virtual.tray.VirtualTray._watch`` turns every exit back into a boot, as a Pico resets)."""

from __future__ import annotations

import signal
import sys

from dialrig import proto

RESET_EXIT_CODE = 75  # dialrig.hw_sim: the firmware asked for a reset


def explain_exit(code: int) -> tuple[str, int, str]:
    """(kind for ``resets``, boot reason, why in words) for a firmware process's exit status."""
    if code == RESET_EXIT_CODE:
        return "soft", proto.BOOT_SOFT, "the firmware reset the board (a REBOOT command)"
    if code == 0:
        return "soft", proto.BOOT_SOFT, ("the firmware ended (Ctrl-D or SystemExit at the REPL, "
                                         "a soft reset on a Pico)")
    if code > 0:
        return "exit", proto.BOOT_SOFT, (f"the firmware exited with status {code} (a fatal "
                                         "MicroPython error; a Pico soft-resets)")
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return "crash", proto.BOOT_POWER_ON, (f"the firmware was killed by {name} (a Pico would "
                                          "have faulted and been reset)")


def to_stderr(note: str) -> None:
    print(f"virtual tray: {note}", file=sys.stderr, flush=True)
