"""Stage 4, native code: the C header, the CPython extension's wrapper C and the Python stubs around what kilnc builds."""
