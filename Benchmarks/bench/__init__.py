"""The sections of `make bench` (Benchmarks/run.py is the driver): each module measures one section and
returns its rows; tables.py writes them into BENCHMARKS.md."""
