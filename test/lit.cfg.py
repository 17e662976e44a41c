import os

import lit.formats

config.name = "Kiln"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py", ".ll", ".test", ".c"]
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
# ThreadSanitizer's runtime, and LLVM's OpenMP tool (Archer) that tells it of
# the OpenMP runtime's synchronization.
tsan_runtime = asan_runtime.replace("asan", "tsan")
archer = os.path.join(config.llvm_tools_dir, "..", "lib", "libarcher.so")
if os.path.exists(tsan_runtime) and os.path.exists(archer):
    config.available_features.add("tsan-runtime")
    config.substitutions.append(("%tsan_runtime", os.path.normpath(tsan_runtime)))
    config.substitutions.append(("%archer", os.path.normpath(archer)))
# Before %kiln, which is a prefix of it.
config.substitutions.append(
    ("%kiln_plugin", os.path.join(config.kiln_binary_dir, "lib", "KilnLLVMPasses.so")))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang")))
# test/runtime compiles runtime/'s headers as C, and runs the CPython
# runtime in an interpreter embedded in the test (the one Kiln builds for).
config.substitutions.append(("%kiln_source_dir", config.kiln_source_dir))
config.substitutions.append(("%kiln_binary_dir", config.kiln_binary_dir))
config.substitutions.append(("%kiln_runtime_dir", os.path.join(config.kiln_source_dir, "runtime")))
import subprocess
_python_paths = subprocess.run(
    [config.python_executable, "-c",
     "import sysconfig as s; print(s.get_paths()['include']); print(s.get_config_var('LIBDIR')); "
     "print(s.get_config_var('VERSION'))"],
    capture_output=True, text=True, check=True).stdout.split("\n")
# Before %python, which is a prefix of them.
config.substitutions.insert(0, ("%python_cflags", "-I" + _python_paths[0]))
config.substitutions.insert(
    0, ("%python_ldflags", f"-L{_python_paths[1]} -Wl,-rpath,{_python_paths[1]} -lpython{_python_paths[2]}"))
config.substitutions.append(("%kiln-opt", os.path.join(config.kiln_tools_dir, "kiln-opt")))
config.substitutions.append(("%kilnc", os.path.join(config.kiln_tools_dir, "kilnc")))
config.substitutions.append(("%kiln", os.path.join(config.kiln_tools_dir, "kiln")))
