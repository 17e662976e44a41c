"""Stage 1, parse and subset check: the module's source read, its loops desugared, and every construct outside the language reported."""
