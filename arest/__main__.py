"""``python -m arest`` is the ``arest`` command."""

from arest.cli import main

main()
