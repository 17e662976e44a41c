"""Stage 3, type inference: a type for every expression of every function a build compiles."""
