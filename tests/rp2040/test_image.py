"""The emulated Pico's flash filesystem image holds exactly what `dialtray flash` copies (CPython
only: littlefs-python reads the image back; no chip is started)."""

from __future__ import annotations

import json
from pathlib import Path

from dialrig import config
from dialtray.builder.deploy import plan
from dialtray.virtual.rp2040.image import BLOCK_COUNT, BLOCK_SIZE, PAGE, build_image


def read_back(image: bytes) -> dict[str, bytes]:
    from littlefs import LittleFS, UserContext

    ctx = UserContext(len(image))
    ctx.buffer[:] = image
    fs = LittleFS(ctx, block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=PAGE,
                  read_size=PAGE)
    out: dict[str, bytes] = {}
    for root, _dirs, files in fs.walk("/"):
        for name in files:
            path = f"{root.rstrip('/')}/{name}"
            with fs.open(path, "rb") as f:
                out[path if path.startswith("/") else "/" + path] = f.read()
    return out


def test_image_is_what_dialtray_flash_copies(tmp_path: Path) -> None:
    image = build_image()
    assert len(image) == BLOCK_SIZE * BLOCK_COUNT  # the rp2 port's RPI_PICO filesystem
    files = read_back(image)
    planned, _ = plan(tmp_path)
    assert files == {p.dest: p.built.read_bytes() for p in planned}
    assert "/lib/dialrig/hw_rp2.mpy" in files and "/lib/dialrig/hw_sim.mpy" not in files


def test_a_custom_config_goes_in_as_dialrig_json() -> None:
    cfg = config.quadrature_config(2)
    files = read_back(build_image(cfg))
    assert json.loads(files["/dialrig.json"]) == cfg
