#!/usr/bin/env python3
"""Function length check: no C function in the given directories longer than --max lines
(signature to closing brace), except those an allow list names ("PATH FUNCTION  reason", one
a line, '#' comments), each of which must still be over the limit (a stale entry fails too, so
the list only shrinks).

The project's style puts a function's opening brace alone in column 0 and its closing brace in
column 0; that is what is read here, so no parser is needed.

usage: function_length.py [--max 120] [--allow FILE] DIR...     exit 1 on any excess"""
import argparse
import os
import re
import sys


def functions(path):
    """(name, first line, line count) of each function defined in a C file."""
    with open(path, errors="replace") as f:
        lines = f.read().split("\n")
    out, start = [], None
    for i, line in enumerate(lines):
        if line == "{" and i > 0:
            j = i - 1
            while j > 0 and lines[j][:1] in (" ", "\t") and lines[j - 1].strip():
                j -= 1
            m = re.search(r"(\w+)\s*\(", lines[j])
            start = (m.group(1) if m else "?", j + 1)
        elif line.startswith("}") and start:
            out.append((start[0], start[1], i + 2 - start[1]))
            start = None
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--max", type=int, default=120)
    p.add_argument("--allow")
    p.add_argument("dirs", nargs="+")
    a = p.parse_args()
    allowed = {}
    if a.allow:
        with open(a.allow) as f:
            for line in f:
                line = line.split("#")[0].split()
                if len(line) >= 2:
                    allowed[(line[0], line[1])] = False
    bad = 0
    for d in a.dirs:
        for root, _, files in os.walk(d):
            for name in sorted(files):
                if not name.endswith(".c"):
                    continue
                path = os.path.normpath(os.path.join(root, name))
                for fn, line, n in functions(path):
                    if n <= a.max:
                        continue
                    if (path, fn) in allowed:
                        allowed[(path, fn)] = True
                        continue
                    print("%s:%d: %s is %d lines (at most %d)" % (path, line, fn, n, a.max))
                    bad += 1
    for (path, fn), seen in sorted(allowed.items()):
        if not seen:
            print("%s: %s is allowed to be long but is not (or is gone): drop it from %s"
                  % (path, fn, a.allow))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
