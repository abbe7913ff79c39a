"""``python -m goledger`` runs the command line."""

from goledger.cli.main import main

main()
