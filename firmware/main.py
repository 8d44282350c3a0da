# main.py — the Pico runs this at boot. All of the firmware lives in the dialrig package so that
# `mpremote` can interrupt it with Ctrl-C and get the REPL back (dialrig.app.main re-raises
# KeyboardInterrupt after putting the hardware in a safe state).
from dialrig.app import main

main()
