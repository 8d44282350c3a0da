"""Issue 32 (10): `dialtray hub servers --event NAME` sets both servers up for that event and
prints every path and command the next steps need (the password file `enroll --passwd` takes,
how to reload the broker); it used to know only an event named "event"."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from dialtray.hub import devservers


def test_servers_for_a_named_event() -> None:
    if devservers.missing():
        import pytest

        pytest.skip(devservers.missing() or "")
    exe = Path(sys.executable).with_name("dialtray")
    p = subprocess.Popen([str(exe), "hub", "servers", "--event", "spring"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    try:
        end = time.monotonic() + 90
        while time.monotonic() < end:
            line = p.stdout.readline()  # type: ignore[union-attr]
            if not line:
                break
            lines.append(line)
            if "dialtray play" in line:
                break
        out = "".join(lines)
        assert "event spring" in out, out + (p.stderr.read() if p.poll() is not None else "")
        paths = dict(re.findall(r"^\s+(config|passwd|acl)\s+(\S+)", out, re.M))
        assert set(paths) == {"config", "passwd", "acl"}, out
        assert "use_username_as_clientid true" in Path(paths["config"]).read_text()
        acl = Path(paths["acl"]).read_text()
        assert "dialtray/spring/t/%u/#" in acl and "dialtray/spring/cmd/%u/#" in acl
        pid = re.search(r"reload\s+kill -HUP (\d+)", out)
        assert pid and os.path.exists(f"/proc/{pid.group(1)}")
        assert f"enroll t01 --passwd {paths['passwd']}" in out
        assert "DIALTRAY_HUB_DB=postgresql://dialtray_hub:" in out
        assert "--event mqtt://127.0.0.1:" in out and "/spring --creds t01.json" in out
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(60)
    assert not Path(paths["config"]).exists()  # stopped and cleaned up
