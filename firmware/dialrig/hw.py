# dialrig.hw — the hardware layer: one interface, two backends.
#
# Everything that touches a pin, a PIO state machine, the I2C bus, the watchdog or the chip's
# entropy goes through a Board. `hw_rp2.Board` drives the real RP2040; `hw_sim.Board` stands in
# for it under the MicroPython unix port and behaves like the hardware, faults included (contact
# bounce, a missing AS5600 magnet, an I2C NAK, dials turned while the power was off). The rest of
# the firmware cannot tell which one it has, which is what lets the virtual tray test the real
# firmware.
#
# The Board interface (both backends, no allocation in the methods marked hot):
#   uid                       bytes(8): the board's unique id (flash id on rp2)
#   i2c                       machine.I2C-like: writeto, readfrom_into, readfrom_mem_into, scan;
#                             raises OSError on a NAK, like machine.I2C
#   quad_count(n)       hot   signed PIO count of quadrature state machine n (4 per cycle)
#   button()            hot   True while the roll button is held (raw; the app debounces)
#   show_leds(buf)            push a bytearray of GRB triples to the WS2812 chain
#   entropy_into(buf)         fill buf with bytes from the hardware entropy source
#   status_led(on)            the heartbeat LED
#   set_ctrl_c(enabled)       whether a 0x03 on the serial line interrupts the firmware at the
#                             hardware level (micropython.kbd_intr); off while a host is
#                             connected, when app.SerialIO judges Ctrl-C itself
#   boot_reason()             proto.BOOT_POWER_ON / BOOT_WATCHDOG / BOOT_SOFT
#   ensure_quad(n)            start quadrature state machine n if it is not running; False
#                             when it cannot exist (n out of range or its pins not wired)
#   mux_reset()               pulse the TCA9548A reset line
#   watchdog_start(ms) / watchdog_feed()
#   background()              list of coroutines the backend needs running (the sim's control
#                             channel; none on rp2)
#   deinit()                  stop state machines, LEDs off, watchdog disabled: called before
#                             the firmware hands the REPL back after Ctrl-C
#   reset()                   hard reset of the board
import sys


def open_board(cfg):
    """The backend for the platform we run on: rp2 on a Pico, sim anywhere else."""
    if sys.platform == "rp2":
        from dialrig.hw_rp2 import Board
    else:
        from dialrig.hw_sim import Board
    return Board(cfg)
