"""Loading schema-validated data files (figure catalogues) with errors naming file/figure/field.

Every figure lives in its own JSON file. ``load_documents`` validates each against a JSON Schema
(``jsonschema``) and then an optional semantic check; the first problem in a file becomes a
``CatalogueError(file, figure, field, message)``, e.g.
``loyle.json: figure sample-loyle-crawford: field combat_dial[3].piloting: 'x' is not of type
'integer'``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jsonschema

from dialtray.rules.core.errors import CatalogueError

Document = dict[str, Any]
SemanticCheck = Callable[[Document], None]


class FieldError(ValueError):
    """Raised by a semantic check: ``field`` is a path such as ``combat_dial[3].piloting``."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def field_path(parts: Sequence[object]) -> str:
    """``['combat_dial', 3, 'piloting']`` -> ``combat_dial[3].piloting``."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += f".{p}" if out else str(p)
    return out or "(whole document)"


def load_schema(path: str | Path) -> Document:
    """A JSON Schema file, checked once per process (checking a schema costs ~15 ms; replaying a
    log loads several). Callers must not modify the returned dict."""
    return _load_schema(str(Path(path).resolve()))


@functools.lru_cache(maxsize=32)
def _load_schema(path: str) -> Document:
    with open(path, encoding="utf-8") as fh:
        schema: Document = json.load(fh)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def validate_document(
    doc: Any,
    schema: Mapping[str, Any],
    file: str,
    id_field: str = "id",
    semantic: SemanticCheck | None = None,
) -> Document:
    figure = str(doc.get(id_field, "?")) if isinstance(doc, dict) else "?"
    if id_field == "-":  # a data file that is not one figure's (e.g. skills_equipment.json)
        figure = "-"
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        raise CatalogueError(file, figure, field_path(list(err.absolute_path)), err.message)
    assert isinstance(doc, dict)
    if semantic is not None:
        try:
            semantic(doc)
        except FieldError as exc:
            raise CatalogueError(file, figure, exc.field, exc.message) from None
    return doc


def load_document(
    path: str | Path,
    schema: Mapping[str, Any],
    id_field: str = "id",
    semantic: SemanticCheck | None = None,
) -> Document:
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CatalogueError(str(p), p.stem, "(whole document)", f"not valid JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise CatalogueError(str(p), p.stem, "(whole document)", f"not UTF-8: {exc}") from None
    return validate_document(doc, schema, str(p), id_field, semantic)


def load_documents(
    directory: str | Path,
    schema: Mapping[str, Any],
    id_field: str = "id",
    semantic: SemanticCheck | None = None,
    pattern: str = "*.json",
) -> dict[str, tuple[Path, Document]]:
    """Every matching file in ``directory`` by id; duplicate ids are an error."""
    out: dict[str, tuple[Path, Document]] = {}
    for p in sorted(Path(directory).glob(pattern)):
        doc = load_document(p, schema, id_field, semantic)
        key = str(doc[id_field])
        if key in out:
            raise CatalogueError(str(p), key, id_field, f"duplicate id (also in {out[key][0]})")
        out[key] = (p, doc)
    return out
