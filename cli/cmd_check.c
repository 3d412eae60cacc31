/* `review-lsp check`: review the change and print the findings as text, JSON, SARIF, GitHub
 * workflow annotations or reviewdog's rdjson; exit 1 only when --fail-on asks for it. */
#include <string.h>

#include "cli/cli.h"

typedef void (*report_fn)(FILE *out, const cli_review *cr);

/* The reporter for a --format name (cli_parse has checked it). */
static report_fn reporter(const char *format)
{
    static const struct {
        const char *name;
        report_fn fn;
    } table[] = {{"json", report_json},
                 {"sarif", report_sarif},
                 {"github", report_github},
                 {"rdjson", report_rdjson}};
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strcmp(format, table[i].name) == 0)
            return table[i].fn;
    return report_text;
}

/* The exit code --fail-on asks for, given the findings reported. */
static int fail_on_code(const char *fail_on, const finding_list *fl)
{
    if (!fail_on)
        return EXIT_OK;
    severity worst = !strcmp(fail_on, "warning") ? SEV_WARNING : SEV_INFORMATION;
    for (size_t i = 0; i < fl->n; i++)
        if (fl->items[i].sev <= worst)
            return EXIT_FINDINGS;
    return EXIT_OK;
}

/* check with parsed options: review, keep the --only files, report, and say how to exit. */
static int run_check(const cli_options *o)
{
    cli_review cr;
    int rc = cli_review_open_strict(o, &cr, NULL, NULL);
    if (rc)
        return rc;
    if (o->only && (rc = cli_only_filter(o, &cr)) != 0) {
        cli_review_close(&cr);
        return rc;
    }
    reporter(o->format)(stdout, &cr);
    rc = fail_on_code(o->fail_on, &cr.rev->findings);
    cli_review_close(&cr);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    return cli_command(argc, argv, "check", run_check);
}
