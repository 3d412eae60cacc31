/* Exhibits as aligned plain text (exhibit_render.h), for terminals and plain-text hovers: each
 * exhibit a title line ending in ":", its rows two spaces further in; a table's columns padded
 * to their widest cell with marked rows flagged "*" in the margin and their mark last; a diff,
 * a pair and a chain as aligned columns of label, place and code; code with a caret line under
 * its highlighted span. No line ends in spaces. Places are written as the text report writes a
 * finding's path (invalid UTF-8 escaped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/utf8.h"
#include "lsp/exhibit_render.h"

/* A row's place, "path:line", into buf: the path's invalid UTF-8 escaped (\xNN) as the text
 * report writes a finding's own path. */
static const char *place_str(const exhibit_row *r, char *buf, size_t n)
{
    char *p = utf8_escape_path(r->path, '\\');
    snprintf(buf, n, "%s:%d", p, r->line);
    free(p);
    return buf;
}

/* Append spaces until the line (begun at `from` in out) is `width` columns wide. */
static void pad_to(strbuf *out, size_t from, size_t width)
{
    for (size_t w = exhibit_width(out->buf + from, out->len - from); w < width; w++)
        sb_addc(out, ' ');
}

/* End a line: drop trailing spaces, add the newline. */
static void end_line(strbuf *out)
{
    while (out->len && out->buf[out->len - 1] == ' ')
        out->buf[--out->len] = '\0';
    sb_addc(out, '\n');
}

static void indent_by(strbuf *out, int n)
{
    for (int i = 0; i < n; i++)
        sb_addc(out, ' ');
}

/* Cell c of a table row (r NULL: the header) as the text shows it: the columns, then the
 * place ("at"), then the mark. */
static const char *table_cell(const exhibit *e, const exhibit_row *r, size_t c, char *buf, size_t n)
{
    if (c < e->ncolumns)
        return r ? r->cells[c] : e->columns[c];
    if (c == e->ncolumns + 1)
        return r && r->mark ? r->mark : "";
    if (!r)
        return "at";
    return r->path ? place_str(r, buf, n) : "";
}

static void text_table(strbuf *out, const exhibit *e, int indent)
{
    bool places = false;
    for (size_t i = 0; i < e->nrows; i++)
        places |= e->rows[i].path != NULL;
    size_t ncols = e->ncolumns + 2;
    size_t *w = xcalloc(ncols, sizeof *w);
    char buf[1100];
    for (size_t i = 0; i <= e->nrows; i++)
        for (size_t c = 0; c < ncols; c++) {
            const char *s = table_cell(e, i ? &e->rows[i - 1] : NULL, c, buf, sizeof buf);
            size_t sw = exhibit_width(s, SIZE_MAX);
            w[c] = sw > w[c] ? sw : w[c];
        }
    for (size_t i = 0; i <= e->nrows; i++) {
        const exhibit_row *r = i ? &e->rows[i - 1] : NULL;
        indent_by(out, indent + 2);
        sb_adds(out, r && r->mark ? "* " : "  ");
        size_t from = out->len, x = 0;
        for (size_t c = 0; c < ncols; c++) {
            if (c == e->ncolumns && !places)
                continue;
            pad_to(out, from, x);
            sb_adds(out, table_cell(e, r, c, buf, sizeof buf));
            x += w[c] + 2;
        }
        end_line(out);
    }
    free(w);
}

/* Diff, pair and chain rows: label, place and code in aligned columns. */
static void text_lines(strbuf *out, const exhibit *e, int indent)
{
    size_t lw = 0, pw = 0;
    char buf[1100];
    for (size_t i = 0; i < e->nrows; i++) {
        const exhibit_row *r = &e->rows[i];
        char num[24] = "";
        if (e->kind == EXHIBIT_CHAIN)
            snprintf(num, sizeof num, "%zu. ", i + 1);
        size_t l = strlen(num) + exhibit_width(r->label ? r->label : "", SIZE_MAX);
        lw = l > lw ? l : lw;
        if (r->path) {
            place_str(r, buf, sizeof buf);
            pw = exhibit_width(buf, SIZE_MAX) > pw ? exhibit_width(buf, SIZE_MAX) : pw;
        }
    }
    for (size_t i = 0; i < e->nrows; i++) {
        const exhibit_row *r = &e->rows[i];
        indent_by(out, indent + 2);
        size_t from = out->len;
        if (e->kind == EXHIBIT_CHAIN)
            sb_addf(out, "%zu. ", i + 1);
        sb_adds(out, r->label ? r->label : "");
        if (lw)
            pad_to(out, from, lw + (e->kind == EXHIBIT_DIFF ? 1 : 2));
        if (pw) {
            size_t at = exhibit_width(out->buf + from, out->len - from);
            if (r->path)
                sb_adds(out, place_str(r, buf, sizeof buf));
            pad_to(out, from, at + pw + 2);
        }
        sb_adds(out, r->text);
        end_line(out);
    }
}

/* Code lines, each after its place, with a caret line under the highlighted span. */
static void text_code(strbuf *out, const exhibit *e, int indent)
{
    char buf[1100];
    for (size_t i = 0; i < e->nrows; i++) {
        const exhibit_row *r = &e->rows[i];
        indent_by(out, indent + 2);
        size_t from = out->len;
        if (r->path)
            sb_addf(out, "%s: ", place_str(r, buf, sizeof buf));
        size_t prefix = exhibit_width(out->buf + from, out->len - from);
        sb_adds(out, r->text);
        end_line(out);
        if (r->hl_end <= r->hl_start)
            continue;
        indent_by(out, indent + 2);
        for (size_t w = prefix + exhibit_width(r->text, (size_t)r->hl_start); w > 0; w--)
            sb_addc(out, ' ');
        for (size_t w = exhibit_width(r->text + r->hl_start, (size_t)(r->hl_end - r->hl_start));
             w > 0; w--)
            sb_addc(out, '^');
        end_line(out);
    }
}

void exhibit_text(strbuf *out, const exhibit *ex, size_t n, int indent)
{
    for (size_t i = 0; i < n; i++) {
        const exhibit *e = &ex[i];
        indent_by(out, indent);
        sb_addf(out, "%s:", e->title);
        end_line(out);
        if (e->kind == EXHIBIT_TABLE)
            text_table(out, e, indent);
        else if (e->kind == EXHIBIT_CODE)
            text_code(out, e, indent);
        else
            text_lines(out, e, indent);
        if (e->nomitted) {
            indent_by(out, indent + 2);
            sb_addf(out, "(%zu more row%s not shown)", e->nomitted, e->nomitted == 1 ? "" : "s");
            end_line(out);
        }
    }
}
