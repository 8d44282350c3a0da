# dialrig.calstore — the tray's calibration on the board's flash, safe against power cuts.
#
# The calibration is every dial's settings (sensor, wiring, detents, pulses, direction, zero):
# what SET_DIAL changes at run time. Without this it lived in RAM and a power cut lost it.
#
# It is one small text file, written first under a temporary name, closed, and then renamed over
# the old file. Rename replaces atomically (littlefs on the Pico, POSIX on the unix port), so a
# power cut during a save leaves either the old file or the new one, never half of one. The
# first line carries a CRC-32 of the rest; a file that fails it is ignored and reported, as if
# there were none. The same checksum is what the device reports (CAL_INFO), and the host can
# compute it from its own copy with checksum() — this module runs on both interpreters.
#
#   dialrig-cal 1 <crc32 hex>
#   <dock> <dial> <sensor> <mux> <channel> <quad> <detents> <pulses> <direction> <zero>
#   ...
import binascii
import os

from dialrig import config

FILE = "dialrig_cal.txt"
TMP = "dialrig_cal.tmp"
MAGIC = "dialrig-cal 1"
_FIELDS = ("sensor", "mux", "channel", "quad", "detents", "pulses", "direction", "zero")

STORED_NONE = 0  # no calibration on the flash (the defaults are in use)
STORED_OK = 1  # loaded and applied at boot (or saved since)
STORED_BAD = 2  # a file was there but failed its checksum or validation: ignored


def body(docks):
    """The file's content after the first line: one line per dial, in dock order."""
    lines = []
    for d in range(len(docks)):
        for i in range(len(docks[d])):
            dial = docks[d][i]
            lines.append("%d %d %s" % (d, i, " ".join(str(dial[k]) for k in _FIELDS)))
    return "\n".join(lines) + "\n"


def checksum(docks):
    """CRC-32 of the calibration (what CAL_INFO reports and the host compares)."""
    return binascii.crc32(body(docks).encode()) & 0xFFFFFFFF


def encode(docks):
    text = body(docks)
    return "%s %08x\n%s" % (MAGIC, binascii.crc32(text.encode()) & 0xFFFFFFFF, text)


def decode(text, docks_expected):
    """The docks list from a file's text; ValueError naming the problem if it is not sound."""
    head, sep, rest = text.partition("\n")
    parts = head.split(" ")
    if not sep or " ".join(parts[:2]) != MAGIC or len(parts) != 3:
        raise ValueError("not a dialrig calibration file")
    if int(parts[2], 16) != binascii.crc32(rest.encode()) & 0xFFFFFFFF:
        raise ValueError("checksum mismatch")
    docks = [[None, None] for _ in range(docks_expected)]  # type: list
    for line in rest.split("\n"):
        if not line:
            continue
        w = line.split(" ")
        if len(w) != 2 + len(_FIELDS):
            raise ValueError("bad line: " + line)
        d, i = int(w[0]), int(w[1])
        if not 0 <= d < docks_expected or i not in (0, 1):
            raise ValueError("no dial %d.%d on this tray" % (d, i))
        dial = {"sensor": w[2]}  # type: dict
        for k in range(1, len(_FIELDS)):
            dial[_FIELDS[k]] = int(w[2 + k])
        docks[d][i] = dial
    for d in range(docks_expected):
        if docks[d][0] is None or docks[d][1] is None:
            raise ValueError("dock %d missing" % d)
    return docks


def _path(folder, name):
    return folder + "/" + name if folder else name


def load(cfg, folder=""):
    """Apply the stored calibration to cfg (in place) if it is sound; returns (status, crc).

    A temporary file left by a save that the power cut short is removed: it never counts."""
    try:
        os.remove(_path(folder, TMP))
    except OSError:
        pass
    try:
        with open(_path(folder, FILE)) as f:
            text = f.read()
    except OSError:
        return STORED_NONE, 0
    try:
        docks = decode(text, len(cfg["docks"]))
    except ValueError as e:
        print("dialrig: calibration on flash ignored: %s" % e)
        return STORED_BAD, 0
    trial = dict(cfg)
    trial["docks"] = docks
    problems = config.validate(trial)
    if problems:
        print("dialrig: calibration on flash ignored: %s" % "; ".join(problems))
        return STORED_BAD, 0
    cfg["docks"] = docks
    return STORED_OK, checksum(docks)


def lines(docks):
    """The file, line by line (the firmware writes it a line at a time between other work)."""
    text = encode(docks)
    return [line + "\n" for line in text.split("\n") if line]


def begin(folder=""):
    """Open the temporary file a save writes into."""
    return open(_path(folder, TMP), "w")


def commit(f, folder=""):
    """Close the temporary file and rename it over the calibration: the atomic step."""
    f.close()
    os.rename(_path(folder, TMP), _path(folder, FILE))


def save(docks, folder=""):
    """Write the calibration in one go (tests, tools); returns its checksum."""
    f = begin(folder)
    for line in lines(docks):
        f.write(line)
    commit(f, folder)
    return checksum(docks)
