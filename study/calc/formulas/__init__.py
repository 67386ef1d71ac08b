"""Importing this package registers every formula in ``study.calc.registry.FUNCTIONS``."""

from study.calc.formulas import memory, compute, latency, network, energy  # noqa: F401
