// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// Every list op round-trips through its assembly format.
// CHECK-LABEL: func.func @every_op
func.func @every_op(%xs: !kiln.list<f64>, %flags: !kiln.list<i1>, %i: i64, %x: f64) -> i1 {
  // CHECK: kiln.list.new %{{.*}} : <i64>
  %ns = kiln.list.new %i : !kiln.list<i64>
  // CHECK: kiln.list.len %{{.*}} : <f64>
  %n = kiln.list.len %xs : !kiln.list<f64>
  // CHECK: kiln.list.get %{{.*}}[%{{.*}}] : <f64>
  %y = kiln.list.get %xs[%i] : !kiln.list<f64>
  // CHECK: kiln.list.set %{{.*}}[%{{.*}}], %{{.*}} : <f64>
  kiln.list.set %xs[%i], %x : !kiln.list<f64>
  // CHECK: kiln.list.append %{{.*}}, %{{.*}} : <i64>
  kiln.list.append %ns, %n : !kiln.list<i64>
  // CHECK: kiln.list.pop %{{.*}}[%{{.*}}] : <f64>
  %p = kiln.list.pop %xs[%i] : !kiln.list<f64>
  // CHECK: kiln.list.insert %{{.*}}[%{{.*}}], %{{.*}} : <f64>
  kiln.list.insert %xs[%i], %p : !kiln.list<f64>
  // CHECK: kiln.list.clear %{{.*}} : <i64>
  kiln.list.clear %ns : !kiln.list<i64>
  // CHECK: kiln.list.reverse %{{.*}} : <f64>
  kiln.list.reverse %xs : !kiln.list<f64>
  // CHECK: kiln.list.sort %{{.*}} {reverse} : <f64>
  kiln.list.sort %xs {reverse} : !kiln.list<f64>
  // CHECK: kiln.list.extend %{{.*}}, %{{.*}} : <f64>
  kiln.list.extend %xs, %xs : !kiln.list<f64>
  // CHECK: kiln.list.copy %{{.*}} : <f64>
  %c = kiln.list.copy %xs : !kiln.list<f64>
  // CHECK: kiln.list.concat %{{.*}}, %{{.*}} : <f64>
  %cc = kiln.list.concat %xs, %c : !kiln.list<f64>
  // CHECK: kiln.list.repeat %{{.*}}, %{{.*}} : <f64>
  %r = kiln.list.repeat %cc, %i : !kiln.list<f64>
  // CHECK: kiln.list.count %{{.*}}, %{{.*}} : <f64>
  %k = kiln.list.count %r, %x : !kiln.list<f64>
  // CHECK: kiln.list.find %{{.*}}, %{{.*}} : <f64>
  %at = kiln.list.find %r, %x : !kiln.list<f64>
  // CHECK: kiln.list.equal %{{.*}}, %{{.*}} : <f64>
  %same = kiln.list.equal %r, %xs : !kiln.list<f64>
  // CHECK: kiln.list.get %{{.*}}[%{{.*}}] : <i1>
  %b = kiln.list.get %flags[%i] : !kiln.list<i1>
  // CHECK: kiln.retain %{{.*}} : !kiln.list<f64>
  kiln.retain %r : !kiln.list<f64>
  // CHECK: kiln.release %{{.*}} : !kiln.list<f64>
  kiln.release %r : !kiln.list<f64>
  kiln.release %r : !kiln.list<f64>
  kiln.release %cc : !kiln.list<f64>
  kiln.release %c : !kiln.list<f64>
  kiln.release %ns : !kiln.list<i64>
  return %same : i1
}

// Slices: start and stop are optional, the step is always given.
// CHECK-LABEL: func.func @slices
func.func @slices(%xs: !kiln.list<i64>, %a: i64, %b: i64, %c: i64) {
  // CHECK: kiln.list.slice %{{.*}}[%{{.*}} : %{{.*}} : %{{.*}}] : <i64>
  %ys = kiln.list.slice %xs[%a : %b : %c] : !kiln.list<i64>
  // CHECK: kiln.list.slice %{{.*}}[ : %{{.*}} : %{{.*}}] : <i64>
  %zs = kiln.list.slice %xs[ : %b : %c] : !kiln.list<i64>
  // CHECK: kiln.list.assign_slice %{{.*}}[%{{.*}} : : %{{.*}}], %{{.*}} : <i64>
  kiln.list.assign_slice %xs[%a : : %c], %ys : !kiln.list<i64>
  // CHECK: kiln.list.delete_slice %{{.*}}[ : : %{{.*}}] : <i64>
  kiln.list.delete_slice %xs[ : : %c] : !kiln.list<i64>
  kiln.release %ys : !kiln.list<i64>
  kiln.release %zs : !kiln.list<i64>
  return
}
