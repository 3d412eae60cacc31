#!/usr/bin/env python3
"""Seed corpora for the libFuzzer targets of tests/fuzz, made from this repository's own
files only: the protocol transcripts (tests/protocol/*.t) become framed client streams (for
the framer, and for the in-process server with the workspace of fuzz_server.c), the parity
diffs (tests/parity/cases/*.diff) seed the diff reader, rules/rules.md the rules reader,
the fixture sources the position and suppression targets (the Python ones the outline
reader too), plus a few hand-made inputs.

usage: seeds.py OUT_DIR        (writes OUT_DIR/<target>/<name>)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WS = '/tmp/rl-fuzz-server-XXXXXX/ws'   # fuzz_server.c swaps in its own six characters


def unescape_raw(s):
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c != '\\':
            out += c.encode()
        else:
            i += 1
            n = s[i]
            if n == 'x':
                out.append(int(s[i + 1:i + 3], 16))
                i += 2
            else:
                out += {'r': b'\r', 'n': b'\n', 't': b'\t'}.get(n, n.encode())
        i += 1
    return bytes(out)


def frame(body):
    return b'Content-Length: %d\r\n\r\n' % len(body) + body


def transcript_messages(text):
    """(kind, bytes) for each client message: 'json' bodies (framed later) and 'raw' bytes."""
    msgs = []
    for line in text.split('\n'):
        if line.startswith('--> {'):
            body = line[4:].replace('${WSURI}', 'file://' + WS).replace('${WS}', WS)
            msgs.append(('json', body.encode()))
        elif line.startswith('--> raw "'):
            msgs.append(('raw', unescape_raw(line[9:line.rindex('"')])))
    return msgs


def write(out, target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def main(out):
    pdir = os.path.join(ROOT, 'tests', 'protocol')
    for name in sorted(os.listdir(pdir)):
        if not name.endswith('.t'):
            continue
        msgs = transcript_messages(open(os.path.join(pdir, name), encoding='utf-8').read())
        stream = b''.join(frame(b) if k == 'json' else b for k, b in msgs)
        write(out, 'fuzz_framing', name, stream)
        # the server: odd first byte = the harness sends initialize/initialized itself
        rest = [(k, b) for k, b in msgs
                if not (k == 'json' and re.search(rb'"method":"(initialize|initialized)"', b))]
        write(out, 'fuzz_server', name, b'\x01' + b''.join(frame(b) if k == 'json' else b for k, b in rest))
        write(out, 'fuzz_server', name + '.whole', b'\x00' + stream)
    cdir = os.path.join(ROOT, 'tests', 'parity', 'cases')
    for name in sorted(os.listdir(cdir)):
        if name.endswith('.diff'):
            write(out, 'fuzz_diff', name, open(os.path.join(cdir, name), 'rb').read())
    write(out, 'fuzz_diff', 'int-max.diff',
          b'diff --git a/k.cu b/k.cu\n--- a/k.cu\n+++ b/k.cu\n@@ -2147483647,2 +2147483647,2 @@\n a\n-b\n+c\n')
    rules = open(os.path.join(ROOT, 'rules', 'rules.md'), 'rb').read()
    write(out, 'fuzz_rules', 'rules.md', rules)
    write(out, 'fuzz_rules', 'rules-head.md', rules[:4000])
    n = 0
    for base, _, files in sorted(os.walk(os.path.join(ROOT, 'tests', 'fixtures'))):
        for f in sorted(files):
            if f.endswith(('.py', '.cu', '.cuh', '.hpp', '.h')) and n < 40:
                data = open(os.path.join(base, f), 'rb').read()[:4000]
                write(out, 'fuzz_position', '%02d-%s' % (n, f), bytes([2, 40, n & 1]) + data)
                write(out, 'fuzz_suppress', '%02d-%s' % (n, f), b'D4\n' + data)
                n += 1
    m = 0
    for base, _, files in sorted(os.walk(os.path.join(ROOT, 'tests', 'fixtures'))):
        for f in sorted(files):
            if f.endswith('.py') and m < 40:
                data = open(os.path.join(base, f), 'rb').read()[:8000]
                write(out, 'fuzz_py_outline', '%02d-%s' % (m, f), data)
                m += 1
    for i, s in enumerate([b'from . import (a,\n b as c)\n', b'x = f(\n', b's = """\n',
                           b'@d\ndef f(a,\n  b):\n    pass\n', b'import a.b as c, d\n\\\n']):
        write(out, 'fuzz_py_outline', 'hand-%d' % i, s)
    k = 0
    for base, _, files in sorted(os.walk(os.path.join(ROOT, 'tests', 'fixtures'))):
        for f in sorted(files):
            if f.endswith(('.cu', '.cuh', '.hpp', '.h', '.cpp')) and k < 20:
                data = open(os.path.join(base, f), 'rb').read()[:4000]
                # the text, then the same text with its line comments dropped
                bare = re.sub(rb'//[^\n]*', b'', data)
                write(out, 'fuzz_same_code', '%02d-%s' % (k, f), data + b'\0' + bare)
                k += 1
    k = 0
    for base, _, files in sorted(os.walk(os.path.join(ROOT, 'tests', 'fixtures'))):
        for f in sorted(files):
            if f.endswith('.py') and k < 20:
                data = open(os.path.join(base, f), 'rb').read()[:4000]
                # the text, then the same text without its comments, in double quotes
                bare = re.sub(rb'#[^\n\'"]*', b'', data).replace(b"'", b'"')
                write(out, 'fuzz_same_code', 'py-%02d-%s' % (k, f), data + b'\0' + bare)
                k += 1
    for i, s in enumerate([b'R"x(a // b)x"\0R"x(a)x"', b"n = 1'000; // c\0n = 1'000;",
                           b'#define A 1 /* c\n */ + 2\0#define A 1 + 2', b'"a\\" // b"\0"a\\" "',
                           b'f(a,\n  b,)  # c\0f(a, b)', b"s = f'{d[\"#\"]:>{w}}'\0s = f\"{d['#']:>{w}}\"",
                           b'if a:\n\tx = 1\n  y\0if a:\n    x = 1\n']):
        write(out, 'fuzz_same_code', 'hand-%d' % i, s)
    for i, s in enumerate([b'gl.amd.gfx1250.tdm.async_wait((NUM_BUFFERS - 1) * 2)\0'
                           b'gl.amd.gfx1250.tdm.async_wait((NUM_BUFFERS - 2) * 2)',
                           b'acc += tl.dot(a, b) * a_scale[:, None] * b_scale[None, :]\0'
                           b'acc += tl.dot(a, b) * (a_scale[:, None] * b_scale[None, :])',
                           b'x += start_m.to(index_type) * stride\0x += start_m * stride',
                           b'ret = get_gfx() == "gfx942"\0ret = get_gfx() in ("gfx942", "gfx950")',
                           b'a = arith.index_cast(T.i64, addr)\0a = fx.Int64(addr).ir_value()',
                           b'n = key_cache.shape[0]\0n = key_cache.shape[1]',
                           b'eps = 1e-6 + 0x1fULL\0eps = 1.0e-6 + 0x2full', b'((((\0))))',
                           # a cache policy first, so the line compared with itself holds one
                           b'x = tl.load(p, mask=m, cache_modifier=".cg")\0x = tl.load(p, mask=m)',
                           b'x = load_vector_nbytes<T, 4, 16, GROUP_NT>(b, i);\0'
                           b'x = load_vector_nbytes<T, 4, 16>(b, i);',
                           b'tl.store(p, v, eviction_policy="evict_first")\0'
                           b'tl.store(p, v, cache_modifier=".cv")']):
        write(out, 'fuzz_sibling_keys', 'hand-%d' % i, s)
    for i, line in enumerate([b'D4\nx = 1  # review: ignore[D4]', b'A1\n// review: ignore[A1, B8]',
                              b'*\n# review: ignore[*]', b'HK3\nfoo  # review:ignore[ HK3 ]']):
        write(out, 'fuzz_suppress', 'hand-%d' % i, line)
    for i, s in enumerate([b'file:///tmp/a%20b/c.cu', b'file://localhost/x/../y', b'a/../../b',
                           b'a/out/secret', b'up/root/a/f.cu', b'a/f.cu', b'a/./b/../f.cu',
                           b'file:///%2e%2e/x', b'untitled:Untitled-1', b'etc/passwd']):
        write(out, 'fuzz_uri_gate', 'hand-%d' % i, s)


if __name__ == '__main__':
    main(sys.argv[1])
