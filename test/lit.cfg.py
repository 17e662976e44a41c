import os

import lit.formats

config.name = "Kiln"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py", ".ll", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "python", "fuzz", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kiln_binary_dir, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.kiln_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.environment["PYTHONPATH"] = os.path.join(config.kiln_source_dir, "python_frontend")
config.environment["KILN_KILNC"] = os.path.join(config.kiln_tools_dir, "kilnc")

config.substitutions.append(("%python", config.python_executable))
# The ASan runtime (Debian's libclang-rt-22-dev) that code built with
# kilnc --sanitize is loaded under (LD_PRELOAD).
asan_runtime = os.path.join(config.llvm_tools_dir, "..", "lib", "clang", "22", "lib", "linux",
                            "libclang_rt.asan-x86_64.so")
if os.path.exists(asan_runtime):
    config.available_features.add("asan-runtime")
    config.substitutions.append(("%asan_runtime", os.path.normpath(asan_runtime)))
# Before %kiln, which is a prefix of it.
config.substitutions.append(
    ("%kiln_plugin", os.path.join(config.kiln_binary_dir, "lib", "KilnLLVMPasses.so")))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%kiln-opt", os.path.join(config.kiln_tools_dir, "kiln-opt")))
config.substitutions.append(("%kilnc", os.path.join(config.kiln_tools_dir, "kilnc")))
config.substitutions.append(("%kiln", os.path.join(config.kiln_tools_dir, "kiln")))
