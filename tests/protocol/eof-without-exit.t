# The client closes stdin without shutdown or exit: the server ends (code 1), no crash.
--> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"${WSURI}","capabilities":{}}}
<-- {"id":1,"result":{"capabilities":"*"}}
--> {"jsonrpc":"2.0","method":"initialized","params":{}}
<-- {"method":"textDocument/publishDiagnostics"}
--> raw "Content-Length: 40\r\n\r\n{\"jsonrpc\":"
%close
%exit 1
