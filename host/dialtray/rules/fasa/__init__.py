"""Crimson Skies (FASA 1998): the hex-map board game with record sheets, as a rules engine.

Source of truth: ``/work/shared/seeds/003_71ecba66bed64a13.txt``; mechanic ids FS-Mnn, worked
examples FS-Tnn and ambiguities FS-Ann of ``rules-inventory.md`` §5, decisions in
``docs/rules-decisions.md`` ("FASA"). Everything the seed lacks (maneuver template, mapsheets,
record sheets, damage templates, Hit Location Table, arcs diagram) is a documented SAMPLE data
file the owner may replace (``tables``).

- ``tn``        every target number (FS table 19) and the d10 check (FS-M01/FS-M02)
- ``skills``    skills, creation, advancement, Quick Draw order, mission XP
- ``hexmap``    hexes, facings A-F, mapsheets, arcs, line of sight
- ``template``  the (sample) maneuver template and plot notation
- ``sheets``    record sheets as schema-checked data; ``layouts`` the damage diagrams
- ``damage``    hit location, template, widowing, cut in half; ``apply`` their effects
- ``movement``  plot checks, pushes, random movement, collisions
- ``combat``    Quick Draw order, targets, guns, rockets, counters, bombs
- ``zeppelin``  gas cells, nacelles, turrets; ``campaign`` the pilot's log
- ``guns``      gun posts in play: zeppelin turrets, main guns, gunners, ground turrets
- ``tow``       harpoons, lifting, towing and aerial torpedoes in play
- ``tables``    the missing tables as data files, the owner's laid over them (issue 34)
- ``creation``  a record sheet checked against the rules for making one
- ``tailing``   tailing information with sealed plots; ``summary`` the text report
- ``events``, ``state``, ``actions``, ``legal``, ``game`` (``FasaGame``), ``notation``,
  ``bots``, ``svg`` (the live record sheet)
"""

from dialtray.rules.fasa.actions import FasaAction, parse_action
from dialtray.rules.fasa.game import FasaGame, Outcome
from dialtray.rules.fasa.notation import FasaKind

GAME_KIND = FasaKind()

__all__ = ["GAME_KIND", "FasaAction", "FasaGame", "FasaKind", "Outcome", "parse_action"]
