# A repository whose HEAD is garbage: refused with a message, never a crash.
%sh printf 'garbage\n' > .git/HEAD
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{}}}
<~~ {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
--> {"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"review.rescan"}}
<~~ {"id":2,"result":{"files":"*"}}
--> {"jsonrpc":"2.0","id":3,"method":"shutdown"}
<~~ {"id":3,"result":null}
--> {"jsonrpc":"2.0","method":"exit"}
%exit 0
