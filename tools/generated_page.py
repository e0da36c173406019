"""The `--check` and write of a docs page that a tool generates
(tools/language_reference.py, tools/python_api_reference.py)."""
import os
import sys


def write_or_check(page, text, argv, tool):
    """With --check in argv: 0 when `page` holds `text`, else 1 saying to
    run `tool`; otherwise writes the page and returns 0."""
    if "--check" in argv:
        current = open(page).read() if os.path.exists(page) else ""
        if current != text:
            print("%s is stale: run python %s" % (os.path.relpath(page, os.path.dirname(os.path.dirname(
                os.path.abspath(__file__)))), tool), file=sys.stderr)
            return 1
        return 0
    with open(page, "w") as f:
        f.write(text)
    return 0
