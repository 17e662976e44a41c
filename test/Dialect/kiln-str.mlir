// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// The string ops print and parse back in their custom forms.
// CHECK-LABEL: func.func @round_trip(
func.func @round_trip(%s: !kiln.str, %i: i64, %x: f64) -> !kiln.str {
  // CHECK: kiln.str.constant "h\C3\A9llo, \F0\9F\98\80"
  %lit = kiln.str.constant "héllo, 😀"
  // CHECK: kiln.str.len %{{.*}}
  %n = kiln.str.len %s
  // CHECK: kiln.str.char_at %{{.*}}[%{{.*}}]
  %c = kiln.str.char_at %s[%i]
  // CHECK: kiln.str.code_at %{{.*}}[%{{.*}}]
  %code = kiln.str.code_at %s[%i]
  // CHECK: kiln.str.ord %{{.*}}
  %o = kiln.str.ord %c
  // CHECK: kiln.str.chr %{{.*}}
  %d = kiln.str.chr %code
  // CHECK: kiln.str.concat %{{.*}}, %{{.*}}
  %cat = kiln.str.concat %s, %lit
  // CHECK: kiln.str.repeat %{{.*}}, %{{.*}}
  %rep = kiln.str.repeat %s, %n
  // CHECK: kiln.str.slice %{{.*}}[%{{.*}} : : %{{.*}}]
  %tail = kiln.str.slice %s[%i : : %n]
  // CHECK: kiln.str.slice %{{.*}}[ : : %{{.*}}]
  %all = kiln.str.slice %s[ : : %n]
  // CHECK: kiln.str.equal
  %eq = kiln.str.equal %s, %lit
  // CHECK: kiln.str.compare
  %order = kiln.str.compare %s, %lit
  // CHECK: kiln.str.find %{{.*}}, %{{.*}}[%{{.*}} :]
  %at = kiln.str.find %s, %lit[%i : ]
  // CHECK: kiln.str.rfind %{{.*}}, %{{.*}}[ :]
  %last = kiln.str.rfind %s, %lit[ : ]
  // CHECK: kiln.str.count %{{.*}}, %{{.*}}[%{{.*}} : %{{.*}}]
  %times = kiln.str.count %s, %lit[%i : %n]
  // CHECK: kiln.str.contains
  %in = kiln.str.contains %s, %lit
  // CHECK: kiln.str.startswith
  %starts = kiln.str.startswith %s, %lit
  // CHECK: kiln.str.endswith
  %ends = kiln.str.endswith %s, %lit
  // CHECK: kiln.str.strip %{{.*}} {left, right}
  %stripped = kiln.str.strip %s {left, right}
  // CHECK: kiln.str.strip %{{.*}}, %{{.*}} {right}
  %rstripped = kiln.str.strip %s, %lit {right}
  // CHECK: kiln.str.replace
  %replaced = kiln.str.replace %s, %lit, %c, %i
  // CHECK: kiln.str.lower
  %lower = kiln.str.lower %s
  // CHECK: kiln.str.upper
  %upper = kiln.str.upper %s
  // CHECK: kiln.str.is %{{.*}}, isdigit
  %digits = kiln.str.is %s, isdigit
  // CHECK: kiln.str.from_int
  %fi = kiln.str.from_int %i
  // CHECK: kiln.str.from_float
  %ff = kiln.str.from_float %x
  // CHECK: kiln.str.to_int
  %ti = kiln.str.to_int %s
  // CHECK: kiln.str.to_float
  %tf = kiln.str.to_float %s
  // CHECK: kiln.str.split %{{.*}}, %{{.*}} : !kiln.list<!kiln.str>
  %words = kiln.str.split %s, %i : !kiln.list<!kiln.str>
  // CHECK: kiln.str.split %{{.*}}, %{{.*}}, %{{.*}} : !kiln.list<!kiln.str>
  %fields = kiln.str.split %s, %i, %lit : !kiln.list<!kiln.str>
  // CHECK: kiln.str.join %{{.*}}, %{{.*}} : !kiln.list<!kiln.str>
  %line = kiln.str.join %lit, %words : !kiln.list<!kiln.str>
  // CHECK: kiln.retain %{{.*}} : !kiln.str
  kiln.retain %s : !kiln.str
  // CHECK: kiln.release %{{.*}} : !kiln.str
  kiln.release %s : !kiln.str
  return %line : !kiln.str
}
