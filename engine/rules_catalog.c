/* Rule catalogue reader (rules_catalog.h). One pass over the Markdown: `### ` headings set
 * the category, `**ID — Title** <marker>` lines open rule blocks that run to the next block
 * or heading, and rows of the table under `### Housekeeping` are the HK rules. */
#include "engine/rules_catalog.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util.h"

extern const unsigned char embedded_rules_md[];
extern const size_t embedded_rules_md_len;

#define EM_DASH "\xE2\x80\x94"

typedef struct line_view {
    const char *s;
    size_t n;
} line_view;

/* Split text into lines (without "\n" or a trailing "\r"). */
static line_view *split_lines(const char *text, size_t len, size_t *count)
{
    line_view *v = NULL;
    size_t n = 0, cap = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        size_t k = (size_t)(e - p);
        if (k && p[k - 1] == '\r')
            k--;
        line_view *lv = ARRAY_PUSH(v, n, cap);
        lv->s = p;
        lv->n = k;
        p = nl ? nl + 1 : end;
    }
    *count = n;
    return v;
}

/* Length of a rule id ([A-Z]+[0-9]+[a-z]?) at s, or 0. */
static size_t id_len(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] >= 'A' && s[i] <= 'Z')
        i++;
    if (i == 0)
        return 0;
    size_t d = i;
    while (i < n && isdigit((unsigned char)s[i]))
        i++;
    if (i == d)
        return 0;
    if (i < n && s[i] >= 'a' && s[i] <= 'z')
        i++;
    return i;
}

/* Length of an evidence id made of capitals and dashes ("UNRESOLVED-IMPORT"), or 0. */
static size_t word_id_len(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (i > 0 && s[i] == '-')))
        i++;
    return i >= 2 && s[i - 1] != '-' ? i : 0;
}

/* If the line opens a rule block ("**ID — "), return the id length (id starts at s+2). Ids
 * are the original's ([A-Z]+digits[a-z]?) or our evidence ids of capitals and dashes. */
static size_t block_start(line_view l)
{
    if (l.n < 4 || l.s[0] != '*' || l.s[1] != '*')
        return 0;
    size_t k = id_len(l.s + 2, l.n - 2);
    if (!k)
        k = word_id_len(l.s + 2, l.n - 2);
    if (!k)
        return 0;
    const char *after = l.s + 2 + k;
    size_t rest = l.n - 2 - k;
    if (rest >= 5 && after[0] == ' ' && memcmp(after + 1, EM_DASH, 3) == 0 && after[4] == ' ')
        return k;
    return 0;
}

static bool is_heading(line_view l, const char *prefix)
{
    size_t k = strlen(prefix);
    return l.n >= k && memcmp(l.s, prefix, k) == 0;
}

/* Find the first housekeeping id token (HK + digits + optional lower letter, not followed by
 * another word character) in a table row. */
static bool find_hk_id(line_view l, size_t *at, size_t *len)
{
    for (size_t i = 0; i + 3 <= l.n; i++) {
        if (l.s[i] != 'H' || l.s[i + 1] != 'K')
            continue;
        if (i > 0 && (isalnum((unsigned char)l.s[i - 1]) || l.s[i - 1] == '_'))
            continue;
        size_t k = id_len(l.s + i, l.n - i);
        if (k < 3)
            continue;
        if (i + k < l.n && (isalnum((unsigned char)l.s[i + k]) || l.s[i + k] == '_'))
            continue;
        *at = i;
        *len = k;
        return true;
    }
    return false;
}

static void add_rule(rule_catalog *c, char *id, char *title, const char *category, severity sev,
                     char *text, int line)
{
    if (catalog_find(c, id)) {
        free(id);
        free(title);
        free(text);
        return;
    }
    rule_entry *r = ARRAY_PUSH(c->rules, c->n, c->cap);
    r->id = id;
    r->title = title;
    r->category = xstrdup(category ? category : "");
    r->sev = sev;
    r->text = text;
    r->line = line;
}

/* Title of a housekeeping row: its first cell, minus the id and a following dash. */
static char *hk_title(line_view l, size_t at, size_t len)
{
    const char *p = l.s + at + len;
    const char *end = l.s + l.n;
    const char *bar = memchr(p, '|', (size_t)(end - p));
    if (bar)
        end = bar;
    while (p < end && (*p == ' ' || *p == '*' || *p == '`'))
        p++;
    if (end - p >= 3 && memcmp(p, EM_DASH, 3) == 0)
        p += 3;
    else if (p < end && (*p == '-' || *p == ':'))
        p++;
    char *t = xstrndup(p, (size_t)(end - p));
    char *s = str_strip(t);
    free(t);
    size_t k = strlen(s);
    while (k > 0 && (s[k - 1] == '*' || s[k - 1] == '`' || s[k - 1] == ' '))
        s[--k] = '\0';
    return s;
}

rule_catalog *catalog_parse(const char *text, size_t len, const char *path, char **cause)
{
    rule_catalog *c = xcalloc(1, sizeof *c);
    c->path = xstrdup(path);
    c->source = xstrndup(text, len);
    c->source_len = len;
    size_t nl;
    line_view *lines = split_lines(c->source, len, &nl);
    char *category = NULL;
    bool in_hk = false;
    int hk_pipe_lines = 0;
    line_view hk_head[2] = {{0}};

    size_t i = 0;
    while (i < nl) {
        line_view l = lines[i];
        if (is_heading(l, "### ")) {
            free(category);
            category = xstrndup(l.s + 4, l.n - 4);
            in_hk = str_starts(category, "Housekeeping");
            hk_pipe_lines = 0;
            i++;
            continue;
        }
        if (is_heading(l, "## ") || is_heading(l, "# ")) {
            in_hk = false;
            i++;
            continue;
        }
        size_t k = block_start(l);
        if (k) {
            char *id = xstrndup(l.s + 2, k);
            const char *t = l.s + 2 + k + 5;
            const char *end = l.s + l.n;
            const char *close = NULL;
            for (const char *q = t; q + 1 < end; q++)
                if (q[0] == '*' && q[1] == '*') {
                    close = q;
                    break;
                }
            char *title = xstrndup(t, (size_t)((close ? close : end) - t));
            char *tt = str_strip(title);
            free(title);
            if (!tt[0]) {
                *cause = xasprintf("%s:%zu: rule %s has no title", path, i + 1, id);
                free(tt);
                free(id);
                goto fail;
            }
            char *rest = xstrndup(close ? close : end, (size_t)(end - (close ? close : end)));
            severity sev = severity_from_marker(rest, SEV_HINT);
            free(rest);
            size_t j = i + 1;
            while (j < nl && !block_start(lines[j]) && !is_heading(lines[j], "### ") &&
                   !is_heading(lines[j], "## "))
                j++;
            size_t e = j;
            while (e > i + 1 && lines[e - 1].n == 0)
                e--;
            const char *from = l.s;
            const char *to = lines[e - 1].s + lines[e - 1].n;
            add_rule(c, id, tt, category, sev, xstrndup(from, (size_t)(to - from)), (int)i + 1);
            i = j;
            continue;
        }
        if (in_hk && l.n > 0 && l.s[0] == '|') {
            if (hk_pipe_lines < 2) {
                hk_head[hk_pipe_lines++] = l;
            } else {
                size_t at, len2;
                if (find_hk_id(l, &at, &len2)) {
                    char *id = xstrndup(l.s + at, len2);
                    char *title = hk_title(l, at, len2);
                    char *block = xasprintf("%.*s\n%.*s\n%.*s", (int)hk_head[0].n, hk_head[0].s,
                                            (int)hk_head[1].n, hk_head[1].s, (int)l.n, l.s);
                    char *row = xstrndup(l.s, l.n);
                    severity sev = severity_from_marker(row, SEV_HINT);
                    free(row);
                    add_rule(c, id, title, category, sev, block, (int)i + 1);
                }
            }
        }
        i++;
    }
    if (c->n == 0) {
        *cause = xasprintf("%s:1: no rule blocks (`**ID \xE2\x80\x94 Title**`) found", path);
        goto fail;
    }
    free(category);
    free(lines);
    return c;
fail:
    free(category);
    free(lines);
    catalog_free(c);
    return NULL;
}

rule_catalog *catalog_bundled(void)
{
    char *cause = NULL;
    rule_catalog *c = catalog_parse((const char *)embedded_rules_md, embedded_rules_md_len,
                                    "(bundled rules.md)", &cause);
    if (!c) {
        /* The bundled file is checked by the tests; an empty catalogue keeps the tool running. */
        free(cause);
        c = xcalloc(1, sizeof *c);
        c->path = xstrdup("(bundled rules.md)");
        c->source = xstrdup("");
    }
    return c;
}

rule_catalog *catalog_load(const char *path, char **cause)
{
    size_t len;
    char *why = NULL;
    char *text = read_file(path, 8u << 20, &len, &why);
    if (!text) {
        *cause = xasprintf("cannot read rules file %s; using the bundled rules", why);
        free(why);
        return catalog_bundled();
    }
    rule_catalog *c = catalog_parse(text, len, path, &why);
    free(text);
    if (!c) {
        *cause = xasprintf("%s; using the bundled rules", why);
        free(why);
        return catalog_bundled();
    }
    *cause = NULL;
    return c;
}

void catalog_free(rule_catalog *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->rules[i].id);
        free(c->rules[i].title);
        free(c->rules[i].category);
        free(c->rules[i].text);
    }
    free(c->rules);
    free(c->path);
    free(c->source);
    free(c);
}

const rule_entry *catalog_find(const rule_catalog *c, const char *id)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->rules[i].id, id) == 0)
            return &c->rules[i];
    return NULL;
}

/* Case-insensitive Levenshtein distance of two short strings. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 32 || lb > 32)
        return 99;
    size_t d[33][33];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            d[i][j] = v;
        }
    return d[la][lb];
}

size_t catalog_near(const rule_catalog *c, const char *id, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t dist = 0; dist <= 2 && n < max; dist++)
        for (size_t i = 0; i < c->n && n < max; i++)
            if (edit_distance(id, c->rules[i].id) == dist)
                out[n++] = c->rules[i].id;
    return n;
}
