/* `review-lsp rules`: the derived rule families in the original triage's rules.txt format,
 * byte for byte, with its fail-open outputs and their stderr notes. */
#include <stdlib.h>

#include "cli/cli.h"
#include "engine/util.h"

/* rules with parsed options. */
static int run_rules(const cli_options *o)
{
    /* the derivation is all it prints: no collector runs (a large change costs milliseconds) */
    cli_options derive = *o;
    derive.derive_only = true;
    cli_review cr;
    int rc = cli_review_open(&derive, &cr);
    if (rc)
        return rc;
    const derive_result *d = &cr.rev->derived;
    const char *problem = engine_diff_problem(cr.eng);
    if (d->status == DERIVE_FAILED)
        fprintf(stderr, "  DERIVATION FAILED (%s) -- falling back to all rules\n", d->failure);
    else if (d->status == DERIVE_TOO_LARGE)
        fprintf(stderr, "NOTE: the diff is GitHub's error body for a diff over its line cap, so "
                        "every rule applies; list the files with "
                        "gh api repos/OWNER/REPO/pulls/N/files --paginate --jq .[].filename\n");
    else if (d->status == DERIVE_UNDERIVABLE && problem)
        fprintf(stderr, "review-lsp: note: %s; every rule applies\n", problem);
    strbuf sb;
    sb_init(&sb);
    derive_format(d, &sb);
    fwrite(sb.buf, 1, sb.len, stdout);
    sb_free(&sb);
    cli_review_close(&cr);
    return EXIT_OK;
}

int cmd_rules(int argc, char **argv)
{
    return cli_command(argc, argv, "rules", run_rules);
}
