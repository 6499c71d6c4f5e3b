"""The parts of benchmarks/bench_tables.py: what it measures, its players, its report."""
