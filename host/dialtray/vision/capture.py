"""Capturing a figure: reference crops per click, the values confirmed by a person, and the
figure's catalogue file in the engine's schema.

From photographs (``--from-photos DIR``): one photo per click, in click order (sorted by file
name), in ``DIR/combat/`` and, for an Air Action plane, ``DIR/speed/`` (an Aces figure may keep
its photos in ``DIR`` itself). Each photo is registered on the tray's markers and the dock's
window cropped: that crop is the click's reference. Then, click by click, the person confirms or
types what the window shows. The suggestion is pre-filled from the base document's dial at that
click when it has one (re-capturing a known figure), else with the previous click's values (a
dial changes a value or two per click) and the colour blocks the camera sees (named by the
layout's palette); the colour blocks seen are always shown beside it. Over that, every cell
(and bullet-hole count) that matches one value of the figure's *own* print, as confirmed on
earlier clicks, clearly enough is pre-filled with it (``digits.py``: a closed set, no OCR);
the prompt says which cells were read from the print and which are guesses. The first click
is all guesses (nothing is known yet), and so is a value the dial has not shown before.

Nothing is written until everything is known and the document passes the engine's own loader
(``airaction.catalogue.builtin().overlay`` / ``aces.catalogue.catalogue_for``); both files are
written to a temporary name and renamed.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dialtray.vision.classify import DialClassifier
from dialtray.vision.colours import palette_hues, read_colours
from dialtray.vision.digits import DigitPrefill
from dialtray.vision.errors import VisionError
from dialtray.vision.faces import BASE_TYPE, Face, dial_faces, faces_to_document
from dialtray.vision.layout import Layout
from dialtray.vision.refs import FigureRefs
from dialtray.vision.register import CropGeometry, Image, MarkerFinder, check_image, register

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
Ask = Callable[[str], str]


def read_image(path: Path) -> Image:
    """A photo from disk, or a VisionError naming it (missing, unreadable, not an image)."""
    try:
        data = np.fromfile(str(path), np.uint8)
    except OSError as e:
        raise VisionError(f"{path}: cannot read it ({e.strerror or e})") from None
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise VisionError(f"{path}: not an image OpenCV can decode (corrupt or another format)")
    return np.asarray(img, np.uint8)


def photo_dirs(root: Path, dials: list[str]) -> dict[str, list[Path]]:
    """The photos of each dial, sorted by name."""
    if not root.is_dir():
        raise VisionError(f"{root}: no such directory")
    out = {}
    for d in dials:
        sub = root / d
        if not sub.is_dir() and d == "combat" and len(dials) == 1:
            sub = root
        photos = sorted(p for p in sub.glob("*") if p.suffix.lower() in PHOTO_SUFFIXES)
        if not photos:
            raise VisionError(f"{sub}: no photos of the {d} dial (one per click, "
                              f"{'/'.join(sorted(PHOTO_SUFFIXES))})")
        out[d] = photos
    return out


def crops_from_photos(layout: Layout, base_type: str, dock: int,
                      photos: Mapping[str, list[Path]]) -> dict[str, list[Image]]:
    """One reference crop per photo (registration on each: the camera may have moved)."""
    if dock not in layout.docks:
        raise VisionError(f"dock {dock} is not in the layout {layout.file}")
    bt = layout.base_type(base_type)
    finder = MarkerFinder(layout)
    out: dict[str, list[Image]] = {}
    for d, paths in photos.items():
        if d not in bt.windows:
            raise VisionError(f"base type {base_type} has no {d} window")
        out[d] = []
        for p in paths:
            img = check_image(read_image(p), str(p))
            reg = register(img, finder, None, str(p))
            out[d].append(reg.crop(img, layout.docks[dock], bt.windows[d], bt.name))
    return out


def _parse_answer(text: str, suggestion: Face, stats: list[str], marks: list[str]) -> Face:
    """``key=value`` words: a stat, a mark, or ``colour.STAT=NAME`` (``-`` for none)."""
    values, colours, mk = dict(suggestion.values), dict(suggestion.colours), \
        dict(suggestion.marks)
    for word in text.split():
        key, sep, val = word.partition("=")
        if not sep or not val:
            raise ValueError(f"{word!r}: expected key=value")
        if key.startswith("colour."):
            stat = key[len("colour."):]
            if stat not in stats:
                raise ValueError(f"{key}: no stat {stat!r} (stats: {', '.join(stats)})")
            if val == "-":
                colours.pop(stat, None)
            else:
                colours[stat] = val
            continue
        if key not in stats and key not in marks:
            raise ValueError(f"{key}: not one of {', '.join(stats + marks)}")
        try:
            number = int(val)
        except ValueError:
            raise ValueError(f"{word!r}: {key} is a whole number") from None
        (values if key in stats else mk)[key] = number
    return Face(values, colours, mk)


def _read_into(sug: Face, read: Mapping[str, int]) -> tuple[Face, list[str]]:
    """The suggestion with the values read from the print put in; and where a read value
    differs from the suggestion's source (the base file), what that said."""
    values, mk = dict(sug.values), dict(sug.marks)
    differs = []
    for k, v in read.items():
        target = values if k in values else mk
        if k in target and target[k] != v:
            differs.append(f"{k}={target[k]}")
        target[k] = v
    return Face(values, sug.colours, mk), differs


def confirm_faces(faces_hint: Mapping[str, list[Face] | None], counts: Mapping[str, int],
                  seen: Mapping[str, list[dict[str, str]]], stats: Mapping[str, list[str]],
                  marks: Mapping[str, list[str]], ask: Ask,
                  say: Callable[[str], None],
                  prefill: DigitPrefill | None = None) -> dict[str, list[Face]]:
    """Click by click: show the suggestion and the colours seen, take Enter or corrections.
    With ``prefill``, the cells read from the figure's own print (as confirmed on earlier
    clicks) are put in the suggestion, a line says which cells were read and which are
    guesses, and each confirmed click teaches ``prefill`` its print."""
    out: dict[str, list[Face]] = {}
    for d, n in counts.items():
        hint = faces_hint.get(d)
        faces: list[Face] = []
        for i in range(n):
            from_base = hint is not None and i < len(hint)
            if hint is not None and from_base:
                sug = hint[i]
            else:  # the previous click's values, the colour blocks the camera sees
                prev = faces[-1] if faces else Face({s: 0 for s in stats[d]}, {},
                                                    {m: 0 for m in marks[d]})
                sug = Face(prev.values, {k: v for k, v in seen[d][i].items()
                                         if v not in ("none", "unknown")}, prev.marks)
            read = {k: r.value for k, r in (prefill.read(d, i) if prefill else {}).items()
                    if r.value is not None}
            sug, differs = _read_into(sug, read)
            shown = " ".join([f"{k}={v}" for k, v in sug.values.items()]
                             + [f"{k}={v}" for k, v in sug.marks.items()]
                             + [f"colour.{k}={v}" for k, v in sug.colours.items()])
            seen_txt = ", ".join(f"{k} {v}" for k, v in seen[d][i].items() if v != "none")
            say(f"{d} click {i}: {shown}" + (f"   (colour blocks seen: {seen_txt})"
                                             if seen_txt else ""))
            if prefill is not None:
                guessed = [k for k in list(stats[d]) + list(marks[d]) if k not in read]
                source = "the base file" if from_base else (
                    "the previous click" if faces else "nothing known yet")
                say(f"  read from the print: {', '.join(read) or 'nothing'}; "
                    f"guessed ({source}): {', '.join(guessed) or 'nothing'}"
                    + (f"; the base file says {' '.join(differs)}" if differs else ""))
            while True:
                answer = ask(f"{d} click {i} [Enter = as shown, or key=value ...]: ")
                try:
                    faces.append(_parse_answer(answer, sug, stats[d], marks[d]))
                    break
                except ValueError as e:
                    say(f"  {e}; try again")
            if prefill is not None:
                prefill.learn(d, i, faces[-1])
        out[d] = faces
    return out


def digit_prefill(layout: Layout, base_type: str, crops: Mapping[str, list[Image]]
                  ) -> DigitPrefill:
    """What reads each click's digits from the figure's own print, for ``confirm_faces``."""
    return DigitPrefill(layout.base_type(base_type).windows, crops)


def seen_colours(layout: Layout, base_type: str, crops: Mapping[str, list[Image]]
                 ) -> dict[str, list[dict[str, str]]]:
    bt = layout.base_type(base_type)
    hues = palette_hues(layout)
    out = {}
    for d, cs in crops.items():
        m = CropGeometry.of(bt.windows[d]).margin
        out[d] = [read_colours(c, (m, m), bt.windows[d], hues) for c in cs]
    return out


def extras(base: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Per-click fields the window does not show, kept from the base document."""
    keep = {"combat_dial": ("bail_out", "structural_limit"), "speed_dial": ("effect",)}
    out: dict[str, list[dict[str, Any]]] = {}
    for key, fields in keep.items():
        rows = base.get(key) or []
        out["combat" if key == "combat_dial" else "speed"] = [
            {f: r[f] for f in fields if f in r} for r in rows]
    return out


def engine_check(doc: Mapping[str, Any], game: str) -> dict[str, Any]:
    """The document through the engine's own loader (schema and rule checks); returns it as
    the engine read it back from disk. Raises the engine's ``CatalogueError``."""
    with tempfile.TemporaryDirectory() as tmp:
        figs = Path(tmp) / "figures"
        figs.mkdir()
        path = figs / f"{doc['id']}.json"
        path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        if game == "airaction":
            from dialtray.rules.airaction.catalogue import builtin as aa_builtin

            aa_builtin().overlay(tmp)
        else:
            from dialtray.rules.aces.catalogue import catalogue_for

            catalogue_for(tmp)
        back: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return back


def build(layout: Layout, base: dict[str, Any], game: str,
          crops: dict[str, list[Image]], faces: dict[str, list[Face]]) -> tuple[
              dict[str, Any], FigureRefs]:
    """The catalogue document and the references, checked (engine + classifier) before any
    write: the references must at least read themselves back."""
    doc = faces_to_document(base, faces, extras(base))
    engine_check(doc, game)
    bt = layout.base_type(BASE_TYPE[game])
    refs = FigureRefs(str(doc["id"]), game, bt.name, faces, crops)
    for d in faces:
        clf = DialClassifier(d, faces[d], crops[d], bt.windows[d], layout)
        for i, c in enumerate(crops[d]):
            r = clf.read(c)
            if i not in r.clicks:
                raise VisionError(f"{d} click {i}: its own photo does not read back as click "
                                  f"{i} ({r.status} {list(r.clicks)}; {r.reason or 'ok'}): "
                                  "retake that photo")
    return doc, refs


def base_faces(base: Mapping[str, Any]) -> dict[str, list[Face]] | None:
    try:
        return dial_faces(base)
    except (KeyError, ValueError, TypeError):
        return None
