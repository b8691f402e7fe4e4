"""Benchmarks, run by hand (see benchmarks/README.md); not part of the test suite."""
