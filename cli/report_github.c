/* `check --format github`: GitHub Actions workflow commands, so a CI job shows each finding as
 * an annotation on the pull request's diff (`::warning file=…,line=…,title=…::message`;
 * information and hints as `::notice`), its evidence in the message, then the families,
 * collector statuses and notes folded in one log group, and the summary line. Values are escaped the way the
 * Actions toolkit escapes them (data: % CR LF; properties also : and ,), and every plain line
 * starts with "# ", so no text from the repository can open a workflow command of its own. */
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "engine/util.h"

/* Append s escaped as workflow-command data (property: also ':' and ','). */
static void escape(strbuf *sb, const char *s, bool property)
{
    for (; *s; s++) {
        switch (*s) {
        case '%': sb_adds(sb, "%25"); break;
        case '\r': sb_adds(sb, "%0D"); break;
        case '\n': sb_adds(sb, "%0A"); break;
        case ':': sb_adds(sb, property ? "%3A" : ":"); break;
        case ',': sb_adds(sb, property ? "%2C" : ","); break;
        default: sb_addc(sb, *s);
        }
    }
}

/* One property "key=value" (after a ',' unless first). */
static void property(strbuf *sb, bool first, const char *key, const char *value)
{
    sb_addf(sb, "%s%s=", first ? " " : ",", key);
    escape(sb, value, true);
}

/* The annotation for one finding, as a single line. */
static void annotation(strbuf *sb, const cli_review *cr, const finding *f)
{
    const change *chg = cr->rev->chg;
    const rule_entry *re = catalog_find(engine_catalog(cr->eng), f->rule_id);
    sb_adds(sb, f->sev == SEV_WARNING ? "::warning" : "::notice");
    char *title = xasprintf("[%s] %s", f->rule_id, re ? re->title : "review-lsp");
    property(sb, true, "title", title);
    free(title);
    property(sb, false, "file", f->path);
    char num[32];
    int line = f->range.line > 0 ? f->range.line : 1;
    snprintf(num, sizeof num, "%d", line);
    property(sb, false, "line", num);
    if (f->range.end_line > line && f->range.end_col > 0) {
        snprintf(num, sizeof num, "%d", f->range.end_line);
        property(sb, false, "endLine", num);
    }
    snprintf(num, sizeof num, "%d", report_code_point_col(chg, f->path, line, f->range.col) + 1);
    property(sb, false, "col", num);
    if (f->range.end_line == line && f->range.end_col > f->range.col) {
        snprintf(num, sizeof num, "%d",
                 report_code_point_col(chg, f->path, line, f->range.end_col) + 1);
        property(sb, false, "endColumn", num);
    }
    sb_adds(sb, "::");
    strbuf msg;
    sb_init(&msg);
    sb_adds(&msg, f->message);
    for (size_t k = 0; k < f->nrelated; k++)
        sb_addf(&msg, "\n%s:%d: %s", f->related[k].path, f->related[k].range.line,
                f->related[k].message);
    escape(sb, msg.buf, false);
    sb_free(&msg);
    sb_addc(sb, '\n');
}

/* The text report's trailer as plain log lines, each starting with "# ": the families,
 * collector statuses and notes folded in a group, the summary line after it. */
static void trailer_group(FILE *out, const review *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return;
    report_text_trailer(mem, r);
    fclose(mem);
    fputs("::group::review-lsp: derived families, collectors, notes\n", out);
    char *save = NULL, *prev = NULL;
    for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (prev)
            fprintf(out, "%s%s\n", str_starts(prev, "# ") ? "" : "# ", prev);
        prev = l;
    }
    fputs("::endgroup::\n", out);
    if (prev)
        fprintf(out, "%s%s\n", str_starts(prev, "# ") ? "" : "# ", prev);
    free(buf);
}

void report_github(FILE *out, const cli_review *cr)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < cr->rev->findings.n; i++)
        annotation(&sb, cr, &cr->rev->findings.items[i]);
    fwrite(sb.buf, 1, sb.len, out);
    sb_free(&sb);
    trailer_group(out, cr->rev);
}
