// A shared object whose code calls a function no library defines would link
// (undefined symbols are the loader's) and then fail to load: kilnc checks
// every strong undefined symbol against the DT_NEEDED libraries after
// linking and fails. (A 2-lane float log10 is one libmvec does not have.)
// RUN: rm -f %t.so
// RUN: not kilnc %s --emit=shared -o %t.so 2>&1 | FileCheck %s
// RUN: not test -e %t.so

// CHECK: kilnc: error: internal error: {{.*}}.so would not load: no library it needs (none) defines _ZGVbN2v_log10f
func.func private @_ZGVbN2v_log10f(vector<2xf32>) -> vector<2xf32>

func.func @log10_pair(%x: vector<2xf32>) -> vector<2xf32> attributes {llvm.emit_c_interface} {
  %y = func.call @_ZGVbN2v_log10f(%x) : (vector<2xf32>) -> vector<2xf32>
  return %y : vector<2xf32>
}
