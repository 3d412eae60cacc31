/* The language server's entry point, called by cli/main.c for `review-lsp` / `--stdio`. */
#ifndef RL_LSP_H
#define RL_LSP_H

/* Serve LSP over stdin/stdout until `exit`. Returns the process exit code. */
int lsp_main(int argc, char **argv);

#endif
