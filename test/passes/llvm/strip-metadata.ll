; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strip-metadata -S %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,NODEBUG --implicit-check-not=!DI --implicit-check-not=!dbg \
; RUN:     --implicit-check-not=#dbg_ '--implicit-check-not=Debug Info Version' --implicit-check-not=llvm.ident \
; RUN:     --implicit-check-not=llvm.commandline --implicit-check-not=llvm.linker.options
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strip-metadata<keep-line-tables>' -S %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,LINES --implicit-check-not=#dbg_ \
; RUN:     --implicit-check-not=!DILocalVariable --implicit-check-not=!DIBasicType --implicit-check-not=llvm.ident
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strip-metadata<keep-debug-info>' -S %s | FileCheck %s --check-prefix=DEBUG
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strip-metadata<keep-ident;keep-loop-metadata;keep-unused-globals>' -S %s \
; RUN:   | FileCheck %s --check-prefix=KEEP

; Unreferenced internal globals go, transitively; external ones stay.
; CHECK-NOT: @dead_table
; CHECK-NOT: @only_used_by_dead
; CHECK: @exported = global i32 1
; CHECK-NOT: @dead_table
; KEEP: @dead_table = internal constant
; KEEP: @only_used_by_dead = internal global

@dead_table = internal constant [2 x ptr] [ptr @dead_helper, ptr @only_used_by_dead]
@only_used_by_dead = internal global i32 0
@exported = global i32 1

; Only the loop the vectorizer has processed loses its loop ID; an
; unconsumed hint and llvm.loop.align stay.
; CHECK-LABEL: define void @loops(
; LINES: store i64 %i, ptr %p, align 8, !dbg
; DEBUG: #dbg_value(i64 %i,
; CHECK: br i1 %vector.done, label %scalar, label %vector, !prof !{{[0-9]+}}{{$}}
; CHECK: br i1 %scalar.done, label %aligned, label %scalar, !llvm.loop ![[HINTED:[0-9]+]]
; CHECK: br i1 %aligned.done, label %exit, label %aligned, !llvm.loop ![[ALIGNED:[0-9]+]]
; KEEP: br i1 %vector.done, label %scalar, label %vector, !prof !{{[0-9]+}}, !llvm.loop
define void @loops(ptr %p, i64 %n) !dbg !10 {
entry:
  br label %vector

vector:
  %i = phi i64 [ 0, %entry ], [ %i.next, %vector ]
    #dbg_value(i64 %i, !12, !DIExpression(), !13)
  store i64 %i, ptr %p, align 8, !dbg !13
  %i.next = add i64 %i, 4
  %vector.done = icmp uge i64 %i.next, %n
  br i1 %vector.done, label %scalar, label %vector, !prof !30, !llvm.loop !20

scalar:
  %j = phi i64 [ 0, %vector ], [ %j.next, %scalar ]
  %j.next = add i64 %j, 1
  %scalar.done = icmp uge i64 %j.next, %n
  br i1 %scalar.done, label %aligned, label %scalar, !llvm.loop !23

aligned:
  %k = phi i64 [ 0, %scalar ], [ %k.next, %aligned ]
  %k.next = add i64 %k, 1
  %aligned.done = icmp uge i64 %k.next, %n
  br i1 %aligned.done, label %exit, label %aligned, !llvm.loop !25

exit:
  %value = load i32, ptr @exported, align 4
  call void @used(i32 %value)
  ret void
}

define internal void @dead_helper() {
  call void @only_called_by_dead()
  ret void
}

; Declarations nothing calls go, including those orphaned above.
; CHECK: declare void @used(i32)
; CHECK-NOT: declare
; KEEP-DAG: declare void @never_called()
; KEEP-DAG: declare void @only_called_by_dead()
declare void @used(i32)
declare void @never_called()
declare void @only_called_by_dead()

; The DWARF flags go with the compile unit; the others stay. llvm.ident,
; llvm.commandline and empty named metadata go.
; NODEBUG-NOT: !llvm.dbg.cu
; LINES: !llvm.dbg.cu = !{![[CU:[0-9]+]]}
; NODEBUG: !llvm.module.flags = !{![[WCHAR:[0-9]+]]}
; LINES: !llvm.module.flags = !{{{.*}}}
; DEBUG: !llvm.dbg.cu = !{!{{[0-9]+}}}
; KEEP: !llvm.ident = !{!{{[0-9]+}}}
; KEEP: !llvm.commandline
; CHECK-DAG: ![[HINTED]] = distinct !{![[HINTED]], ![[WIDTH:[0-9]+]]}
; CHECK-DAG: ![[WIDTH]] = !{!"llvm.loop.vectorize.width", i32 4}
; CHECK-DAG: ![[ALIGNED]] = distinct !{![[ALIGNED]], ![[ALIGN:[0-9]+]]}
; CHECK-DAG: ![[ALIGN]] = !{!"llvm.loop.align", i32 64}
; NODEBUG-DAG: ![[WCHAR]] = !{i32 1, !"wchar_size", i32 4}
; LINES-DAG: ![[CU]] = distinct !DICompileUnit({{.*}}emissionKind: LineTablesOnly
; DEBUG: !DILocalVariable(name: "i"

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4}
!llvm.ident = !{!5}
!llvm.commandline = !{!6}
!llvm.linker.options = !{}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand-written", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "loops.c", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{!"hand-written compiler 1.0"}
!6 = !{!"cc -O2 loops.c"}
!10 = distinct !DISubprogram(name: "loops", scope: !1, file: !1, line: 1, type: !11, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!11 = !DISubroutineType(types: !{null})
!12 = !DILocalVariable(name: "i", scope: !10, file: !1, line: 2, type: !14)
!13 = !DILocation(line: 3, column: 5, scope: !10)
!14 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
; What LoopVectorize leaves on the vector body.
!20 = distinct !{!20, !21, !22, !13}
!21 = !{!"llvm.loop.isvectorized", i32 1}
!22 = !{!"llvm.loop.unroll.runtime.disable"}
; A user's hint the vectorizer has not consumed yet.
!23 = distinct !{!23, !24}
!24 = !{!"llvm.loop.vectorize.width", i32 4}
; Code generation reads this one.
!25 = distinct !{!25, !26}
!26 = !{!"llvm.loop.align", i32 64}
!30 = !{!"branch_weights", i32 1, i32 7}
