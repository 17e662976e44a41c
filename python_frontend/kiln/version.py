"""The version of this Kiln: one place every stage reads it from (kiln.__version__ re-exports it)."""

__version__ = "0.1.0"
