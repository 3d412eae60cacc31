/* `review-lsp config [PATH] [options]`: the configuration a review of PATH would use — the
 * command line over the repository file (pyproject.toml [tool.review-lsp] or .review-lsp.toml,
 * found by walking up from PATH) over the defaults — one value per line with where it came
 * from. The language server answers the same question for the editor (review.showConfig). */
#include <stdlib.h>

#include "cli/cli.h"

/* config with parsed options. */
static int run_config(const cli_options *o)
{
    engine *eng = NULL;
    int rc = cli_engine_open(o, &eng);
    if (rc)
        return rc;
    char *text = effective_format(engine_config(eng), engine_workdir(eng));
    fputs(text, stdout);
    free(text);
    engine_free(eng);
    return EXIT_OK;
}

int cmd_config(int argc, char **argv)
{
    return cli_command(argc, argv, "config", run_config);
}
