; kiln-vector-report on hand-written IR with known answers. Each module
; below is a separate file (split-file); Inputs/summarize-vector-report.py
; prints one line per record so the numbers can be checked exactly.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-vector-report -disable-output %t/loops.ll \
; RUN:   | %python %S/Inputs/summarize-vector-report.py | FileCheck %s --check-prefix=LOOPS
; With a triple opt has a target, and its cost model gives the same width.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-vector-report<output=%t/loops.json>' \
; RUN:   -mtriple=x86_64-unknown-linux-gnu -disable-output %t/loops.ll
; RUN: %python %S/Inputs/summarize-vector-report.py %t/loops.json | FileCheck %s --check-prefix=LOOPS
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-vector-report -disable-output %t/mixed.ll \
; RUN:   | %python %S/Inputs/summarize-vector-report.py | FileCheck %s --check-prefix=MIXED
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-vector-report -disable-output %t/math.ll \
; RUN:   | %python %S/Inputs/summarize-vector-report.py | FileCheck %s --check-prefix=MATH
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-vector-report -disable-output %t/lanes.ll \
; RUN:   | %python %S/Inputs/summarize-vector-report.py | FileCheck %s --check-prefix=LANES
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-vector-report -disable-output %t/avx512.ll \
; RUN:   | %python %S/Inputs/summarize-vector-report.py | FileCheck %s --check-prefix=AVX512
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-vector-report -disable-output %t/baseline.ll \
; RUN:   | %python %S/Inputs/summarize-vector-report.py | FileCheck %s --check-prefix=BASELINE
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-vector-report -disable-output %t/inlined.ll \
; RUN:   | %python %S/Inputs/summarize-vector-report.py | FileCheck %s --check-prefix=INLINED
; The whole JSON of one small function: the schema's keys, sorted.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-vector-report<output=->' -disable-output %t/json.ll \
; RUN:   | FileCheck %s --check-prefix=JSON --match-full-lines --strict-whitespace
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-vector-report<output=%t/json.json>' \
; RUN:   -print-pipeline-passes -disable-output %t/json.ll | FileCheck %s --check-prefix=PIPELINE
; RUN: not opt -load-pass-plugin=%kiln_plugin -passes='kiln-vector-report<verbose>' -disable-output %t/json.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=INVALID
; RUN: not opt -load-pass-plugin=%kiln_plugin -passes='kiln-vector-report<output=%t/missing/report.json>' \
; RUN:   -disable-output %t/json.ll 2>&1 | FileCheck %s --check-prefix=UNWRITABLE

; A vectorized loop: every work op is a full-width vector, so coverage and
; lane utilisation are 1. The splat is overhead; the induction update and
; the exit compare are control, not work.
; LOOPS:      report schema=kiln-vector-report/1 vector_register_bits=256 weighting=static
; LOOPS-NEXT: function vector_scale file=/src/kernel.py line=10 coverage=1 lane_utilization=1 vector_elements={{[0-9.]+}} scalar_elements=0 vector_ops=3 scalar_ops=0 overhead_ops=2
; LOOPS-NEXT:   block entry line=11 frequency=1 coverage=null lane_utilization=null vector_ops=0 scalar_ops=0 overhead_ops=2 vector_elements=0 scalar_elements=0 classes=other:1,shuffle:2
; LOOPS-NEXT:   block vector.body line=11 frequency={{[0-9.]+}} coverage=1 lane_utilization=1 vector_ops=3 scalar_ops=0 overhead_ops=0 vector_elements={{[0-9.]+}} scalar_elements=0 classes=compare:1,fp-arith:1,int-arith:1,load:1,other:3,store:1
; LOOPS-NEXT:   block exit line=0 frequency=1 coverage=null
; LOOPS-NEXT:   line /src/kernel.py:11 coverage=null lane_utilization=null vector_ops=0 scalar_ops=0
; LOOPS-NEXT:   line /src/kernel.py:12 coverage=1 lane_utilization=1 vector_ops=2 scalar_ops=0
; LOOPS-NEXT:   line /src/kernel.py:13 coverage=1 lane_utilization=1 vector_ops=1 scalar_ops=0
; LOOPS-NEXT:   loop vector.body line=11 depth=1 coverage=1 vector_ops=3 scalar_ops=0
; LOOPS-NEXT:   inst entry 11:5 'insertelement' class=shuffle elements=4 element_bits=64 vector=true work=false frequency=1
; LOOPS-NEXT:   inst entry 11:5 'shufflevector' class=shuffle
; LOOPS-NEXT:   inst vector.body 12:14 'load' class=load elements=4 element_bits=64 vector=true work=true
; LOOPS-NEXT:   inst vector.body 12:14 'fmul' class=fp-arith elements=4 element_bits=64 vector=true work=true
; LOOPS-NEXT:   inst vector.body 13:9 'store' class=store elements=4 element_bits=64 vector=true work=true
; LOOPS-NEXT:   inst vector.body 11:5 'add' class=int-arith elements=1 element_bits=64 vector=false work=false
; LOOPS-NEXT:   inst vector.body 11:5 'icmp' class=compare elements=1 element_bits=64 vector=false work=false

; The same loop, scalar and strided: coverage 0 and no lane utilisation.
; The stride multiplication only addresses memory; the integer increment of
; the loaded count is data.
; LOOPS-NEXT: function scalar_scale file=/src/kernel.py line=20 coverage=0 lane_utilization=null vector_elements=0 scalar_elements={{[0-9.]+}} vector_ops=0 scalar_ops=6 overhead_ops=0
; LOOPS-NEXT:   block entry
; LOOPS-NEXT:   block loop line=21 {{.*}} coverage=0 lane_utilization=null vector_ops=0 scalar_ops=6 overhead_ops=0
; LOOPS:        loop loop line=21 depth=1 coverage=0 vector_ops=0 scalar_ops=6
; LOOPS-NEXT:   inst loop 22:14 'mul' class=int-arith elements=1 element_bits=64 vector=false work=false
; LOOPS-NEXT:   inst loop 22:14 'load' class=load elements=1 element_bits=64 vector=false work=true
; LOOPS-NEXT:   inst loop 22:14 'fmul' class=fp-arith {{.*}} work=true
; LOOPS-NEXT:   inst loop 22:9 'store' class=store {{.*}} work=true
; LOOPS-NEXT:   inst loop 23:9 'load' class=load elements=1 element_bits=32 vector=false work=true
; LOOPS-NEXT:   inst loop 23:9 'add' class=int-arith elements=1 element_bits=32 vector=false work=true
; LOOPS-NEXT:   inst loop 23:9 'store' class=store elements=1 element_bits=32 vector=false work=true
; LOOPS-NEXT:   inst loop 21:5 'add' class=int-arith {{.*}} work=false
; LOOPS-NEXT:   inst loop 21:5 'icmp' class=compare {{.*}} work=false

; One <4 x double> fadd and four scalar fadds in one block: 4 / (4 + 4).
; The insertelement that combines them is overhead.
; MIXED:      function mixed {{.*}} coverage=0.5 lane_utilization=1 vector_elements=4 scalar_elements=4 vector_ops=1 scalar_ops=4 overhead_ops=1
; MIXED-NEXT:   block bb0 line=31 frequency=1 coverage=0.5 lane_utilization=1 vector_ops=1 scalar_ops=4 overhead_ops=1 vector_elements=4 scalar_elements=4 classes=fp-arith:5,other:1,shuffle:1
; MIXED-NEXT:   line /src/kernel.py:31 coverage=1 lane_utilization=1 vector_ops=1 scalar_ops=0 vector_elements=4 scalar_elements=0
; MIXED-NEXT:   line /src/kernel.py:32 coverage=0 lane_utilization=null vector_ops=0 scalar_ops=4 vector_elements=0 scalar_elements=4

; x86 has no vector exp: llvm.exp.v8f32 becomes eight libm calls, scalar
; work of 8 elements. A vector sqrt is one instruction; a vector-ABI libm
; call is SIMD; a scalar libm call is scalar math.
; MATH:      function exponentials {{.*}} coverage=0 lane_utilization=null vector_elements=0 scalar_elements=8 vector_ops=0 scalar_ops=1
; MATH:        scalarized line=41 callee=llvm.exp.v8f32 elements=8
; MATH-NEXT:   inst bb0 41:12 'call llvm.exp.v8f32' class=math elements=8 element_bits=32 vector=false work=true frequency=1
; MATH-NEXT: function roots {{.*}} coverage=1 lane_utilization=1 vector_elements=8 scalar_elements=0 vector_ops=1 scalar_ops=0
; MATH-NOT:    scalarized
; MATH:        inst bb0 42:12 'call llvm.sqrt.v8f32' class=math elements=8 element_bits=32 vector=true work=true
; MATH-NEXT: function vector_library {{.*}} coverage=0.5 lane_utilization=1 vector_elements=4 scalar_elements=4 vector_ops=1 scalar_ops=1
; MATH:        scalarized line=43 callee=frem elements=4
; MATH-NEXT:   inst bb0 43:12 'call _ZGVdN4v_sin' class=math elements=4 element_bits=64 vector=true work=true
; MATH-NEXT:   inst bb0 43:12 'frem' class=fp-arith elements=4 element_bits=64 vector=false work=true
; MATH-NEXT: function scalar_libm {{.*}} coverage=0 lane_utilization=null vector_elements=0 scalar_elements=1 vector_ops=0 scalar_ops=1
; MATH-NOT:    scalarized
; MATH:        inst bb0 44:12 'call sinf' class=math elements=1 element_bits=32 vector=false work=true

; Lane utilisation against 256-bit registers: a <2 x double> uses half a
; register; an <8 x double> fills two.
; LANES:      function half_register {{.*}} coverage=1 lane_utilization=0.5 vector_elements=2 scalar_elements=0 vector_ops=1
; LANES-NEXT:   block bb0 {{.*}} classes=fp-arith:1,other:1
; LANES:      function two_registers {{.*}} coverage=1 lane_utilization=1 vector_elements=8
; LANES:      function mixed_widths {{.*}} coverage=1 lane_utilization=0.75 vector_elements=6

; +avx512f: 512-bit registers, so a <4 x double> fills half of one.
; AVX512:      report schema=kiln-vector-report/1 vector_register_bits=512
; AVX512-NEXT: function wide {{.*}} coverage=1 lane_utilization=0.5
; No target features: SSE's 128 bits.
; BASELINE:      report schema=kiln-vector-report/1 vector_register_bits=128
; BASELINE-NEXT: function narrow {{.*}} coverage=1 lane_utilization=1

; Code inlined from a kernel keeps the kernel's lines, not the call site's.
; INLINED:      function wrapper file=/build/wrapper.c line=1 coverage=1
; INLINED:        line /build/wrapper.c:2 coverage=null
; INLINED-NEXT:   line kernel.py:7 coverage=1 lane_utilization=1 vector_ops=1
; INLINED:        inst bb0 7:3 'fadd'

; JSON:{
; JSON-NEXT:  "functions": [
; JSON-NEXT:    {
; JSON-NEXT:      "basic_blocks": [
; JSON-NEXT:        {
; JSON-NEXT:          "classes": {
; JSON-NEXT:            "compare": 0,
; JSON-NEXT:            "fp-arith": 1,
; JSON-NEXT:            "gather-scatter": 0,
; JSON-NEXT:            "int-arith": 0,
; JSON-NEXT:            "load": 0,
; JSON-NEXT:            "masked-memory": 0,
; JSON-NEXT:            "math": 0,
; JSON-NEXT:            "other": 1,
; JSON-NEXT:            "select": 0,
; JSON-NEXT:            "shuffle": 0,
; JSON-NEXT:            "store": 0
; JSON-NEXT:          },
; JSON-NEXT:          "coverage": 1,
; JSON-NEXT:          "frequency": 1,
; JSON-NEXT:          "lane_utilization": 0.5,
; JSON-NEXT:          "line": 3,
; JSON-NEXT:          "name": "bb0",
; JSON-NEXT:          "overhead_ops": 0,
; JSON-NEXT:          "scalar_elements": 0,
; JSON-NEXT:          "scalar_ops": 0,
; JSON-NEXT:          "vector_elements": 2,
; JSON-NEXT:          "vector_ops": 1
; JSON-NEXT:        }
; JSON-NEXT:      ],
; JSON-NEXT:      "coverage": 1,
; JSON-NEXT:      "file": "kernel.py",
; JSON-NEXT:      "instructions": [
; JSON-NEXT:        {
; JSON-NEXT:          "block": "bb0",
; JSON-NEXT:          "class": "fp-arith",
; JSON-NEXT:          "column": 12,
; JSON-NEXT:          "element_bits": 64,
; JSON-NEXT:          "elements": 2,
; JSON-NEXT:          "file": "kernel.py",
; JSON-NEXT:          "frequency": 1,
; JSON-NEXT:          "line": 3,
; JSON-NEXT:          "opcode": "fmul",
; JSON-NEXT:          "vector": true,
; JSON-NEXT:          "work": true
; JSON-NEXT:        }
; JSON-NEXT:      ],
; JSON-NEXT:      "lane_utilization": 0.5,
; JSON-NEXT:      "line": 2,
; JSON-NEXT:      "lines": [
; JSON-NEXT:        {
; JSON-NEXT:          "coverage": 1,
; JSON-NEXT:          "file": "kernel.py",
; JSON-NEXT:          "lane_utilization": 0.5,
; JSON-NEXT:          "line": 3,
; JSON-NEXT:          "scalar_elements": 0,
; JSON-NEXT:          "scalar_ops": 0,
; JSON-NEXT:          "vector_elements": 2,
; JSON-NEXT:          "vector_ops": 1
; JSON-NEXT:        }
; JSON-NEXT:      ],
; JSON-NEXT:      "loops": [],
; JSON-NEXT:      "name": "square",
; JSON-NEXT:      "overhead_ops": 0,
; JSON-NEXT:      "scalar_elements": 0,
; JSON-NEXT:      "scalar_ops": 0,
; JSON-NEXT:      "scalarized_calls": [],
; JSON-NEXT:      "vector_elements": 2,
; JSON-NEXT:      "vector_ops": 1
; JSON-NEXT:    }
; JSON-NEXT:  ],
; JSON-NEXT:  "schema": "kiln-vector-report/1",
; JSON-NEXT:  "vector_register_bits": 256,
; JSON-NEXT:  "weighting": "static"
; JSON-NEXT:}

; PIPELINE: kiln-vector-report<output={{.*}}json.json>
; INVALID: error: invalid kiln-vector-report parameter 'verbose'; expected output=FILE
; UNWRITABLE: error: kiln-vector-report: cannot write '{{.*}}missing/report.json': {{.*}}

;--- loops.ll
define void @vector_scale(ptr noalias %x, i64 %n, double %a) #0 !dbg !4 {
entry:
  %splat.insert = insertelement <4 x double> poison, double %a, i64 0, !dbg !10
  %splat = shufflevector <4 x double> %splat.insert, <4 x double> poison, <4 x i32> zeroinitializer, !dbg !10
  br label %vector.body, !dbg !10

vector.body:
  %index = phi i64 [ 0, %entry ], [ %index.next, %vector.body ], !dbg !10
  %address = getelementptr inbounds double, ptr %x, i64 %index, !dbg !11
  %values = load <4 x double>, ptr %address, align 8, !dbg !11
  %scaled = fmul <4 x double> %values, %splat, !dbg !11
  store <4 x double> %scaled, ptr %address, align 8, !dbg !12
  %index.next = add nuw i64 %index, 4, !dbg !10
  %done = icmp eq i64 %index.next, %n, !dbg !10
  br i1 %done, label %exit, label %vector.body, !dbg !10

exit:
  ret void
}

define void @scalar_scale(ptr noalias %x, i64 %n, i64 %stride, double %a, ptr noalias %count) #0 !dbg !20 {
entry:
  br label %loop, !dbg !21

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ], !dbg !21
  %offset = mul i64 %i, %stride, !dbg !22
  %address = getelementptr inbounds double, ptr %x, i64 %offset, !dbg !22
  %value = load double, ptr %address, align 8, !dbg !22
  %scaled = fmul double %value, %a, !dbg !22
  store double %scaled, ptr %address, align 8, !dbg !23
  %old = load i32, ptr %count, align 4, !dbg !24
  %new = add i32 %old, 1, !dbg !24
  store i32 %new, ptr %count, align 4, !dbg !24
  %i.next = add nuw i64 %i, 1, !dbg !21
  %done = icmp eq i64 %i.next, %n, !dbg !21
  br i1 %done, label %exit, label %loop, !dbg !21

exit:
  ret void, !dbg !21
}

attributes #0 = { "target-features"="+avx,+avx2" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Python, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernel.py", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DISubroutineType(types: !{})
!4 = distinct !DISubprogram(name: "vector_scale", scope: !1, file: !1, line: 10, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!10 = !DILocation(line: 11, column: 5, scope: !4)
!11 = !DILocation(line: 12, column: 14, scope: !4)
!12 = !DILocation(line: 13, column: 9, scope: !4)
!20 = distinct !DISubprogram(name: "scalar_scale", scope: !1, file: !1, line: 20, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!21 = !DILocation(line: 21, column: 5, scope: !20)
!22 = !DILocation(line: 22, column: 14, scope: !20)
!23 = !DILocation(line: 22, column: 9, scope: !20)
!24 = !DILocation(line: 23, column: 9, scope: !20)

;--- mixed.ll
define <4 x double> @mixed(<4 x double> %v, double %a, double %b) #0 !dbg !4 {
  %vector = fadd <4 x double> %v, %v, !dbg !10
  %s1 = fadd double %a, %b, !dbg !11
  %s2 = fadd double %s1, %b, !dbg !11
  %s3 = fadd double %s2, %b, !dbg !11
  %s4 = fadd double %s3, %b, !dbg !11
  %result = insertelement <4 x double> %vector, double %s4, i64 0, !dbg !11
  ret <4 x double> %result, !dbg !11
}

attributes #0 = { "target-features"="+avx,+avx2" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Python, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernel.py", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DISubroutineType(types: !{})
!4 = distinct !DISubprogram(name: "mixed", scope: !1, file: !1, line: 30, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!10 = !DILocation(line: 31, column: 12, scope: !4)
!11 = !DILocation(line: 32, column: 12, scope: !4)

;--- math.ll
define <8 x float> @exponentials(<8 x float> %v) #0 !dbg !4 {
  %e = call <8 x float> @llvm.exp.v8f32(<8 x float> %v), !dbg !10
  ret <8 x float> %e, !dbg !10
}

define <8 x float> @roots(<8 x float> %v) #0 !dbg !5 {
  %r = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %v), !dbg !11
  ret <8 x float> %r, !dbg !11
}

define <4 x double> @vector_library(<4 x double> %v) #0 !dbg !6 {
  %s = call <4 x double> @_ZGVdN4v_sin(<4 x double> %v), !dbg !12
  %m = frem <4 x double> %s, %v, !dbg !12
  ret <4 x double> %m, !dbg !12
}

define float @scalar_libm(float %x) #0 !dbg !7 {
  %s = call float @sinf(float %x), !dbg !13
  ret float %s, !dbg !13
}

declare <8 x float> @llvm.exp.v8f32(<8 x float>)
declare <8 x float> @llvm.sqrt.v8f32(<8 x float>)
declare <4 x double> @_ZGVdN4v_sin(<4 x double>)
declare float @sinf(float)

attributes #0 = { "target-features"="+avx,+avx2" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Python, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernel.py", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DISubroutineType(types: !{})
!4 = distinct !DISubprogram(name: "exponentials", scope: !1, file: !1, line: 41, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!5 = distinct !DISubprogram(name: "roots", scope: !1, file: !1, line: 42, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!6 = distinct !DISubprogram(name: "vector_library", scope: !1, file: !1, line: 43, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!7 = distinct !DISubprogram(name: "scalar_libm", scope: !1, file: !1, line: 44, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!10 = !DILocation(line: 41, column: 12, scope: !4)
!11 = !DILocation(line: 42, column: 12, scope: !5)
!12 = !DILocation(line: 43, column: 12, scope: !6)
!13 = !DILocation(line: 44, column: 12, scope: !7)

;--- lanes.ll
define <2 x double> @half_register(<2 x double> %v) #0 {
  %p = fmul <2 x double> %v, %v
  ret <2 x double> %p
}

define <8 x double> @two_registers(<8 x double> %v) #0 {
  %p = fmul <8 x double> %v, %v
  ret <8 x double> %p
}

; 128 + 256 bits used of 256 + 256 available.
define <4 x double> @mixed_widths(<2 x double> %a, <4 x double> %b) #0 {
  %p = fmul <2 x double> %a, %a
  %q = fmul <4 x double> %b, %b
  ret <4 x double> %q
}

attributes #0 = { "target-features"="+avx,+avx2" }

;--- avx512.ll
define <4 x double> @wide(<4 x double> %v) #0 {
  %p = fmul <4 x double> %v, %v
  ret <4 x double> %p
}

attributes #0 = { "target-features"="+avx,+avx2,+avx512f" }

;--- baseline.ll
define <2 x double> @narrow(<2 x double> %v) {
  %p = fmul <2 x double> %v, %v
  ret <2 x double> %p
}

;--- inlined.ll
define <4 x float> @wrapper(<4 x float> %v) #0 !dbg !4 {
  %s = fadd <4 x float> %v, %v, !dbg !11
  ret <4 x float> %s, !dbg !12
}

attributes #0 = { "target-features"="+sse2" "prefer-vector-width"="128" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "wrapper.c", directory: "/build")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DISubroutineType(types: !{})
!4 = distinct !DISubprogram(name: "wrapper", scope: !1, file: !1, line: 1, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DIFile(filename: "kernel.py", directory: "")
!6 = distinct !DISubprogram(name: "kernel", scope: !5, file: !5, line: 6, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!10 = distinct !DILocation(line: 2, column: 10, scope: !4)
!11 = !DILocation(line: 7, column: 3, scope: !6, inlinedAt: !10)
!12 = !DILocation(line: 2, column: 3, scope: !4)

;--- json.ll
define <2 x double> @square(<2 x double> %v) #0 !dbg !4 {
  %p = fmul <2 x double> %v, %v, !dbg !10
  ret <2 x double> %p, !dbg !10
}

attributes #0 = { "target-features"="+avx,+avx2" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Python, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernel.py", directory: "")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DISubroutineType(types: !{})
!4 = distinct !DISubprogram(name: "square", scope: !1, file: !1, line: 2, type: !3, spFlags: DISPFlagDefinition, unit: !0)
!10 = !DILocation(line: 3, column: 12, scope: !4)
