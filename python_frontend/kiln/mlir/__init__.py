"""Stage 3, MLIR generation: typed functions lowered to MLIR text (scalars, arrays, shapes, complex numbers, library calls)."""
