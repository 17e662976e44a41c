from setuptools import setup

from kiln.build_hook import KilnBuildPy, KilnDistribution

setup(cmdclass={"build_py": KilnBuildPy}, distclass=KilnDistribution)
