/* The text report of `check`: one `file:line:col: severity [ID] message` line per finding
 * (related evidence indented under it), then the trailer: `# ` lines for the derived families,
 * each collector's status and any notes, and a closing summary. */
#include "cli/report.h"

void report_text(FILE *out, const cli_review *cr)
{
    const review *r = cr->rev;
    for (size_t i = 0; i < r->findings.n; i++) {
        const finding *f = &r->findings.items[i];
        fprintf(out, "%s:%d:%d: %s [%s] %s\n", f->path, f->range.line, f->range.col + 1,
                severity_name(f->sev), f->rule_id, f->message);
        for (size_t k = 0; k < f->nrelated; k++)
            fprintf(out, "    %s:%d: %s\n", f->related[k].path, f->related[k].range.line,
                    f->related[k].message);
    }
    report_text_trailer(out, r);
}

void report_text_trailer(FILE *out, const review *r)
{
    size_t counts[4] = {0};
    for (size_t i = 0; i < r->findings.n; i++)
        counts[r->findings.items[i].sev]++;
    const derive_result *d = &r->derived;
    for (size_t i = 0; i < d->n; i++) {
        fprintf(out, "# derived [%s] %s", d->fams[i].name, d->fams[i].rules);
        for (size_t k = 0; k < d->fams[i].nsites && k < 3; k++)
            fprintf(out, "%s%s:%d", k ? ", " : "  at ", d->fams[i].sites[k].path,
                    d->fams[i].sites[k].line > 0 ? d->fams[i].sites[k].line : 1);
        if (d->fams[i].nsites > 3)
            fprintf(out, " (+%zu more)", d->fams[i].nsites - 3);
        fputc('\n', out);
    }
    if (d->status != DERIVE_OK)
        fprintf(out, "# derived [%s] every rule (%s)\n", report_derivation_name(d->status),
                d->failure ? d->failure : "nothing could be derived");
    for (size_t i = 0; i < r->ncollectors; i++)
        fprintf(out, "# collector %s\n", r->collector_status[i]);
    for (size_t i = 0; i < r->chg->nnotes; i++)
        fprintf(out, "# note: %s\n", r->chg->notes[i]);
    /* errors exist only by a configured severity, and are counted only then */
    char errors[32] = "";
    if (counts[SEV_ERROR])
        snprintf(errors, sizeof errors, "%zu error, ", counts[SEV_ERROR]);
    fprintf(out, "# %zu finding%s (%s%zu warning, %zu information, %zu hint) in %zu changed file%s; base %s\n",
            r->findings.n, r->findings.n == 1 ? "" : "s", errors, counts[SEV_WARNING],
            counts[SEV_INFORMATION], counts[SEV_HINT], r->chg->nfiles,
            r->chg->nfiles == 1 ? "" : "s", r->base_desc);
}
