"""The version of this Kiln, read by every stage (kiln.__version__ re-exports it)."""

__version__ = "0.1.0"
