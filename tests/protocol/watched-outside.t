# workspace/didChangeWatchedFiles naming a path that climbs out of the work tree
# (ws/../secret/leak.py) is refused: the path never enters the change, nothing outside is read
# or published, and the server reads on. Paths inside, spelled with "./" or "x/..", still count.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{},"initializationOptions":{"debounceMs":0}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/csrc/kernels/attn.cu"}}
# The bait outside is a FIFO with a writer waiting: opening it for reading would let the
# writer through and leave ../secret/opened.
%sh mkdir -p ../secret && mkfifo ../secret/leak.py && (printf 'import sys\n' > ../secret/leak.py && touch ../secret/opened) </dev/null >/dev/null 2>&1 &
--> {"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"${WSURI}/../secret/leak.py","type":1}]}}
%quiet 600
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.showDerivedRules"}}
<-- {"id":2,"result":"re:^  files=1  "}
%sh test ! -e ../secret/opened
%log watched-file event for .* ignored: the path leaves the tree
# (release the waiting writer)
%sh sh -c 'exec 3<> ../secret/leak.py; sleep 0.2'
# Inside the tree, an odd spelling is normalised and reviewed.
%sh mkdir -p aiter/ops && printf 'import sys\nsys.path.insert(0, "/opt/x")\n' > aiter/ops/extra.py
--> {"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"${WSURI}/./csrc/../aiter/ops/extra.py","type":1}]}}
<~~ {"method":"textDocument/publishDiagnostics","params":{"uri":"${WSURI}/aiter/ops/extra.py","diagnostics":["$some",{"code":"HK3"}]}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<~~ {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
