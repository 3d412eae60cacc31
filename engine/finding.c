/* The finding model of finding.h: building lists, deep copies, exhibits (their caps and the
 * cleaning of their text), sorting, and severity names. */
#include "engine/finding.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/utf8.h"
#include "engine/util.h"

/* A message from a format: quoted code may hold bytes that are not UTF-8, which every output
 * face but plain text would have to drop, so they become U+FFFD here, once for all faces. */
static char *message_of(const char *fmt, va_list ap)
{
    char *raw = xvasprintf(fmt, ap);
    if (utf8_valid(raw, strlen(raw)))
        return raw;
    char *safe = utf8_sanitize(raw);
    free(raw);
    return safe;
}

finding *findings_add(finding_list *l, const char *rule_id, severity sev, const char *path,
                      int line, const char *fmt, ...)
{
    finding *f = ARRAY_PUSH(l->items, l->n, l->cap);
    memset(f, 0, sizeof *f);
    f->rule_id = xstrdup(rule_id);
    f->sev = sev;
    f->path = xstrdup(path);
    f->range.line = line;
    f->range.col = 0;
    f->range.end_line = line + 1;
    f->range.end_col = 0;
    va_list ap;
    va_start(ap, fmt);
    f->message = message_of(fmt, ap);
    va_end(ap);
    return f;
}

void finding_add_related(finding *f, const char *path, int line, const char *fmt, ...)
{
    related_location *r = ARRAY_PUSH(f->related, f->nrelated, f->related_cap);
    r->path = xstrdup(path);
    r->range.line = line;
    r->range.col = 0;
    r->range.end_line = line + 1;
    r->range.end_col = 0;
    va_list ap;
    va_start(ap, fmt);
    r->message = message_of(fmt, ap);
    va_end(ap);
}

/* Copy a related location. */
static void related_copy(related_location *dst, const related_location *src)
{
    dst->path = xstrdup(src->path);
    dst->range = src->range;
    dst->message = xstrdup(src->message);
}

void finding_copy(finding *dst, const finding *src)
{
    *dst = *src;
    dst->rule_id = xstrdup(src->rule_id);
    dst->path = xstrdup(src->path);
    dst->message = xstrdup(src->message);
    dst->collector = src->collector ? xstrdup(src->collector) : NULL;
    dst->severity_note = src->severity_note ? xstrdup(src->severity_note) : NULL;
    dst->related = NULL;
    dst->nrelated = dst->related_cap = 0;
    for (size_t i = 0; i < src->nrelated; i++)
        related_copy(ARRAY_PUSH(dst->related, dst->nrelated, dst->related_cap), &src->related[i]);
    dst->exhibits = NULL;
    dst->nexhibits = dst->exhibits_cap = 0;
    for (size_t i = 0; i < src->nexhibits; i++)
        exhibit_copy(ARRAY_PUSH(dst->exhibits, dst->nexhibits, dst->exhibits_cap),
                     &src->exhibits[i]);
}

finding *findings_copy(finding_list *l, const finding *src)
{
    finding *f = ARRAY_PUSH(l->items, l->n, l->cap);
    finding_copy(f, src);
    return f;
}

void findings_take(finding_list *dst, finding_list *src)
{
    for (size_t k = 0; k < src->n; k++)
        *ARRAY_PUSH(dst->items, dst->n, dst->cap) = src->items[k];
    free(src->items);
    *src = (finding_list){0};
}

void finding_clear(finding *f)
{
    for (size_t i = 0; i < f->nexhibits; i++)
        exhibit_clear(&f->exhibits[i]);
    free(f->exhibits);
    free(f->rule_id);
    free(f->path);
    free(f->message);
    free(f->collector);
    free(f->severity_note);
    for (size_t i = 0; i < f->nrelated; i++) {
        free(f->related[i].path);
        free(f->related[i].message);
    }
    free(f->related);
}

void findings_clear(finding_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        finding_clear(&l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* --- exhibits ----------------------------------------------------------------------------- */

/* The length of the valid UTF-8 sequence at p (at most n bytes), or 0 when it is not one. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
    size_t len = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3
               : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (!len || len > n || (len == 2 && p[0] < 0xC2))
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if (len == 3 && ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0)))
        return 0; /* overlong, or a UTF-16 surrogate */
    if (len == 4 && ((p[0] == 0xF0 && p[1] < 0x90) || p[0] > 0xF4 || (p[0] == 0xF4 && p[1] >= 0x90)))
        return 0;
    return len;
}

/* A clean copy of the n bytes at s: invalid UTF-8 replaced by U+FFFD, control characters
 * (tabs too) by spaces, cut at a character boundary after at most max bytes with "…". The
 * byte offsets *a and *b (may be NULL) into s are moved to the same characters of the copy. */
static char *clean_text(const char *s, size_t n, size_t max, int *a, int *b)
{
    strbuf sb;
    sb_init(&sb);
    const unsigned char *p = (const unsigned char *)s;
    int na = -1, nb = -1;
    for (size_t i = 0; i < n;) {
        if (a && (size_t)*a == i)
            na = (int)sb.len;
        if (b && (size_t)*b == i)
            nb = (int)sb.len;
        size_t k = utf8_seq(p + i, n - i);
        if (sb.len + (k ? k : 3) > max) {
            sb_adds(&sb, "\xE2\x80\xA6"); /* … */
            break;
        }
        if (k == 1 && (p[i] < 0x20 || p[i] == 0x7F))
            sb_addc(&sb, ' ');
        else if (k)
            sb_add(&sb, s + i, k);
        else
            sb_adds(&sb, "\xEF\xBF\xBD"); /* U+FFFD */
        i += k ? k : 1;
    }
    if (a)
        *a = na >= 0 ? na : (int)sb.len;
    if (b)
        *b = nb >= 0 ? nb : (int)sb.len;
    return sb_detach(&sb);
}

/* clean_text of a whole string (NULL stays NULL). */
static char *clean(const char *s, size_t max)
{
    return s ? clean_text(s, strlen(s), max, NULL, NULL) : NULL;
}

exhibit *finding_add_exhibit(finding *f, exhibit_kind kind, const char *fmt, ...)
{
    exhibit *e = ARRAY_PUSH(f->exhibits, f->nexhibits, f->exhibits_cap);
    memset(e, 0, sizeof *e);
    e->kind = kind;
    va_list ap;
    va_start(ap, fmt);
    char *t = xvasprintf(fmt, ap);
    va_end(ap);
    e->title = clean(t, EXHIBIT_TEXT_MAX);
    free(t);
    return e;
}

void exhibit_columns(exhibit *e, size_t n, const char *const *names)
{
    if (e->columns || e->nrows)
        return;
    e->columns = xcalloc(n ? n : 1, sizeof *e->columns);
    e->ncolumns = n;
    for (size_t i = 0; i < n; i++)
        e->columns[i] = clean(names[i] ? names[i] : "", EXHIBIT_TEXT_MAX);
}

/* A new empty row, or NULL (counted) over the cap. */
static exhibit_row *new_row(exhibit *e)
{
    if (e->nrows >= EXHIBIT_MAX_ROWS) {
        e->nomitted++;
        return NULL;
    }
    exhibit_row *r = ARRAY_PUSH(e->rows, e->nrows, e->rows_cap);
    memset(r, 0, sizeof *r);
    return r;
}

exhibit_row *exhibit_add_cells(exhibit *e, const char *const *cells)
{
    exhibit_row *r = new_row(e);
    if (!r)
        return NULL;
    r->cells = xcalloc(e->ncolumns ? e->ncolumns : 1, sizeof *r->cells);
    for (size_t i = 0; i < e->ncolumns; i++)
        r->cells[i] = clean(cells[i] ? cells[i] : "", EXHIBIT_TEXT_MAX);
    return r;
}

exhibit_row *exhibit_add_line(exhibit *e, const char *label, const char *path, int line,
                              const char *text)
{
    exhibit_row *r = new_row(e);
    if (!r)
        return NULL;
    r->label = clean(label, EXHIBIT_TEXT_MAX);
    r->text = clean(text ? text : "", EXHIBIT_TEXT_MAX);
    exhibit_row_place(r, path, line);
    return r;
}

exhibit_row *exhibit_add_code(exhibit *e, const char *path, int line, const char *text,
                              size_t hl_start, size_t hl_end)
{
    exhibit_row *r = new_row(e);
    if (!r)
        return NULL;
    size_t n = strlen(text);
    hl_end = hl_end < n ? hl_end : n;
    hl_start = hl_start < hl_end ? hl_start : hl_end;
    /* a span far along a long line: start the copy a little before it, after "…" */
    size_t from = 0;
    if (hl_end > EXHIBIT_TEXT_MAX - 8 && hl_start > 40) {
        from = hl_start - 40;
        while (from < hl_start && ((unsigned char)text[from] & 0xC0) == 0x80)
            from++;
    }
    int a = (int)(hl_start - from), b = (int)(hl_end - from);
    char *body = clean_text(text + from, n - from, EXHIBIT_TEXT_MAX - 3, &a, &b);
    if (from) {
        r->text = xasprintf("\xE2\x80\xA6%s", body); /* … */
        a += 3;
        b += 3;
        free(body);
    } else {
        r->text = body;
    }
    r->hl_start = a;
    r->hl_end = b;
    exhibit_row_place(r, path, line);
    return r;
}

void exhibit_row_mark(exhibit_row *r, const char *fmt, ...)
{
    if (!r)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *m = xvasprintf(fmt, ap);
    va_end(ap);
    free(r->mark);
    r->mark = clean(m, EXHIBIT_TEXT_MAX);
    free(m);
}

void exhibit_row_place(exhibit_row *r, const char *path, int line)
{
    if (!r)
        return;
    free(r->path);
    r->path = path ? xstrdup(path) : NULL;
    r->line = path ? line : 0;
}

/* A copy of an array of n strings (NULL stays NULL). */
static char **strv_copy(char *const *v, size_t n)
{
    if (!v)
        return NULL;
    char **out = xcalloc(n ? n : 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = xstrdup(v[i]);
    return out;
}

/* Free an array of n strings. */
static void strv_free(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

void exhibit_copy(exhibit *dst, const exhibit *src)
{
    *dst = *src;
    dst->title = src->title ? xstrdup(src->title) : NULL;
    dst->columns = strv_copy(src->columns, src->ncolumns);
    dst->rows = src->nrows ? xcalloc(src->nrows, sizeof *dst->rows) : NULL;
    dst->rows_cap = src->nrows;
    for (size_t i = 0; i < src->nrows; i++) {
        const exhibit_row *s = &src->rows[i];
        exhibit_row *d = &dst->rows[i];
        *d = *s;
        d->cells = strv_copy(s->cells, src->ncolumns);
        d->label = s->label ? xstrdup(s->label) : NULL;
        d->text = s->text ? xstrdup(s->text) : NULL;
        d->mark = s->mark ? xstrdup(s->mark) : NULL;
        d->path = s->path ? xstrdup(s->path) : NULL;
    }
}

void exhibit_clear(exhibit *e)
{
    for (size_t i = 0; i < e->nrows; i++) {
        exhibit_row *r = &e->rows[i];
        strv_free(r->cells, e->ncolumns);
        free(r->label);
        free(r->text);
        free(r->mark);
        free(r->path);
    }
    free(e->rows);
    strv_free(e->columns, e->ncolumns);
    free(e->title);
    memset(e, 0, sizeof *e);
}

const char *exhibit_kind_name(exhibit_kind k)
{
    static const char *const names[] = {"table", "diff", "pair", "code", "chain"};
    return (size_t)k < sizeof names / sizeof *names ? names[k] : "table";
}

/* --- order and severities ----------------------------------------------------------------- */

static int finding_cmp(const void *a, const void *b)
{
    const finding *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    if (c)
        return c;
    if (x->range.line != y->range.line)
        return x->range.line < y->range.line ? -1 : 1;
    if (x->range.col != y->range.col)
        return x->range.col < y->range.col ? -1 : 1;
    c = strcmp(x->rule_id, y->rule_id);
    if (c)
        return c;
    return strcmp(x->message, y->message);
}

void findings_sort(finding_list *l)
{
    if (l->n > 1)
        qsort(l->items, l->n, sizeof *l->items, finding_cmp);
}

const char *severity_name(severity s)
{
    switch (s) {
    case SEV_ERROR:
        return "error";
    case SEV_WARNING:
        return "warning";
    case SEV_INFORMATION:
        return "information";
    case SEV_HINT:
        return "hint";
    }
    return "hint";
}

int severity_parse(const char *s, severity *out)
{
    if (!strcmp(s, "error"))
        *out = SEV_ERROR;
    else if (!strcmp(s, "warning"))
        *out = SEV_WARNING;
    else if (!strcmp(s, "information") || !strcmp(s, "info"))
        *out = SEV_INFORMATION;
    else if (!strcmp(s, "hint"))
        *out = SEV_HINT;
    else
        return -1;
    return 0;
}

severity severity_from_marker(const char *text, severity dflt)
{
    const char *red = strstr(text, "\xF0\x9F\x94\xB4");  /* 🔴 */
    const char *warn = strstr(text, "\xE2\x9A\xA0");     /* ⚠ (with or without U+FE0F) */
    const char *note = strstr(text, "\xF0\x9F\x93\x9D"); /* 📝 */
    /* The first marker wins: "⚠️ (🔴 if Tier-1/2)" is a should-fix rule. */
    const char *best = NULL;
    severity s = dflt;
    if (red && (!best || red < best)) {
        best = red;
        s = SEV_WARNING;
    }
    if (warn && (!best || warn < best)) {
        best = warn;
        s = SEV_INFORMATION;
    }
    if (note && (!best || note < best)) {
        best = note;
        s = SEV_HINT;
    }
    return s;
}
