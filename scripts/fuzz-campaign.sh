#!/bin/sh
# Long differential fuzzing campaign (docs/fuzzing.md):
#   sh scripts/fuzz-campaign.sh [COUNT] [SEED] [OUTDIR] [extra options of python3 -m fuzz]
# COUNT defaults to 1000 functions, SEED to a fresh random one, OUTDIR to
# /tmp/kiln-fuzz-SEED; OUTDIR/summary.md has the counts and the time,
# OUTDIR/repros/ the reduced standalone repro files.
set -e
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
COUNT="${1:-1000}"
SEED="${2:-$(/usr/bin/python3 -c 'import random; print(random.SystemRandom().randrange(10**9))')}"
OUT="${3:-/tmp/kiln-fuzz-$SEED}"
[ $# -gt 3 ] && shift 3 || shift $#
PYTHONPATH="$ROOT/test:$ROOT/python_frontend" exec "${KILN_PYTHON:-/usr/bin/python3}" \
    -m fuzz --count "$COUNT" --seed "$SEED" --out "$OUT" "$@"
