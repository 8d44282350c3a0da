"""The terminal front end of the table (`dialtray play`): ``play`` puts a table together at a
tray (new or resumed), ``front`` drives it from typed lines, ``view`` draws it in the terminal
(80x24 and up) or line by line (``--plain``)."""
