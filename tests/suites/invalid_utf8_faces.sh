# Text that is not UTF-8 never hides a finding: a deleted guard whose line holds a \xff byte,
# and a file whose name holds a \xfe byte, are reported in every face — text, JSON, SARIF and
# LSP publishDiagnostics — with the invalid bytes of messages replaced by U+FFFD and those of
# paths escaped (\xNN in text and JSON, %NN in SARIF and LSP URIs); no JSON message or file
# entry is dropped, and every diagnostic keeps its required message. The findings' evidence
# (the deleted guard as a diff) is carried the same way.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

new_repo r
mkdir -p r/csrc
printf 'void k(int n) {\n    TORCH_CHECK(n > 0, "bad \377 input");\n    run(n);\n}\n' > r/csrc/kern.cu
printf 'void b(int m) {\n    TORCH_CHECK(m > 0, "need m");\n    go(m);\n}\n' > "r/csrc/b$(printf '\376').cu"
commit_all r base
printf 'void k(int n) {\n    run(n);\n}\n' > r/csrc/kern.cu
printf 'void b(int m) {\n    go(m);\n}\n' > "r/csrc/b$(printf '\376').cu"
printf '// new\n' > "r/csrc/new$(printf '\377').cu"

for fmt in text json sarif; do
  "$BIN" check r --format $fmt > "out.$fmt" 2> "err.$fmt"
  expect_rc "$fmt.exit-0" $? 0
done

# text: both findings, the message with U+FFFD, the odd name escaped
text=$(cat out.text)
line=$(printf '%s\n' "$text" | grep -a '^csrc/kern.cu:2:1: ')
expect_contains text.finding-shown "$line" "[D4] "
expect_contains text.message-replaced-text "$line" "guard removed: \`TORCH_CHECK(n > 0, \"bad $(printf '\357\277\275') input\");\`"
expect_contains text.evidence-text-replaced "$text" "- csrc/kern.cu:2  TORCH_CHECK(n > 0, \"bad $(printf '\357\277\275') input\");"
expect_contains text.evidence-path-escaped "$text" "- csrc/b\\xfe.cu:2  TORCH_CHECK(m > 0, \"need m\");"
expect_contains text.path-escaped "$(printf '%s\n' "$text" | grep -a '^csrc/b')" 'csrc/b\xfe.cu:2:1: '

check_json() {
python3 - "$@" <<'EOF'
import json, sys
face, path = sys.argv[1], sys.argv[2]
raw = open(path, 'rb').read()
doc = json.loads(raw.decode('utf-8')) if face != 'lsp' else None  # valid UTF-8 JSON, or fail
out = []
if face == 'json':
    f = [x for x in doc['findings'] if x['rule'] == 'D4']
    out.append('findings=%d' % len(f))
    out.append('replaced=%d' % sum('\ufffd' in x['message'] for x in f))
    out.append('files=' + ','.join(sorted(x['path'] for x in doc['files'])))
    out.append('paths=' + ','.join(sorted(x['path'] for x in f)))
    rows = [r for x in f for e in x['evidence'] for r in e['rows']]
    out.append('evidence-paths=' + ','.join(sorted(r['path'] for r in rows if 'path' in r)))
    out.append('evidence-replaced=%d' % sum('\ufffd' in r.get('text', '') for r in rows))
elif face == 'sarif':
    res = [x for x in doc['runs'][0]['results'] if x['ruleId'] == 'D4']
    out.append('results=%d' % len(res))
    out.append('replaced=%d' % sum('\ufffd' in x['message']['text'] for x in res))
    out.append('uris=' + ','.join(sorted(x['locations'][0]['physicalLocation']['artifactLocation']['uri'] for x in res)))
    out.append('markdown=%d' % sum('markdown' in x['message'] for x in res))
else:  # a stream of LSP messages
    msgs, i = [], 0
    while True:
        j = raw.find(b'\r\n\r\n', i)
        if j < 0: break
        n = int(raw[i:j].split(b':')[1])
        msgs.append(json.loads(raw[j + 4:j + 4 + n].decode('utf-8')))
        i = j + 4 + n
    pubs = [m['params'] for m in msgs if m.get('method') == 'textDocument/publishDiagnostics']
    diags = [(p['uri'].rsplit('/', 1)[1], d) for p in pubs for d in p['diagnostics']]
    out.append('all-have-message=%s' % all('message' in d for _, d in diags))
    d4 = sorted(set((u, '\ufffd' in d['message']) for u, d in diags if d.get('code') == 'D4'))
    out.append('d4=' + ','.join('%s:%s' % x for x in d4))
print(' '.join(out))
EOF
}
got=$(check_json json out.json)
expect_contains json.both-findings "$got" "findings=2 replaced=1"
expect_contains json.every-file-listed "$got" 'files=csrc/b\xfe.cu,csrc/kern.cu,csrc/new\xff.cu'
expect_contains json.finding-paths-escaped "$got" 'paths=csrc/b\xfe.cu,csrc/kern.cu'
expect_contains json.evidence-paths-escaped "$got" 'evidence-paths=csrc/b\xfe.cu,csrc/kern.cu'
expect_contains json.evidence-text-replaced "$got" 'evidence-replaced=1'
got=$(check_json sarif out.sarif)
expect_contains sarif.both-results "$got" "results=2 replaced=1"
expect_contains sarif.uri-escaped "$got" "uris=csrc/b%FE.cu,csrc/kern.cu"
expect_contains sarif.evidence-markdown-kept "$got" "markdown=2"

# LSP: one session over a file for stdin
frame() { printf 'Content-Length: %d\r\n\r\n%s' "$(printf '%s' "$1" | wc -c)" "$1"; }
{
  frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://'"$TMPD"'/r","capabilities":{}}}'
  frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
  frame '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
  frame '{"jsonrpc":"2.0","method":"exit"}'
} > in.lsp
"$BIN" < in.lsp > out.lsp 2> err.lsp
expect_rc lsp.exit-0 $? 0
got=$(check_json lsp out.lsp)
expect_contains lsp.every-diagnostic-has-its-message "$got" "all-have-message=True"
expect_contains lsp.both-published "$got" "d4=b%FE.cu:False,kern.cu:True"
exit 0
