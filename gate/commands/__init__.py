"""Command bodies: one module per `gate` subcommand; the CLI parses options and calls them."""
