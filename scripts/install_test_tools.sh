#!/usr/bin/env bash
# The system tools some tests drive, installed from Debian's packages when missing (as root with
# apt-get; one apt call for all of them). Nothing is downloaded at test time.
#   chromium              the web UI's Playwright tests (tests/ui)
#   mosquitto, postgresql the tournament hub's tests start their own servers on loopback ports
#   openscad              renders the printable parts (tests/test_hardware_parts.py)
# and the wheelhouse the clean-install tests install the package's dependencies from.
# Elsewhere it says what is missing, and those tests skip naming the reason. Never fails the caller.
set -u
missing=()
{ command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || [ -n "${DIALTRAY_CHROMIUM:-}" ]; } || missing+=(chromium)
{ command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ]; } || missing+=(mosquitto)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v openscad >/dev/null 2>&1 || missing+=(openscad)
# The emulated Pico (tests/rp2040, `dialtray sim --rp2040`): rp2040js from the npm registry,
# the version pinned in its package-lock.json, into the folder the harness loads it from. Its
# tests skip, naming the reason, where Node or npm is missing.
rp2040_dir="$(dirname "$0")/../host/dialtray/virtual/rp2040"
if command -v npm >/dev/null 2>&1; then
    [ -f "$rp2040_dir/node_modules/rp2040js/package.json" ] \
        || npm ci --prefix "$rp2040_dir" --no-audit --no-fund >/dev/null 2>&1 \
        || echo "could not install rp2040js (npm): the emulated-Pico tests will be skipped" >&2
else
    echo "not installed: nodejs/npm (Debian packages): the emulated-Pico tests will be skipped" >&2
fi
# The clean-install tests (tests/clean_install.py: `pip install .` and `.[vision]` into a fresh
# venv, outside the clone) take the package's dependencies from this wheelhouse, filled here
# while the network is there, so the tests themselves run offline. Refilled when pyproject.toml
# changes.
root="$(cd "$(dirname "$0")/.." && pwd)"
wheelhouse="$root/.wheelhouse"
stamp="$(sha256sum "$root/pyproject.toml" | cut -c1-16)"
if [ "$(cat "$wheelhouse/.filled" 2>/dev/null)" != "$stamp" ]; then
    pip=(python3 -m pip)  # Debian's python3 may have no pip: a throwaway venv's then
    python3 -m pip --version >/dev/null 2>&1 || { python3 -m venv "$wheelhouse.pip" \
        >/dev/null 2>&1 && pip=("$wheelhouse.pip/bin/python" -m pip); }
    if "${pip[@]}" download -q --disable-pip-version-check -d "$wheelhouse" \
            setuptools wheel "$root[vision]" >/dev/null 2>&1; then
        echo "$stamp" >"$wheelhouse/.filled"
        rm -rf "$wheelhouse.pip"
    else
        echo "could not fill $wheelhouse (pip download): the clean-install tests will be" \
            "skipped" >&2
    fi
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "installing test tools: ${missing[*]} …" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -q "${missing[@]}" \
        || { apt-get update -q && apt-get install -y -q "${missing[@]}"; }; } >/dev/null 2>&1 \
        || echo "could not install ${missing[*]}: the tests that need them will be skipped" >&2
else
    echo "not installed: ${missing[*]} (Debian packages of those names): the tests that need" \
        "them will be skipped, naming the reason" >&2
fi
exit 0
