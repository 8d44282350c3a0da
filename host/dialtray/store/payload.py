"""Tray events as plain record data, and back: what a ``device`` record holds.

Every field of the link's event dataclass is kept (bytes as hex, dial states as lists), with the
event's class name as ``type``, and the boot it belongs to (sequence numbers restart at every
boot). ``event_of`` rebuilds the event, so a stored game can be fed to a tracker again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from dialtray.link import messages as m
from dialtray.store.chain import _str, float_json

_TYPES: dict[str, type[m.TrayEvent]] = {
    cls.__name__: cls for cls in (m.Click, m.DialFault, m.Booted, m.SelfTest, m.ButtonPressed,
                                  m.ButtonReleased,
                                  m.DiceRolled, m.FairCommit, m.FairRollTag, m.FairMix,
                                  m.FairReveal, m.UnknownEvent, m.Snapshot, m.LinkState, m.Diag,
                                  m.SensorCheck)
}


def data_of(ev: m.TrayEvent, boot: int | None) -> dict[str, Any]:
    """Plain data for one tray event (``boot``: the boot it was delivered in)."""
    if type(ev) is m.Click:  # the hot path: one per click
        return {"type": "Click", "boot": boot, "seq": ev.seq, "dock": ev.dock, "dial": ev.dial,
                "position": ev.position, "delta": ev.delta, "t_ms": ev.t_ms,
                "recovered": ev.recovered}
    out: dict[str, Any] = {"type": type(ev).__name__, "boot": boot}
    for f in dataclasses.fields(ev):
        out[f.name] = _plain(getattr(ev, f.name))
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: _plain(getattr(v, f.name)) for f in dataclasses.fields(v)}
    return v


def event_of(data: dict[str, Any]) -> m.TrayEvent:
    """The tray event a ``device`` record holds."""
    cls = _TYPES.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown tray event type {data.get('type')!r}")
    kw: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data and f.default is not dataclasses.MISSING:
            continue  # a field added since the record was stored (Snapshot.missed): its default
        v = data[f.name]
        if f.name == "data" and isinstance(v, str):
            v = bytes.fromhex(v)
        elif f.name == "dials":
            v = tuple(m.DialState(**d) for d in v)
        elif isinstance(v, list):
            v = tuple(v)
        kw[f.name] = v
    return cls(**kw)


def click_content(game: int, n: int, at: float, ev: m.Click, boot: int | None) -> bytes:
    """The canonical content of a ``device`` record holding a click — byte for byte what
    ``chain.content_of(game, n, "device", round(at, 3), data_of(ev, boot))`` makes (tested),
    without ``json.dumps``: one of these per click is the store's hot path."""
    return _CLICK % (float_json(round(at, 3)).encode(),
                     b"null" if boot is None else b"%d" % boot, ev.delta, ev.dial,
                     ev.dock, ev.position, b"true" if ev.recovered else b"false", ev.seq,
                     ev.t_ms, game, n)


def device_heads(game: int, at: float, evs: Sequence[m.TrayEvent], boot: int | None
                 ) -> list[bytes | None]:
    """Each click's ``device`` record content up to its number (``b'…"n":'``: the record is
    ``b"%b%d}" % (head, n)``, byte for byte ``click_content``'s, tested), made in one pass with
    the time's JSON made once; None for an event of another type (``content_of`` makes it).
    The store's batch path (issue 35): a record's number is known only once the tracker has
    said what else it records before it."""
    atb = float_json(round(at, 3)).encode()
    bootb = b"null" if boot is None else b"%d" % boot
    click, template = m.Click, _CLICK_HEAD
    return [template % (atb, bootb, ev.delta, ev.dial, ev.dock,
                        ev.position, b"true" if ev.recovered else b"false",
                        ev.seq, ev.t_ms, game)
            if type(ev) is click else None for ev in evs]


_CLICK = (b'{"at":%s,"data":{"boot":%s,"delta":%d,"dial":%d,"dock":%d,"position":%d,'
          b'"recovered":%s,"seq":%d,"t_ms":%d,"type":"Click"},"game":%d,"kind":"device",'
          b'"n":%d}')
_CLICK_HEAD = _CLICK[:-3]  # all but the number and the closing brace
"""A click's content, formatted straight into bytes (``%d`` writes an int as ``int()`` would,
the time as its ``repr``, remembered by ``chain.float_json``): no str to encode afterwards."""


def flag_content(game: int, n: int, at: float, i: int, kind: str, dial: str, text: str,
                 raised: float, resolved: float | None, how: str) -> bytes | None:
    """The canonical content of a ``flag`` record (``recorder.GameRecorder.sync``: data ``i``,
    ``kind``, ``dial``, ``text``, ``at`` and, for a flag born settled, ``resolved`` and ``how``)
    — byte for byte what ``chain.content_of`` makes (tested) — or None when a value is not of
    the plain type the template assumes (then ``content_of`` does it). A peek is a flag, one
    every other click of a dial turned and turned back."""
    if type(i) is not int or type(kind) is not str or type(dial) is not str or \
            type(text) is not str or type(raised) is not float or raised - raised != 0.0 or \
            type(at) is not float or at - at != 0.0:
        return None
    if resolved is None:
        return _flag_template(kind, dial, text, None) % (
            float_json(at).encode(), float_json(raised).encode(), i, game, n)
    if type(resolved) is not float or resolved - resolved != 0.0 or type(how) is not str:
        return None
    return _flag_template(kind, dial, text, how) % (
        float_json(at).encode(), float_json(raised).encode(), i, float_json(resolved).encode(),
        game, n)


_FLAGS: dict[tuple[str, str, str, str | None], bytes] = {}


def _flag_template(kind: str, dial: str, text: str, how: str | None) -> bytes:
    """A flag's content with its strings in place (JSON-escaped, UTF-8), its numbers to fill
    in: the texts of a game's flags are few (a peek's is the same for each dial and turn), so
    each is escaped and encoded once."""
    key = (kind, dial, text, how)
    t = _FLAGS.get(key)
    if t is None:
        def q(v: str) -> bytes:
            return _str(v).encode().replace(b"%", b"%%")
        if how is None:
            t = (b'{"at":%s,"data":{"at":%s,"dial":' + q(dial) + b',"i":%d,"kind":' + q(kind)
                 + b',"text":' + q(text) + b'},"game":%d,"kind":"flag","n":%d}')
        else:
            t = (b'{"at":%s,"data":{"at":%s,"dial":' + q(dial) + b',"how":' + q(how)
                 + b',"i":%d,"kind":' + q(kind) + b',"resolved":%s,"text":' + q(text)
                 + b'},"game":%d,"kind":"flag","n":%d}')
        if len(_FLAGS) >= 1024:
            _FLAGS.clear()
        _FLAGS[key] = t
    return t
