#!/usr/bin/env bash
# Runs the test command RUNS times (default 3) in a row while one busy-loop process per core keeps
# every core busy, and prints each run's result and wall time. The test suite must not depend on
# how fast the machine is: this is how that is checked. Each busy loop stops by itself after
# BUSY_LIMIT_S seconds (default 3600) even if this script is killed.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
limit=${BUSY_LIMIT_S:-3600}
cores=$(node -p 'require("node:os").availableParallelism()')
pids=()
for _ in $(seq "$cores"); do
  node -e "const end = Date.now() + ${limit} * 1000; while (Date.now() < end) {}" &
  pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
mkdir -p node_modules/.cache
echo "suite-under-load: ${cores} busy loops, ${runs} runs (logs: node_modules/.cache/suite-under-load-N.log)"
failed=0
for run in $(seq "$runs"); do
  start=$(date +%s)
  if npx -y pnpm@10.34.8 test > "node_modules/.cache/suite-under-load-${run}.log" 2>&1; then result=passed; else result=FAILED; failed=1; fi
  tail -n 6 "node_modules/.cache/suite-under-load-${run}.log" | grep -E 'Tests|Test Files' || true
  echo "run ${run}: ${result} in $(( $(date +%s) - start )) s (load average $(cut -d' ' -f1-3 /proc/loadavg))"
done
exit "$failed"
