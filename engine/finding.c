/* The finding model of finding.h: building lists, sorting, and severity names. */
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

finding *findings_copy(finding_list *l, const finding *src)
{
    finding *f = ARRAY_PUSH(l->items, l->n, l->cap);
    *f = *src;
    f->rule_id = xstrdup(src->rule_id);
    f->path = xstrdup(src->path);
    f->message = xstrdup(src->message);
    f->collector = src->collector ? xstrdup(src->collector) : NULL;
    f->severity_note = src->severity_note ? xstrdup(src->severity_note) : NULL;
    f->related = NULL;
    f->nrelated = f->related_cap = 0;
    for (size_t i = 0; i < src->nrelated; i++) {
        related_location *r = ARRAY_PUSH(f->related, f->nrelated, f->related_cap);
        r->path = xstrdup(src->related[i].path);
        r->range = src->related[i].range;
        r->message = xstrdup(src->related[i].message);
    }
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

void finding_clear(finding *f)
{
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
