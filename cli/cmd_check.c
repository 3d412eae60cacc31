/* `review-lsp check`: review the change and print the findings as text, JSON or SARIF;
 * exit 1 only when --fail-on asks for it. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/collectors/perf_claims.h"
#include "engine/util.h"

int cmd_check(int argc, char **argv)
{
    cli_options o;
    int rc = cli_parse(argc, argv, "check", &o);
    if (rc)
        return rc;
    cli_review cr;
    rc = cli_review_open(&o, &cr);
    if (rc)
        return rc;
    if (cr.diff_problem) {
        fprintf(stderr, "review-lsp: %s: %s\n", o.diff, cr.diff_problem);
        cli_review_close(&cr);
        return EXIT_USAGE;
    }
    if (o.pr_body) {
        size_t len;
        char *why = NULL;
        char *text = read_file(o.pr_body, 4u << 20, &len, &why);
        if (!text) {
            fprintf(stderr, "review-lsp: cannot read --pr-body %s\n", why);
            free(why);
            cli_review_close(&cr);
            return EXIT_USAGE;
        }
        perf_claims_scan_text(o.pr_body, text, len, &cr.rev->findings);
        findings_sort(&cr.rev->findings);
        free(text);
    }
    if (!strcmp(o.format, "json"))
        report_json(stdout, &cr);
    else if (!strcmp(o.format, "sarif"))
        report_sarif(stdout, &cr);
    else
        report_text(stdout, &cr);
    int exit_code = EXIT_OK;
    if (o.fail_on) {
        severity worst = !strcmp(o.fail_on, "warning") ? SEV_WARNING : SEV_INFORMATION;
        for (size_t i = 0; i < cr.rev->findings.n; i++)
            if (cr.rev->findings.items[i].sev <= worst)
                exit_code = EXIT_FINDINGS;
    }
    cli_review_close(&cr);
    return exit_code;
}
