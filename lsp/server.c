/* Placeholder until the server lands (issue 3): refuses to start. */
#include <stdio.h>

#include "lsp/lsp.h"

int lsp_main(int argc, char **argv)
{
    fprintf(stderr, "review-lsp: the language server is not built yet\n");
    return 1;
}
