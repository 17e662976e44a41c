#ifndef KILN_DIALECT_TD
#define KILN_DIALECT_TD

include "mlir/IR/OpBase.td"

def Kiln_Dialect : Dialect {
  let name = "kiln";
  let cppNamespace = "::kiln";
  let summary = "Python semantics that have no direct equivalent in the upstream dialects";
  let description = [{
    The frontend emits upstream dialects (func, arith, math, scf, memref)
    wherever Python and C agree, and `kiln` ops where they do not: raising a
    Python exception from compiled code is the first of them. Python's own
    containers are the second: `!kiln.list<T>` and the ops on it keep
    Python's semantics (shared references, negative indices, growth, its
    exceptions) until `kiln-lower-containers` turns them into the C ABI's
    `kiln_list` (runtime/kiln_abi.h) and calls of runtime/kiln_list.c.
  }];
  let useDefaultTypePrinterParser = 1;
}

class Kiln_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kiln_Dialect, mnemonic, traits>;

#endif // KILN_DIALECT_TD
