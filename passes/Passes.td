#ifndef KILN_PASSES_TD
#define KILN_PASSES_TD

include "mlir/Pass/PassBase.td"

def KilnInlineHelpers : Pass<"kiln-inline-helpers", "::mlir::ModuleOp"> {
  let summary = "Inline small helpers of numbers into their callers, before vectorizing";
  let description = [{
    A loop that calls a helper function stays scalar in `kiln-vectorize`
    (it vectorizes no calls) and LLVM inlines too late for it, so factoring
    an `erf`-style polynomial into a helper made the loop ~4x slower than the
    same code written inline. This pass runs MLIR's own inliner
    (`mlir::Inliner`, the call graph, the dialects' inliner interfaces) with
    Kiln's policy for which calls to inline: the callee takes and returns
    numbers only (plus the error record), is one block of at most
    `max-ops` operations, allocates no arrays and is not recursive (helpers
    that take or return arrays keep their calls: the ownership rules at
    calls, `kiln-buffer-deallocation` and `kiln_alloc_adopt`, are written for
    them). An inlined helper's `kiln.check`s then return from the caller,
    which is what the `kiln.propagate_error` after the call did; those
    `kiln.propagate_error`s are erased, and helpers left without callers
    are dropped.

    Before:

    ```mlir
    func.func private @poly(%x: f64, %err: !llvm.ptr {kiln.error_slot}) -> f64 {
      %d = arith.addf %x, %one : f64
      %nonzero = arith.cmpf une, %d, %zero : f64
      kiln.check %nonzero, ZeroDivisionError, "float division by zero"
      %t = arith.divf %one, %d : f64
      return %t : f64
    }
    ...
      %y = func.call @poly(%v, %err) : (f64, !llvm.ptr) -> f64
      kiln.propagate_error
    ```

    After:

    ```mlir
      %d = arith.addf %v, %one : f64
      %nonzero = arith.cmpf une, %d, %zero : f64
      kiln.check %nonzero, ZeroDivisionError, "float division by zero"
      %y = arith.divf %one, %d : f64
    ```
  }];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"200",
           "Largest helper (operations in its body) to inline">,
  ];
}

def KilnParallelArrays : Pass<"kiln-parallel-arrays", "::mlir::ModuleOp"> {
  let summary = "Share the whole-array statements of parallel=True functions "
                "out between threads";
  let description = [{
    In a function marked `kiln.parallel` (`@kiln.export(parallel=True)`),
    each elementwise `linalg.generic` on tensors (one fused array statement,
    every loop parallel) is cut into 8 slices of its outermost dimension by
    upstream's `tile_using_forall` (a transform-dialect schedule applied with
    `transform::applyTransforms`); the pipeline turns the `scf.forall` into
    `scf.parallel` after bufferization and gives it to OpenMP with the
    kiln.prange loops. The innermost dimension stays whole, so each slice's
    loop vectorizes as before. Whole-array reductions (`np.sum`) are not
    linalg operations: the frontend writes them as blocks of an
    scf.parallel (mlir/parallel_lowering.py). Kiln writes only which operations and how many
    slices; upstream has no pass that picks operations by a function's
    option.

    Before:

    ```mlir
    func.func @scale(...) attributes {kiln.parallel} {
      %r = linalg.generic {iterator_types = ["parallel"]} ins(%x : tensor<?xf64>)
                                                          outs(%e : tensor<?xf64>) {...}
    ```

    After:

    ```mlir
      %r = scf.forall (%t) in (8) shared_outs(%o = %e) -> (tensor<?xf64>) {
        %slice = linalg.generic ... ins(%x_slice) outs(%o_slice) {...}
        scf.forall.in_parallel { tensor.parallel_insert_slice %slice into %o[...] }
      }
    ```
  }];
  let dependentDialects = [
    "::mlir::transform::TransformDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
  ];
}

def KilnTileMatmul : Pass<"kiln-tile-matmul", "::mlir::ModuleOp"> {
  let summary = "Tile, vectorize and register-block matrix products (linalg.matmul on tensors)";
  let description = [{
    A matrix product written `a @ b` reaches this pass as a `linalg.matmul`
    on tensors. It runs a schedule in MLIR's transform dialect (tile for
    the caches, tile mr x nr x 1 for the registers, peel so full tiles are
    static, vectorize them, lower each contraction to FMAs of a broadcast
    element of A by a row of B, and hoist the mr x nr block of the result
    out of the k loop), with the tile sizes of the target's vector width
    (`kiln.vector_bits`: each version of a portable build gets its own).
    Kiln writes only the sizes; tiling, peeling, vectorization and hoisting
    are upstream's. The edge tiles stay `linalg.matmul` and become loops.
    A product marked `kiln.parallel` (`@kiln.export(parallel=True)`) is
    first cut into 8 slices of rows (`tile_using_forall`), an `scf.forall`
    the pipeline hands to OpenMP; each slice is then blocked the same way.

    Before:

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>)
                       outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
    ```

    After (the full register tiles, AVX2):

    ```mlir
    scf.for %i ... step %c192 {         // cache blocks of m, k, n
      scf.for %k ... step %c128 {
        scf.for %j ... step %c256 {
          scf.for %ii ... step %c6 {     // register tiles
            scf.for %jj ... step %c8 {
              %acc0 = vector.transfer_read %c_block ... : vector<6x8xf64>
              %acc = scf.for %kk ... iter_args(%x = %acc0) -> vector<6x8xf64> {
                // 6 broadcasts of A, 2 loads of B, 12 vector.fma
              }
              vector.transfer_write %acc, ...
    ```
  }];
  let dependentDialects = [
    "::mlir::transform::TransformDialect", "::mlir::affine::AffineDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::tensor::TensorDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def KilnLowerChecks : Pass<"kiln-lower-checks", "::mlir::ModuleOp"> {
  let summary = "Turn kiln.check into an early return that fills the error record";
  let description = [{
    Compiled Python functions report exceptions through a `kiln_error` record
    owned by the caller: the function argument carrying the
    `kiln.error_slot` attribute points to it. This pass rewrites every
    `kiln.check` into a conditional branch to a cold block that stores the
    exception kind, the op's source line and column, the message and its
    operands into the record, and returns zero values. Each
    `kiln.propagate_error` (after a call to a function that can raise) becomes
    a test of the record's kind and the same early return, leaving the record
    as the callee filled it. The early return releases the references to
    instances the function holds there: the operands of the `kiln.owned`
    marker kiln-lower-containers put before it (the nearest one on every
    path backwards, which must hold the same references; none releases
    nothing), and the markers are erased. A function that allocates arrays (or receives
    them from calls) reads the allocation journal's depth on entry
    (`kiln_alloc_mark`, runtime/kiln_alloc.c); its error paths free every
    array allocated since (`kiln_alloc_unwind`), its returns hand the
    returned arrays to the caller (`kiln_alloc_release`), and each array a
    call returned goes back into its journal (`kiln_alloc_adopt`). The normal
    paths' frees are ownership-based buffer deallocation's, placed before
    this pass. The pass runs after `convert-scf-to-cf`, because an early
    return needs an unstructured CFG.

    A checked index that may be negative (`kiln.index` as kiln-lower-to-std
    expands it: `select(i < 0, i + size, i)`, then `check(position <u
    size)`) is first reshaped so that the common case costs one compare of
    the index itself and the access does not wait for the wrap: `cf.cond_br
    (i <u size), ^join(i), ^wrap`, where `^wrap` adds `size`, checks and
    branches to `^join`. The same indexes pass and the same IndexError is
    raised (a histogram's `counts[b] += 1` ran 1.37x faster).

    Before:

    ```mlir
    func.func @div(%a: i64, %b: i64, %err: !llvm.ptr {kiln.error_slot}) -> i64 {
      %nonzero = arith.cmpi ne, %b, %c0 : i64
      kiln.check %nonzero, ZeroDivisionError, "integer division or modulo by zero"
      %q = arith.floordivsi %a, %b : i64
      return %q : i64
    }
    ```

    After:

    ```mlir
    func.func @div(%a: i64, %b: i64, %err: !llvm.ptr {kiln.error_slot}) -> i64 {
      %nonzero = arith.cmpi ne, %b, %c0 : i64
      %failed = arith.xori %nonzero, %true : i1
      cf.cond_br %failed, ^raise, ^continue
    ^raise:
      llvm.store %kind, %err : i32, !llvm.ptr      // plus line, column, message
      return %zero : i64
    ^continue:
      %q = arith.floordivsi %a, %b : i64
      return %q : i64
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::ub::UBDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def KilnParallelThreads : Pass<"kiln-parallel-threads", "::mlir::ModuleOp"> {
  let summary = "Give each OpenMP parallel region the thread count Kiln's "
                "runtime chooses, and run one-block loops serially";
  let description = [{
    `convert-scf-to-openmp` turns a kiln.prange loop (an `scf.parallel` over
    blocks of iterations) into `omp.parallel` + `omp.wsloop`, with the
    OpenMP runtime's default team size. Kiln's rule is its own and is read
    at every loop (runtime/kiln_parallel.c: `KILN_NUM_THREADS`, then
    `OMP_NUM_THREADS`, then the process's CPU affinity mask), so that
    `kiln.set_num_threads` takes effect at once and a worker pinned to one
    CPU is not oversubscribed. This pass sets each `omp.parallel`'s
    `num_threads` to a call of `kiln_parallel_thread_count` and its `if` to
    "the loop has more than one block", so that a loop of one block (a tiny
    input) runs on the calling thread without waking the team. No upstream
    pass sets a run-time thread count. It also inlines the
    `memref.alloca_scope` convert-scf-to-openmp wraps each loop body in,
    which must stay one block once convert-scf-to-cf runs (memref's
    canonicalization keeps any scope with a call in it), and marks a
    worksharing loop that is the last thing its region does `nowait`: the
    region's join barrier follows at once, and a second barrier costs a
    tenth of entering a region (Kiln's loops pass results through memory,
    not OpenMP reductions).

    Before:

    ```mlir
    omp.parallel {
      omp.wsloop {
        omp.loop_nest (%b) : index = (%c0) to (%blocks) step (%c1) { ... }
      }
      omp.terminator
    }
    ```

    After:

    ```mlir
    %threads = call @kiln_parallel_thread_count() : () -> i32
    %several = arith.cmpi sgt, %span, %c1 : index   // %span = %blocks - %c0
    omp.parallel if(%several) num_threads(%threads : i32) {
      omp.wsloop nowait { omp.loop_nest ... }
      omp.terminator
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def KilnClearAddressNuw : Pass<"kiln-clear-address-nuw", "::mlir::ModuleOp"> {
  let summary = "Drop the `nuw` flag MLIR 22's memref lowering puts on "
                "address arithmetic, poison for negative strides";
  let description = [{
    `finalize-memref-to-llvm` in MLIR 22 marks every element address
    `getelementptr inbounds|nuw` and every `index * stride` / `offset + ...`
    feeding it `overflow<nsw, nuw>`. With a negative stride (Python's
    `x[::-1]`, static or dynamic) the unsigned product wraps, the address is
    poison, and LLVM may delete or misplace the access. Upstream fixed the
    lowering after LLVM 22 (llvm-project#204309); until Kiln's toolchain has
    the fix, this pass clears `nuw` on every `llvm.getelementptr` and on the
    integer arithmetic feeding its indices, keeping `inbounds` and `nsw`
    (Kiln's accesses are in bounds). Runs right after the LLVM conversion.

    Before:

    ```mlir
    %p = llvm.mul %i, %stride overflow<nsw, nuw> : i64
    %a = llvm.getelementptr inbounds|nuw %base[%p] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    ```

    After:

    ```mlir
    %p = llvm.mul %i, %stride overflow<nsw> : i64
    %a = llvm.getelementptr inbounds %base[%p] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    ```
  }];
}

def KilnLowerScalarViews : Pass<"kiln-lower-scalar-views", "::mlir::ModuleOp"> {
  let summary = "Lower kiln.scalar_view to a memref descriptor of the scalars";
  let description = [{
    `kiln.scalar_view` (made by `kiln-vectorize` for loops over complex and
    bool arrays) has no upstream counterpart: no memref op changes the
    element type of a strided view. This conversion builds the view's LLVM
    descriptor from its source's: the same pointers; for a complex source
    the offset and every stride but the last doubled and the last size
    doubled; for an `i1` source everything kept (only the element type
    changes, to `i8`). It runs right before `finalize-memref-to-llvm`, whose
    casts meet the ones this pass leaves and cancel out.

    Before:

    ```mlir
    %v = kiln.scalar_view %z : memref<?xcomplex<f64>, strided<[1], offset: ?>>
                            to memref<?xf64, strided<[1], offset: ?>>
    ```

    After (descriptor fields; `%d` is `%z`'s descriptor):

    ```mlir
    %off = llvm.extractvalue %d[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %off2 = llvm.mul %off, %c2 : i64
    %size = llvm.extractvalue %d[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %size2 = llvm.mul %size, %c2 : i64
    // ... inserted with the same pointers and a unit stride into a new descriptor
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def KilnBufferize : Pass<"kiln-bufferize", "::mlir::ModuleOp"> {
  let summary = "One-shot bufferization whose copies are linalg.copy loops";
  let description = [{
    Upstream's `one-shot-bufferize` with one option its pass does not
    expose: the copies it must make (a tensor that is only a view of its
    source, written into a destination: `x[:] = y`, or `x * 1.0` once the
    canonicalizer has folded the multiplication) become `linalg.copy` on the
    two buffers, which `convert-linalg-to-loops` turns into a loop nest,
    instead of `memref.copy`, which lowers to a call into MLIR's C runner
    library (`memrefCopy`), not part of Kiln's artifacts (a module that
    needs it does not load). Everything else is `one-shot-bufferize` with
    its defaults (`bufferization::runOneShotBufferize`).

    Before:

    ```mlir
    %t = bufferization.to_tensor %y restrict : memref<?xf64, strided<[?], offset: ?>> to tensor<?xf64>
    bufferization.materialize_in_destination %t in restrict writable %x
        : (tensor<?xf64>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    ```

    After:

    ```mlir
    linalg.copy ins(%y : memref<?xf64, strided<[?], offset: ?>>)
                outs(%x : memref<?xf64, strided<[?], offset: ?>>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def KilnBufferDeallocation : Pass<"kiln-buffer-deallocation", "::mlir::ModuleOp"> {
  let summary = "Ownership-based buffer deallocation across Kiln's function ABI";
  let description = [{
    The frontend allocates arrays anywhere (in branches, in loops, as
    loop-carried values, returned from helpers) and frees none. This pass is
    upstream's `ownership-based-buffer-deallocation`, which places every
    free (with run-time ownership flags where control flow decides which
    buffer a value holds), with one difference at function boundaries.
    Upstream makes a public function return only buffers its caller owns,
    copying an argument (or a view of one) that it returns; its option for
    private functions instead adds an `i1` result per returned array, which
    would change the C ABI. Kiln keeps the signatures and the sharing: a
    function may return its argument or a view of one (as Python returns
    the same object), and the caller owns a returned array unless its buffer
    is the buffer of an array the caller passed in. Upstream's pass runs with
    every function private and `private-function-dynamic-ownership`; then
    the flags leave the signatures of the public functions, and each call
    site computes them from the buffers' addresses (private functions, the
    module's helpers, keep their flags). The wrapper and C callers follow
    the same rule.

    Before:

    ```mlir
    func.func @pick(%a: memref<?xf64>, %c: i1, %n: index) -> memref<?xf64> {
      %r = scf.if %c -> memref<?xf64> {
        scf.yield %a : memref<?xf64>
      } else {
        %new = memref.alloc(%n) : memref<?xf64>
        scf.yield %new : memref<?xf64>
      }
      return %r : memref<?xf64>
    }
    func.func @caller(%n: index, %c: i1) -> f64 {
      %a = memref.alloc(%n) : memref<?xf64>
      %r = func.call @pick(%a, %c, %n) : (memref<?xf64>, i1, index) -> memref<?xf64>
      %v = memref.load %r[%c0] : memref<?xf64>
      return %v : f64
    }
    ```

    After (simplified):

    ```mlir
    func.func @pick(%a: memref<?xf64>, %c: i1, %n: index) -> memref<?xf64> {
      %r = scf.if %c -> memref<?xf64> { ... }    // no copy of %a
      return %r : memref<?xf64>
    }
    func.func @caller(%n: index, %c: i1) -> f64 {
      %a = memref.alloc(%n) : memref<?xf64>
      %r = func.call @pick(%a, %c, %n) : (memref<?xf64>, i1, index) -> memref<?xf64>
      %pa = memref.extract_aligned_pointer_as_index %a : memref<?xf64> -> index
      %pr = memref.extract_aligned_pointer_as_index %r : memref<?xf64> -> index
      %owned = arith.cmpi ne, %pr, %pa : index
      %v = memref.load %r[%c0] : memref<?xf64>
      bufferization.dealloc (%a, %r_base : ...) if (%true, %owned)
      return %v : f64
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def KilnStripMLIRMetadata : Pass<"kiln-strip-mlir-metadata", "::mlir::ModuleOp"> {
  let summary = "Drop source locations and Kiln's frontend attributes once "
                "nothing reads them";
  let description = [{
    Release builds carry nothing the machine code does not need. Locations
    exist for reporting and for DWARF; Kiln's discardable `kiln.*`
    attributes only tell the lowering what the frontend meant. This pass
    replaces every location (of ops and of block arguments) with
    `loc(unknown)` and removes `kiln.*` attributes from ops, function
    arguments and results, except `kiln.error_slot`, which
    `kiln-lower-checks` reads. Attributes of other dialects stay:
    `llvm.emit_c_interface`, for one, makes `convert-func-to-llvm` emit the
    C interface.

    Run it after `kiln-lower-checks`, which copies each check's line and
    column into the error record, and after whatever reports on locations;
    without locations the LLVM module has no debug info.

    Before:

    ```mlir
    func.func @scale(%x: f64, %err: !llvm.ptr {kiln.error_slot})
        -> f64 attributes {kiln.export, llvm.emit_c_interface} {
      %two = arith.constant 2.0 : f64 loc("kernels.py":3:12)
      %y = arith.mulf %x, %two : f64 loc(fused["kernels.py":3:12, "mulf"])
      return %y : f64 loc("kernels.py":3:5)
    } loc("kernels.py":2:1)
    ```

    After (`keep-locations=true` would keep `loc("kernels.py":3:12)` for
    the fused location and every other file:line:col):

    ```mlir
    func.func @scale(%x: f64, %err: !llvm.ptr {kiln.error_slot})
        -> f64 attributes {llvm.emit_c_interface} {
      %two = arith.constant 2.0 : f64 loc(unknown)
      %y = arith.mulf %x, %two : f64 loc(unknown)
      return %y : f64 loc(unknown)
    } loc(unknown)
    ```
  }];
  let options = [
    Option<"keepLocations", "keep-locations", "bool", /*default=*/"false",
           "Keep file:line:col: each location becomes the first "
           "FileLineColLoc it contains (unknown if none); names, call sites "
           "and fused metadata are dropped">,
    ListOption<"keepAttributes", "keep-attributes", "std::string",
               "Further `kiln.*` attributes to keep, by full name (e.g. "
               "kiln.export); kiln.error_slot is always kept">,
  ];
}

def KilnListViews : Pass<"kiln-list-views", "::mlir::func::FuncOp"> {
  let summary = "Index lists through memref views in loops that resize no list";
  let description = [{
    In an `scf.for` that contains no op that can move or free a list's
    storage (`kiln.list.append`, `pop`, `insert`, `clear`, `extend`, `sort`,
    `assign_slice`, `delete_slice`, a call that receives a list or an
    instance (whose list fields the callee may resize), or a store of a
    list into an instance's field), every list the loop indexes and that
    is defined outside it gets, before the loop, its length and a
    `kiln.list.view` of its items; `kiln.list.get`/`set` in the loop become
    a `kiln.index` (Python's negative indices and the list's IndexError
    text) and a `memref.load`/`store`, and `kiln.list.len` the length read
    once. The outermost such loop takes the accesses of the loops nested in
    it. `kiln-hoist-bounds-checks` and `kiln-vectorize` then treat the loop
    as they treat array loops.

    Before:

    ```mlir
    scf.for %i = %c0 to %n step %c1 : i64 {
      %x = kiln.list.get %xs[%i] : !kiln.list<f64>
      %y = arith.mulf %x, %x : f64
      kiln.list.set %ys[%i], %y : !kiln.list<f64>
    }
    ```

    After:

    ```mlir
    %xs_len = kiln.list.len %xs : !kiln.list<f64>
    %xs_items = kiln.list.view %xs : !kiln.list<f64> -> memref<?xf64>
    %ys_len = kiln.list.len %ys : !kiln.list<f64>
    %ys_items = kiln.list.view %ys {writes} : !kiln.list<f64> -> memref<?xf64>
    scf.for %i = %c0 to %n step %c1 : i64 {
      %p = kiln.index %i, %xs_len {axis = 0 : i64, message = "list index out of range"} : i64 -> index
      %x = memref.load %xs_items[%p] : memref<?xf64>
      %y = arith.mulf %x, %x : f64
      %q = kiln.index %i, %ys_len {axis = 0 : i64, message = "list assignment index out of range"} : i64 -> index
      memref.store %y, %ys_items[%q] : memref<?xf64>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::kiln::KilnDialect"];
}

def KilnHoistBoundsChecks : Pass<"kiln-hoist-bounds-checks", "::mlir::func::FuncOp"> {
  let summary = "Version loops so that provably in-bounds accesses run unchecked";
  let description = [{
    For each `scf.for` whose body indexes arrays with `kiln.index` at
    `a * iv + b` (`a` a constant, `b` and the axis size loop-invariant), one
    test before the loop checks the first and the last index of every such
    access. When all are inside `[0, size)` (or the loop runs zero times) a
    copy of the loop runs with those accesses `unchecked` and `nonnegative`:
    no branch stops vectorization. Otherwise the original loop runs, checks
    included, so an IndexError is raised at exactly the iteration and with
    exactly the side effects CPython would have. Accesses that do not fit
    the pattern stay checked in both copies. Accesses already `unchecked`
    (`boundscheck=False`) but not known `nonnegative` still wrap negative
    indices; for them the test is only `0 <= first, last`, and the fast copy
    drops the wraparound (which kept the access from looking affine to
    `kiln-vectorize`, making `boundscheck=False` slower than checked code).

    Loop nests are versioned once, at their root, before single loops: when
    an access inside an inner loop is affine in the nest's induction
    variables (`a * i + b * j + c`, constants `a`, `b`, and `c`, the sizes
    and every inner loop's bounds known at the root's entry), one test
    before the outermost loop bounds each such index over the whole
    iteration box (each term at its loop's first or last value), so the
    inner loops of the fast copy are entered with no test at all (a jacobi
    sweep re-tested its rows on every entry of the inner loop). Triangular
    nests (inner bounds that depend on an outer variable) are left to the
    per-loop versions. The nest's checked copy (`kiln.nest_checked_copy`)
    keeps per-loop versions of its loops: a box test fails whenever any
    corner leaves the array, even for an access guarded by an `if`
    (`if i > 0: x[i - 1, j]`), and then each row still runs unchecked.

    Before:

    ```mlir
    scf.for %i = %c0 to %n step %c1 : i64 {
      %k = kiln.index %i, %size {axis = 0 : i64} : i64 -> index
      ...
    }
    ```

    After:

    ```mlir
    %ok = ...  // %n <= 0, or 0 <= first, last < %size
    scf.if %ok {
      scf.for %i = %c0 to %n step %c1 : i64 {
        %k = kiln.index %i, %size {axis = 0 : i64, nonnegative, unchecked} : i64 -> index
        ...
      }
    } else {
      scf.for ... // the original loop
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def KilnLowerContainers : Pass<"kiln-lower-containers", "::mlir::ModuleOp"> {
  let summary = "Lower Python lists, dicts, sets, strs and instances (!kiln.list, "
                "!kiln.dict, !kiln.set, !kiln.str, !kiln.object and their ops) to the C "
                "ABI's structs, CPython objects and the container runtime";
  let description = [{
    Every `!kiln.list<T>` becomes an `!llvm.ptr` to a `kiln_list`, every
    `!kiln.dict<K, V>` and `!kiln.set<K>` one to a `kiln_dict` (a set is a
    dict without values; runtime/kiln_abi.h), in
    function signatures, calls and structured control flow (MLIR's own
    structural type conversions). Reads and writes of list items, `len`,
    a dict entry's key, value and liveness at a slot, and `kiln.retain`
    become inline loads and stores with Python's index checks as
    `kiln.check` (lowered later by `kiln-lower-checks`); growth, search,
    sort, hashing and `kiln.release` become calls of runtime/kiln_list.c
    and runtime/kiln_dict.c, which kilnc links in and LLVM inlines where
    small. Dict keys and values cross those calls as their 8 bytes. A
    missing key raises `KeyError` with the key itself (the check's message
    names its kind). A function that makes containers enters the runtime's
    journal (runtime/kiln_journal.c) on entry and leaves it at each normal
    return, so that an exception frees what the raising call made
    (kiln-lower-checks unwinds it on the error exits).

    Strings (`!kiln.str`, passes/LowerStrings.cpp) and instances of exported
    classes (`!kiln.object<"C">`, passes/LowerObjects.cpp) lower in the same
    conversion: an instance is a pointer to its CPython object, a field
    read or write a load or store at the field's offset after a None check
    (AttributeError), `kiln.object.new` a call of the type's `tp_alloc`
    through the class slot the extension fills, and retain/release calls of
    runtime/kiln_object.c (`ob_refcnt`; the last release calls the type's
    `tp_dealloc`), which LLVM inlines.

    Before:

    ```mlir
    func.func @m_first(%xs: !kiln.list<f64>) -> f64 {
      %c0 = arith.constant 0 : i64
      %x = kiln.list.get %xs[%c0] : !kiln.list<f64>
      return %x : f64
    }
    ```

    After:

    ```mlir
    func.func @m_first(%xs: !llvm.ptr) -> f64 {
      %c0 = arith.constant 0 : i64
      %len_addr = llvm.getelementptr %xs[0] : (!llvm.ptr) -> !llvm.ptr, i8
      %len = llvm.load %len_addr : !llvm.ptr -> i64
      %negative = arith.cmpi slt, %c0, %c0_0 : i64
      %from_end = arith.addi %c0, %len : i64
      %i = arith.select %negative, %from_end, %c0 : i64
      %in_bounds = arith.cmpi ult, %i, %len : i64
      kiln.check %in_bounds, IndexError, "list index out of range"
      %items_addr = llvm.getelementptr %xs[16] : (!llvm.ptr) -> !llvm.ptr, i8
      %items = llvm.load %items_addr : !llvm.ptr -> !llvm.ptr
      %at = llvm.getelementptr %items[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f64
      %x = llvm.load %at : !llvm.ptr -> f64
      return %x : f64
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def KilnLowerToStd : Pass<"kiln-lower-to-std", "::mlir::ModuleOp"> {
  let summary = "Lower kiln ops with Python semantics to arith, math and kiln.check";
  let description = [{
    Expands `kiln.floordiv`, `kiln.mod`, `kiln.pow`, `kiln.index`,
    `kiln.to_float` and `kiln.truthy` into upstream ops, one rewrite pattern
    each, under a conversion target on which every `kiln` op except
    `kiln.check`, `kiln.propagate_error` and `kiln.owned` (all lowered by
    `kiln-lower-checks`) is illegal: an op left over fails the pass with a
    diagnostic at the op. Each error CPython would raise becomes a
    `kiln.check`; a check whose divisor is a non-zero constant is not
    emitted at all. Integer `//` and `%` divide by 1 when the divisor is 0
    or -1 (the check raises; the -1 result is patched by a select):
    upstream marks `arith.floordivsi` and `arith.remsi` `Pure`, so
    loop-invariant code motion may hoist a division above its check, even
    out of a loop that runs zero times, and the division itself must never
    trap. Each `math.atan2` is followed by a select of C99's result for two
    zero operands (+-0, or +-pi when x is -0): upstream's folder gives NaN
    there, and operands may become constant zeros in any later
    canonicalization.

    Before:

    ```mlir
    %q = kiln.floordiv %a, %b : i64
    ```

    After:

    ```mlir
    %nonzero = arith.cmpi ne, %b, %c0 : i64
    kiln.check %nonzero, ZeroDivisionError, "integer division or modulo by zero"
    %is_m1 = arith.cmpi eq, %b, %cm1 : i64
    %safe = arith.select %is_m1, %c1, %b : i64
    %floor = arith.floordivsi %a, %safe : i64
    %neg = arith.subi %c0, %a : i64
    %q = arith.select %is_m1, %neg, %floor : i64
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::kiln::KilnDialect",
  ];
}

def KilnIeeeExactness : Pass<"kiln-ieee-exactness", "::mlir::ModuleOp"> {
  let summary = "Keep LLVM from rewriting float operations whose results "
                "CPython observes bit for bit";
  let description = [{
    CPython's float arithmetic is the hardware's in source order and its
    `**` is libm's `pow`. Two of LLVM's rewrites change what a Python
    program can observe, and no LLVM or MLIR option turns just those off:

    - `pow(x, 2.0)` becomes `x * x`, `pow(x, -1.0)` becomes `1 / x`,
      `pow(x, 0.5)` becomes `sqrt(x)` and `pow(2.0, x)` becomes `exp2(x)`.
      glibc's `pow` is not correctly rounded, so these differ from CPython's
      `x ** 2` in the last bit for some `x`. Scalar `math.powf` becomes a
      call to glibc's `powf64` / `powf32`, aliases of `pow` / `powf` that
      LLVM does not recognize. Vector `pow` (libmvec) is left alone.
    - LLVM constant-folds float32 libm calls (`log1pf(2.5f)`, `llvm.exp.f32`)
      by computing in double and rounding, which is not glibc's float32
      result in the last bit (numpy calls glibc). Scalar float32 `math.exp`,
      `log`, `log1p`, `expm1`, `log2`, `log10`, `sin`, `cos`, `tan`, `asin`,
      `acos`, `atan`, `atan2`, `sinh`, `cosh`, `tanh` and the frontend's
      direct `log1pf`/`expm1f`/`hypotf`/`atan2f` calls become calls to
      glibc's `_Float32` aliases (`expf32`, `log1pf32`, ...), which LLVM does
      not know.
    - LLVM treats the sign of a NaN made by arithmetic as unspecified and
      folds `(-a) + b` into `b - a`, `x * -1.0` and `x / -1.0` into `-x`,
      `-0.0 - x` into `-x`, each of which flips a NaN's sign relative to x86
      arithmetic in source order, and expands `frem x, C` for a power of two
      `C` inline, where `inf % 1.0` gets a positive NaN and glibc's `fmod`
      (CPython's `%` and `//`) the x86 default NaN. An
      `llvm.arithmetic.fence` (which emits no instruction) after a negation
      that feeds arithmetic, on such `-1.0` / `-0.0` operands and on every
      divisor of `arith.remf`, keeps the operations as written.

    Runs after `kiln-vectorize` (which still sees `math.powf`) and before
    the lowering to LLVM.

    Before:

    ```mlir
    %two = arith.constant 2.0 : f64
    %sq = math.powf %x, %two : f64
    %n = arith.negf %y : f64
    %s = arith.addf %n, %z : f64
    ```

    After:

    ```mlir
    llvm.func @powf64(f64, f64) -> f64 attributes {no_unwind, ...}
    %sq = llvm.call @powf64(%x, %two) : (f64, f64) -> f64
    %n = arith.negf %y : f64
    %f = llvm.call_intrinsic "llvm.arithmetic.fence"(%n) : (f64) -> f64
    %s = arith.addf %f, %z : f64
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def KilnVectorize : Pass<"kiln-vectorize", "::mlir::ModuleOp"> {
  let summary = "Rewrite innermost Python loops into vector-dialect SIMD code "
                "and give every loop one verdict through the remark engine";
  let description = [{
    Works on the `scf.for` loops the frontend produces once Python semantics
    are lowered (`kiln-lower-to-std`): memref loads and stores indexed by the
    induction variable plus a loop-invariant offset, elementwise arith/math,
    `scf.if`, loop-carried reductions and `kiln.check`s that raise Python
    errors. An innermost loop is rewritten into:

    * a runtime guard: every array the vector code touches has unit
      innermost stride, and every stored array is disjoint from every other
      array of the loop (or is the very same view, accessed at the same
      element), because Python lets `f(a, a)` and overlapping views through.
      When the guard fails the original scalar loop runs;
    * a main loop over `VF * interleave` elements per iteration: loads become
      `vector.load`, conditional code becomes masks and `arith.select`
      (stores under a condition become `vector.maskedstore`), reductions keep
      `interleave` vector accumulators;
    * a tail: one masked vector iteration per remaining `VF` chunk, or the
      original scalar loop as an epilogue (`tail=auto` picks masking for
      32/64-bit data on 256/512-bit targets, the epilogue otherwise). Loops
      with value checks (`math.log` of a negative number, ...) always use
      the epilogue: a vector chunk whose check fails stores nothing and the
      scalar loop re-runs it, raising at CPython's exact iteration.

    Reductions: integer `+ - * & | ^ min max` always; float `+ - *` only when
    the op allows reassociation (`@kiln.export(fastmath=True)`), because it
    changes the result; `if x > m: m = x` / `max(m, x)` with ordered
    comparisons keep CPython's NaN behaviour (NaNs in the data are skipped,
    a NaN start value stays). Transcendental math on vectors calls glibc's
    vector math library (libmvec, `_ZGV<isa>N<VF>v_<fn>`), never one scalar
    libm call per lane.

    Every loop of the module gets exactly one remark at its Python location,
    category `kiln-vectorize`: passed "vectorized: VF=4, interleave=2, masked
    tail" or missed "not vectorized: <reason>". The bounds-checked copy of a
    loop made by `kiln-hoist-bounds-checks` is cold and gets none.

    Before:

    ```mlir
    scf.for %i = %c0 to %n step %c1 : i64 {
      %k = arith.index_cast %i : i64 to index
      %v = memref.load %x[%k] : memref<?xf64, strided<[?], offset: ?>>
      %w = arith.mulf %a, %v : f64
      memref.store %w, %out[%k] : memref<?xf64, strided<[?], offset: ?>>
    }
    ```

    After (VF=4, interleave=1, masked tail; guard abbreviated):

    ```mlir
    scf.if %unit_stride_and_disjoint {
      %xs = memref.cast %x : ... to memref<?xf64, strided<[1], offset: ?>>
      scf.for %j = %c0 to %main step %c4 : i64 {
        %v = vector.load %xs[%k] : ..., vector<4xf64>
        %w = arith.mulf %a4, %v : vector<4xf64>
        vector.store %w, %outs[%k] : ..., vector<4xf64>
      }
      scf.for %j = %main to %n step %c4 : i64 {
        %m = vector.create_mask %left : vector<4xi1>
        %v = vector.maskedload %xs[%k], %m, %zero : ...
        ...
        vector.maskedstore %outs[%k], %m, %w : ...
      }
    } else {
      scf.for %i = %c0 to %n step %c1 : i64 { ... }   // the original loop
    }
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "Vector register width in bits (128, 256 or 512). 0 takes the "
           "module's `kiln.vector_bits` attribute, which kilnc sets from "
           "--target-cpu, else 256. VF is this width over the widest element "
           "type of the loop.">,
    Option<"targetIsa", "target-isa", "::kiln::VectorIsa",
           /*default=*/"::kiln::VectorIsa::FromModule",
           "Vector ISA for libmvec names. `module` (the default) takes the "
           "module's `kiln.vector_isa` attribute, which kilnc sets from "
           "--target-cpu, else avx2.",
           [{::llvm::cl::values(
             clEnumValN(::kiln::VectorIsa::FromModule, "module",
                        "the module's kiln.vector_isa attribute, else avx2"),
             clEnumValN(::kiln::VectorIsa::SSE, "sse", "SSE4 (libmvec 'b')"),
             clEnumValN(::kiln::VectorIsa::AVX, "avx", "AVX (libmvec 'c')"),
             clEnumValN(::kiln::VectorIsa::AVX2, "avx2", "AVX2 (libmvec 'd')"),
             clEnumValN(::kiln::VectorIsa::AVX512, "avx512",
                        "AVX-512 (libmvec 'e')"))}]>,
    Option<"interleave", "interleave", "unsigned", /*default=*/"0",
           "Vector iterations per main-loop iteration. 0 picks 4 for loops "
           "with reductions (to hide the add latency) and 2 otherwise.">,
    Option<"tail", "tail", "::kiln::TailStrategy",
           /*default=*/"::kiln::TailStrategy::Auto",
           "How the last n % (VF * interleave) elements run",
           [{::llvm::cl::values(
             clEnumValN(::kiln::TailStrategy::Auto, "auto",
                        "masking for 32/64-bit data on 256/512-bit targets, "
                        "the epilogue otherwise"),
             clEnumValN(::kiln::TailStrategy::Mask, "mask",
                        "masked vector iterations"),
             clEnumValN(::kiln::TailStrategy::Epilogue, "epilogue",
                        "the original scalar loop"))}]>,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::complex::ComplexDialect",
                           "::kiln::KilnDialect"];
}

#endif // KILN_PASSES_TD
