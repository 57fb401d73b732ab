import sys

from scanner.cli import main

sys.exit(main())
