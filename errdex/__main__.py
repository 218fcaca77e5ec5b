"""`python -m errdex ...` runs the command line."""

from errdex.cli import main

main()
