"""Markdown and value formatting shared by the generated hardware documents.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dialtray.hwdocs.facts import TCA9548A_BASE_ADDR


# ---- Markdown helpers ---------------------------------------------------------------------------
def table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return [*lines, ""]


def ohms(r: float) -> str:
    return f"{r / 1000:.3g} kΩ" if r >= 1000 else f"{r:.3g} Ω"


def strap(addr: int) -> tuple[str, str, str]:
    """(A2, A1, A0) levels that give a TCA9548A this address."""
    bits = addr - TCA9548A_BASE_ADDR
    if not 0 <= bits <= 7:
        raise ValueError(f"0x{addr:02x} is not a TCA9548A address (0x70..0x77)")
    a2, a1, a0 = ("3V3" if bits >> b & 1 else "GND" for b in (2, 1, 0))
    return a2, a1, a0


