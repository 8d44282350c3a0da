"""The table: a game in progress on a tray — rules engine, click tracker, dice, bots, store, the
tray's link, the bots' pace — with one API that every front end (``play``, ``demo``, ``serve``'s
page, the hub's table side) drives and observes. A front end draws and reads input; it never
assembles these parts itself (issue 30).

Building one::

    setup = games.new_game(kind, TableDice(source), seed, turns)   # airaction aces fasa skyace
    tracker = build.tracker_for(setup, build.binding_for(setup, docks), dice, timing)
    link = StoredTable(GameRecorder.start(store, tracker), session)  # stored, live tray
    table = Table(setup, ["human", "bot"], link, hand=VirtualHands(vtray).turn, pace=1.0)
    table.start()                                  # the start check reads every dial
    # without a tray (tests, the monkey, bench):  table = build.on_paper("aces", ["bot", "bot"])

Driving it (one thread: the front end's loop)::

    table.pump(timeout)        # tray events in, bots at their pace, bookkeeping, narration
    table.decide(text, seat)   # a decision typed in the notation; Result(ok, message)
    table.object()             # stop the bookkeeping the table is about to take
    table.dispute(about)       # AA-M84: one die, 1-3 no, 4-6 yes
    table.turn(dock, reader, clicks)   # the virtual/paper tray's hand (a person's turn)
    table.close(reason)

Observing it::

    v = table.view()           # TableView, plain data: title, turn, phase, to_move and
                               # mover (human/bot/table), due (dials to turn, each with its
                               # "dock N combat dial (A1): 2 clicks clockwise — why" line),
                               # flags, docks, offers (OfferGroup by figure and kind, the common
                               # case first), pending bookkeeping, over (winner, score rows)
    table.narration[since:]    # every resolved step in plain words, with the numbers
    table.on_narrate = print   # or be told each line as it is said
    table.asks                 # turns a person must make for a bot on a real tray

Plugging in another sensor (a camera reader): ``table.sensors.append(poll)`` where ``poll()``
returns the ``TrayEvent``s (``Click``/``Snapshot``) it read since it was last asked; they are
fed to the tracker before the tray's, on the table's thread, and judged like the tray's own.
"""

from dialtray.table.build import on_paper, tracker_for
from dialtray.table.games import DIALLED, GAMES, TITLES, new_game
from dialtray.table.offers import Offer, OfferGroup
from dialtray.table.table import BOT, PERSON, DialDue, Over, Table, TableView

__all__ = ["BOT", "DIALLED", "GAMES", "PERSON", "TITLES", "DialDue", "Offer", "OfferGroup",
           "Over", "Table", "TableView", "new_game", "on_paper", "tracker_for"]
