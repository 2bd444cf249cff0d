"""``python -m fusioncut``: see ``fusioncut.cli``."""

import sys

from fusioncut.cli import main

if __name__ == "__main__":
    sys.exit(main())
