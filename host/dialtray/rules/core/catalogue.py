"""Loading schema-validated data files (figure catalogues) with errors naming file/figure/field.

Every figure lives in its own JSON file. ``load_documents`` validates each against a JSON Schema
(``jsonschema``) and then an optional semantic check; the first problem in a file becomes a
``CatalogueError(file, figure, field, message)``, e.g.
``loyle.json: figure sample-loyle-crawford: field combat_dial[3].piloting: 'x' is not of type
'integer'``.
"""

from __future__ import annotations

import difflib
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
        field, message = plain_error(errors[0], errors)
        raise CatalogueError(file, figure, field, message)
    assert isinstance(doc, dict)
    if semantic is not None:
        try:
            semantic(doc)
        except FieldError as exc:
            raise CatalogueError(file, figure, exc.field, exc.message) from None
    return doc


def plain_error(err: jsonschema.ValidationError,
                errors: Sequence[jsonschema.ValidationError]) -> tuple[str, str]:
    """The first schema error as (field, message) an owner can act on: a misspelt field named
    as such, with the field it is likely a slip for (before: only "'max_speed' is a required
    property", while the file has 'max_sped'), and the allowed values listed as words."""
    path = list(err.absolute_path)
    here = field_path(path)
    if err.validator in ("required", "additionalProperties"):
        known = sorted((err.schema.get("properties") or {}) if isinstance(err.schema, dict)
                       else {})
        extra = [e for e in errors if e.validator == "additionalProperties"
                 and list(e.absolute_path) == path]
        unknown = sorted(set(err.instance) - set(known)) if extra and known and \
            isinstance(err.instance, dict) else []
        for name in unknown:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            if close:
                missing = " (a required field)" if close[0] not in err.instance and any(
                    e.validator == "required" and list(e.absolute_path) == path
                    for e in errors) else ""
                return here, f"unknown field {name!r}: did you mean {close[0]!r}?{missing}"
        if unknown:
            return here, f"unknown field {unknown[0]!r} (known: {', '.join(known)})"
    if err.validator == "enum" and isinstance(err.validator_value, list):
        allowed = [str(v) for v in err.validator_value]
        close = difflib.get_close_matches(str(err.instance), allowed, n=1, cutoff=0.6)
        return here, (f"{err.instance!r} is not one of: {', '.join(allowed)}"
                      + (f" (did you mean {close[0]!r}?)" if close else ""))
    return here, err.message


def load_document(
    path: str | Path,
    schema: Mapping[str, Any],
    id_field: str = "id",
    semantic: SemanticCheck | None = None,
) -> Document:
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:  # (no "figure NAME": the file is named, and may be
        raise CatalogueError(str(p), "-", "(whole document)",  # a table, a sheet, a map)
                             f"not valid JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise CatalogueError(str(p), "-", "(whole document)", f"not UTF-8: {exc}") from None
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
