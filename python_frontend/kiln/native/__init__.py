"""Stages 5-6, native code: <mod>.h, the extension's wrapper C, and the <mod>.py/.pyi stubs."""
