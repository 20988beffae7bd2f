#!/usr/bin/env bash
# Installs the system programs the test suite drives for real: headless Chromium (browser tests),
# a PostgreSQL server (database tests), a Redis server (profiler-redis tests) and Prometheus'
# promtool (metrics tests: it parses and lints the exposition). Quick no-op when all are present.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v promtool >/dev/null 2>&1 || need+=(promtool)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: missing ${need[*]}; install them (Debian: apt-get install ${need[*]}) — the tests that need them will fail." >&2
  exit 0
fi
echo "system-deps: installing ${need[*]} from Debian's packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
packages=("${need[@]/promtool/}")
if [ -n "${packages[*]// /}" ]; then
  apt-get install -y -qq --no-install-recommends ${packages[@]} >/dev/null
fi
if [[ " ${need[*]} " == *" promtool "* ]]; then
  # Only the promtool binary of Debian's prometheus package: installing the package would also
  # install (and start) a Prometheus server.
  scratch=$(mktemp -d)
  (cd "$scratch" && apt-get download -qq prometheus 2>/dev/null && dpkg-deb --fsys-tarfile prometheus_*.deb | tar -x ./usr/bin/promtool)
  install -m 755 "$scratch/usr/bin/promtool" /usr/local/bin/promtool
  rm -rf "$scratch"
fi
