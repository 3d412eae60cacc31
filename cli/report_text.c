/* The text report of `check`: one `file:line:col: severity [ID] message` line per finding
 * (related evidence indented under it, then its exhibits as aligned text), then the trailer:
 * `# ` lines for the derived families, each collector's status and any notes, and a closing
 * summary. Like the other faces, it writes UTF-8: paths with invalid bytes escaped (\xNN),
 * messages with them replaced (U+FFFD); exhibit text is cleaned when the engine builds it. */
#include <stdlib.h>

#include "cli/report.h"
#include "engine/utf8.h"
#include "lsp/exhibit_render.h"

/* Print a path, escaped. */
static void put_path(FILE *out, const char *path)
{
    char *p = utf8_escape_path(path, '\\');
    fputs(p, out);
    free(p);
}

/* Print text with invalid bytes replaced, then a newline. */
static void put_line(FILE *out, const char *prefix, const char *text)
{
    char *t = utf8_sanitize(text);
    fprintf(out, "%s%s\n", prefix, t);
    free(t);
}

void report_text(FILE *out, const cli_review *cr)
{
    const review *r = cr->rev;
    for (size_t i = 0; i < r->findings.n; i++) {
        const finding *f = &r->findings.items[i];
        put_path(out, f->path);
        fprintf(out, ":%d:%d: %s [%s] ", f->range.line, f->range.col + 1, severity_name(f->sev),
                f->rule_id);
        put_line(out, "", f->message);
        for (size_t k = 0; k < f->nrelated; k++) {
            fputs("    ", out);
            put_path(out, f->related[k].path);
            fprintf(out, ":%d: ", f->related[k].range.line);
            put_line(out, "", f->related[k].message);
        }
        if (f->nexhibits) {
            strbuf sb;
            sb_init(&sb);
            exhibit_text(&sb, f->exhibits, f->nexhibits, 4);
            char *t = utf8_sanitize(sb.buf); /* rows' paths are raw bytes */
            fputs(t, out);
            free(t);
            sb_free(&sb);
        }
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
        for (size_t k = 0; k < d->fams[i].nsites && k < 3; k++) {
            fputs(k ? ", " : "  at ", out);
            put_path(out, d->fams[i].sites[k].path);
            fprintf(out, ":%d", d->fams[i].sites[k].line > 0 ? d->fams[i].sites[k].line : 1);
        }
        if (d->fams[i].nsites > 3)
            fprintf(out, " (+%zu more)", d->fams[i].nsites - 3);
        fputc('\n', out);
    }
    if (d->status != DERIVE_OK)
        fprintf(out, "# derived [%s] every rule (%s)\n", report_derivation_name(d->status),
                d->failure ? d->failure : "nothing could be derived");
    for (size_t i = 0; i < r->ncollectors; i++)
        put_line(out, "# collector ", r->collector_status[i]);
    for (size_t i = 0; i < r->chg->nnotes; i++)
        put_line(out, "# note: ", r->chg->notes[i]);
    /* errors exist only by a configured severity, and are counted only then */
    char errors[32] = "";
    if (counts[SEV_ERROR])
        snprintf(errors, sizeof errors, "%zu error, ", counts[SEV_ERROR]);
    fprintf(out, "# %zu finding%s (%s%zu warning, %zu information, %zu hint) in %zu changed file%s; base %s\n",
            r->findings.n, r->findings.n == 1 ? "" : "s", errors, counts[SEV_WARNING],
            counts[SEV_INFORMATION], counts[SEV_HINT], r->chg->nfiles,
            r->chg->nfiles == 1 ? "" : "s", r->base_desc);
}
