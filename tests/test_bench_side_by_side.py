"""The side-by-side bench (issue 35) runs its stages on a tiny load and says plainly which it
skipped and why. Nothing here is timed: only that each stage ran, beside its bare anchor."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_side_by_side_runs_and_names_what_it_skipped(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALTRAY_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    sys.modules.pop("bench_side_by_side", None)
    import bench_side_by_side as b

    out = tmp_path / "sbs.json"
    assert b.main(["--events", "300", "--events-b1", "5", "--repeat", "1", "--out", str(out),
                   "--only", "store path,verify,camera", "--camera-frames", "1",
                   "--camera-game", "3"]) == 0
    stages = json.loads(out.read_text())["stages"]
    camera = "camera frame (goal full ≤ 5 ms p50, live ≤ 5 ms p95)"
    assert set(stages) == {"store path b=1000 (goal ≥ 0.6)", "store path b=1 (goal ≥ 0.8)",
                           "verify per record (chain + MAC)", camera}
    for r in stages.values():
        assert r["ratio"] > 0
    assert stages[camera]["live_ms_p95"] > 0 and stages[camera]["bare_live_ms_p95"] > 0
    # 5 clicks, one per commit, and the opening snapshot (stored with the first batch)
    assert stages["store path b=1 (goal ≥ 0.8)"]["commits"] == 6
    assert stages["verify per record (chain + MAC)"]["records"] > 300
