# dialrig — firmware for the dialtray: reads every clix dial click on the tray and reports it over
# USB serial. Runs unchanged on a Raspberry Pi Pico (rp2 port) and, with the simulated hardware
# backend, under the MicroPython unix port (the virtual tray).
