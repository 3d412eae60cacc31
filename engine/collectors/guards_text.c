/* What a line of code says to the removed-guards collector: whether it is a guard (assert,
 * TORCH_CHECK / AITER_CHECK, static_assert, zero-initialisation, .contiguous()), the condition
 * it checks, the symbol it is about and what it assigns. Works on code views (comments gone,
 * string contents blanked), so a guard quoted in a message or a comment is never read. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/guards.h"

/* Position of word w in s as a whole identifier (or as a prefix of one when prefix is set), or
 * NULL. */
const char *guards_find_word(const char *s, const char *w, bool prefix)
{
    size_t n = strlen(w);
    for (const char *p = strstr(s, w); p; p = strstr(p + 1, w)) {
        if (p > s && str_ident_char(p[-1]))
            continue;
        if (!prefix && str_ident_char(p[n]))
            continue;
        return p;
    }
    return NULL;
}

/* The kind of guard a line of code holds (strings and comments already blanked). */
gkind guards_kind(const char *code)
{
    const char *p = str_lskip(code);
    if (*p == '#') {
        /* a preprocessor line: `#define AITER_CHECK(...)` defines the guard, it is none */
        p = str_lskip(p + 1);
        if (str_starts(p, "define") || str_starts(p, "include") || str_starts(p, "undef"))
            return GK_NONE;
    }
    if (guards_find_word(code, "assert", false) || guards_find_word(code, "static_assert", false) ||
        guards_find_word(code, "_Static_assert", false) || guards_find_word(code, "TORCH_CHECK", true) ||
        guards_find_word(code, "AITER_CHECK", true) || guards_find_word(code, "TORCH_INTERNAL_ASSERT", true))
        return GK_CHECK;
    if (strstr(code, "torch.zeros") || strstr(code, "::zeros") || strstr(code, ".new_zeros(") ||
        strstr(code, ".zero_()") || guards_find_word(code, "memset", false) ||
        guards_find_word(code, "hipMemset", false) || guards_find_word(code, "hipMemsetAsync", false))
        return GK_ZERO;
    if (strstr(code, ".contiguous()"))
        return GK_CONTIG;
    return GK_NONE;
}

/* True when an added line of code allocates without initialising. */
bool guards_is_empty_alloc(const char *code)
{
    return strstr(code, "torch.empty") || strstr(code, "::empty") || strstr(code, ".new_empty(") ||
           strstr(code, "empty_like(");
}

/* A copy of s without any white space. */
char *guards_no_space(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            sb_addc(&sb, *s);
    return sb_detach(&sb);
}

/* A copy of s, stripped, shortened to GUARDS_QUOTE_MAX bytes with "…" when longer. */
char *guards_quote(const char *s)
{
    char *t = str_strip(s);
    if (strlen(t) > GUARDS_QUOTE_MAX) {
        size_t cut = GUARDS_QUOTE_MAX;
        while (cut > 0 && ((unsigned char)t[cut] & 0xC0) == 0x80)
            cut--;
        t[cut] = '\0';
        char *r = xasprintf("%s…", t);
        free(t);
        return r;
    }
    return t;
}

/* Net count of '(' minus ')' (and '[' ']') in code. */
int guards_paren_balance(const char *code)
{
    int d = 0;
    for (; *code; code++) {
        if (*code == '(' || *code == '[' || *code == '{')
            d++;
        else if (*code == ')' || *code == ']' || *code == '}')
            d--;
    }
    return d;
}

/* True when a path is a test (its asserts check results, they guard nothing). */
bool guards_is_test_path(const char *p)
{
    const char *base = strrchr(p, '/');
    base = base ? base + 1 : p;
    return str_starts(p, "op_tests/") || str_starts(p, "tests/") || str_starts(p, "test/") ||
           str_contains(p, "/tests/") || str_contains(p, "/test/") || str_starts(base, "test_") ||
           str_ends(p, "_test.py") || str_ends(p, "_test.cpp") || str_ends(p, "_test.cu");
}

/* Noise identifiers that say nothing about what a guard checks (the reference's list, plus
 * C++ words and the guard keywords themselves). */
bool guards_is_noise(const char *w)
{
    static const char *const noise[] = {
        "not", "is", "None", "True", "False", "and", "or", "in", "if", "else", "self", "len",
        "int", "float", "str", "bool", "tuple", "list", "dict", "set", "all", "any",
        "isinstance", "type", "return", "raise", "sizeof", "static_assert", "torch", "aiter",
        "np", "dtypes", "assert", "TORCH_CHECK", "AITER_CHECK", "TORCH_INTERNAL_ASSERT",
        "_Static_assert", "nullptr", "NULL", "true", "false", "const", "auto", "std", "tl",
        "gl", "ck_tile", "static_cast", "reinterpret_cast", "decltype", "this", "none", "null",
        "true", "false", "and", "or", "not", NULL,
    };
    for (int i = 0; noise[i]; i++)
        if (strcmp(w, noise[i]) == 0)
            return true;
    return str_starts(w, "TORCH_CHECK") || str_starts(w, "AITER_CHECK");
}

/* Generic attribute/method names: part of a check's property, never its subject. */
static bool is_generic_attr(const char *w)
{
    static const char *const g[] = {
        "size", "sizes", "numel", "shape", "dtype", "device", "dim", "ndim", "stride",
        "strides", "is_contiguous", "contiguous", "data_ptr", "item", "value", "has_value",
        "is_cuda", "scalar_type", "element_size", "nbytes", "get", "data", NULL,
    };
    for (int i = 0; g[i]; i++)
        if (strcmp(w, g[i]) == 0)
            return true;
    return false;
}

/* The code after a guard keyword: from just past "assert" / "TORCH_CHECK(" etc. *op gets the
 * comparison a TORCH_CHECK_EQ-style suffix stands for ("==" for _EQ), or NULL. */
static const char *after_keyword(const char *code, const char **op)
{
    static const char *const kw[] = {"static_assert", "_Static_assert", "TORCH_INTERNAL_ASSERT",
                                     "TORCH_CHECK", "AITER_CHECK", "assert", NULL};
    static const char *const suffix[][2] = {{"_EQ", "=="}, {"_NE", "!="}, {"_LE", "<="},
                                            {"_LT", "<"},  {"_GE", ">="}, {"_GT", ">"}};
    *op = NULL;
    for (int i = 0; kw[i]; i++) {
        const char *p = guards_find_word(code, kw[i], i >= 2 && i <= 4);
        if (!p)
            continue;
        p += strlen(kw[i]);
        const char *s = p;
        while (str_ident_char(*p))
            p++; /* TORCH_CHECK_EQ */
        for (size_t k = 0; k < sizeof suffix / sizeof suffix[0]; k++)
            if ((size_t)(p - s) == strlen(suffix[k][0]) && strncmp(s, suffix[k][0], 3) == 0)
                *op = suffix[k][1];
        while (*p == ' ' || *p == '	')
            p++;
        if (*p == '(')
            p++;
        return p;
    }
    return code;
}

/* The end of the top-level argument starting at p: its ',' or closing bracket, or the NUL. */
static const char *arg_end(const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}') {
            if (depth == 0)
                break;
            depth--;
        } else if (*p == ',' && depth == 0)
            break;
    }
    return p;
}

/* The condition part of a check: after the keyword, up to its first top-level ','; for
 * TORCH_CHECK_EQ(a, b) and its kin the comparison of the two first arguments. The places are
 * found in code (strings blanked, so their commas and brackets do not count); the text is
 * taken from text when it has the same length (strings kept), else from code. */
char *guards_condition_in(const char *code, const char *text)
{
    const char *src = text && strlen(text) == strlen(code) ? text : code;
    const char *op;
    const char *p = after_keyword(code, &op);
    const char *e = arg_end(p);
    size_t ps = (size_t)(p - code), pe = (size_t)(e - code);
    if (op && *e == ',') {
        const char *e2 = arg_end(e + 1);
        char *a = xstrndup(src + ps, pe - ps), *b = xstrndup(src + pe + 1, (size_t)(e2 - e - 1));
        char *as = str_strip(a), *bs = str_strip(b);
        char *r = xasprintf("%s %s %s", as, op, bs);
        free(a);
        free(b);
        free(as);
        free(bs);
        return r;
    }
    return xstrndup(src + ps, pe - ps);
}

char *guards_condition(const char *code)
{
    return guards_condition_in(code, NULL);
}

char *guards_first_call(const char *code)
{
    char *cond = guards_condition(code);
    char *r = NULL;
    for (const char *p = cond; *p && !r; p++) {
        if (!(isalpha((unsigned char)*p) || *p == '_') || (p > cond && (str_ident_char(p[-1]) || p[-1] == '.')))
            continue;
        const char *e = p;
        while (str_ident_char(*e))
            e++;
        if (*e == '(') {
            r = xstrndup(p, (size_t)(e - p));
            if (guards_is_noise(r)) {
                free(r);
                r = NULL;
            }
        }
        p = e - 1;
    }
    free(cond);
    return r;
}

void guards_words_free(gwords *ws)
{
    for (size_t i = 0; i < ws->n; i++)
        free(ws->w[i]);
    free(ws->w);
    memset(ws, 0, sizeof *ws);
}

bool guards_words_has(const gwords *ws, const char *w)
{
    for (size_t i = 0; i < ws->n; i++)
        if (strcmp(ws->w[i], w) == 0)
            return true;
    return false;
}

/* Identifiers of code (not numbers), de-duplicated, skipping noise; with attrs false, also
 * skipping identifiers that follow '.' or '->' (attribute and method names); min_len bounds
 * their length; lower folds case. */
void guards_idents(const char *code, bool attrs, size_t min_len, bool lower, gwords *out)
{
    for (const char *p = code; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_') || (p > code && str_ident_char(p[-1]))) {
            p++;
            continue;
        }
        const char *e = p;
        while (str_ident_char(*e))
            e++;
        bool after_dot = (p > code && p[-1] == '.') || (p > code + 1 && p[-2] == '-' && p[-1] == '>');
        char *w = xstrndup(p, (size_t)(e - p));
        if (lower)
            for (char *c = w; *c; c++)
                *c = (char)tolower((unsigned char)*c);
        if (strlen(w) >= min_len && !guards_is_noise(w) && (attrs || !after_dot) && !guards_words_has(out, w))
            *ARRAY_PUSH(out->w, out->n, out->cap) = w;
        else
            free(w);
        p = e;
    }
}

/* The symbol a statement guards: for a check, the first non-noise name in its condition; for
 * a zero-init or contiguous call, the assignment target or the receiver. */
char *guards_subject(const char *code, gkind k, const char *target)
{
    if (k == GK_CHECK) {
        /* the first name that is not noise, not an attribute and not a called function */
        char *cond = guards_condition(code);
        char *r = NULL;
        for (const char *p = cond; *p && !r;) {
            if (!(isalpha((unsigned char)*p) || *p == '_') || (p > cond && str_ident_char(p[-1]))) {
                p++;
                continue;
            }
            const char *e = p;
            while (str_ident_char(*e))
                e++;
            while (e[0] == ':' && e[1] == ':' && (isalpha((unsigned char)e[2]) || e[2] == '_')) {
                e += 2; /* T::K_TILES, ns::kMax: the qualified name is the subject */
                while (str_ident_char(*e))
                    e++;
            }
            const char *after = e;
            while (*after == ' ' || *after == '\t')
                after++;
            bool attr = (p > cond && p[-1] == '.') || (p > cond + 1 && p[-2] == '-' && p[-1] == '>') ||
                        (p > cond + 1 && p[-2] == ':' && p[-1] == ':');
            char *w = xstrndup(p, (size_t)(e - p));
            bool templ = *e == '<' && e[1] != '=' && e[1] != '<'; /* foo<T>(x), not a < b */
            if (!attr && *after != '(' && !templ && !guards_is_noise(w) && !is_generic_attr(w))
                r = w;
            else
                free(w);
            p = e;
        }
        free(cond);
        return r;
    }
    if (target)
        return xstrdup(target);
    const char *m = strstr(code, k == GK_ZERO ? ".zero_()" : ".contiguous()");
    if (m) {
        const char *s = m;
        while (s > code && str_ident_char(s[-1]))
            s--;
        if (s < m)
            return xstrndup(s, (size_t)(m - s));
    }
    return NULL;
}

/* The assignment target of a statement ("out" in `out = torch.zeros(...)`,
 * `auto out = torch::zeros(...)`, `self.out: T = ...`), or NULL. */
char *guards_target(const char *code)
{
    int depth = 0;
    for (const char *p = code; *p; p++) {
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}')
            depth--;
        else if (*p == '=' && depth == 0 && p[1] != '=' && p > code &&
                 !strchr("=!<>+-*/%&|^", p[-1])) {
            const char *e = p;
            while (e > code && isspace((unsigned char)e[-1]))
                e--;
            /* a Python annotation `x: T = ...`: the name is before the ':' */
            const char *colon = NULL;
            for (const char *q = code; q < e; q++)
                if (*q == ':' && q[1] != ':' && (q == code || q[-1] != ':'))
                    colon = q;
            if (colon) {
                e = colon;
                while (e > code && isspace((unsigned char)e[-1]))
                    e--;
            }
            const char *s = e;
            while (s > code && str_ident_char(s[-1]))
                s--;
            return s < e ? xstrndup(s, (size_t)(e - s)) : NULL;
        }
    }
    return NULL;
}

/* True when code tests a name against None / nullptr / has_value (a presence check). */
bool guards_is_presence_check(const char *code)
{
    return strstr(code, "is not None") || strstr(code, "is None") || strstr(code, "nullptr") ||
           strstr(code, "has_value") || guards_find_word(code, "NULL", false);
}

/* True when a condition is one call of a named function (`is_aligned(x, 16)`), not a method
 * of the subject. */
bool guards_named_predicate(const char *cond)
{
    const char *p = str_lskip(cond);
    if (!(isalpha((unsigned char)*p) || *p == '_'))
        return false;
    while (str_ident_char(*p) || *p == ':')
        p++;
    while (*p == ' ')
        p++;
    if (*p != '(')
        return false;
    int depth = 0;
    for (; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && --depth == 0)
            return !*str_lskip(p + 1);
    }
    return false;
}

/* Describe how a check changed, and whether it got stricter (B7) rather than weaker or just
 * different (D4). */
