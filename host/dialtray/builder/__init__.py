"""What a hobbyist building the tray uses on the host, beside the game: per-dial calibration
(fit, capture, the host's copy and its check against the board's) and the generated hardware
documents (wiring table, bill of materials; split by job in ``dialtray.hwdocs``).

Kept in one package so the package root holds only the layers of the data flow."""
