#!/usr/bin/env bash
# The tournament hub's tests (tests/hub) run a real Mosquitto and a real PostgreSQL on loopback
# ports (host/dialtray/hub/devservers.py). This installs Debian's `mosquitto` and `postgresql`
# packages when missing and we are root with apt-get; the packages' own services are not needed
# (the tests start their own servers) and are left as Debian sets them up. Elsewhere it says what
# to do and the hub tests skip, naming the reason. Never fails the caller.
set -u
have() { command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ]; }
have_pg() { ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }
if have && have_pg; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    { apt-get install -y -q mosquitto postgresql || { apt-get update -q \
        && apt-get install -y -q mosquitto postgresql; }; } >/dev/null 2>&1
fi
{ have && have_pg; } || echo "mosquitto/postgresql not installed (Debian packages 'mosquitto'" \
    "and 'postgresql'): the hub's tests will be skipped" >&2
exit 0
