"""Imports the extension at argv[1] as kilnc_ext and prints div(x, y)."""
import importlib.util
import sys

spec = importlib.util.spec_from_file_location("kilnc_ext", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
try:
    print(module.div(float(sys.argv[2]), float(sys.argv[3])))
except ZeroDivisionError as error:
    print(f"ZeroDivisionError: {error}")
