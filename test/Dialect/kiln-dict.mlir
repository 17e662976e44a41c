// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// Every dict op round-trips through its assembly format.
// CHECK-LABEL: func.func @every_op
func.func @every_op(%d: !kiln.dict<i64, f64>, %k: i64, %v: f64, %c: i64) -> i1 {
  // CHECK: kiln.dict.new %{{.*}} : <f64, i1>
  %e = kiln.dict.new %c : !kiln.dict<f64, i1>
  // CHECK: kiln.dict.len %{{.*}} : <i64, f64>
  %n = kiln.dict.len %d : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.find %{{.*}}, %{{.*}} : <i64, f64>
  %s = kiln.dict.find %d, %k : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.require %{{.*}}, %{{.*}} : <i64, f64>
  %r = kiln.dict.require %d, %k : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.set %{{.*}}[%{{.*}}], %{{.*}} : <i64, f64>
  kiln.dict.set %d[%k], %v : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.used %{{.*}} : <i64, f64>
  %u = kiln.dict.used %d : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.live_at %{{.*}}[%{{.*}}] : <i64, f64>
  %l = kiln.dict.live_at %d[%r] : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.key_at %{{.*}}[%{{.*}}] : <i64, f64>
  %key = kiln.dict.key_at %d[%r] : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.value_at %{{.*}}[%{{.*}}] : <i64, f64>
  %val = kiln.dict.value_at %d[%r] : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.set_value_at %{{.*}}[%{{.*}}], %{{.*}} : <i64, f64>
  kiln.dict.set_value_at %d[%r], %val : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.erase_at %{{.*}}[%{{.*}}] : <i64, f64>
  kiln.dict.erase_at %d[%r] : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.copy %{{.*}} : <i64, f64>
  %copy = kiln.dict.copy %d : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.update %{{.*}}, %{{.*}} : <i64, f64>
  kiln.dict.update %copy, %d : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.equal %{{.*}}, %{{.*}} : <i64, f64>
  %same = kiln.dict.equal %copy, %d : !kiln.dict<i64, f64>
  // CHECK: kiln.dict.clear %{{.*}} : <i64, f64>
  kiln.dict.clear %copy : !kiln.dict<i64, f64>
  // CHECK: kiln.release %{{.*}} : !kiln.dict<i64, f64>
  kiln.release %copy : !kiln.dict<i64, f64>
  kiln.release %e : !kiln.dict<f64, i1>
  return %same : i1
}
