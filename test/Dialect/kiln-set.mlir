// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// Every set op round-trips through its assembly format.
// CHECK-LABEL: func.func @every_op
func.func @every_op(%s: !kiln.set<i64>, %x: i64, %c: i64) -> (i1, i1, i1, i1) {
  // CHECK: kiln.set.new %{{.*}} : <f64>
  %e = kiln.set.new %c : !kiln.set<f64>
  // CHECK: kiln.set.len %{{.*}} : <i64>
  %n = kiln.set.len %s : !kiln.set<i64>
  // CHECK: kiln.set.contains %{{.*}}, %{{.*}} : <i64>
  %in = kiln.set.contains %s, %x : !kiln.set<i64>
  // CHECK: kiln.set.add %{{.*}}, %{{.*}} : <i64>
  kiln.set.add %s, %x : !kiln.set<i64>
  // CHECK: kiln.set.discard %{{.*}}, %{{.*}} : <i64>
  %was = kiln.set.discard %s, %x : !kiln.set<i64>
  // CHECK: kiln.set.remove %{{.*}}, %{{.*}} : <i64>
  kiln.set.remove %s, %x : !kiln.set<i64>
  // CHECK: kiln.set.pop %{{.*}} : <i64>
  %p = kiln.set.pop %s : !kiln.set<i64>
  // CHECK: kiln.set.used %{{.*}} : <i64>
  %u = kiln.set.used %s : !kiln.set<i64>
  // CHECK: kiln.set.live_at %{{.*}}[%{{.*}}] : <i64>
  %l = kiln.set.live_at %s[%u] : !kiln.set<i64>
  // CHECK: kiln.set.key_at %{{.*}}[%{{.*}}] : <i64>
  %k = kiln.set.key_at %s[%u] : !kiln.set<i64>
  // CHECK: kiln.set.copy %{{.*}} : <i64>
  %t = kiln.set.copy %s : !kiln.set<i64>
  // CHECK: kiln.set.combine symmetric_difference %{{.*}}, %{{.*}} : <i64>
  %r = kiln.set.combine symmetric_difference %s, %t : !kiln.set<i64>
  // CHECK: kiln.set.update intersection %{{.*}}, %{{.*}} : <i64>
  kiln.set.update intersection %t, %s : !kiln.set<i64>
  // CHECK: kiln.set.subset %{{.*}}, %{{.*}} : <i64>
  %le = kiln.set.subset %t, %s : !kiln.set<i64>
  // CHECK: kiln.set.equal %{{.*}}, %{{.*}} : <i64>
  %eq = kiln.set.equal %t, %s : !kiln.set<i64>
  // CHECK: kiln.set.disjoint %{{.*}}, %{{.*}} : <i64>
  %no = kiln.set.disjoint %t, %s : !kiln.set<i64>
  // CHECK: kiln.set.clear %{{.*}} : <i64>
  kiln.set.clear %t : !kiln.set<i64>
  // CHECK: kiln.retain %{{.*}} : !kiln.set<i64>
  kiln.retain %r : !kiln.set<i64>
  // CHECK: kiln.release %{{.*}} : !kiln.set<i64>
  kiln.release %r : !kiln.set<i64>
  kiln.release %r : !kiln.set<i64>
  kiln.release %t : !kiln.set<i64>
  kiln.release %e : !kiln.set<f64>
  return %in, %was, %le, %eq : i1, i1, i1, i1
}
