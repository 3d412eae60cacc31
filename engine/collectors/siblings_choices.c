/* Rewrites that are the changed function's own choice, for the sibling-drift collector: the
 * kind of the rewrite itself says it is not a fix a variant could lack, whatever the variant
 * does. Five kinds:
 * - a number re-chosen: the rewrite differs from the old unit only in integer literals (a wait
 *   count, a pipeline depth, a tile or unroll factor, a default block size, a floating-point
 *   constant's digits). Those numbers
 *   belong to the kernel that was tuned; another kernel's are its own. A literal that picks a
 *   position (a subscript, a dimension argument: `shape[0]` to `shape[1]`) is not a number
 *   re-chosen but another element, and stays a rewrite;
 * - a product or sum regrouped: the same operands under one associative operator, bracketed
 *   another way (`x * a * b` to `x * (a * b)`): a choice of evaluation order;
 * - a 64-bit widening dropped: the rewrite only takes tokens out of the old unit, a 64-bit
 *   index type among them (`x.to(index_type) * s` to `x * s`). Copying that to a variant
 *   would take a safety away; the variant keeping it is never drift;
 * - an architecture added: the rewrite names every gfx target the old unit named and more,
 *   and no other name (`== "gfx942"` to `in ("gfx942", "gfx950")`): the changed function is
 *   enabled on a new target, which says nothing about whether the variant has a kernel for
 *   it;
 * - a cache policy added: the rewrite only adds (or changes) how a load or store uses the
 *   cache: a non-temporal template argument (`load_vector_nbytes<T, N, 16, GROUP_NT>`,
 *   aiter#3145), Triton's `cache_modifier=` or `eviction_policy=`. That is how fast the data
 *   comes, not which data; `.cv` and `volatile`, which decide what a load sees of another
 *   program's writes, stay rewrites.
 * A sixth kind needs the function around the rewrite, not only the two units (sib_reads_new_local):
 * - a value the function now computes itself: what the unit was rewritten as (or, when nothing
 *   reads like a rewrite of it, every line added in its place) reads a local
 *   that another statement the change added to the function binds (beside it or further
 *   off, or in a builder enclosing it: a kernel reads its builder's locals), a name new to
 *   the file
 *   (`get_splitk(K_elems, ...)` after `K_elems = 2 * K_bytes`, `for (i < OUT_PER_LANE)` after
 *   `constexpr int OUT_PER_LANE = ...`; not a local that only renames a value the function had,
 *   `M, K_bytes = x.shape` for `M, K = x.shape`; nor one widened to 64 bits or otherwise made
 *   safe, by a bounds test, a mask, a clamp or a cast, which is the fix itself), and every other
 *   name new to the file it uses, there
 *   or in the statement binding that local, is a local the change binds or a parameter. The
 *   function's own computation was restructured around a value only it has; the line alone
 *   is nothing a variant could copy. A rewrite that calls something new on the way (a helper
 *   the variants could share, a new intrinsic) is not of this kind.
 * A seventh kind is read from the author's own words (sib_labelled_optimisation):
 * - an optimisation by its comment: the run of changed lines that rewrote the unit adds a
 *   comment calling the rewrite an optimisation, a performance change, faster or a speed-up
 *   (aiter#3247: "Optimization (vs. eagerly scaled qk): defer the descale until softmax").
 *   The variant's code was right before the change and still is; taking the optimisation
 *   there too is a choice for its own kernel, not a fix left behind.
 * An eighth is read from the branch around the old line (sib_version_branch_retired):
 * - code for a toolchain version retired: the lost line sat under a test of a toolchain
 *   version (`if TRITON_VERSION_GE_3_6_0:` ... `else:`, `if not TRITON_VERSION_GE_3_6_0:`)
 *   and the function names that version nowhere now, keeping the other path (aiter#2692).
 *   The line served an old Triton or ROCm; a variant that never had the test wrote its own
 *   code for the one toolchain it runs on, and it is no fix left behind.
 * The readings asked of each variant (a local bound anew, a value reshaped for the function's
 * own callee) are in siblings_followed.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/collectors/index_eval.h"
#include "engine/collectors/siblings.h"
#include "engine/util.h"

#define ARCHS_MAX 16

/* --- optimisations by their comment -------------------------------------------------------- */

/* True when the comments of text (one line; what syntax_text_nocomment blanks, so a `#` in a
 * string is no comment) call something an optimisation: `optimiz`/`optimis`, `performance`,
 * `faster`, `speedup`/`speed-up`/`speed up`, or the word `perf`. */
static bool comment_says_optimisation(const char *text, size_t len, syn_lang lang)
{
    char *code = syntax_text_nocomment(lang, text, len);
    size_t first = len, last = 0; /* the span its comments were blanked over */
    for (size_t i = 0; i < len; i++)
        if (code[i] != text[i]) {
            first = first < i ? first : i;
            last = i;
        }
    free(code);
    strbuf low;
    sb_init(&low);
    for (size_t i = first; i <= last && i < len; i++)
        sb_addc(&low, (char)tolower((unsigned char)text[i]));
    static const char *const words[] = {"optimiz", "optimis", "performance", "faster", "speedup",
                                        "speed-up", "speed up", NULL};
    bool yes = low.len > 0 && str_find_word(low.buf, low.len, "perf") != NULL;
    for (int k = 0; words[k] && !yes && low.len > 0; k++)
        yes = strstr(low.buf, words[k]) != NULL;
    sb_free(&low);
    return yes;
}

bool sib_labelled_optimisation(const change_file *f, size_t di)
{
    if (di >= f->nlines)
        return false;
    size_t s, e;
    sib_changed_run(f, di, &s, &e);
    syn_lang lang = syntax_lang_of_path(f->path);
    for (size_t k = s; k < e; k++)
        if (f->lines[k].kind == '+' && comment_says_optimisation(f->lines[k].text, f->lines[k].len, lang))
            return true;
    return false;
}

/* --- numbers ------------------------------------------------------------------------------- */

/* True when t is an integer literal (decimal or hexadecimal, with or without a suffix). The
 * cutter cuts `0.5` into `0`, `.`, `5`, so a floating-point constant re-chosen (an epsilon, a
 * scale) reads as integers re-chosen too. */
static bool integer_literal(const sib_tok *t)
{
    if (!isdigit((unsigned char)t->s[0]))
        return false;
    bool hex = t->n > 1 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X');
    for (size_t i = 0; i < t->n; i++) {
        char c = t->s[i];
        if (!isdigit((unsigned char)c) && !(hex && (i == 1 || isxdigit((unsigned char)c))) &&
            !strchr("uUlL", c))
            return false;
    }
    return true;
}

static bool same_token(const sib_tok *a, const sib_tok *b)
{
    return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* True when the literal t[i] picks a position rather than sizes something: it sits right in a
 * subscript (`shape[0]`, `x[:, 1]`) or among the arguments of a call that takes dimensions
 * (`size(0)`, `transpose(0, 1)`, `sum(-1)`). A position changed is a different element, not a
 * re-tuning. */
static bool picks_position(const sib_tok *t, size_t i)
{
    static const char *const dims[] = {"size", "stride", "dim", "transpose", "permute", "unsqueeze",
                                       "squeeze", "select", "narrow", "flatten", "movedim", "sum",
                                       "mean", "amax", "amin", "max", "min", "softmax", "cat", "stack",
                                       "split", "chunk", "view", "reshape", "expand", "index_select",
                                       "gather", "program_id", "num_programs", NULL};
    int depth = 0;
    for (size_t k = i; k-- > 0;) {
        char c = t[k].n == 1 ? t[k].s[0] : '\0';
        if (c == ')' || c == ']' || c == '}')
            depth++;
        else if (c == '(' || c == '[' || c == '{') {
            if (depth-- > 0)
                continue;
            if (c == '[')
                return true;
            if (c != '(' || k == 0 || !t[k - 1].ident)
                return false;
            for (int d = 0; dims[d]; d++)
                if (t[k - 1].n == strlen(dims[d]) && memcmp(t[k - 1].s, dims[d], t[k - 1].n) == 0)
                    return true;
            return false;
        }
    }
    return false;
}

/* True when before and after (keys) have the same tokens but for integer literals that size
 * or count something, at least one of which differs (a literal that picks a position,
 * picks_position, is a different element when changed). */
static bool numbers_rechosen(const char *before, const char *after)
{
    size_t na, nb;
    sib_tok *a = sib_tokens(before, &na), *b = sib_tokens(after, &nb);
    bool ok = na == nb, differs = false;
    for (size_t i = 0; ok && i < na; i++) {
        if (same_token(&a[i], &b[i]))
            continue;
        ok = integer_literal(&a[i]) && integer_literal(&b[i]) && !picks_position(a, i);
        differs = true;
    }
    free(a);
    free(b);
    return ok && differs;
}

/* --- regrouping ----------------------------------------------------------------------------- */

const char *sib_right_side(const char *key)
{
    for (const char *p = key; *p; p++) {
        if (*p != '=')
            continue;
        if (p[1] == '=') {
            p++;
            continue;
        }
        if (p > key && strchr("<>!", p[-1]) && !(p > key + 1 && p[-2] == p[-1]))
            continue;
        return p + 1;
    }
    return key;
}

/* s without its grouping brackets: a `(` that follows no name, number or closing bracket (so
 * opens no call, subscript or template) is dropped with its match. A new string; NULL when the
 * brackets do not balance. */
static char *without_grouping(const char *s)
{
    size_t n = strlen(s);
    char *out = xmalloc(n + 1);
    bool *drop = xcalloc(n + 1, sizeof *drop);
    size_t *open = xcalloc(n + 1, sizeof *open);
    size_t depth = 0, k = 0;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        if (s[i] == '(') {
            char prev = i ? s[i - 1] : '\0';
            bool call = str_ident_char(prev) || prev == ')' || prev == ']' || prev == '>';
            drop[i] = !call;
            open[depth++] = i;
        } else if (s[i] == ')') {
            ok = depth > 0;
            if (ok)
                drop[i] = drop[open[--depth]];
        }
    }
    ok = ok && depth == 0;
    for (size_t i = 0; i < n && ok; i++)
        if (!drop[i])
            out[k++] = s[i];
    out[k] = '\0';
    free(drop);
    free(open);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

/* The one arithmetic operator s uses outside brackets of calls and subscripts ('*' or '+'),
 * '\0' when it uses none, '?' when it uses another or more than one. Grouping brackets are
 * looked through. */
static char sole_operator(const char *s)
{
    char op = '\0';
    int nest = 0; /* inside a call's or a subscript's brackets */
    for (const char *p = s; *p; p++) {
        char prev = p > s ? p[-1] : '\0';
        if (*p == '(' || *p == '[') {
            if (nest || *p == '[' || str_ident_char(prev) || prev == ')' || prev == ']')
                nest++;
            continue;
        }
        if ((*p == ')' || *p == ']') && nest) {
            nest--;
            continue;
        }
        if (nest || !strchr("+-*/%&|^<>?!~", *p))
            continue;
        if ((*p != '*' && *p != '+') || (op && op != *p) || p[1] == *p)
            return '?';
        op = *p;
    }
    return op;
}

/* True when after is before with the operands of one associative operator bracketed another
 * way on the right-hand side. */
static bool regrouped(const char *before, const char *after)
{
    if (strcmp(before, after) == 0)
        return false;
    const char *rb = sib_right_side(before), *ra = sib_right_side(after);
    if ((size_t)(rb - before) != (size_t)(ra - after) || strncmp(before, after, (size_t)(rb - before)) != 0)
        return false;
    char ob = sole_operator(rb), oa = sole_operator(ra);
    if ((ob != '*' && ob != '+') || oa != ob)
        return false;
    char *b = without_grouping(rb), *a = without_grouping(ra);
    bool same = a && b && strcmp(a, b) == 0;
    free(a);
    free(b);
    return same;
}

/* --- widening --------------------------------------------------------------------------------- */

/* True when t names a 64-bit index type: a spelling index_width knows (`int64` of
 * `tl.int64`, `i64` of `T.i64`, `Int64`, `int64_t`, `size_t`, `long`, ...), or Triton's
 * `index_type`, the constexpr aiter's kernels set to `tl.int64` when offsets may pass 2^31. */
static bool widening_word(const sib_tok *t)
{
    if (!t->ident)
        return false;
    char *w = xstrndup(t->s, t->n);
    bool wide = ir_wide_type(w) || strcmp(w, "index_type") == 0;
    free(w);
    return wide;
}

/* True when after is before with tokens taken out and nothing else, and a 64-bit index type
 * among those taken out: a widening dropped (`start_m.to(index_type) * s` to `start_m * s`,
 * `(int64_t)row * n` to `row * n`). A rewrite that also changes or adds anything is not. */
static bool widening_dropped(const char *before, const char *after)
{
    size_t na, nb;
    sib_tok *a = sib_tokens(before, &na), *b = sib_tokens(after, &nb);
    bool dropped = false;
    size_t j = 0;
    for (size_t i = 0; i < na; i++) {
        if (j < nb && same_token(&a[i], &b[j]))
            j++;
        else
            dropped |= widening_word(&a[i]);
    }
    bool only = j == nb && nb < na;
    free(a);
    free(b);
    return only && dropped;
}

/* --- architectures ------------------------------------------------------------------------------ */

/* The gfx targets text names (`gfx942`, `__gfx950__`, in strings or not), deduplicated, into
 * out; the count. A name standing for a namespace (`gl.amd.gfx1250.tdm`) counts too: it is
 * the same on both sides of a rewrite that only adds targets. */
static size_t archs_of(const char *text, char out[][16], size_t max)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, "gfx")) != NULL;) {
        if (p > text && isalnum((unsigned char)p[-1])) {
            p += 3;
            continue;
        }
        const char *e = p + 3;
        while (isalnum((unsigned char)*e))
            e++;
        size_t len = (size_t)(e - p);
        if (len > 3 && len < 16 && isdigit((unsigned char)p[3])) {
            bool seen = false;
            for (size_t i = 0; i < n && !seen; i++)
                seen = strlen(out[i]) == len && memcmp(out[i], p, len) == 0;
            if (!seen && n < max) {
                memcpy(out[n], p, len);
                out[n++][len] = '\0';
            }
        }
        p = e;
    }
    return n;
}

/* True when every name of after (a key) is a name of before, or `in` / `or` (the list or the
 * alternative that takes the new target): nothing but targets and their syntax added. */
static bool names_kept(const char *before, const char *after)
{
    size_t na, nb;
    sib_tok *a = sib_tokens(before, &na), *b = sib_tokens(after, &nb);
    bool kept = true;
    for (size_t j = 0; j < nb && kept; j++) {
        if (!b[j].ident || (b[j].n == 2 && (memcmp(b[j].s, "in", 2) == 0 || memcmp(b[j].s, "or", 2) == 0)))
            continue;
        if (b[j].n > 3 && memcmp(b[j].s, "gfx", 3) == 0 && isdigit((unsigned char)b[j].s[3]))
            continue; /* a target written in a string the key keeps */
        kept = false;
        for (size_t i = 0; i < na && !kept; i++)
            kept = same_token(&a[i], &b[j]);
    }
    free(a);
    free(b);
    return kept;
}

/* True when after names every gfx target before names, before names at least one, and after
 * names more. */
static bool archs_added(const char *before, const char *after)
{
    char b[ARCHS_MAX][16], a[ARCHS_MAX][16];
    size_t nb = archs_of(before, b, ARCHS_MAX), na = archs_of(after, a, ARCHS_MAX);
    if (nb == 0 || na <= nb)
        return false;
    for (size_t i = 0; i < nb; i++) {
        bool kept = false;
        for (size_t j = 0; j < na && !kept; j++)
            kept = strcmp(b[i], a[j]) == 0;
        if (!kept)
            return false;
    }
    return true;
}

/* --- cache policies ------------------------------------------------------------------------ */

/* Where a string literal starting at s (a quote) ends: past its closing quote, or at the end of
 * the text when it has none. */
static const char *string_end(const char *s)
{
    char q = *s;
    const char *e = s + 1;
    while (*e && *e != q)
        e += e[0] == '\\' && e[1] ? 2 : 1;
    return *e ? e + 1 : e;
}

/* True when identifier s[0..n) names a non-temporal cache policy: `NT`, a name ending in `_NT`
 * (aiter's `GROUP_NT`), or one holding `nontemporal` in any case. */
static bool nontemporal_name(const char *s, size_t n)
{
    if ((n == 2 && memcmp(s, "NT", 2) == 0) || (n > 3 && memcmp(s + n - 3, "_NT", 3) == 0))
        return true;
    static const char word[] = "nontemporal";
    for (size_t i = 0; i + sizeof word - 1 <= n; i++)
        if (strncasecmp(s + i, word, sizeof word - 1) == 0)
            return true;
    return false;
}

/* text (a unit as shown, strings as written) without its cache-policy arguments, white space
 * dropped: a Python keyword `cache_modifier="…"` or `eviction_policy="…"`, or a trailing C++
 * argument naming a non-temporal policy (`, GROUP_NT>` / `, NT)`), each with the comma before
 * it. *n counts the arguments taken out; *coherent is set when one asks for a coherent read (a
 * `.cv` modifier: a spin loop reading another program's writes) or the text says `volatile`,
 * which is about what the load sees, not how fast. */
static char *without_cache_policy(const char *text, int *n, bool *coherent)
{
    strbuf sb;
    sb_init(&sb);
    for (const char *p = text; *p;) {
        if (*p == '"' || *p == '\'') {
            const char *e = string_end(p);
            sb_add(&sb, p, (size_t)(e - p));
            p = e;
            continue;
        }
        if (!str_ident_char(*p) || (p > text && str_ident_char(p[-1]))) {
            if (*p != ' ')
                sb_addc(&sb, *p);
            p++;
            continue;
        }
        const char *e = p;
        while (str_ident_char(*e))
            e++;
        size_t len = (size_t)(e - p);
        if (len == 8 && memcmp(p, "volatile", 8) == 0)
            *coherent = true;
        const char *q = e;
        while (*q == ' ')
            q++;
        bool keyword = (len == 14 && memcmp(p, "cache_modifier", 14) == 0) ||
                       (len == 15 && memcmp(p, "eviction_policy", 15) == 0);
        const char *after = NULL; /* past the policy argument, when p starts one */
        if (keyword && *q == '=' && q[1] != '=') {
            q++;
            while (*q == ' ')
                q++;
            if (*q == '"' || *q == '\'') {
                after = string_end(q);
                if (strncmp(q + 1, ".cv", 3) == 0)
                    *coherent = true;
            }
        } else if (nontemporal_name(p, len) && (*q == '>' || *q == ')')) {
            after = e;
        }
        if (after && sb.len > 0 && sb.buf[sb.len - 1] == ',') {
            sb.len--; /* the comma that led to it */
            sb.buf[sb.len] = '\0';
            (*n)++;
            p = after;
            continue;
        }
        sb_add(&sb, p, len);
        p = e;
    }
    return sb_detach(&sb);
}

/* True when after is before with only a cache-policy argument added or changed on a memory
 * access (without_cache_policy), none of them asking for a coherent read. */
static bool cache_policy_chosen(const char *before, const char *after)
{
    int nb = 0, na = 0;
    bool coherent = false;
    char *b = without_cache_policy(before, &nb, &coherent), *a = without_cache_policy(after, &na, &coherent);
    bool chosen = na > 0 && !coherent && strcmp(a, b) == 0;
    free(b);
    free(a);
    return chosen;
}

/* True when a, a unit of the head, is u rewritten by the changed function's own choice. */
static bool chose(const sib_unit *u, const sib_unit *a)
{
    if (strcmp(u->key, a->key) == 0)
        return false; /* the same code: no rewrite at all, so no choice */
    return numbers_rechosen(u->key, a->key) || regrouped(u->key, a->key) ||
           widening_dropped(u->key, a->key) ||
           (names_kept(u->key, a->key) &&
            archs_added(u->shown ? u->shown : u->key, a->shown ? a->shown : a->key)) ||
           cache_policy_chosen(u->shown ? u->shown : u->code, a->shown ? a->shown : a->code);
}

/* --- a value the function now computes itself ------------------------------------------------ */

/* The names a function's edited units bind, each with the unit binding it first. */
typedef struct bound_names {
    char **names;
    const sib_unit **by;
    size_t n, cap, capby;
} bound_names;

/* The unit binding the name s[0..len), or NULL when bn holds no such name. */
static const sib_unit *binder(const bound_names *bn, const char *s, size_t len)
{
    for (size_t i = 0; i < bn->n; i++)
        if (strlen(bn->names[i]) == len && memcmp(bn->names[i], s, len) == 0)
            return bn->by[i];
    return NULL;
}

/* Add the locals u binds to bn, those bound already left with their first binder. */
static void add_bound(bound_names *bn, const sib_unit *u, syn_lang lang)
{
    char **bound = sib_bound_names(u, lang);
    for (size_t k = 0; bound && bound[k]; k++)
        if (!binder(bn, bound[k], strlen(bound[k]))) {
            size_t n = bn->n;
            *ARRAY_PUSH(bn->names, bn->n, bn->cap) = xstrdup(bound[k]);
            *ARRAY_PUSH(bn->by, n, bn->capby) = u;
        }
    sib_names_free(bound);
}

static void bound_names_free(bound_names *bn)
{
    for (size_t i = 0; i < bn->n; i++)
        free(bn->names[i]);
    free(bn->names);
    free(bn->by);
}

/* What the function's added code around a rewrite is made of (see sib_reads_new_local). */
typedef struct own_code {
    const syntax_doc *base;
    const sib_unit_list *before;   /* the function's units in the base */
    const sib_edited_units *scope; /* in the head: the function's, then its enclosing ones' */
    size_t nscope;
    bound_names bound; /* the locals the edited units of those functions bind */
} own_code;

/* True when the identifier s[0..len) is absent from the file's base text (comments and
 * strings included, so a name a comment already used is not new). */
static bool new_to_file(const own_code *oc, const char *s, size_t len)
{
    static const char *const keywords[] = {"constexpr", "const", "static", "auto", "unsigned", "signed",
                                           "int", "long", "float", "double", "bool", "char", "void",
                                           "and", "or", "not", "in", "is", "if", "else", "None",
                                           "True", "False", "lambda", "for", "return", "sizeof",
                                           "typename", "template", NULL};
    for (int i = 0; keywords[i]; i++)
        if (strlen(keywords[i]) == len && memcmp(keywords[i], s, len) == 0)
            return false; /* the language's own words are never a new name */
    char *w = xstrndup(s, len);
    bool is_new = !str_find_word(oc->base->text, oc->base->len, w);
    free(w);
    return is_new;
}

/* True when s[0..len) is the function's own: a local its added code (or an enclosing
 * function's) binds, or a parameter of it or of a function enclosing it. */
static bool own_name(const own_code *oc, const char *s, size_t len)
{
    if (binder(&oc->bound, s, len))
        return true;
    for (size_t k = 0; k < oc->nscope; k++)
        for (size_t i = 0; i < oc->scope[k].units->n; i++) {
            const sib_unit *a = &oc->scope[k].units->items[i];
            if (a->kind == SIB_PARAM && a->name && strlen(a->name) == len && memcmp(a->name, s, len) == 0)
                return true;
        }
    return false;
}

/* True when u binds a value the function already computed in the base under another name
 * (`M, K_bytes = x.shape` for `M, K = x.shape`): a local renamed, no new value. */
static bool renamed_binding(const own_code *oc, const sib_unit *u)
{
    const char *rs = sib_right_side(u->key);
    if (rs == u->key)
        return false;
    for (size_t i = 0; i < oc->before->n; i++) {
        const char *key = oc->before->items[i].key, *rb = sib_right_side(key);
        if (rb != key && strcmp(rb, rs) == 0)
            return true;
    }
    return false;
}

/* True when code names a 64-bit index type (widening_word). */
static bool widens(const char *code)
{
    size_t nt;
    sib_tok *t = sib_tokens(code, &nt);
    bool wide = false;
    for (size_t k = 0; k < nt && !wide; k++)
        wide = widening_word(&t[k]);
    free(t);
    return wide;
}

/* True when code makes a value safe rather than computing a new one: it tests an order (`<`,
 * `>`, `<=`, `>=`; not a shift or `->`: a bounds test), names a mask, clamps (`min`, `max`,
 * `clamp`, `minimum`, `maximum`) or casts (`.to(`, `cast`). A C++ template's brackets read as
 * an order test, which only keeps a line compared. */
static bool makes_safe(const char *code)
{
    static const char *const words[] = {"min", "max", "clamp", "minimum", "maximum", NULL};
    if (strstr(code, "mask") || strstr(code, ".to(") || strstr(code, "cast"))
        return true;
    for (int i = 0; words[i]; i++)
        if (sib_has_word(code, words[i]))
            return true;
    for (const char *p = code; *p; p++) {
        if (*p != '<' && *p != '>')
            continue;
        if (p[1] == *p) {
            p++; /* a shift */
            continue;
        }
        if (*p == '>' && p > code && p[-1] == '-')
            continue; /* a member access */
        return true;
    }
    return false;
}

/* True when every name new to the file that unit a (added code) uses is the function's own;
 * false when one is not (a new helper, intrinsic or attribute: maybe a fix the variants could
 * share). With reads, also sets *reads when a reads a local another unit binds, and counts
 * that local as the function's own only when the unit binding it passes the same test. */
static bool only_own_new_names(const own_code *oc, const sib_unit *a, bool *reads)
{
    size_t nt;
    sib_tok *t = sib_tokens(a->code, &nt);
    bool ok = true;
    for (size_t k = 0; k < nt && ok; k++) {
        if (!t[k].ident || isdigit((unsigned char)t[k].s[0]) || !new_to_file(oc, t[k].s, t[k].n))
            continue;
        const sib_unit *by = binder(&oc->bound, t[k].s, t[k].n);
        if (by && by != a && reads) {
            /* a flag set from a string (`need_fp8_out = out_s == "fp8"`) is a mode: whether
             * a variant has it too is the mode rule's question (siblings_scope.c); a local
             * widened to 64 bits (`row64 = row.to(tl.int64)`) or otherwise made safe (a
             * bounds test `in_rows = offs < n`, a mask, a clamp, a cast) is the fix itself */
            ok = !strchr(by->code, '"') && !strchr(by->code, '\'') && !widens(by->code) &&
                 !makes_safe(by->code) && only_own_new_names(oc, by, NULL);
            *reads = *reads || (ok && !renamed_binding(oc, by));
        } else {
            ok = own_name(oc, t[k].s, t[k].n);
        }
    }
    free(t);
    return ok;
}

bool sib_reads_new_local(const syntax_doc *base, const sib_unit *twin, const sib_unit_list *before,
                         const sib_edited_units *scope, size_t nscope, int first, int last, syn_lang lang)
{
    if (nscope == 0 || (!twin && (first <= 0 || last < first)))
        return false;
    own_code oc = {.base = base, .before = before, .scope = scope, .nscope = nscope};
    for (size_t k = 0; k < nscope; k++)
        for (size_t i = 0; i < scope[k].units->n; i++)
            if (scope[k].touched[i])
                add_bound(&oc.bound, &scope[k].units->items[i], lang);
    const sib_unit_list *after = scope[0].units;
    bool reads = false, ok = true;
    if (twin) {
        ok = !widens(twin->code) && only_own_new_names(&oc, twin, &reads);
    } else {
        for (size_t i = 0; i < after->n && ok; i++) {
            const sib_unit *a = &after->items[i];
            if (scope[0].touched[i] && a->end_line >= first && a->line <= last)
                ok = only_own_new_names(&oc, a, &reads);
        }
    }
    bound_names_free(&oc.bound);
    return ok && reads;
}

/* --- code for a toolchain version retired -------------------------------------------------- */

/* The first identifier of code naming a toolchain version, one holding `version` in any case
 * (`TRITON_VERSION_GE_3_6_0`, `__version__`, `HIP_VERSION_MAJOR`), as a new string; NULL when
 * none does. */
static char *version_name(const char *code)
{
    size_t nt;
    sib_tok *t = sib_tokens(code, &nt);
    char *name = NULL;
    for (size_t k = 0; k < nt && !name; k++)
        for (size_t i = 0; t[k].ident && i + 7 <= t[k].n && !name; i++)
            if (strncasecmp(t[k].s + i, "version", 7) == 0)
                name = xstrndup(t[k].s, t[k].n);
    free(t);
    return name;
}

bool sib_version_branch_retired(const sib_unit *u, const sib_unit_list *before, const sib_unit_list *after)
{
    for (size_t i = 0; i < before->n; i++) {
        const sib_unit *s = &before->items[i];
        if (s == u || s->kind != SIB_STMT || s->line >= u->line || s->block_end < u->end_line ||
            !sib_controls_block(s->code))
            continue;
        char *v = version_name(s->code);
        bool retired = v != NULL;
        for (size_t k = 0; k < after->n && retired; k++)
            retired = !sib_has_word(after->items[k].code, v);
        free(v);
        if (retired)
            return true;
    }
    return false;
}

bool sib_own_choice(const sib_unit *u, const sib_unit *twin, const sib_unit_list *after,
                    const bool *after_touched, int first, int last)
{
    /* asked of every edited unit of u's kind added in u's place, and of twin: the unit most
     * like u may be another line re-tuned the same way (`- 2` and `- 2 - i` both moved by
     * one), or none when the rewrite took out much of u (`.to(index_type)`); a unit added
     * elsewhere (a new loop, `i < 2`) is no rewrite of u (`i < 4`) */
    if (twin && chose(u, twin))
        return true;
    for (size_t i = 0; i < after->n; i++) {
        const sib_unit *a = &after->items[i];
        if (after_touched[i] && a->kind == u->kind && a->end_line >= first && a->line <= last &&
            chose(u, a))
            return true;
    }
    return false;
}
