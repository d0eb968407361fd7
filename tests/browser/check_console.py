#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check what a run wrote to a terminal (a script(1) typescript) or to a
pipe, the way a person would see it.

Usage: check_console.py FILE [--width N] [--lines N] [--no-escapes]

Each line is split at carriage returns (the progress line rewrites
itself); every piece, escape sequences removed, must fit --width columns
(it would wrap otherwise); the lines left on screen (a line's last
piece, blank ones included) must be at most --lines; with --no-escapes
the file must hold no ESC byte at all.
Exit status: 0 every check passed, 1 a check failed (each is printed),
2 wrong usage.
"""
import re
import sys

ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def check(text, width, lines, no_escapes):
    failures = []
    if no_escapes and "\x1b" in text:
        at = text.index("\x1b")
        failures.append(f"an escape sequence at byte {at}: "
                        f"{text[max(0, at - 40):at + 10]!r}")
    rows = text.rstrip("\n").split("\n") if text.strip() else []
    shown = 0
    for number, row in enumerate(rows, 1):
        # A terminal ends its lines with CR LF.
        if row.endswith("\r"):
            row = row[:-1]
        pieces = [ESCAPE.sub("", piece) for piece in row.split("\r")]
        for piece in pieces:
            if width and len(piece) > width:
                failures.append(f"line {number} is {len(piece)} columns "
                                f"wide: {piece[:100]!r}")
        if pieces[-1] or len(pieces) == 1:
            shown += 1
    if lines and shown > lines:
        failures.append(f"{shown} lines, more than {lines}")
    return shown, failures


def main(argv):
    args = argv[1:]
    width = lines = 0
    no_escapes = False
    path = None
    while args:
        arg = args.pop(0)
        if arg in ("--width", "--lines") and args:
            value = int(args.pop(0))
            if arg == "--width":
                width = value
            else:
                lines = value
        elif arg == "--no-escapes":
            no_escapes = True
        elif path is None and not arg.startswith("--"):
            path = arg
        else:
            print(__doc__.split("\n\n")[1], file=sys.stderr)
            return 2
    if path is None:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        text = f.read()
    shown, failures = check(text, width, lines, no_escapes)
    for failure in failures:
        print(f"FAIL {path}: {failure}")
    if not failures:
        print(f"ok {path}: {shown} lines"
              + (f", none over {width} columns" if width else "")
              + (", no escape sequence" if no_escapes else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
