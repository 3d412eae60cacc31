/* Exhibits as Markdown (exhibit_render.h): a table as a GitHub table with its marked rows in
 * bold, a diff as a fenced `diff` block, lines to compare aligned in a fence, a highlighted
 * span as a caret line under its code, a chain as a numbered list of linked places. Text from
 * the code is escaped (in tables and link texts) or fenced with more backticks than it holds,
 * so nothing in it can start Markdown of its own. */
#include <stdlib.h>
#include <string.h>

#include "lsp/exhibit_render.h"

size_t exhibit_width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n && s[i]; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

bool exhibit_shows_place(const exhibit *ex, size_t n, const char *path, int line)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < ex[i].nrows; k++)
            if (ex[i].rows[k].path && ex[i].rows[k].line == line &&
                strcmp(ex[i].rows[k].path, path) == 0)
                return true;
    return false;
}

/* Append s with every character Markdown could read as markup backslash-escaped (also "|",
 * so it can sit in a table cell). */
static void md_escape(strbuf *md, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (strchr("\\`*_[]<>|#~", *p))
            sb_addc(md, '\\');
        sb_addc(md, *p);
    }
}

/* The longest run of backticks in s. */
static size_t backtick_run(const char *s)
{
    size_t best = 0, cur = 0;
    for (const char *p = s; p && *p; p++) {
        cur = *p == '`' ? cur + 1 : 0;
        best = cur > best ? cur : best;
    }
    return best;
}

/* Append s as an inline code span with enough backticks. */
static void md_code_span(strbuf *md, const char *s)
{
    size_t n = backtick_run(s) + 1;
    bool pad = s[0] == '`' || (*s && s[strlen(s) - 1] == '`');
    for (size_t i = 0; i < n; i++)
        sb_addc(md, '`');
    sb_adds(md, pad ? " " : "");
    sb_adds(md, s);
    sb_adds(md, pad ? " " : "");
    for (size_t i = 0; i < n; i++)
        sb_addc(md, '`');
}

/* Append a place as a link (or plain text when the face has no link for it). */
static void md_place(strbuf *md, const char *path, int line, exhibit_link_fn link, void *ctx)
{
    char *target = link ? link(ctx, path, line) : NULL;
    char *shown = xasprintf("%s:%d", path, line);
    if (target) {
        sb_addc(md, '[');
        md_escape(md, shown);
        sb_addf(md, "](%s)", target);
    } else {
        md_escape(md, shown);
    }
    free(shown);
    free(target);
}

/* The fence for a block of rows: one backtick more than the longest run in them, at least 3. */
static size_t fence_len(const exhibit *e)
{
    size_t n = 3;
    for (size_t i = 0; i < e->nrows; i++) {
        size_t r = backtick_run(e->rows[i].text) + 1;
        n = r > n ? r : n;
    }
    return n;
}

static void md_fence(strbuf *md, size_t n, const char *lang)
{
    for (size_t i = 0; i < n; i++)
        sb_addc(md, '`');
    sb_adds(md, lang);
    sb_addc(md, '\n');
}

/* What a row's label says beside its place: a diff's "-" and "+" in words. */
static const char *place_label(const exhibit *e, const exhibit_row *r)
{
    if (e->kind != EXHIBIT_DIFF)
        return r->label;
    return !r->label ? NULL : !strcmp(r->label, "-") ? "deleted" : !strcmp(r->label, "+") ? "added" : NULL;
}

/* Append the distinct places of an exhibit's rows on one line, each with the labels of the
 * rows there: "before, after: [a.py:12](…) · variant: [b.py:40](…)". */
static void md_places(strbuf *md, const exhibit *e, exhibit_link_fn link, void *ctx)
{
    bool first = true;
    for (size_t i = 0; i < e->nrows; i++) {
        const exhibit_row *r = &e->rows[i];
        bool seen = !r->path;
        for (size_t k = 0; k < i && !seen; k++)
            seen = e->rows[k].path && e->rows[k].line == r->line && !strcmp(e->rows[k].path, r->path);
        if (seen)
            continue;
        sb_adds(md, first ? "\n\n" : " · ");
        first = false;
        size_t nlabels = 0;
        for (size_t k = i; k < e->nrows; k++) {
            const exhibit_row *o = &e->rows[k];
            const char *l = place_label(e, o);
            bool dup = false;
            for (size_t j = i; j < k && !dup; j++)
                dup = e->rows[j].path && e->rows[j].line == o->line && !strcmp(e->rows[j].path, o->path) &&
                      place_label(e, &e->rows[j]) && l && !strcmp(place_label(e, &e->rows[j]), l);
            if (!o->path || o->line != r->line || strcmp(o->path, r->path) != 0 || !l || !*l || dup)
                continue;
            sb_adds(md, nlabels++ ? ", " : "");
            md_escape(md, l);
        }
        sb_adds(md, nlabels ? ": " : "at ");
        md_place(md, r->path, r->line, link, ctx);
    }
}

/* A table; in compact form only its marked rows (or its first few when none is marked).
 * Returns the rows left out. */
static size_t md_table(strbuf *md, const exhibit *e, bool compact, exhibit_link_fn link, void *ctx)
{
    bool marks = false, places = false;
    for (size_t i = 0; i < e->nrows; i++) {
        marks |= e->rows[i].mark != NULL;
        places |= e->rows[i].path != NULL;
    }
    sb_adds(md, "\n\n|");
    for (size_t c = 0; c < e->ncolumns; c++) {
        sb_addc(md, ' ');
        md_escape(md, e->columns[c]);
        sb_adds(md, " |");
    }
    sb_adds(md, marks ? "   |" : "");
    sb_adds(md, places ? " at |" : "");
    sb_adds(md, "\n|");
    for (size_t c = 0; c < e->ncolumns + marks + places; c++)
        sb_adds(md, "---|");
    size_t shown = 0;
    for (size_t i = 0; i < e->nrows; i++) {
        const exhibit_row *r = &e->rows[i];
        if (compact && (marks ? !r->mark : shown >= 6))
            continue;
        shown++;
        sb_adds(md, "\n|");
        for (size_t c = 0; c < e->ncolumns; c++) {
            sb_addc(md, ' ');
            md_escape(md, r->cells[c]);
            sb_adds(md, " |");
        }
        if (marks) {
            sb_adds(md, r->mark ? " **" : " ");
            md_escape(md, r->mark ? r->mark : "");
            sb_adds(md, r->mark ? "** |" : " |");
        }
        if (places) {
            sb_addc(md, ' ');
            if (r->path)
                md_place(md, r->path, r->line, link, ctx);
            sb_adds(md, " |");
        }
    }
    return e->nrows - shown;
}

/* Lines in a fence: a diff's with their "-"/"+", a pair's with their labels aligned, code
 * with a caret line under its highlighted span. */
static void md_block(strbuf *md, const exhibit *e)
{
    size_t fence = fence_len(e), lw = 0;
    for (size_t i = 0; e->kind == EXHIBIT_PAIR && i < e->nrows; i++) {
        size_t w = exhibit_width(e->rows[i].label ? e->rows[i].label : "", SIZE_MAX);
        lw = w > lw ? w : lw;
    }
    sb_adds(md, "\n\n");
    md_fence(md, fence, e->kind == EXHIBIT_DIFF ? "diff" : "");
    for (size_t i = 0; i < e->nrows; i++) {
        const exhibit_row *r = &e->rows[i];
        const char *label = r->label ? r->label : "";
        if (e->kind == EXHIBIT_DIFF) {
            sb_addf(md, "%s ", *label ? label : " ");
        } else if (e->kind == EXHIBIT_PAIR) {
            sb_adds(md, label);
            for (size_t w = exhibit_width(label, SIZE_MAX); w < lw + 2; w++)
                sb_addc(md, ' ');
        }
        sb_adds(md, r->text);
        sb_addc(md, '\n');
        if (e->kind == EXHIBIT_CODE && r->hl_end > r->hl_start) {
            for (size_t w = exhibit_width(r->text, (size_t)r->hl_start); w > 0; w--)
                sb_addc(md, ' ');
            for (size_t w = exhibit_width(r->text + r->hl_start, (size_t)(r->hl_end - r->hl_start));
                 w > 0; w--)
                sb_addc(md, '^');
            sb_addc(md, '\n');
        }
    }
    md_fence(md, fence, "");
    md->buf[--md->len] = '\0'; /* the closing fence's newline: blocks end without one */
}

/* A chain: a numbered list, each step its role, its place and its code. */
static void md_chain(strbuf *md, const exhibit *e, exhibit_link_fn link, void *ctx)
{
    sb_addc(md, '\n');
    for (size_t i = 0; i < e->nrows; i++) {
        const exhibit_row *r = &e->rows[i];
        sb_addf(md, "\n%zu. ", i + 1);
        if (r->label && *r->label) {
            sb_adds(md, "**");
            md_escape(md, r->label);
            sb_adds(md, "**");
        }
        if (r->path) {
            sb_adds(md, r->label && *r->label ? " — " : "");
            md_place(md, r->path, r->line, link, ctx);
        }
        if (*r->text) {
            sb_adds(md, ": ");
            md_code_span(md, r->text);
        }
    }
}

size_t exhibit_markdown(strbuf *md, const exhibit *ex, size_t n, exhibit_detail detail,
                        exhibit_link_fn link, void *ctx)
{
    size_t left = 0;
    if (detail == EXHIBIT_TITLES) {
        sb_addc(md, '\n');
        for (size_t i = 0; i < n; i++)
            sb_addf(md, "\n- %s", ex[i].title);
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        const exhibit *e = &ex[i];
        sb_addf(md, "\n\n**%s**", e->title);
        size_t hidden = 0;
        if (e->kind == EXHIBIT_TABLE)
            hidden = md_table(md, e, detail == EXHIBIT_COMPACT, link, ctx);
        else if (e->kind == EXHIBIT_CHAIN)
            md_chain(md, e, link, ctx);
        else
            md_block(md, e);
        if (e->kind != EXHIBIT_TABLE && e->kind != EXHIBIT_CHAIN)
            md_places(md, e, link, ctx);
        if (hidden + e->nomitted)
            sb_addf(md, "\n\n*%zu more row%s not shown*", hidden + e->nomitted,
                    hidden + e->nomitted == 1 ? "" : "s");
        left += hidden + e->nomitted;
    }
    return left;
}
