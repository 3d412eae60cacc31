/* Entry point of review-lsp: dispatches to the language server (no arguments, or --stdio) or
 * to one of the batch commands (check, rules, explain). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("review-lsp %s\n", REVIEW_LSP_VERSION);
        return 0;
    }
    fprintf(stderr, "review-lsp: not implemented yet\n");
    return 2;
}
