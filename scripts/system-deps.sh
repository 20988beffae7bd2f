#!/usr/bin/env bash
# Installs the system programs the test suite drives for real: headless Chromium (browser tests),
# a PostgreSQL server (database tests) and a Redis server (profiler-redis tests). Quick no-op when
# all are present.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: missing ${need[*]}; install them (Debian: apt-get install ${need[*]}) — the tests that need them will fail." >&2
  exit 0
fi
echo "system-deps: installing ${need[*]} from Debian's packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
