"""Run a benchmark: ``python -m tools.bench [name] [flags]`` (see tools.bench)."""

import os
import sys

import django

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
    django.setup()
    from tools.bench import main

    sys.exit(main())
