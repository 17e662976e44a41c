"""Kiln's compiler: Python source -> MLIR -> native artifacts."""
