"""Stage 2, type inference: every expression of an exported function given a type under the typing rules (kiln/typing_rules.py)."""
