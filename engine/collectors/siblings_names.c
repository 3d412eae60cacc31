/* Which functions are variants of each other, and the naming suffix that tells two variants
 * apart (`_stage1` / `_stage2`, `_ksplit`, `_gfx1250`), for the sibling-drift collector.
 *
 * Names are the reference's test: two names sharing a run of at least 8 characters are a
 * family (`_decode` / `_prefill_opt`, `_2d` / `_3d`). A kernel nested in a builder usually has
 * the same plain name in every builder (`kernel` inside each `build_..._module`), so
 * functions of one name whose enclosing names are a family are variants too. The words that
 * differ between the two names are folded out of identifiers before lines are compared, so
 * `stage1_out` in one variant matches `stage2_out` in the other. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/collectors/siblings.h"
#include "engine/util.h"

#define MIN_COMMON 8 /* longest common run of two variant names (reference §5.4) */

size_t sib_common_run(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), best = 0;
    if (na > 200)
        na = 200;
    if (nb > 200)
        nb = 200;
    size_t *prev = xcalloc(nb + 1, sizeof *prev), *cur = xcalloc(nb + 1, sizeof *cur);
    for (size_t i = 1; i <= na; i++) {
        for (size_t j = 1; j <= nb; j++) {
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : 0;
            if (cur[j] > best)
                best = cur[j];
        }
        size_t *t = prev;
        prev = cur;
        cur = t;
    }
    free(prev);
    free(cur);
    return best;
}

/* The components of a qualified name ("a.b.c", "ns::A::f"), innermost last, as new strings in
 * a NULL-terminated array. */
static char **qual_parts(const char *q, size_t *n)
{
    char **out = NULL;
    size_t cap = 0;
    *n = 0;
    const char *s = q;
    while (*s) {
        const char *e = s;
        while (*e && *e != '.' && !(e[0] == ':' && e[1] == ':'))
            e++;
        *ARRAY_PUSH(out, *n, cap) = xstrndup(s, (size_t)(e - s));
        s = *e == '.' ? e + 1 : *e ? e + 2 : e;
    }
    *ARRAY_PUSH(out, *n, cap) = NULL;
    (*n)--;
    return out;
}

static void parts_free(char **p)
{
    for (size_t i = 0; p && p[i]; i++)
        free(p[i]);
    free(p);
}

/* True when a's span holds b's or b's holds a's. */
static bool nested(const syn_func *a, const syn_func *b)
{
    return (a->start_byte <= b->start_byte && b->end_byte <= a->end_byte) ||
           (b->start_byte <= a->start_byte && a->end_byte <= b->end_byte);
}

/* The innermost components of a's and b's qualified names that differ, found by walking both
 * outward together while they are equal; false when the names are equal all the way out or
 * differ in depth before they differ in name. */
static bool first_difference(const syn_func *a, const syn_func *b, char **da, char **db)
{
    size_t na, nb;
    char **pa = qual_parts(a->qualname, &na), **pb = qual_parts(b->qualname, &nb);
    bool ok = false;
    for (size_t i = 1; i <= na && i <= nb; i++) {
        if (strcmp(pa[na - i], pb[nb - i]) != 0) {
            *da = xstrdup(pa[na - i]);
            *db = xstrdup(pb[nb - i]);
            ok = true;
            break;
        }
    }
    parts_free(pa);
    parts_free(pb);
    return ok;
}

static char **words(const char *name, size_t *n);
static void parts_free(char **p);

/* True when the names share their first or their last underscore-separated word
 * (`psum_kernel` / `route_psum_fused_kernel`, `launch_psum` / `launch_psum_remap`). */
static bool share_end_word(const char *a, const char *b)
{
    size_t na, nb;
    char **wa = words(a, &na), **wb = words(b, &nb);
    bool v = na && nb && (strcmp(wa[0], wb[0]) == 0 || strcmp(wa[na - 1], wb[nb - 1]) == 0);
    parts_free(wa);
    parts_free(wb);
    return v;
}

/* The enclosing names of two nested functions: true when both are nested and their direct
 * parents' names are a family (differ, share a run of at least 8). */
static bool parents_are_family(const syn_func *a, const syn_func *b)
{
    if (a->depth < 1 || b->depth < 1 || a->depth != b->depth)
        return false;
    size_t na, nb;
    char **pa = qual_parts(a->qualname, &na), **pb = qual_parts(b->qualname, &nb);
    bool v = na >= 2 && nb >= 2 && strcmp(pa[na - 2], pb[nb - 2]) != 0 &&
             sib_common_run(pa[na - 2], pb[nb - 2]) >= MIN_COMMON;
    parts_free(pa);
    parts_free(pb);
    return v;
}

/* name without its `kernel` words (the parts between underscores), the other parts joined
 * as before: a new string. */
static char *without_kernel_word(const char *name)
{
    strbuf sb;
    sb_init(&sb);
    bool first = true;
    for (const char *s = name;;) {
        const char *e = s;
        while (*e && *e != '_')
            e++;
        if (!((size_t)(e - s) == 6 && strncasecmp(s, "kernel", 6) == 0)) {
            if (!first)
                sb_addc(&sb, '_');
            sb_add(&sb, s, (size_t)(e - s));
            first = false;
        }
        if (!*e)
            break;
        s = e + 1;
    }
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* True when two different names are a family: they share a run of at least MIN_COMMON
 * characters once the word `kernel` is left out of both (`mxfp4_quant_moe_sort_kernel` and
 * `moe_smooth_per_token_scaled_quant_kernel_v2` share only "t_kernel", which names no
 * family; `_decode_kernel` / `_prefill_opt_kernel` share far more). */
static bool names_family(const char *a, const char *b)
{
    char *sa = without_kernel_word(a), *sb = without_kernel_word(b);
    bool v = sib_common_run(sa, sb) >= MIN_COMMON;
    free(sa);
    free(sb);
    return v;
}

bool sib_names_may_vary(const char *a, bool a_nested, const char *b, bool b_nested)
{
    if (!*a || !*b)
        return false;
    /* the same name (qualified names may differ), a family of names, or nested functions
     * sharing an end word (their parents, unknown here, may be a family) */
    return strcmp(a, b) == 0 || names_family(a, b) || (a_nested && b_nested && share_end_word(a, b));
}

bool sib_is_variant(const syn_func *a, const syn_func *b)
{
    if (a == b || !*a->name || !*b->name || nested(a, b))
        return false;
    if (strcmp(a->name, b->name) != 0)
        return names_family(a->name, b->name) ||
               (parents_are_family(a, b) && share_end_word(a->name, b->name));
    char *da = NULL, *db = NULL;
    bool v = first_difference(a, b, &da, &db) && sib_common_run(da, db) >= MIN_COMMON;
    free(da);
    free(db);
    return v;
}

/* The underscore-separated words of a lower-cased name (leading/trailing underscores
 * dropped), NULL-terminated. */
static char **words(const char *name, size_t *n)
{
    char **out = NULL;
    size_t cap = 0;
    *n = 0;
    for (const char *s = name; *s;) {
        while (*s == '_')
            s++;
        const char *e = s;
        while (*e && *e != '_')
            e++;
        if (e > s) {
            char *w = xstrndup(s, (size_t)(e - s));
            for (char *p = w; *p; p++)
                *p = (char)tolower((unsigned char)*p);
            *ARRAY_PUSH(out, *n, cap) = w;
        }
        s = e;
    }
    *ARRAY_PUSH(out, *n, cap) = NULL;
    (*n)--;
    return out;
}

bool sib_name_has_word(const char *name, const char *word)
{
    size_t n;
    char **w = words(name, &n);
    bool has = false;
    for (size_t i = 0; i < n && !has; i++)
        has = strcmp(w[i], word) == 0;
    parts_free(w);
    return has;
}

/* words[from, to) joined with '_' as a new string. */
static char *join(char **w, size_t from, size_t to)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = from; i < to; i++) {
        if (i > from)
            sb_addc(&sb, '_');
        sb_adds(&sb, w[i]);
    }
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

void sib_naming_words(const syn_func *a, const syn_func *b, char **wa, char **wb)
{
    char *na = NULL, *nb = NULL;
    if (strcmp(a->name, b->name) != 0 || !first_difference(a, b, &na, &nb)) {
        na = xstrdup(a->name);
        nb = xstrdup(b->name);
    }
    size_t ka, kb;
    char **pa = words(na, &ka), **pb = words(nb, &kb);
    size_t pre = 0, suf = 0;
    while (pre < ka && pre < kb && strcmp(pa[pre], pb[pre]) == 0)
        pre++;
    while (suf < ka - pre && suf < kb - pre && strcmp(pa[ka - 1 - suf], pb[kb - 1 - suf]) == 0)
        suf++;
    *wa = join(pa, pre, ka - suf);
    *wb = join(pb, pre, kb - suf);
    parts_free(pa);
    parts_free(pb);
    free(na);
    free(nb);
}

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

/* Append identifier id to sb with the parts spelling word removed (case-insensitively, whole
 * parts only); unchanged when word does not occur in it. */
static void fold_ident(strbuf *sb, const char *id, size_t len, char **ww, size_t nw)
{
    char *copy = xstrndup(id, len);
    size_t np;
    char **parts = words(copy, &np);
    size_t at = np;
    for (size_t i = 0; nw > 0 && i + nw <= np && at == np; i++) {
        size_t k = 0;
        while (k < nw && strcmp(parts[i + k], ww[k]) == 0)
            k++;
        if (k == nw)
            at = i;
    }
    if (at == np || (at == 0 && nw == np)) {
        /* absent, or the whole identifier (a variable named `ksplit` is kept) */
        sb_add(sb, id, len);
    } else {
        /* cut the matched parts out of the identifier as written (its other parts keep
         * their case) */
        size_t part = 0, i = 0, cut_from = len, cut_to = len;
        while (i < len) {
            while (i < len && id[i] == '_')
                i++;
            size_t s = i;
            while (i < len && id[i] != '_')
                i++;
            if (i > s) {
                if (part == at)
                    cut_from = s;
                if (part == at + nw - 1)
                    cut_to = i;
                part++;
            }
        }
        /* drop one joining underscore with the span */
        if (cut_to < len && id[cut_to] == '_')
            cut_to++;
        else if (cut_from > 0 && id[cut_from - 1] == '_')
            cut_from--;
        sb_add(sb, id, cut_from);
        sb_add(sb, id + cut_to, len - cut_to);
    }
    parts_free(parts);
    free(copy);
}

char *sib_fold(const char *key, const char *word)
{
    if (!word || !*word)
        return xstrdup(key);
    size_t nw;
    char **ww = words(word, &nw);
    strbuf sb;
    sb_init(&sb);
    for (const char *p = key; *p;) {
        if (ident_start(*p) && (p == key || !str_ident_char(p[-1]))) {
            const char *e = p;
            while (str_ident_char(*e))
                e++;
            fold_ident(&sb, p, (size_t)(e - p), ww, nw);
            p = e;
        } else {
            sb_addc(&sb, *p++);
        }
    }
    parts_free(ww);
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}
