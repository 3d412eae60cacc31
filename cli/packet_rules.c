/* rules.txt and rules_expanded.txt of the review packet (packet.h). rules_expanded.txt follows
 * the original triage's `expand` exactly, so the same rules.txt and rules file give the same
 * bytes: the wanted ids are the rule-shaped tokens of rules.txt's family lines; the blocks
 * (`**ID — ` up to the next block or heading) of those ids are copied in the rules file's
 * order, each category heading written once before its first block; housekeeping rules, which
 * are table rows, come last under their table's header. */
#include <stdlib.h>
#include <string.h>

#include "cli/packet.h"

void packet_rules_txt(const cli_review *cr, strbuf *out)
{
    derive_format(&cr->rev->derived, out);
}

typedef struct line_ref {
    const char *s;
    size_t len;
} line_ref;

typedef struct id_set {
    char **v;
    size_t n, cap;
} id_set;

static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

/* Length of a rule id ([A-Z]+[0-9]+[a-z]?) at s (within n bytes), or 0. */
static size_t rule_id_len(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && is_upper(s[i]))
        i++;
    if (!i || i == n || !is_digit(s[i]))
        return 0;
    while (i < n && is_digit(s[i]))
        i++;
    if (i < n && is_lower(s[i]))
        i++;
    return i;
}

static bool set_has(const id_set *s, const char *id, size_t n)
{
    for (size_t i = 0; i < s->n; i++)
        if (strlen(s->v[i]) == n && !strncmp(s->v[i], id, n))
            return true;
    return false;
}

static void set_add(id_set *s, const char *id, size_t n)
{
    if (!set_has(s, id, n))
        *ARRAY_PUSH(s->v, s->n, s->cap) = xstrndup(id, n);
}

static void set_free(id_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The wanted ids: of each line "  [family  ] A1 B2 ...", the whitespace-separated tokens that
 * are whole rule ids (STEP4 is one; NONE is not). */
static void wanted_ids(const char *t, size_t len, id_set *want)
{
    const char *end = t + len;
    for (const char *ls = t; ls < end;) {
        const char *le = memchr(ls, '\n', (size_t)(end - ls));
        const char *e = le ? le : end;
        const char *p = ls;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p < e && *p == '[') {
            const char *q = p + 1;
            while (q < e && (is_upper(*q) || is_lower(*q) || is_digit(*q) || *q == '_' || *q == '-'))
                q++;
            while (q < e && (*q == ' ' || *q == '\t'))
                q++;
            if (q > p + 1 && q < e && *q == ']') {
                for (q++; q < e;) {
                    while (q < e && (*q == ' ' || *q == '\t'))
                        q++;
                    const char *w = q;
                    while (q < e && *q != ' ' && *q != '\t')
                        q++;
                    size_t n = (size_t)(q - w);
                    if (n && rule_id_len(w, n) == n)
                        set_add(want, w, n);
                }
            }
        }
        ls = le ? le + 1 : end;
    }
}

/* Split text into lines as Python's str.split("\n") does after universal newlines. */
static line_ref *split_lines(const char *t, size_t len, size_t *n)
{
    size_t cap = 0;
    line_ref *v = NULL;
    *n = 0;
    const char *end = t + len;
    for (const char *ls = t;;) {
        const char *le = memchr(ls, '\n', (size_t)(end - ls));
        const char *e = le ? le : end;
        size_t l = (size_t)(e - ls);
        if (l && ls[l - 1] == '\r')
            l--;
        *ARRAY_PUSH(v, *n, cap) = (line_ref){ls, l};
        if (!le)
            break;
        ls = le + 1;
    }
    return v;
}

static bool line_starts(const line_ref *l, const char *p)
{
    size_t n = strlen(p);
    return l->len >= n && !strncmp(l->s, p, n);
}

/* The id of a rule block's first line ("**D4 — Title** ..."), its length in *n, or NULL. */
static const char *block_id(const line_ref *l, size_t *n)
{
    static const char DASH[] = " \xe2\x80\x94 "; /* " — " */
    if (!line_starts(l, "**"))
        return NULL;
    size_t k = rule_id_len(l->s + 2, l->len - 2);
    if (!k || l->len < 2 + k + 5 || strncmp(l->s + 2 + k, DASH, 5))
        return NULL;
    *n = k;
    return l->s + 2;
}

/* The housekeeping table of the rules file: its two header lines and, per HK id, the first
 * table row naming it. */
typedef struct hk_table {
    const line_ref *head[2];
    size_t nhead;
    id_set ids;
    const line_ref **rows;
    size_t nrows, rows_cap;
} hk_table;

static void read_housekeeping(const line_ref *lines, size_t n, hk_table *hk)
{
    bool in_hk = false;
    for (size_t i = 0; i < n; i++) {
        const line_ref *l = &lines[i];
        if (line_starts(l, "### Housekeeping")) {
            in_hk = true;
            continue;
        }
        if (in_hk && line_starts(l, "### "))
            in_hk = false;
        if (!in_hk || !line_starts(l, "|"))
            continue;
        if (hk->nhead < 2)
            hk->head[hk->nhead++] = l;
        for (size_t k = 0; k + 2 < l->len; k++) {
            if (strncmp(l->s + k, "HK", 2) || !is_digit(l->s[k + 2]) || (k && (is_upper(l->s[k - 1]) || is_lower(l->s[k - 1]) ||
                                                     is_digit(l->s[k - 1]) || l->s[k - 1] == '_')))
                continue;
            size_t m = rule_id_len(l->s + k, l->len - k);
            const char *after = l->s + k + m;
            bool ends = k + m == l->len || !(is_upper(*after) || is_lower(*after) ||
                                             is_digit(*after) || *after == '_');
            if (m > 2 && ends && !set_has(&hk->ids, l->s + k, m)) {
                set_add(&hk->ids, l->s + k, m);
                *ARRAY_PUSH(hk->rows, hk->nrows, hk->rows_cap) = l;
            }
        }
    }
}

static void add_line(strbuf *out, const line_ref *l, bool *first)
{
    if (!*first)
        sb_addc(out, '\n');
    *first = false;
    sb_add(out, l->s, l->len);
}

static void add_text_line(strbuf *out, const char *s, bool *first)
{
    line_ref l = {s, strlen(s)};
    add_line(out, &l, first);
}

/* The blocks of the wanted ids in file order, each under its category heading. */
static void copy_blocks(const line_ref *lines, size_t n, const id_set *want, id_set *emitted,
                        strbuf *out, bool *first)
{
    const line_ref *heading = NULL, *last_head = NULL;
    for (size_t i = 0; i < n; i++) {
        if (line_starts(&lines[i], "### "))
            heading = &lines[i];
        size_t idn;
        const char *id = block_id(&lines[i], &idn);
        if (!id || !set_has(want, id, idn))
            continue;
        size_t j = i + 1;
        while (j < n && !block_id(&lines[j], &(size_t){0}))
            j++;
        size_t k = i;
        while (k < j && !line_starts(&lines[k], "### ") && !line_starts(&lines[k], "## "))
            k++;
        if (heading && (!last_head || heading->len != last_head->len ||
                        strncmp(heading->s, last_head->s, heading->len))) {
            last_head = heading;
            add_line(out, heading, first);
            add_text_line(out, "", first);
        }
        for (size_t m = i; m < k; m++)
            add_line(out, &lines[m], first);
        *ARRAY_PUSH(emitted->v, emitted->n, emitted->cap) = xstrndup(id, idn);
    }
}

size_t packet_rules_expanded(const char *rules_txt, size_t rlen, const char *md, size_t mlen,
                             strbuf *out, char **missing)
{
    id_set want = {0}, emitted = {0};
    wanted_ids(rules_txt, rlen, &want);
    if (want.n)
        qsort(want.v, want.n, sizeof *want.v, str_cmp);
    size_t n;
    line_ref *lines = split_lines(md, mlen, &n);
    strbuf body;
    sb_init(&body);
    bool first = true;
    copy_blocks(lines, n, &want, &emitted, &body, &first);
    hk_table hk = {0};
    read_housekeeping(lines, n, &hk);
    bool any_hk = false;
    for (size_t i = 0; i < want.n; i++) /* sorted, as the original */
        for (size_t k = 0; k < hk.ids.n; k++)
            if (!strcmp(want.v[i], hk.ids.v[k])) {
                if (!any_hk) {
                    add_text_line(&body, "", &first);
                    add_text_line(&body, "### Housekeeping (quick scan)", &first);
                    add_text_line(&body, "", &first);
                    for (size_t h = 0; h < hk.nhead; h++)
                        add_line(&body, hk.head[h], &first);
                    any_hk = true;
                }
                add_line(&body, hk.rows[k], &first);
                *ARRAY_PUSH(emitted.v, emitted.n, emitted.cap) = xstrdup(want.v[i]);
            }
    while (body.len && (body.buf[body.len - 1] == '\n' || body.buf[body.len - 1] == ' ' ||
                        body.buf[body.len - 1] == '\t' || body.buf[body.len - 1] == '\r'))
        body.len--;
    sb_add(out, body.buf, body.len);
    sb_addc(out, '\n');
    strbuf miss;
    sb_init(&miss);
    for (size_t i = 0; i < want.n; i++)
        if (strcmp(want.v[i], "STEP4") && !set_has(&emitted, want.v[i], strlen(want.v[i])))
            sb_addf(&miss, "%s%s", miss.len ? " " : "", want.v[i]);
    *missing = miss.len ? sb_detach(&miss) : NULL;
    sb_free(&miss);
    size_t count = emitted.n;
    sb_free(&body);
    free(lines);
    free(hk.rows);
    set_free(&hk.ids);
    set_free(&want);
    set_free(&emitted);
    return count;
}
