"""Where the page tests' Chromium is: Debian's (scripts/install_test_tools.sh installs it), or
the one DIALTRAY_CHROMIUM names. Shared by the suite's `browser` fixture and bench/bench_ui.py."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def chromium_path() -> str | None:
    for p in (os.environ.get("DIALTRAY_CHROMIUM"), shutil.which("chromium"),
              shutil.which("chromium-browser"), "/usr/bin/chromium"):
        if p and Path(p).is_file():
            return p
    return None
