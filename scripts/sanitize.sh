#!/bin/sh
# ASan + UBSan: builds Kiln's tools instrumented into build-sanitize/
# (-DKILN_SANITIZE="address;undefined" -DKILN_BUILD_FUZZERS=ON; libLLVM,
# libMLIR and libclang-cpp stay Debian's), then runs with them
#  1. the lit suite (kilnc, kiln-opt; the LLVM pass plugin is built
#     uninstrumented because stock opt/clang load it),
#  2. the pytest suite with KILN_KILNC = the sanitized kilnc,
#  3. the pytest suite again, on generated code that is itself instrumented:
#     a kilnc wrapper adds --sanitize=address,undefined (AddressSanitizer on
#     kernels and wrapper C, UBSan on the wrapper C) and python runs with the
#     ASan runtime in LD_PRELOAD (SANITIZE_GENERATED_DESELECT: a -k filter),
#  4. test_prange.py on generated code built with kilnc --sanitize=thread,
#     with the TSan runtime preloaded and LLVM's OpenMP tool Archer,
#  5. scripts/fuzz-mlir.sh: FUZZ_SECONDS (60) of libFuzzer plus the
#     mutation run over the lit inputs (FUZZ_SECONDS=0 skips both).
# Every sanitizer report is written under WORKDIR/sanitizer-logs and fails
# the script, even when the test around it swallowed the failing kilnc.
# Usage: sh scripts/sanitize.sh [WORKDIR]
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
build=$repo/build-sanitize
python=/usr/bin/python3
work=${1:-$(mktemp -d /tmp/kiln-sanitize.XXXXXX)}
mkdir -p "$work" && work=$(cd "$work" && pwd)
logs=$work/sanitizer-logs
rm -rf "$logs" && mkdir -p "$logs"

sh scripts/setup.sh
step() { echo "== $1 ($(date +%T))"; }
t0=$(date +%s)
step "build $build"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DKILN_PYTHON="${KILN_PYTHON:-$python}" \
    -DKILN_SANITIZE="address;undefined" -DKILN_BUILD_FUZZERS=ON
fi
nice -n 10 cmake --build "$build" -j "$(nproc)"
t1=$(date +%s)

# detect_leaks=0: LLVM and MLIR leave their option registry, pass registry
# and managed statics to process exit on purpose, and LeakSanitizer would
# report them on every run. abort_on_error=1: a report ends in SIGABRT, never
# in exit code 1, which `not kilnc ...` lit tests and kilnc's callers would
# take for an ordinary diagnostic.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:log_path=$logs/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$logs/ubsan"
export KILN_CACHE_DIR="$work/cache"
status=0

step "lit with the sanitized kilnc and kiln-opt"
/usr/lib/llvm-22/bin/lit -sv "$build/test" || status=1
t2=$(date +%s)

step "pytest with the sanitized kilnc"
# Left out: the reruns of whole suites per CPU level and under an edited
# /proc/cpuinfo (test_multiversion.py, test_cpu_level_source.py). Each
# compiles four suites three times over with the instrumented kilnc (15
# minutes of a 40-minute CI run); the same suites run here once, and the
# portable builds' multi-versioning is still compiled by the other tests
# of those files.
# This rerun and the next sample, as the README's test command (which runs
# everything unsanitized) does not: every test function runs, on its first,
# last and every eighth parametrized case (KILN_TEST_SAMPLE, conftest.py),
# and the differential fuzz of the pinned seed on its first 25 functions of
# 200 (one module). The sanitizers check the same kinds of programs in less
# time. (Every fourth case: this rerun 505 s and the next 575 s of a 41-
# minute cold clean-clone CI on 2026-12-07, past the 40 it has to stay in;
# every sixth: 39.2 minutes, before the four test files of the 2026-12-07
# evening session.)
# Each xdist run is bounded (`timeout`, 25 minutes against its usual 6 to
# 8): a sanitizer's abort kills a worker, and xdist was seen (2026-12-07)
# replacing it and then waiting forever, which would run a CI into its
# 90-minute limit instead of failing it here with the report.
env KILN_KILNC="$build/bin/kilnc" PYTHONPATH="$repo/python_frontend" KILN_FUZZ_COUNT=25 \
  KILN_TEST_SAMPLE="${KILN_TEST_SAMPLE:-8}" \
  timeout -k 30 1500 "$python" -m pytest -q -p no:cacheprovider -n auto --dist loadfile test/python \
  -k "not differential_suites_per_level and not edited_proc_cpuinfo_changes_nothing" \
  || status=1
t3=$(date +%s)

step "pytest on generated code built with kilnc --sanitize=address,undefined"
# kiln build runs $KILN_KILNC; the wrapper adds --sanitize and keeps the
# ASan runtime out of kilnc itself (it carries its own). What this step
# checks is the generated code, so it compiles with the release kilnc when
# there is one (.ci/run builds it first; the instrumented kilnc, checked by
# the step above, made this step as slow as that one: 14 minutes).
generating_kilnc="$build/bin/kilnc"
[ -x "$repo/build/bin/kilnc" ] && generating_kilnc="$repo/build/bin/kilnc"
# -asan-instrumentation-with-call-threshold=0 (LLVM's option, which kilnc
# takes as clang's -mllvm would): every access checked through a call to
# ASan's runtime instead of inline, the same checks; LLVM compiled the
# inline checks of vectorized kernels 4.6 times slower than uninstrumented
# (array_control.py: 29.5 s against 6.4; with calls 12.9 s, 2026-12-07).
cat > "$work/kilnc-sanitize" <<EOF
#!/bin/sh
unset LD_PRELOAD
exec "$generating_kilnc" --sanitize=address,undefined -asan-instrumentation-with-call-threshold=0 "\$@"
EOF
chmod +x "$work/kilnc-sanitize"
# kiln/cpu_levels.py finds libkiln_cpu.so beside $KILN_KILNC.
ln -sf "$build/lib/libkiln_cpu.so" "$work/libkiln_cpu.so"
asan_runtime=$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)
# Python itself is not instrumented: the preloaded runtime intercepts malloc
# and free (numpy's array data included) and checks the extension's accesses.
# allocator_may_return_null=1: tests allocate 2^44-byte arrays and expect
# MemoryError. Left out: the tests that bound the RSS growth of many calls
# (three of arrays, and the lists', dicts' and their boundaries'
# memory_stays_flat and a_million_calls: ASan's quarantine keeps 256 MiB
# of freed memory; ASan itself checks those containers' frees there), the Dask example (worker
# processes of a LocalCluster under LD_PRELOAD), `pip install .` and the
# build hook's wheel in venvs (nothing of generated code that others do not
# check), Python under qemu-user as an older CPU, the per-level reruns of
# whole suites (test_multiversion.py, also rerun under an edited
# /proc/cpuinfo by test_cpu_level_source.py), the C programs linked to
# lib<mod>.so without -fsanitize (c_program_calls..., c_program_passes...,
# the documented C callers of lists, dicts and strings), chromium (under LD_PRELOAD), and the check
# that a --release library holds no build-machine path (ASan's metadata of
# each global names its source file).
deselect=${SANITIZE_GENERATED_DESELECT:-not no_leaks_over_100000_calls and not
no_leak_under_many_calls and not dask_example_matches_numpy and not
pip_install_gives_a_working_kiln and not wheel_of_a_users_package_runs_without_kiln and not
cpu_with and not cpu_without and not
returned_by_calls_are_owned_by_the_caller and not c_program_uses_header_and_library and not
html_page_in_chromium and not notebook_reports_work_side_by_side_in_chromium and not
c_abi_passes_float_complex_by_value and not
release_libraries_hold_no_build_machine_paths and not one_artifact_runs_on_older_cpus and not
differential_suites_per_level and not c_programs_dispatch_too and not
edited_proc_cpuinfo_changes_nothing and not memory_stays_flat and not
a_million_calls and not c_program_calls and not documented_c_caller_runs and not
c_program_passes}
env KILN_KILNC="$work/kilnc-sanitize" KILN_CACHE_DIR="$work/cache-generated" KILN_FUZZ_COUNT=25 \
  KILN_TEST_SAMPLE="${KILN_TEST_SAMPLE:-8}" \
  PYTHONPATH="$repo/python_frontend" LD_PRELOAD="$asan_runtime" \
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1:log_path=$logs/asan-generated" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$logs/ubsan-generated" \
  timeout -k 30 1500 "$python" -m pytest -q -p no:cacheprovider -n auto --dist loadfile test/python \
  -k "$(echo $deselect)" || status=1
t4=$(date +%s)

step "parallel tests on generated code built with kilnc --sanitize=thread"
# ThreadSanitizer on the kernels and wrappers of test_prange.py's modules
# (prange loops, parallel=True statements, products and reductions, errors
# raised by iterations, two Python threads calling at once), at 1, 2 and 3
# threads. libomp is not instrumented: LLVM's OpenMP tool Archer
# (OMP_TOOL_LIBRARIES) tells TSan of its barriers and forks, and
# ignore_noninstrumented_modules keeps its own accesses out of the reports.
cat > "$work/kilnc-tsan" <<EOF
#!/bin/sh
unset LD_PRELOAD
exec "$generating_kilnc" --sanitize=thread "\$@"
EOF
chmod +x "$work/kilnc-tsan"
tsan_runtime=$(clang-22 -print-file-name=libclang_rt.tsan-x86_64.so)
archer=/usr/lib/llvm-22/lib/libarcher.so
# The TSan runtime also reads UBSAN_OPTIONS (whose log_path would win).
env -u ASAN_OPTIONS -u UBSAN_OPTIONS KILN_KILNC="$work/kilnc-tsan" KILN_CACHE_DIR="$work/cache-tsan" \
  PYTHONPATH="$repo/python_frontend" LD_PRELOAD="$tsan_runtime" OMP_TOOL_LIBRARIES="$archer" \
  TSAN_OPTIONS="ignore_noninstrumented_modules=1:log_path=$logs/tsan" \
  "$python" -m pytest -q -p no:cacheprovider test/python/test_prange.py || status=1
t4b=$(date +%s)

if [ "${FUZZ_SECONDS:-60}" != 0 ]; then
  step "fuzz-mlir"
  env -u ASAN_OPTIONS -u UBSAN_OPTIONS KILN_SANITIZE_BUILD="$build" \
    sh scripts/fuzz-mlir.sh "$work/fuzz" || status=1
fi
t5=$(date +%s)

# allocator_may_return_null=1 still logs a WARNING per refused allocation;
# only errors count.
reports=$(grep -l -E 'ERROR: |runtime error|WARNING: ThreadSanitizer' "$logs"/* 2>/dev/null || true)
if [ -n "$reports" ]; then
  echo "sanitizer reports:"
  for f in $reports; do echo "--- $f"; head -n 40 "$f"; done
  status=1
fi
echo "times (s): build $((t1 - t0)), lit $((t2 - t1)), pytest $((t3 - t2)),"\
  "pytest on instrumented code $((t4 - t3)), parallel tests under TSan $((t4b - t4)),"\
  "fuzz $((t5 - t4b)); total $((t5 - t0))"
[ $status -eq 0 ] && echo "sanitize: clean" || echo "sanitize: FAILED (see above; $work)"
exit $status
