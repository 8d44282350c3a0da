"""The store's fast path for flat records (``chain.content_of`` without the JSON encoder) must
write byte for byte what the canonical encoder writes, and leave everything else to it."""

from __future__ import annotations

import random
from typing import Any

from dialtray.store.chain import canonical, content_of

VALUES: list[Any] = ["", "dock 0 — a \"peek\"\\ \n\t\x01 é ✈", "plain", 0, -7, 10**30, True,
                     False, None, 0.0, -1.5e-7, 1e300, 123.456, float("inf"), float("nan"),
                     [1, "a"], {"x": 1}, (2, 3)]


def test_flat_records_are_canonical_json_byte_for_byte() -> None:
    rng = random.Random(12)
    for _ in range(3000):
        keys = rng.sample(["text", "i", "at", "kind", "dial", "how", "resolved", "Zeta", "é",
                           "a b", "seq"], rng.randrange(0, 8))
        data = {k: rng.choice(VALUES) for k in keys}
        at = rng.choice([0.0, 1795563865.023, 12.5, float("inf")])
        want = canonical({"at": at, "data": data, "game": 3, "kind": "flag", "n": 9})
        assert content_of(3, 9, "flag", at, data) == want, data
    assert content_of(1, 2, "x", 1.0, {1: "int key"}) == \
        canonical({"at": 1.0, "data": {1: "int key"}, "game": 1, "kind": "x", "n": 2})
    assert content_of(1, 2, "x", 1.0, ["a list"]) == \
        canonical({"at": 1.0, "data": ["a list"], "game": 1, "kind": "x", "n": 2})


def test_key_mac_is_hmac_sha256() -> None:
    """ChainKey.mac (precomputed pads, issue 35) writes the same MAC as the hmac module."""
    import hashlib
    import hmac
    from pathlib import Path

    from dialtray.store.keys import ChainKey

    for secret in (bytes(range(32)), b"\xff" * 32):
        k = ChainKey(secret, Path("chain.key"))
        for sha in ("0" * 64, hashlib.sha256(b"x").hexdigest()):
            assert k.mac(sha) == hmac.new(secret, sha.encode(), hashlib.sha256).hexdigest()


def test_the_flag_template_is_the_canonical_content() -> None:
    """payload.flag_content (a peek's record from a template, issue 35) writes what content_of
    writes, or gives up (None) on a value the template does not take."""
    from dialtray.store.payload import flag_content

    rng = random.Random(7)
    texts = ["", "dock 3 combat dial (P1 \"Fury\"): turned one click — a peek\n\\ é ✈", "x",
             "100%d %s sure"]
    floats: list[Any] = [0.0, -0.0, 12.5, 1795563865.023, 1e-7, float("inf"), float("nan"), 3,
                         None, True]
    made = 0
    for _ in range(3000):
        i = rng.choice([0, 7, 10**12, True, "3"])
        kind, dial, text, how = (rng.choice([*texts, None]) for _ in range(4))
        raised, resolved, at = rng.choice(floats), rng.choice(floats), rng.choice(floats)
        data: dict[str, Any] = {"i": i, "kind": kind, "dial": dial, "text": text, "at": raised}
        if resolved is not None:
            data.update(resolved=resolved, how=how)
        got = flag_content(4, 11, at, i, kind, dial, text, raised, resolved, how)  # type: ignore[arg-type]
        if got is not None:
            made += 1
            assert got == content_of(4, 11, "flag", at, data), data
    assert made > 100  # the template did the common case
