"""One module per `dialtray` subcommand.

Each module defines ``register(subparsers) -> None`` adding its parser and setting
``func=run`` (``run(args) -> int``). The CLI discovers the modules, so a new command never
edits a shared file.
"""
