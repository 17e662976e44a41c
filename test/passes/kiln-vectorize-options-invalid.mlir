// Enum options reject values outside their list when the pipeline is parsed.
// RUN: not kiln-opt %s -kiln-vectorize=tail=sometimes 2>&1 | FileCheck %s --check-prefix=TAIL
// TAIL: Cannot find option named 'sometimes'!
// RUN: not kiln-opt %s -kiln-vectorize=target-isa=neon 2>&1 | FileCheck %s --check-prefix=ISA
// ISA: Cannot find option named 'neon'!
// The accepted values are listed in the pass's help.
// RUN: kiln-opt --help | FileCheck %s --check-prefix=HELP
// HELP: --tail=<value>
// HELP: =epilogue
// HELP: --target-isa=<value>
// HELP: =avx512
module {
}
