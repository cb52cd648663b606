"""Build the Cython cores: every .pyx under mcts_arena/ becomes an extension module."""
import glob
import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


def extensions():
    exts = []
    for path in sorted(glob.glob("mcts_arena/**/*.pyx", recursive=True)):
        module = os.path.splitext(path)[0].replace(os.sep, ".")
        exts.append(Extension(module, [path], include_dirs=[numpy.get_include()],
                              extra_compile_args=["-O3", "-Wno-unused-function",
                                                  "-Wno-unreachable-code"]))
    return exts


setup(
    ext_modules=cythonize(extensions(), compiler_directives=DIRECTIVES,
                          nthreads=int(os.environ.get("CYTHON_NTHREADS", "0"))),
    package_data={"mcts_arena": ["**/*.pxd", "**/*.pyx", "games/data/*", "report/data/*"]},
)
