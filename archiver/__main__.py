"""`python -m archiver` runs the command-line interface."""

import sys

from archiver.cli import main

sys.exit(main())
