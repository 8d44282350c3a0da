"""The Pico's flash filesystem, built on the host: exactly what ``dialtray flash`` copies.

MicroPython's rp2 port for RPI_PICO mounts a littlefs2 filesystem at ``/`` from flash offset
0xA0000: 352 blocks of 4096 bytes (the 1.4 MB after the 640 KB firmware). An image made here and
preloaded into the emulated flash is what the board would hold after ``dialtray flash``, without
the minute mpremote needs to copy it over the emulated USB.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

FS_OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
PAGE = 256


def build_image(cfg: dict[str, Any] | None = None,
                extra: dict[str, bytes] | None = None) -> bytes:
    """A littlefs image of the firmware as ``dialtray flash`` plans it (compiled .mpy under
    /lib/dialrig, /main.py), plus /dialrig.json when ``cfg`` is given and any ``extra`` files
    ({"/path": bytes})."""
    from littlefs import LittleFS

    from dialtray.builder.deploy import plan

    fs = LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=PAGE,
                  read_size=PAGE)
    files: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="dialtray-lfs-") as tmp:
        planned, _ = plan(Path(tmp))
        for p in planned:
            files[p.dest] = p.built.read_bytes()
    if cfg is not None:
        files["/dialrig.json"] = json.dumps(cfg).encode()
    files.update(extra or {})
    for dest, data in sorted(files.items()):
        parent = dest.rsplit("/", 1)[0].lstrip("/")
        if parent:
            fs.makedirs(parent, exist_ok=True)
        with fs.open(dest.lstrip("/"), "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)
