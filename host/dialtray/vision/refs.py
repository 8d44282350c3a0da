"""A figure's reference crops: one per click per dial, with what each click shows.

Written by ``dialtray capture`` next to the figure's catalogue file, read by ``dialtray read``.
One ``.npz`` file per figure (``vision/refs/<figure id>.npz`` in the data directory): a JSON
``meta`` entry (figure, game, base type, per dial the faces) and the crops as ``uint8`` arrays
``<dial>_<click>``. Written to a temporary file and renamed, so a failed capture leaves no
partial file.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dialtray.vision.camera import atomic_write_bytes
from dialtray.vision.errors import VisionError
from dialtray.vision.faces import Face
from dialtray.vision.register import Image

FORMAT = 1


@dataclass
class FigureRefs:
    figure: str
    game: str
    base_type: str
    faces: dict[str, list[Face]]
    crops: dict[str, list[Image]]

    def to_bytes(self) -> bytes:
        meta = {"format": FORMAT, "figure": self.figure, "game": self.game,
                "base_type": self.base_type,
                "faces": {d: [f.to_dict() for f in fs] for d, fs in self.faces.items()}}
        arrays: dict[str, Any] = {"meta": np.frombuffer(json.dumps(meta).encode(), np.uint8)}
        for d, cs in self.crops.items():
            for i, c in enumerate(cs):
                arrays[f"{d}_{i}"] = c
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        return buf.getvalue()


def refs_dir(data_dir: Path) -> Path:
    return data_dir / "vision" / "refs"


# The shipped sample figures' references (captured from rendered photographs as
# ``dialtray capture --from-photos`` would: ``testset.capture_refs``; regenerate with
# ``python -m dialtray.vision.testset --write-sample-refs``): ``read`` and the virtual camera
# need no capture for the samples.
SAMPLE_REFS = Path(__file__).resolve().parents[1] / "data" / "vision" / "refs"


def find_refs(directory: Path, figure: str, game: str | None = None) -> Path:
    """A figure's reference file: the user's own (``directory``), else a shipped sample's
    (``SAMPLE_REFS/<game>/``: the samples of the two games share an id or two, e.g. Charlie
    Steele is a plane and an Aces figure; without ``game`` the plane's first)."""
    own = directory / f"{figure}.npz"
    if own.exists():
        return own
    games = (game,) if game else ("airaction", "aces")
    return next((p for g in games if (p := SAMPLE_REFS / g / f"{figure}.npz").exists()), own)


def save_refs(path: Path, refs: FigureRefs) -> None:
    atomic_write_bytes(path, refs.to_bytes())


def load_refs(path: str | Path) -> FigureRefs:
    p = Path(path)
    try:
        with np.load(p, allow_pickle=False) as z:
            meta = json.loads(bytes(z["meta"]).decode())
            if meta.get("format") != FORMAT:
                raise VisionError(f"{p}: reference format {meta.get('format')!r} is not known")
            faces = {d: [Face.from_dict(f) for f in fs] for d, fs in meta["faces"].items()}
            crops = {d: [np.asarray(z[f"{d}_{i}"], np.uint8) for i in range(len(fs))]
                     for d, fs in faces.items()}
    except FileNotFoundError:
        raise VisionError(f"{p}: no reference crops (capture the figure first: "
                          "dialtray capture)") from None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as e:
        raise VisionError(f"{p}: not a reference file ({e})") from None
    return FigureRefs(str(meta["figure"]), str(meta["game"]), str(meta["base_type"]), faces,
                      crops)
