"""The case set: case files loaded and validated, and kept parsed by digest."""
