#!/bin/sh
# Malformed MLIR must never crash kilnc or kiln-opt. Two checks, both on the
# sanitizer build (scripts/sanitize.sh builds it):
#  1. libFuzzer: build-sanitize/bin/kiln-fuzz-mlir for FUZZ_SECONDS (60)
#     from the lit inputs (split at `// -----`) and the MLIR of
#     test/python/modules/*.py, with a dictionary of their tokens;
#  2. kilnc and kiln-opt on simple mutations of every lit input
#     (scripts/mutate_mlir.py; MUTANTS_PER_CHUNK, default 4: the CI run has to stay within 40 minutes).
# Crash reproducers: WORKDIR/crashes/ (fuzzer) and WORKDIR/failures/
# (mutations). Exits 1 if either found a crash.
# Usage: sh scripts/fuzz-mlir.sh [WORKDIR]   (default: a new temporary dir)
# Environment: KILN_SANITIZE_BUILD (build-sanitize), FUZZ_SECONDS,
#   MUTANTS_PER_CHUNK, FUZZ_SEED (libFuzzer -seed, default 15).
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
build=${KILN_SANITIZE_BUILD:-$repo/build-sanitize}
work=${1:-$(mktemp -d /tmp/kiln-fuzz.XXXXXX)}
seconds=${FUZZ_SECONDS:-60}
python=/usr/bin/python3
if [ ! -x "$build/bin/kiln-fuzz-mlir" ]; then
  echo "fuzz-mlir: no $build/bin/kiln-fuzz-mlir; build it with scripts/sanitize.sh" >&2
  exit 2
fi
mkdir -p "$work/corpus" "$work/crashes"
work=$(cd "$work" && pwd)

# LLVM and MLIR leak on purpose at exit (option registry, contexts kept
# alive): leak checking would report them all. A report aborts, so that a
# sanitizer error is a signal exit, never a plain exit code 1.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:abort_on_error=1:halt_on_error=1}"
# Seeds of modules with fallbacks come from `kiln build` with this kilnc.
export KILN_KILNC="${KILN_KILNC:-$build/bin/kilnc}"

"$python" scripts/mutate_mlir.py seeds "$work"

status=0
echo "== libFuzzer: kiln-fuzz-mlir for ${seconds}s"
start=$(date +%s)
if ! "$build/bin/kiln-fuzz-mlir" -max_total_time="$seconds" -seed="${FUZZ_SEED:-15}" \
    -dict="$work/mlir.dict" -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$work/crashes/" "$work/corpus" "$work/seeds" \
    > "$work/fuzz.log" 2>&1; then
  status=1
fi
tail -n 30 "$work/fuzz.log" | grep -E '^(stat::|Done|==|SUMMARY|artifact_prefix|Test unit|.*ERROR)' || true
echo "libFuzzer: $(($(date +%s) - start)) s; corpus $(ls "$work/corpus" | wc -l) inputs;" \
  "crash artifacts: $(ls "$work/crashes" | wc -l) (log: $work/fuzz.log)"

echo "== mutations of the lit inputs through kilnc and kiln-opt"
if ! "$python" scripts/mutate_mlir.py mutate --build "$build" --out "$work" \
    --per-chunk "${MUTANTS_PER_CHUNK:-4}"; then
  status=1
fi
[ $status -eq 0 ] && echo "fuzz-mlir: no crash" || echo "fuzz-mlir: CRASHES, reproducers in $work"
exit $status
