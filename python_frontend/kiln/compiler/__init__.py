"""The driver: runs the stages in order (compiler.py's STAGES) and caches built functions."""
