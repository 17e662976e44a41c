"""Stage 1-2, parse and subset check: read the module, desugar loops, report what Kiln lacks."""
