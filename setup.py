"""Builds the compiled part of the Python package sgx (sgx._sgx) with the project's CMake.

pip calls this through pyproject.toml. build_ext configures the repository for the Python that
runs pip (the library and the module only: no tests, no benchmarks), builds the target sgx_python,
and puts the module into the package. The version is the CMake project's.

Environment:
  SGX_BUILD_DIR             where setuptools and CMake build (default build/pip in the repository)
  SGX_CMAKE_ARGS            more arguments for CMake's configure step, split at spaces
  CMAKE_BUILD_PARALLEL_LEVEL  the build's parallel jobs (default: every CPU)
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
BUILD_DIR = pathlib.Path(os.environ.get("SGX_BUILD_DIR") or ROOT / "build" / "pip").resolve()


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*sgx\s+VERSION\s+([0-9.]+)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt names no project version")
    return match.group(1)


class CMakeBuild(build_ext):
    """Builds every extension by building the CMake target of the same name."""

    def build_extension(self, ext):
        cmake_dir = BUILD_DIR / "cmake"
        configure = ["cmake", "-S", str(ROOT), "-B", str(cmake_dir), "-DCMAKE_BUILD_TYPE=Release",
                     "-DSGX_BUILD_TESTS=OFF", "-DSGX_BUILD_BENCH=OFF", "-DSGX_BUILD_PYTHON=ON",
                     f"-DPython_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja") and not (cmake_dir / "CMakeCache.txt").exists():
            configure += ["-G", "Ninja"]
        configure += os.environ.get("SGX_CMAKE_ARGS", "").split()
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(cmake_dir), "--target", ext.cmake_target, "--parallel", jobs],
                       check=True)
        built = cmake_dir / "python" / "sgx" / ("_sgx" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not built.exists():
            raise RuntimeError(f"CMake built no {built}: are pybind11-dev and the Python headers (python3-dev) "
                               "installed? See CMake's output above.")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


class CMakeExtension(Extension):
    def __init__(self, name, cmake_target):
        super().__init__(name, sources=[])
        self.cmake_target = cmake_target


BUILD_DIR.mkdir(parents=True, exist_ok=True)
setup(
    version=project_version(),
    ext_modules=[CMakeExtension("sgx._sgx", "sgx_python")],
    cmdclass={"build_ext": CMakeBuild},
    # Everything setuptools writes goes under BUILD_DIR, none of it into the sources.
    options={"build": {"build_base": str(BUILD_DIR / "setuptools")}, "egg_info": {"egg_base": str(BUILD_DIR)}},
    zip_safe=False,
)
