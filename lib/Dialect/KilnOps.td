#ifndef KILN_OPS_TD
#define KILN_OPS_TD

include "lib/Dialect/KilnDialect.td"

def Kiln_CheckOp : Kiln_Op<"check"> {
  let summary = "Raise a Python exception unless a condition holds";
  let description = [{
    When `condition` is false, the function stops and the caller receives a
    Python exception of type `kind` whose text is `message`, with each `{}`
    replaced by the matching i64 operand (at most two) and the op's source
    location appended. `kiln-lower-checks` turns the op into an early return
    that fills the function's `kiln.error_slot` argument.

    ```mlir
    kiln.check %in_bounds, "IndexError",
        "index {} is out of bounds for axis 0 with size {}" (%i, %n)
    ```
  }];
  let arguments = (ins I1:$condition, StrAttr:$kind, StrAttr:$message,
                       Variadic<I64>:$args);
  let assemblyFormat = [{
    $condition `,` $kind `,` $message (`(` $args^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Kiln_PropagateErrorOp : Kiln_Op<"propagate_error"> {
  let summary = "Return early if a call filled the error record";
  let description = [{
    Placed after a call to a function that can raise: when the callee filled
    the enclosing function's error record (passed on to it), this function
    returns too, leaving the record as the callee wrote it, so the exception
    reaches the Python caller unchanged. Lowered by `kiln-lower-checks`.

    ```mlir
    %r = func.call @helper(%x, %error) : (f64, !llvm.ptr) -> f64
    kiln.propagate_error
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // KILN_OPS_TD
