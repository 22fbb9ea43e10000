"""Speed and load benchmarks (`make bench`, `make bench-server`, `make bench-bots`)."""
