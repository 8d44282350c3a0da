#!/usr/bin/env bash
# The UI tests (tests/ui) drive a real Chromium through Playwright. Playwright cannot download its
# own browser here, so the tests use the system's: Debian/Ubuntu's `chromium` package, installed
# by this script when it is missing and we are root with apt-get. Elsewhere it says what to do and
# the UI's browser tests skip, naming the reason. Never fails the caller.
set -u
found() { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || [ -n "${DIALTRAY_CHROMIUM:-}" ]; }
if found; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    { apt-get install -y -q chromium || { apt-get update -q && apt-get install -y -q chromium; }; } \
        >/dev/null 2>&1
fi
found || echo "chromium not installed (install Debian's 'chromium' package, or set" \
    "DIALTRAY_CHROMIUM to a Chromium binary): the UI's browser tests will be skipped" >&2
exit 0
