#!/usr/bin/env python3
"""Checks that lsp/ stays layered (run by tests/suites/lsp_layers.sh in `make test`).

Usage: check-lsp-layers.py [ROOT]   (ROOT: the checkout, default .)

Three rules, each a line on stderr when broken (exit 1), silence and exit 0 when kept:
  1. The lower files (transport, framing, log: their .c and .h) never include lsp/server.h,
     directly or through another lsp/ header: they know nothing of the server struct.
  2. They call nothing of the layers above them: no function with the prefix of an upper
     lsp/ module (rpc_, diagnostics_, lifecycle_, server_, ...); they call back only through
     the callbacks they are given.
  3. lsp/'s include graph (every #include "lsp/..." of lsp/*.c and lsp/*.h) has no cycle.
"""
import os
import re
import sys

LOWER = ["transport", "framing", "log"]
UPPER_PREFIXES = ["rpc", "diagnostics", "lifecycle", "server", "documents", "workspaces",
                  "settings", "hover", "actions", "pull", "checklist", "lsp"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"(lsp/[^"]+)"', re.M)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


def include_graph(root):
    """Every lsp/ file -> the lsp/ headers it includes."""
    graph = {}
    for name in sorted(os.listdir(os.path.join(root, "lsp"))):
        if name.endswith((".c", ".h")):
            rel = "lsp/" + name
            graph[rel] = INCLUDE.findall(read(root, rel))
    return graph


def closure(graph, start):
    """The lsp/ headers start reaches through includes."""
    seen, todo = set(), list(graph.get(start, []))
    while todo:
        h = todo.pop()
        if h not in seen:
            seen.add(h)
            todo.extend(graph.get(h, []))
    return seen


def find_cycle(graph):
    """One include cycle as a list of files, or None."""
    state, stack = {}, []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt in graph and not state.get(nxt):
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if not state.get(node):
            found = visit(node)
            if found:
                return found
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    graph = include_graph(root)
    problems = []
    upward = re.compile(r"\b(?:%s)_[A-Za-z0-9_]+\s*\(" % "|".join(UPPER_PREFIXES))
    for base in LOWER:
        for rel in ("lsp/%s.c" % base, "lsp/%s.h" % base):
            if rel not in graph:
                continue
            if "lsp/server.h" in closure(graph, rel):
                problems.append("%s includes lsp/server.h (directly or through a header)" % rel)
            code = STRING.sub('""', COMMENT.sub(" ", read(root, rel)))
            for m in sorted(set(upward.findall(code))):
                problems.append("%s calls upward: %s()" % (rel, m.rstrip("( \t")))
    cycle = find_cycle(graph)
    if cycle:
        problems.append("include cycle in lsp/: " + " -> ".join(cycle))
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
