"""``python -m gate``: the stop signals are taken before the command line is imported."""

from gate.process.interrupts import take_stop_signals


def _main() -> None:
    take_stop_signals()  # a stop while the rest loads is remembered for the command (gate.process.interrupts)
    from gate.cli.app import main

    main()


_main()
