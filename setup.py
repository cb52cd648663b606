"""Build the Cython cores: every .pyx under mcts_arena/ becomes an extension module."""
import glob
import os
import platform

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_namespace_packages, setup

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


# Hardware popcount/ctz on x86-64 (every x86-64 CPU since 2008 has POPCNT); elsewhere the
# compiler's default target.
ARCH_FLAGS = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []


def extensions():
    exts = []
    for path in sorted(glob.glob("mcts_arena/**/*.pyx", recursive=True)):
        module = os.path.splitext(path)[0].replace(os.sep, ".")
        exts.append(Extension(module, [path], include_dirs=[numpy.get_include()],
                              extra_compile_args=["-O3", "-Wno-unused-function",
                                                  "-Wno-unreachable-code", *ARCH_FLAGS]))
    return exts


setup(
    # the package list lives here, not in pyproject's [tool.setuptools]: the setuptools a venv
    # of Python 3.11 brings (65) prints a "still *beta*" warning on every build for that table
    packages=find_namespace_packages(include=["mcts_arena*"]),
    ext_modules=cythonize(extensions(), compiler_directives=DIRECTIVES,
                          nthreads=int(os.environ.get("CYTHON_NTHREADS", "0"))),
    package_data={"mcts_arena": ["**/*.pxd", "**/*.pyx", "**/*.pxi", "games/data/*", "data/*",
                                "runner/data/*", "serve/static/*", "players/data/*/*"]},
)
