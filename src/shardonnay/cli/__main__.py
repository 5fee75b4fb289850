import sys

from shardonnay.cli import main

sys.exit(main())
