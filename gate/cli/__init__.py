"""The `gate` command line: options in, a command called, an exit code out. Heavy modules are imported inside the commands so `gate --help` starts fast."""
