"""Stage 4, MLIR generation: typed functions lowered to MLIR text through ir_builder."""
