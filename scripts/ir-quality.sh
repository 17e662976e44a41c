#!/bin/sh
# Regenerates the before/after figures of docs/ir-quality.md: kiln-ir-stats
# of examples/kernels.py (both kilnc links of `kiln build`) and of a C++
# program, and the sizes of what they link into. Needs a built tree
# (scripts/build.sh). Usage: sh scripts/ir-quality.sh [WORKDIR]
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
llvm=/usr/lib/llvm-22/bin
plugin=$repo/build/lib/KilnLLVMPasses.so
cpu=x86-64-v3
python=/usr/bin/python3

# The table rows: module totals of one kiln-ir-stats JSON object.
row() { # label json-file key(before|after|) size-file
  "$python" - "$@" <<'EOF'
import json, os, sys
label, path, key, binary = sys.argv[1:5]
stats = json.load(open(path))
stats = stats[key] if key else stats
print(f"| {label} | {stats['ir_lines']} | {stats['functions']} | "
      f"{stats['basic_blocks'] / stats['functions']:.1f} | {stats['instructions']} | "
      f"{stats['metadata_nodes']} | {stats['debug_metadata_nodes']} | "
      f"{stats['typeinfo_globals']} | {os.path.getsize(binary)} |")
EOF
}

echo "| module | IR lines | functions | blocks/function | instructions | metadata nodes | debug metadata nodes | _ZTI/_ZTS | bytes |"
echo "|---|---|---|---|---|---|---|---|---|"

# examples/kernels.py: the MLIR and wrapper C `kiln build` writes, then the
# two kilnc links it runs, without and with --release.
PYTHONPATH=$repo/python_frontend "$python" -m kiln build examples/kernels.py \
  -o "$work/kernels" --target-cpu=$cpu >/dev/null
include=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
for mode in default release; do
  flag=; [ $mode = release ] && flag=--release
  build/bin/kilnc "$work/kernels/kernels.kiln.mlir" --emit=shared --target-cpu=$cpu \
    $flag --ir-stats="$work/lib-$mode.json" \
    -o "$work/libkernels-$mode.so"
  build/bin/kilnc "$work/kernels/kernels.kiln.mlir" --emit=shared --target-cpu=$cpu \
    $flag --ir-stats="$work/ext-$mode.json" \
    --c-source="$work/kernels/_kernels_kiln.c" -I"$include" -I"$work/kernels" \
    --export=PyInit__kernels_kiln -o "$work/ext-$mode.so"
done
row "libkernels.so, -O3" "$work/lib-default.json" before "$work/libkernels-default.so"
row "libkernels.so, --release" "$work/lib-release.json" after "$work/libkernels-release.so"
row "_kernels_kiln extension, -O3" "$work/ext-default.json" before "$work/ext-default.so"
row "_kernels_kiln extension, --release" "$work/ext-release.json" after "$work/ext-release.so"

# The C++ program: clang++ -O2 -g, then the plugin's strips with main as the
# only public symbol; -fno-rtti -g0 for reference. Sizes are of the linked
# executables.
cpp=test/passes/llvm/Inputs/inventory.cpp
strips='kiln-strip-rtti<public-api=main>,kiln-strip-metadata'
$llvm/clang++ -O2 -g -S -emit-llvm $cpp -o "$work/inventory.ll"
$llvm/opt -load-pass-plugin="$plugin" -S -o "$work/inventory-stripped.ll" \
  -passes="kiln-ir-stats<output=$work/inventory-before.json>,$strips,kiln-ir-stats<output=$work/inventory-after.json>" \
  "$work/inventory.ll"
$llvm/clang++ -O2 -fno-rtti -S -emit-llvm $cpp -o "$work/inventory-no-rtti.ll"
$llvm/opt -load-pass-plugin="$plugin" -disable-output \
  -passes="kiln-ir-stats<output=$work/inventory-no-rtti.json>" "$work/inventory-no-rtti.ll"
$llvm/clang++ -O2 -g $cpp -o "$work/inventory"
$llvm/clang++ -O2 -g -fpass-plugin="$plugin" -mllvm "-kiln-passes=$strips" $cpp \
  -o "$work/inventory-stripped"
$llvm/clang++ -O2 -fno-rtti $cpp -o "$work/inventory-no-rtti"
for program in inventory inventory-stripped inventory-no-rtti; do
  "$work/$program" > "$work/$program.out"
done
cmp "$work/inventory.out" "$work/inventory-stripped.out"
row "inventory.cpp, -O2 -g" "$work/inventory-before.json" "" "$work/inventory"
row "inventory.cpp, -O2 -g + strips" "$work/inventory-after.json" "" "$work/inventory-stripped"
row "inventory.cpp, -O2 -fno-rtti (reference)" "$work/inventory-no-rtti.json" "" "$work/inventory-no-rtti"
echo "(files in $work)"
