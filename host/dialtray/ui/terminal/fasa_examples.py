"""What a person may type in `dialtray play fasa`, shown by ``help`` at the FASA prompt and at
the end of ``dialtray play --help`` (``commands._fasaargs``): one text, so the two never
disagree. Plain text, no imports: the CLI reads it when it builds its parser."""

from __future__ import annotations

EXAMPLES = """
FASA 1998 (record sheets on paper, secret plots, every die a d10 from the tray):
  dialtray play fasa --sim                           # you (P1) against a bot, virtual tray
  dialtray play fasa --dice seeded --seats human,human   # hot-seat on one screen, no tray
  dialtray play fasa --port /dev/ttyACM0 --sheets sheets/  # keep sheets/A1.svg open, print it
  dialtray play fasa --sim --seats bot,bot --turns 6 --map sample-zeppelin
at the FASA prompt:
  3L2F / bail 3SA          your plane's secret plot: not echoed, sealed, revealed together
  fire A1 B1 / place A1 3 / rocket A1 rockets_p1 AP B1 / clear A1 / pass A1   (combat)
  legal / show / quit      what you may type now / the whole state / stop and write the log
"""
