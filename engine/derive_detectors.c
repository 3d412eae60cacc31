/* The named detectors of the derivation table — the checks that are not a single pattern:
 * a parameter dropped from a Python signature, a name bound only inside an `if` and used
 * after it, a new test file pytest collects nothing from, and the paren-balanced scan of
 * Triton tl.load/tl.store arguments. Each mirrors the original triage's behaviour. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/derive_view.h"
#include "engine/regex.h"
#include "engine/util.h"

/* A lazily compiled regex; the patterns are constants, so a compile failure is a bug. */
static regex *must_compile(const char *pattern)
{
    char *cause = NULL;
    regex *rx = rx_compile(pattern, false, &cause);
    if (!rx) {
        fprintf(stderr, "review-lsp: internal pattern: %s\n", cause);
        abort();
    }
    return rx;
}

/* Quote s for use inside a pcre2 pattern. */
static char *rx_escape(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (; *s; s++) {
        if (strchr("\\^$.|?*+()[]{}-/", *s))
            sb_addc(&sb, '\\');
        sb_addc(&sb, *s);
    }
    return sb_detach(&sb);
}

/* ---- dropped parameter ------------------------------------------------------------------ */

/* The signature an old-side line sits inside: walk back over up to 40 earlier lines counting
 * parens (code before '#'); at the first unbalanced '(' return that line if it opens a
 * signature, else NULL. Returns a borrowed pointer into lines. */
static const char *open_signature(const char **lines, size_t n, const regex *sig_open)
{
    long depth = 0;
    size_t from = n > 40 ? n - 40 : 0;
    for (size_t i = n; i-- > from;) {
        const char *s = lines[i];
        const char *hash = strchr(s, '#');
        size_t len = hash ? (size_t)(hash - s) : strlen(s);
        for (size_t k = 0; k < len; k++) {
            if (s[k] == ')')
                depth++;
            else if (s[k] == '(')
                depth--;
        }
        if (depth < 0)
            return rx_test(sig_open, s) ? s : NULL;
    }
    return NULL;
}

static bool det_dropped_parameter(const dv_change *v, const dv_file **site_file, int *site_line)
{
    regex *param = must_compile("^\\s*(\\w+)\\s*(?::[^=]+)?(?:=\\s*\\S.*)?,\\s*(?:#.*)?$");
    regex *sig_open = must_compile(
        "^\\s*(def |void |template|__global__|__device__|\\w[\\w:<>\\s\\*&]*\\s\\w+\\s*\\()");
    regex *skip_path = must_compile("^(op_tests|tests)/");
    size_t add_len;
    strbuf all;
    sb_init(&all);
    bool first_add = true;
    for (size_t i = 0; i < v->nfiles; i++)
        for (size_t k = 0; k < v->files[i].nadds; k++) {
            if (!first_add)
                sb_addc(&all, '\n');
            first_add = false;
            sb_add(&all, v->files[i].adds[k].text, v->files[i].adds[k].len);
        }
    add_len = all.len;
    bool found = false;
    static const char *const not_names[] = {"return", "if", "else", "for", "while", "import", "from"};
    const char **old_side = NULL;
    size_t nold = 0, cap = 0;
    const char *cur = NULL;
    bool considered = false;

    for (size_t si = 0; si < v->nseq && !found; si++) {
        const dv_seq *l = &v->seq[si];
        if (l->kind == 'F' || l->kind == '@') {
            if (l->kind == 'F') {
                cur = l->path;
                considered = str_ends(cur, ".py") && !rx_test(skip_path, cur) &&
                             !str_contains(cur, "bench");
            }
            nold = 0;
            continue;
        }
        if (l->kind == '+')
            continue;
        char *body = xstrndup(l->text, l->len);
        if (l->kind == '-' && considered && rx_search(param, body, l->len, NULL, NULL) == 1) {
            /* group 1 is the leading word: the pattern allows nothing else before it */
            const char *p = str_lskip(body);
            size_t wl = 0;
            while (p[wl] && (p[wl] == '_' || (p[wl] >= '0' && p[wl] <= '9') ||
                             (p[wl] >= 'a' && p[wl] <= 'z') || (p[wl] >= 'A' && p[wl] <= 'Z') ||
                             (unsigned char)p[wl] >= 0x80))
                wl++;
            char *name = xstrndup(p, wl);
            bool bad = wl == 0;
            for (size_t k = 0; k < sizeof not_names / sizeof *not_names && !bad; k++)
                bad = strcmp(name, not_names[k]) == 0;
            if (!bad && open_signature(old_side, nold, sig_open)) {
                char *esc = rx_escape(name);
                char *pat = xasprintf("\\b%s\\b", esc);
                regex *rx = must_compile(pat);
                if (rx_search(rx, all.buf ? all.buf : "", add_len, NULL, NULL) != 1) {
                    found = true;
                    for (size_t d = 0; d < v->nfiles; d++)
                        if (strcmp(v->files[d].path, cur) == 0)
                            *site_file = &v->files[d];
                    *site_line = l->head_line;
                }
                rx_free(rx);
                free(pat);
                free(esc);
            }
            free(name);
        }
        free(body);
        /* The old side keeps the view's line texts, which are NUL-terminated in both modes
           and live as long as the view. */
        *ARRAY_PUSH(old_side, nold, cap) = l->text;
    }
    free(old_side);
    sb_free(&all);
    rx_free(param);
    rx_free(sig_open);
    rx_free(skip_path);
    return found;
}

/* ---- conditional binding ---------------------------------------------------------------- */

static size_t indent_of(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f' || s[i] == '\v' || s[i] == '\r'))
        i++;
    return i;
}

static bool is_blank(const char *s, size_t n)
{
    return indent_of(s, n) == n;
}

static bool det_conditional_binding(const dv_change *v, const dv_file **site_file, int *site_line)
{
    regex *if_rx = must_compile("^(\\s*)(el)?if\\b.*:\\s*$");
    regex *else_rx = must_compile("^\\s*(else|elif)\\b");
    regex *assign_rx = must_compile("^\\s*([A-Za-z_]\\w*)\\s*=(?!=)");
    bool found = false;
    for (size_t fi = 0; fi < v->nfiles && !found; fi++) {
        const dv_file *f = &v->files[fi];
        for (size_t i = 0; i < f->nadds && !found; i++) {
            const dv_line *l = &f->adds[i];
            if (rx_search(if_rx, l->text, l->len, NULL, NULL) != 1)
                continue;
            size_t base = indent_of(l->text, l->len);
            char **assigned = NULL;
            size_t na = 0, cap = 0;
            bool has_else = false;
            size_t j = i + 1;
            for (; j < f->nadds; j++) {
                const dv_line *c = &f->adds[j];
                if (is_blank(c->text, c->len))
                    continue;
                size_t ind = indent_of(c->text, c->len);
                if (ind <= base) {
                    if (rx_search(else_rx, c->text, c->len, NULL, NULL) == 1) {
                        const char *t = c->text + ind;
                        has_else = has_else || (c->len - ind >= 4 && memcmp(t, "else", 4) == 0);
                        continue;
                    }
                    break;
                }
                if (rx_search(assign_rx, c->text, c->len, NULL, NULL) == 1) {
                    const char *p = c->text + ind;
                    size_t k = 0;
                    while (k < c->len - ind && (p[k] == '_' || (p[k] >= '0' && p[k] <= '9') ||
                                                (p[k] >= 'a' && p[k] <= 'z') || (p[k] >= 'A' && p[k] <= 'Z')))
                        k++;
                    *ARRAY_PUSH(assigned, na, cap) = xstrndup(p, k);
                }
            }
            if (!has_else && na > 0) {
                size_t end = j + 25 < f->nadds ? j + 25 : f->nadds;
                size_t alen;
                char *after = dv_join(f->adds + j, end > j ? end - j : 0, &alen);
                for (size_t k = 0; k < na && !found; k++) {
                    char *esc = rx_escape(assigned[k]);
                    char *pat = xasprintf("(?<![\\w.])%s\\b", esc);
                    regex *rx = must_compile(pat);
                    if (rx_search(rx, after, alen, NULL, NULL) == 1) {
                        found = true;
                        *site_file = f;
                        *site_line = l->head_line;
                    }
                    rx_free(rx);
                    free(pat);
                    free(esc);
                }
                free(after);
            }
            for (size_t k = 0; k < na; k++)
                free(assigned[k]);
            free(assigned);
        }
    }
    rx_free(if_rx);
    rx_free(else_rx);
    rx_free(assign_rx);
    return found;
}

/* ---- uncollectable test file ------------------------------------------------------------ */

/* Number of Unicode code points in a UTF-8 byte range (what Python's len counts). */
static size_t utf8_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            c++;
    return c;
}

static bool det_uncollectable_test(const dv_change *v, const dv_file **site_file, int *site_line)
{
    regex *collectable = must_compile("(?m)^def test_\\w+|^\\s+def test_\\w+|^class Test\\w+");
    bool any_collectable = false;
    const dv_file *candidate = NULL;
    for (size_t i = 0; i < v->nfiles; i++) {
        const dv_file *f = &v->files[i];
        const char *slash = strrchr(f->path, '/');
        const char *base = slash ? slash + 1 : f->path;
        if (!str_starts(base, "test_") || !str_ends(base, ".py"))
            continue;
        size_t len;
        char *added = dv_join(f->adds, f->nadds, &len);
        if (rx_search(collectable, added, len, NULL, NULL) == 1)
            any_collectable = true;
        else if (f->is_new && utf8_chars(added, len) > 300 && !candidate)
            candidate = f;
        free(added);
    }
    rx_free(collectable);
    if (any_collectable || !candidate)
        return false;
    *site_file = candidate;
    *site_line = 1;
    return true;
}

/* ---- Triton mask scan ------------------------------------------------------------------- */

/* Scan every "name(" in src, paren-balanced, calling fn with each argument text. Returns
 * true as soon as fn does. */
static bool scan_calls(const char *src, size_t n, const char *name, bool is_load, size_t *at)
{
    size_t key = strlen(name);
    size_t i = 0;
    while (i < n) {
        const char *j = memmem(src + i, n - i, name, key);
        if (!j)
            return false;
        size_t k = (size_t)(j - src) + key;
        size_t start = k;
        int depth = 1;
        while (k < n && depth) {
            if (src[k] == '(')
                depth++;
            else if (src[k] == ')')
                depth--;
            k++;
        }
        /* like the original's slice [start:k-1], also when the text ends unbalanced */
        size_t alen = k - 1 >= start ? k - 1 - start : 0;
        const char *args = src + start;
        bool has_mask = memmem(args, alen, "mask=", 5) != NULL;
        bool has_other = memmem(args, alen, "other=", 6) != NULL;
        if (!has_mask || (is_load && !has_other)) {
            *at = (size_t)(j - src);
            return true;
        }
        i = k;
    }
    return false;
}

static bool det_triton_mask(const dv_change *v, const dv_file **site_file, int *site_line)
{
    strbuf sb;
    sb_init(&sb);
    /* Remember where each file's added lines start in the joined text, to find the site. */
    size_t *starts = xcalloc(v->nfiles + 1, sizeof *starts);
    bool first = true;
    for (size_t i = 0; i < v->nfiles; i++) {
        starts[i] = sb.len + (first ? 0 : 1);
        for (size_t k = 0; k < v->files[i].nadds; k++) {
            if (!first)
                sb_addc(&sb, '\n');
            sb_add(&sb, v->files[i].adds[k].text, v->files[i].adds[k].len);
            first = false;
        }
    }
    const char *s = sb.buf ? sb.buf : "";
    size_t at = 0, at2 = 0;
    bool load = scan_calls(s, sb.len, "tl.load(", true, &at);
    bool store = scan_calls(s, sb.len, "tl.store(", false, &at2);
    bool hit = load || store;
    if (hit) {
        size_t pos = load && store ? (at < at2 ? at : at2) : load ? at : at2;
        /* Map the offset back to a file and line. */
        for (size_t i = 0; i < v->nfiles; i++) {
            size_t off = starts[i];
            for (size_t k = 0; k < v->files[i].nadds; k++) {
                size_t end = off + v->files[i].adds[k].len;
                if (pos >= off && pos <= end) {
                    *site_file = &v->files[i];
                    *site_line = v->files[i].adds[k].head_line;
                    goto done;
                }
                off = end + 1;
            }
        }
    }
done:
    free(starts);
    sb_free(&sb);
    return hit;
}

static const struct {
    const char *name;
    dv_detector fn;
} DETECTORS[] = {
    {"dropped-parameter", det_dropped_parameter},
    {"conditional-binding", det_conditional_binding},
    {"uncollectable-test", det_uncollectable_test},
    {"triton-mask", det_triton_mask},
};

dv_detector dv_find_detector(const char *name)
{
    for (size_t i = 0; i < sizeof DETECTORS / sizeof *DETECTORS; i++)
        if (strcmp(DETECTORS[i].name, name) == 0)
            return DETECTORS[i].fn;
    return NULL;
}
