"""The terminal front end of the table (`dialtray play`, `dialtray demo`): ``play`` puts a table
together at a tray (new or resumed), ``front`` drives it from typed lines, ``view`` draws it in
the terminal (80x24 and up) or line by line (``--plain``); ``demo`` narrates a bots' game on
the virtual tray. FASA's sealed-plot flow (plots typed hidden, sealed, revealed together,
FS-M33) has its own: ``fasa_play`` runs it, ``fasa_seat`` reads a person's seat, ``fasa_view``
shows the state and writes the record sheets. ``dialvalues`` words what a bound dial shows at a
sensed click, for ``dialtray monitor --docks-file``."""
