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

#endif // KILN_OPS_TD
