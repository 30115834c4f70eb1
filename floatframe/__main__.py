import sys

from floatframe.cli import main

sys.exit(main())
