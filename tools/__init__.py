"""Tools for the project's own work (load tests, benchmarks, screenshots): not installed with the package."""
