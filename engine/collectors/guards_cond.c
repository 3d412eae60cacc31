/* Whether two guard conditions say the same thing, for the removed-guards collector.
 *
 * A refactor rewrites a check without changing what it enforces: conjuncts reordered, a
 * literal replaced by a named constant holding the same value (aiter#4825 moved an arch tuple
 * into a module constant; a literal 64 became the wave size), a subject renamed throughout,
 * a cast added, torch spellings swapped for aiter's. Each condition is read into tokens and
 * brought to a normal form: spellings, casts, redundant brackets and the leading underscore of
 * a called name folded, the names in scope followed to their values when asked, and the
 * conjuncts and disjuncts sorted, so that a reordered condition reads the same. Conditions that
 * still differ are compared as sets of conjuncts (one added: stricter; one dropped: looser)
 * and disjuncts (one added: looser). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/guards.h"

#define SUBST_DEPTH 2
#define DEF_MAX_TOKENS 48
#define DEF_JOIN_MAX 8
#define PARAMS_MAX 32

typedef struct toks {
    char **t;
    size_t n, cap;
} toks;

static void toks_free(toks *v)
{
    for (size_t i = 0; i < v->n; i++)
        free(v->t[i]);
    free(v->t);
    memset(v, 0, sizeof *v);
}

static void toks_push(toks *v, char *s)
{
    *ARRAY_PUSH(v->t, v->n, v->cap) = s;
}

static bool is_ident(const char *t)
{
    return isalpha((unsigned char)t[0]) || t[0] == '_';
}

static bool tok_is(const toks *v, size_t i, const char *s)
{
    return i < v->n && strcmp(v->t[i], s) == 0;
}

/* Read a string literal at p (after any prefix letters); returns its end. The token is the
 * contents in double quotes, so 'a' and "a" read the same. */
static const char *read_string(const char *p, char **out)
{
    char q = *p;
    bool triple = p[1] == q && p[2] == q;
    const char *s = p + (triple ? 3 : 1), *e = s;
    while (*e) {
        if (*e == '\\' && e[1]) {
            e += 2;
            continue;
        }
        if (*e == q && (!triple || (e[1] == q && e[2] == q)))
            break;
        e++;
    }
    *out = xasprintf("\"%.*s\"", (int)(e - s), s);
    if (*e)
        e += triple ? 3 : 1;
    return e;
}

/* A number token in a normal form: integers in decimal without suffixes. */
static char *read_number(const char *p, const char **end)
{
    const char *e = p;
    while (str_ident_char(*e) || *e == '.' || (*e == '\'' && isxdigit((unsigned char)e[1])))
        e++;
    *end = e;
    char *raw = xstrndup(p, (size_t)(e - p));
    char *clean = xstrdup(raw);
    size_t k = 0;
    for (char *c = raw; *c; c++)
        if (*c != '_' && *c != '\'')
            clean[k++] = *c;
    clean[k] = '\0';
    char *stop;
    long long v = strtoll(clean, &stop, 0);
    while (*stop == 'u' || *stop == 'U' || *stop == 'l' || *stop == 'L')
        stop++;
    char *r = *stop ? xstrdup(clean) : xasprintf("%lld", v);
    free(raw);
    free(clean);
    return r;
}

/* Split a condition into tokens. */
static void tokenize(const char *s, toks *out)
{
    static const char *const ops3[] = {"...", "<<=", ">>=", "**=", "//=", NULL};
    static const char *const ops2[] = {"&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "->", "**",
                                       "//", "::", "+=", "-=", "*=", "/=", "%=", "&=", "|=", NULL};
    const char *p = s;
    while (*p) {
        if (isspace((unsigned char)*p) || *p == '\\') {
            p++;
            continue;
        }
        if (is_ident(p)) {
            const char *e = p;
            while (str_ident_char(*e))
                e++;
            /* a string prefix: f"..", rb'..' */
            if ((*e == '"' || *e == '\'') && e - p <= 2) {
                char *str;
                p = read_string(e, &str);
                toks_push(out, str);
                continue;
            }
            while (e[0] == ':' && e[1] == ':' && (isalpha((unsigned char)e[2]) || e[2] == '_')) {
                e += 2;
                while (str_ident_char(*e))
                    e++;
            }
            toks_push(out, xstrndup(p, (size_t)(e - p)));
            p = e;
            continue;
        }
        if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            toks_push(out, read_number(p, &p));
            continue;
        }
        if (*p == '"' || *p == '\'') {
            char *str;
            p = read_string(p, &str);
            toks_push(out, str);
            continue;
        }
        size_t n = 1;
        for (int i = 0; ops3[i] && n == 1; i++)
            if (strncmp(p, ops3[i], 3) == 0)
                n = 3;
        for (int i = 0; ops2[i] && n == 1; i++)
            if (strncmp(p, ops2[i], 2) == 0)
                n = 2;
        toks_push(out, xstrndup(p, n));
        p += n;
    }
}

/* One spelling for the words that differ between Python and C++ and between torch and
 * aiter's own types (`.scalar_type() == at::kInt` became `.dtype() == AITER_DTYPE_i32`). */
static const char *spelling(const char *t)
{
    static const char *const map[][2] = {
        {"and", "&&"}, {"or", "||"}, {"not", "!"}, {"->", "."}, {"True", "true"},
        {"False", "false"}, {"None", "null"}, {"nullptr", "null"}, {"NULL", "null"},
        {"scalar_type", "dtype"},
        {"at::ScalarType::Int", "i32"},       {"torch::kInt32", "i32"},    {"at::kInt", "i32"},
        {"torch::kInt", "i32"},               {"AITER_DTYPE_i32", "i32"},  {"torch.int32", "i32"},
        {"at::ScalarType::Long", "i64"},      {"torch::kInt64", "i64"},    {"at::kLong", "i64"},
        {"torch::kLong", "i64"},              {"AITER_DTYPE_i64", "i64"},
        {"at::ScalarType::BFloat16", "bf16"}, {"torch::kBFloat16", "bf16"},
        {"at::kBFloat16", "bf16"},            {"AITER_DTYPE_bf16", "bf16"},
        {"at::ScalarType::Half", "fp16"},     {"torch::kFloat16", "fp16"}, {"at::kHalf", "fp16"},
        {"torch::kHalf", "fp16"},             {"AITER_DTYPE_fp16", "fp16"},
        {"at::ScalarType::Float", "fp32"},    {"torch::kFloat32", "fp32"}, {"at::kFloat", "fp32"},
        {"torch::kFloat", "fp32"},            {"AITER_DTYPE_fp32", "fp32"},
    };
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
        if (strcmp(t, map[k][0]) == 0)
            return map[k][1];
    return NULL;
}

/* True when an identifier names an integer or floating type (a C-style cast's type). */
static bool is_type_name(const char *t)
{
    static const char *const types[] = {"int", "long", "unsigned", "signed", "short", "size_t",
                                        "int32_t", "int64_t", "uint32_t", "uint64_t", "int16_t",
                                        "uint16_t", "int8_t", "uint8_t", "float", "double",
                                        "index_t", "ssize_t", "ptrdiff_t", "long_index_t", NULL};
    for (int i = 0; types[i]; i++)
        if (strcmp(t, types[i]) == 0)
            return true;
    return false;
}

/* Index of the bracket closing the one at i (or v->n). */
static size_t closing(const toks *v, size_t i)
{
    int depth = 0;
    for (size_t k = i; k < v->n; k++) {
        const char *t = v->t[k];
        if (!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{"))
            depth++;
        else if ((!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}")) && --depth == 0)
            return k;
    }
    return v->n;
}

/* Remove tokens [a, b) from v. */
static void toks_cut(toks *v, size_t a, size_t b)
{
    for (size_t k = a; k < b; k++)
        free(v->t[k]);
    memmove(v->t + a, v->t + b, (v->n - b) * sizeof *v->t);
    v->n -= b - a;
}

/* Insert the tokens of ins (copied) at position at. */
static void toks_insert(toks *v, size_t at, const toks *ins)
{
    for (size_t k = 0; k < ins->n; k++) {
        toks_push(v, NULL);
        memmove(v->t + at + k + 1, v->t + at + k, (v->n - at - k - 1) * sizeof *v->t);
        v->t[at + k] = xstrdup(ins->t[k]);
    }
}

/* Spellings, casts and called names' leading underscores. */
static void fold_spellings(toks *v)
{
    for (size_t i = 0; i < v->n; i++) {
        const char *m = spelling(v->t[i]);
        if (m) {
            free(v->t[i]);
            v->t[i] = xstrdup(m);
        }
    }
    for (size_t i = 0; i < v->n; i++) {
        /* .device().is_cpu() is .is_cpu(); .device() is .device_id */
        if (tok_is(v, i, ".") && tok_is(v, i + 1, "device") && tok_is(v, i + 2, "(") &&
            tok_is(v, i + 3, ")")) {
            if (tok_is(v, i + 4, ".")) {
                toks_cut(v, i + 1, i + 5);
            } else {
                free(v->t[i + 1]);
                v->t[i + 1] = xstrdup("device_id");
                toks_cut(v, i + 2, i + 4);
            }
        }
        /* static_cast<T>(x) is (x); (int)x is x */
        if ((tok_is(v, i, "static_cast") || tok_is(v, i, "reinterpret_cast")) && tok_is(v, i + 1, "<")) {
            size_t k = i + 2;
            while (k < v->n && !tok_is(v, k, ">"))
                k++;
            if (k < v->n)
                toks_cut(v, i, k + 1);
        }
        if (tok_is(v, i, "(") && i + 2 < v->n && is_type_name(v->t[i + 1]) && tok_is(v, i + 2, ")") &&
            i + 3 < v->n && (is_ident(v->t[i + 3]) || tok_is(v, i + 3, "(")) &&
            !(i > 0 && (is_ident(v->t[i - 1]) || tok_is(v, i - 1, ")"))))
            toks_cut(v, i, i + 3);
        /* ck_tile::get_warp_size() is opus::get_warp_size(): a called name without its
         * namespace */
        const char *colons = strstr(v->t[i], "::");
        if (colons && tok_is(v, i + 1, "(") && is_ident(v->t[i])) {
            char *s = xstrdup(strrchr(v->t[i], ':') + 1);
            free(v->t[i]);
            v->t[i] = s;
        }
        if (v->t[i][0] == '_' && v->t[i][1] && tok_is(v, i + 1, "(") && !(i > 0 && tok_is(v, i - 1, "."))) {
            char *s = xstrdup(v->t[i] + strspn(v->t[i], "_"));
            if (*s) {
                free(v->t[i]);
                v->t[i] = s;
            } else {
                free(s);
            }
        }
    }
}

/* --- named constants ------------------------------------------------------------------- */

/* The value expression of a definition of name on a line of code, or NULL: Python `NAME = v`
 * (optionally annotated), C++ `[static] [inline] const[expr] TYPE NAME = v;` or `{v}`, and
 * `#define NAME v`. */
static char *definition_on(const char *line, const char *name)
{
    const char *p = str_lskip(line);
    size_t n = strlen(name);
    if (*p == '#') {
        p = str_lskip(p + 1);
        if (!str_starts(p, "define"))
            return NULL;
        p = str_lskip(p + 6);
        if (strncmp(p, name, n) != 0 || str_ident_char(p[n]) || p[n] == '(')
            return NULL;
        return str_strip(p + n);
    }
    const char *at = guards_find_word(p, name, false);
    if (!at)
        return NULL;
    bool cpp_const = guards_find_word(p, "constexpr", false) || guards_find_word(p, "const", false);
    if (at != p && !cpp_const)
        return NULL; /* Python: the name starts the line; C++: a const declaration */
    if (at != p) {
        /* nothing but type words before the name */
        for (const char *q = p; q < at; q++)
            if (!str_ident_char(*q) && !isspace((unsigned char)*q) && *q != ':' && *q != '<' &&
                *q != '>' && *q != ',' && *q != '&' && *q != '*')
                return NULL;
    }
    const char *e = at + n;
    while (*e == ' ' || *e == '\t')
        e++;
    if (*e == ':' && e[1] != ':' && at == p) { /* x: T = v */
        e = strchr(e, '=');
        if (!e)
            return NULL;
    }
    if (*e == '{') {
        const char *c = strrchr(e, '}');
        return c ? xstrndup(e + 1, (size_t)(c - e - 1)) : NULL;
    }
    if (*e != '=' || e[1] == '=')
        return NULL;
    char *v = str_strip(e + 1);
    size_t len = strlen(v);
    while (len && (v[len - 1] == ';' || isspace((unsigned char)v[len - 1])))
        v[--len] = '\0';
    return v;
}

/* The text of line of doc with comments blanked, joined with the following lines while
 * brackets stay open (a tuple written over several lines). */
static char *joined_line(const syntax_doc *d, int line)
{
    strbuf sb;
    sb_init(&sb);
    int depth = 0;
    for (int k = line; k <= d->nlines && k < line + DEF_JOIN_MAX; k++) {
        char *t = syntax_line_nocomment(d, k);
        if (!t)
            break;
        if (sb.len)
            sb_addc(&sb, ' ');
        sb_adds(&sb, t);
        depth += guards_paren_balance(t);
        free(t);
        if (depth <= 0)
            break;
    }
    return sb_detach(&sb);
}

/* The value of name where the scope reads it: the nearest definition before the line in the
 * same function, else the one definition outside any function (NULL when there are several
 * that differ, or none). */
static char *resolve(const gscope *sc, const char *name)
{
    const syntax_doc *d = sc->doc;
    if (!d || !d->text || !strstr(d->text, name))
        return NULL;
    const syn_func *fn = sc->funcs ? guards_function_at(sc->funcs, sc->line) : NULL;
    if (fn) {
        for (int k = sc->line - 1; k >= fn->body_line; k--) {
            size_t len;
            const char *t = syntax_line_text(d, k, &len);
            if (!t || !memmem(t, len, name, strlen(name)))
                continue;
            char *j = joined_line(d, k);
            char *v = definition_on(j, name);
            free(j);
            if (v)
                return v;
        }
    }
    /* then the file's own lines: those outside every function, and preprocessor lines
     * anywhere; the functions are listed in the order they start, so one pass beside the lines
     * tells which lines some function holds (the last line any function started so far
     * reaches) */
    char *found = NULL;
    size_t fi = 0, nl = strlen(name);
    int held_to = 0;
    for (int k = 1; k <= d->nlines; k++) {
        for (; sc->funcs && fi < sc->funcs->n && sc->funcs->items[fi].start_line <= k; fi++)
            if (sc->funcs->items[fi].end_line > held_to)
                held_to = sc->funcs->items[fi].end_line;
        size_t len;
        const char *t = syntax_line_text(d, k, &len);
        if (!t || (k <= held_to && t[0] != '#') || !memmem(t, len, name, nl))
            continue;
        char *j = joined_line(d, k);
        char *v = definition_on(j, name);
        free(j);
        if (!v)
            continue;
        if (found && strcmp(found, v) != 0) {
            free(found);
            free(v);
            return NULL;
        }
        free(found);
        found = v;
    }
    return found;
}

/* True when the identifier at i is a plain value (not a member, a call, a subscript base or a
 * template). */
static bool plain_name(const toks *v, size_t i)
{
    if (!is_ident(v->t[i]) || (i > 0 && tok_is(v, i - 1, ".")))
        return false;
    return !(tok_is(v, i + 1, "(") || tok_is(v, i + 1, ".") || tok_is(v, i + 1, "[") ||
             tok_is(v, i + 1, "<") || tok_is(v, i + 1, "="));
}

/* Replace the token at i by the tokens of text, bracketed when it is more than one. */
static size_t replace_with(toks *v, size_t i, const char *text)
{
    toks ins = {0};
    tokenize(text, &ins);
    bool grouped = ins.n > 1 && (tok_is(&ins, 0, "(") || tok_is(&ins, 0, "[")) && closing(&ins, 0) == ins.n - 1;
    if (ins.n > 1 && !grouped) {
        toks wrapped = {0};
        toks_push(&wrapped, xstrdup("("));
        for (size_t k = 0; k < ins.n; k++)
            toks_push(&wrapped, xstrdup(ins.t[k]));
        toks_push(&wrapped, xstrdup(")"));
        toks_free(&ins);
        ins = wrapped;
    }
    toks_cut(v, i, i + 1);
    toks_insert(v, i, &ins);
    size_t n = ins.n;
    toks_free(&ins);
    return n;
}

/* Substitute the scope's names (parameters by arguments) and, when follow is set, the named
 * constants in scope by their values. */
static void substitute(toks *v, const gscope *sc, bool follow)
{
    if (!sc)
        return;
    for (size_t i = 0; i < v->n; i++) {
        /* a parameter is read wherever it is not a member or a keyword */
        if (!is_ident(v->t[i]) || (i > 0 && tok_is(v, i - 1, ".")) || tok_is(v, i + 1, "="))
            continue;
        for (size_t k = 0; k < sc->nsubst; k++)
            if (strcmp(v->t[i], sc->from[k]) == 0) {
                i += replace_with(v, i, sc->to[k]) - 1;
                break;
            }
    }
    if (!follow || !sc->doc)
        return;
    for (int depth = 0; depth < SUBST_DEPTH; depth++) {
        bool changed = false;
        for (size_t i = 0; i < v->n; i++) {
            /* a name used as an object (`p->size(0)`, `x[0]`) is followed only to another name
             * (an alias: `auto& p = out_scale;`) */
            bool object = is_ident(v->t[i]) && !(i > 0 && tok_is(v, i - 1, ".")) &&
                          (tok_is(v, i + 1, ".") || tok_is(v, i + 1, "["));
            if (object) {
                char *val = resolve(sc, v->t[i]);
                if (val && is_ident(val) && !strpbrk(val, " (")) {
                    free(v->t[i]);
                    v->t[i] = xstrdup(val);
                    changed = true;
                }
                free(val);
                continue;
            }
            if (!plain_name(v, i) || spelling(v->t[i]) || !strcmp(v->t[i], "in") ||
                !strcmp(v->t[i], "is") || !strcmp(v->t[i], "true") || !strcmp(v->t[i], "false") ||
                !strcmp(v->t[i], "null"))
                continue;
            char *val = resolve(sc, v->t[i]);
            if (!val)
                continue;
            toks probe = {0};
            tokenize(val, &probe);
            bool ok = probe.n > 0 && probe.n <= DEF_MAX_TOKENS;
            /* a value, not a call's result (sizeof and casts are values) */
            for (size_t k = 0; k < probe.n && ok; k++)
                ok = strcmp(probe.t[k], v->t[i]) != 0 &&
                     !(is_ident(probe.t[k]) && tok_is(&probe, k + 1, "(") &&
                       strcmp(probe.t[k], "sizeof") != 0 && !is_type_name(probe.t[k]));
            toks_free(&probe);
            if (ok) {
                i += replace_with(v, i, val) - 1;
                changed = true;
            }
            free(val);
        }
        if (!changed)
            break;
    }
}

/* --- normal form ----------------------------------------------------------------------- */

/* Remove brackets that wrap one token or another bracket pair, and the pair around the whole
 * condition. */
static void drop_brackets(toks *v)
{
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < v->n; i++) {
            if (!tok_is(v, i, "("))
                continue;
            size_t c = closing(v, i);
            if (c >= v->n)
                continue;
            bool call = i > 0 && (is_ident(v->t[i - 1]) || tok_is(v, i - 1, ")") ||
                                  tok_is(v, i - 1, "]") || tok_is(v, i - 1, ">"));
            bool whole = i == 0 && c == v->n - 1;
            bool single = c == i + 2;
            bool doubled = tok_is(v, i + 1, "(") && closing(v, i + 1) == c - 1;
            if (!call && (whole || single || doubled)) {
                toks_cut(v, c, c + 1);
                toks_cut(v, i, i + 1);
                again = true;
                break;
            }
        }
    }
}

/* Compare two strings through pointers (for qsort). */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort the items of a literal list after `in` (`x in (a, b)` is `x in (b, a)`); a list is a
 * tuple. */
static void sort_membership(toks *v)
{
    for (size_t i = 0; i + 1 < v->n; i++) {
        if (!tok_is(v, i, "in") || !(tok_is(v, i + 1, "(") || tok_is(v, i + 1, "[")))
            continue;
        size_t c = closing(v, i + 1);
        if (c >= v->n)
            continue;
        free(v->t[i + 1]);
        v->t[i + 1] = xstrdup("(");
        free(v->t[c]);
        v->t[c] = xstrdup(")");
        /* items of one token each: sort them in place */
        bool simple = true;
        for (size_t k = i + 2; k < c && simple; k++)
            simple = ((k - i) % 2 == 0) ? strcmp(v->t[k], ",") != 0 : strcmp(v->t[k], ",") == 0;
        if (!simple)
            continue;
        char **items = xcalloc(c - i, sizeof *items);
        size_t m = 0;
        for (size_t k = i + 2; k < c; k += 2)
            items[m++] = v->t[k];
        qsort(items, m, sizeof *items, cmp_str);
        for (size_t k = i + 2, j = 0; k < c; k += 2)
            v->t[k] = items[j++];
        if (tok_is(v, c - 1, ",")) /* a trailing comma */
            toks_cut(v, c - 1, c);
        free(items);
    }
}

/* `isinstance(x, (A, B))` is `isinstance(x, A) || isinstance(x, B)`. */
static void expand_isinstance(toks *v)
{
    for (size_t i = 0; i + 4 < v->n; i++) {
        if (!tok_is(v, i, "isinstance") || !tok_is(v, i + 1, "("))
            continue;
        size_t c = closing(v, i + 1), comma = i + 2;
        while (comma < c && !tok_is(v, comma, ","))
            comma++;
        if (c >= v->n || comma + 1 >= c || !tok_is(v, comma + 1, "(") || closing(v, comma + 1) != c - 1)
            continue;
        strbuf sb;
        sb_init(&sb);
        sb_adds(&sb, "(");
        size_t k = comma + 2, start = k;
        for (; k <= c - 1; k++) {
            if (k == c - 1 || tok_is(v, k, ",")) {
                if (k > start) {
                    sb_adds(&sb, sb.len > 1 ? " || isinstance(" : "isinstance(");
                    for (size_t a = i + 2; a < comma; a++)
                        sb_addf(&sb, "%s ", v->t[a]);
                    sb_adds(&sb, ",");
                    for (size_t a = start; a < k; a++)
                        sb_addf(&sb, " %s", v->t[a]);
                    sb_adds(&sb, ")");
                }
                start = k + 1;
            }
        }
        sb_adds(&sb, ")");
        toks ins = {0};
        tokenize(sb.buf, &ins);
        sb_free(&sb);
        toks_cut(v, i, c + 1);
        toks_insert(v, i, &ins);
        i += ins.n - 1;
        toks_free(&ins);
    }
}

/* Tokens [a, b) joined without spaces, except between two words. */
static char *join(const toks *v, size_t a, size_t b)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t k = a; k < b; k++) {
        if (k > a && str_ident_char(v->t[k][0]) && sb.len && str_ident_char(sb.buf[sb.len - 1]))
            sb_addc(&sb, ' ');
        sb_adds(&sb, v->t[k]);
    }
    if (!sb.buf)
        return xstrdup("");
    return sb_detach(&sb);
}

/* Split tokens [a, b) at the top-level operator op into new strings (each brought to normal
 * form by norm_part), appended to out. */
typedef struct parts {
    char **p;
    size_t n, cap;
} parts;

static void parts_free(parts *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        free(ps->p[i]);
    free(ps->p);
    memset(ps, 0, sizeof *ps);
}

/* A disjunct or comparison in normal form: a top-level == or != with its sides in order. */
static char *norm_atom(const toks *v, size_t a, size_t b)
{
    toks sub = {0};
    for (size_t k = a; k < b; k++)
        toks_push(&sub, xstrdup(v->t[k]));
    drop_brackets(&sub);
    int depth = 0;
    size_t op = sub.n, nops = 0;
    for (size_t k = 0; k < sub.n; k++) {
        const char *t = sub.t[k];
        if (!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{"))
            depth++;
        else if (!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}"))
            depth--;
        else if (depth == 0 && (!strcmp(t, "==") || !strcmp(t, "!=") || !strcmp(t, "<") ||
                                !strcmp(t, ">") || !strcmp(t, "<=") || !strcmp(t, ">=") ||
                                !strcmp(t, "&&") || !strcmp(t, "||") || !strcmp(t, "?"))) {
            op = k;
            nops++;
        }
    }
    char *r;
    if (nops == 1 && (tok_is(&sub, op, "==") || tok_is(&sub, op, "!="))) {
        char *l = join(&sub, 0, op), *rr = join(&sub, op + 1, sub.n);
        /* a literal goes right (`x == 3`), else the sides in byte order */
        bool ll = l[0] == '"' || isdigit((unsigned char)l[0]), rl = rr[0] == '"' || isdigit((unsigned char)rr[0]);
        bool swap = ll != rl ? ll : strcmp(l, rr) > 0;
        r = xasprintf("%s%s%s", swap ? rr : l, sub.t[op], swap ? l : rr);
        free(l);
        free(rr);
    } else {
        r = join(&sub, 0, sub.n);
    }
    toks_free(&sub);
    return r;
}

/* Add the atom [a, b) to out; a membership test in a literal list (`x in (p, q)`) adds one
 * equality per item, so that a list that grows or shrinks compares as disjuncts. */
static void push_atom(const toks *v, size_t a, size_t b, parts *out)
{
    size_t in = b;
    int depth = 0;
    for (size_t k = a; k < b; k++) {
        const char *t = v->t[k];
        if (!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{"))
            depth++;
        else if (!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}"))
            depth--;
        else if (depth == 0 && !strcmp(t, "in") && in == b)
            in = k;
    }
    bool list = in > a && in + 1 < b && !tok_is(v, in - 1, "!") && tok_is(v, in + 1, "(") &&
                closing(v, in + 1) == b - 1;
    for (size_t k = in + 2; list && k < b - 1; k++)
        list = ((k - in) % 2 == 0) ? strcmp(v->t[k], ",") != 0 : strcmp(v->t[k], ",") == 0;
    if (!list) {
        *ARRAY_PUSH(out->p, out->n, out->cap) = norm_atom(v, a, b);
        return;
    }
    for (size_t k = in + 2; k < b - 1; k += 2) {
        toks eq = {0};
        for (size_t j = a; j < in; j++)
            toks_push(&eq, xstrdup(v->t[j]));
        toks_push(&eq, xstrdup("=="));
        toks_push(&eq, xstrdup(v->t[k]));
        *ARRAY_PUSH(out->p, out->n, out->cap) = norm_atom(&eq, 0, eq.n);
        toks_free(&eq);
    }
}

/* Split tokens [a, b) at top-level occurrences of op; each piece goes through norm_atom, or
 * (for "&&") is itself split at "||" and its sorted disjuncts joined. */
static void split_top(const toks *v, size_t a, size_t b, const char *op, parts *out)
{
    int depth = 0;
    size_t s = a;
    for (size_t k = a; k <= b; k++) {
        const char *t = k < b ? v->t[k] : NULL;
        if (t && (!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{")))
            depth++;
        else if (t && (!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}")))
            depth--;
        if (k < b && !(depth == 0 && !strcmp(t, op)))
            continue;
        if (k > s) {
            if (!strcmp(op, "&&")) {
                parts dj = {0};
                split_top(v, s, k, "||", &dj);
                if (dj.n > 1)
                    qsort(dj.p, dj.n, sizeof *dj.p, cmp_str);
                strbuf sb;
                sb_init(&sb);
                for (size_t i = 0; i < dj.n; i++) {
                    if (i)
                        sb_adds(&sb, "||");
                    sb_adds(&sb, dj.p[i]);
                }
                *ARRAY_PUSH(out->p, out->n, out->cap) = sb.buf ? sb_detach(&sb) : xstrdup("");
                parts_free(&dj);
            } else {
                push_atom(v, s, k, out);
            }
        }
        s = k + 1;
    }
}

/* The condition's conjuncts in normal form, sorted. */
static void normal_parts(const char *cond, const gscope *sc, bool follow, parts *out)
{
    toks v = {0};
    tokenize(cond, &v);
    fold_spellings(&v);
    substitute(&v, sc, follow);
    fold_spellings(&v);
    expand_isinstance(&v);
    sort_membership(&v);
    drop_brackets(&v);
    split_top(&v, 0, v.n, "&&", out);
    if (out->n > 1) /* an empty condition leaves p NULL, which qsort must not be given */
        qsort(out->p, out->n, sizeof *out->p, cmp_str);
    toks_free(&v);
}

static char *parts_join(const parts *ps, const char *sep)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < ps->n; i++) {
        if (i)
            sb_adds(&sb, sep);
        sb_adds(&sb, ps->p[i]);
    }
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

char *guards_canonical(const char *cond, const gscope *sc)
{
    parts ps = {0};
    normal_parts(cond, sc, sc && sc->follow, &ps);
    char *r = parts_join(&ps, "&&");
    parts_free(&ps);
    return r;
}

/* --- comparison ------------------------------------------------------------------------ */

static bool parts_has(const parts *ps, const char *s)
{
    for (size_t i = 0; i < ps->n; i++)
        if (strcmp(ps->p[i], s) == 0)
            return true;
    return false;
}

/* How many of a's items b lacks; the first of them in *first (borrowed). */
static size_t missing(const parts *a, const parts *b, const char **first)
{
    size_t n = 0;
    *first = NULL;
    for (size_t i = 0; i < a->n; i++)
        if (!parts_has(b, a->p[i]) && n++ == 0)
            *first = a->p[i];
    return n;
}

/* Compare two normal forms as sets of conjuncts, then (one conjunct each) of disjuncts. */
static gcmp compare_parts(const parts *o, const parts *n, char **how)
{
    const char *lost, *gained;
    size_t nl = missing(o, n, &lost), ng = missing(n, o, &gained);
    if (nl == 0 && ng == 0)
        return GC_SAME;
    if (nl == 0) {
        if (how)
            *how = xasprintf("a condition was added: %s", gained);
        return GC_STRICTER;
    }
    if (ng == 0) {
        if (how)
            *how = xasprintf("part of the condition was dropped: %s", lost);
        return GC_LOOSER;
    }
    if (nl == 1 && ng == 1 && (strstr(lost, "||") || strstr(gained, "||"))) {
        /* the one differing conjunct: compare its disjuncts (a conjunct spelling no || has
         * one) */
        parts od = {0}, nd = {0};
        toks a = {0}, b = {0};
        tokenize(lost, &a);
        tokenize(gained, &b);
        split_top(&a, 0, a.n, "||", &od);
        split_top(&b, 0, b.n, "||", &nd);
        const char *dl, *dg;
        size_t ndl = missing(&od, &nd, &dl), ndg = missing(&nd, &od, &dg);
        gcmp r = GC_OTHER;
        if (od.n > 1 || nd.n > 1) {
            if (ndl == 0 && ndg > 0) {
                r = GC_LOOSER;
                if (how)
                    *how = xasprintf("more values now pass: %s is also accepted", dg);
            } else if (ndg == 0 && ndl > 0) {
                r = GC_STRICTER;
                if (how)
                    *how = xasprintf("fewer values pass: %s is no longer accepted", dl);
            }
        }
        toks_free(&a);
        toks_free(&b);
        parts_free(&od);
        parts_free(&nd);
        return r;
    }
    return GC_OTHER;
}

/* The parameter at the same place of the same function in the base and the head: true when
 * name a (old) and b (new) are such a pair. */
static bool renamed_param(const gscope *os, const gscope *ns, const char *a, const char *b)
{
    if (!os->doc || !ns->doc || !os->funcs || !ns->funcs)
        return false;
    const syn_func *of = guards_function_at(os->funcs, os->line);
    const syn_func *nf = guards_function_at(ns->funcs, ns->line);
    if (!of || !nf || strcmp(of->qualname, nf->qualname) != 0)
        return false;
    char *op[PARAMS_MAX], *np[PARAMS_MAX];
    size_t on = guards_param_names(os->doc, of, op, PARAMS_MAX);
    size_t nn = guards_param_names(ns->doc, nf, np, PARAMS_MAX);
    bool r = false;
    for (size_t k = 0; k < on && on == nn && !r; k++)
        r = op[k] && np[k] && !strcmp(op[k], a) && !strcmp(np[k], b);
    for (size_t k = 0; k < on; k++)
        free(op[k]);
    for (size_t k = 0; k < nn; k++)
        free(np[k]);
    return r;
}

/* True when the two normal forms differ only by parameters renamed in place, each old name
 * always becoming the same new one. */
static bool renamed(const toks *a, const toks *b, const gscope *os, const gscope *ns)
{
    bool r = a->n == b->n, any = false;
    for (size_t i = 0; i < a->n && r; i++) {
        if (strcmp(a->t[i], b->t[i]) == 0)
            continue;
        r = is_ident(a->t[i]) && is_ident(b->t[i]);
        for (size_t k = 0; k < i && r; k++)
            if (strcmp(a->t[k], a->t[i]) == 0)
                r = strcmp(b->t[k], b->t[i]) == 0;
        r = r && renamed_param(os, ns, a->t[i], b->t[i]);
        any = true;
    }
    return r && any;
}

/* One condition's normal forms (as written, and with constants followed), with the scope each
 * was read in: a form is reused only for the same doc, function list and line. */
struct gnormal {
    bool have[2];
    const syntax_doc *doc[2];
    const syn_func_list *funcs[2];
    int line[2];
    parts p[2];
    bool have_joined;
    toks joined;             /* the tokens of p[0] joined with "&&" (for the renamed test) */
};

gnormal *guards_normal_new(void)
{
    return xcalloc(1, sizeof(gnormal));
}

void guards_normal_free(gnormal *m)
{
    if (!m)
        return;
    parts_free(&m->p[0]);
    parts_free(&m->p[1]);
    toks_free(&m->joined);
    free(m);
}

/* The normal form of cond read in sc (constants followed when follow and sc->follow): the
 * memo's when sc has one that was read in the same place, else worked out into *own. */
static const parts *normal_of(const char *cond, const gscope *sc, bool follow, parts *own)
{
    int k = follow && sc->follow;
    gnormal *m = sc->nsubst ? NULL : sc->memo;
    if (!m) {
        normal_parts(cond, sc, k, own);
        return own;
    }
    if (!m->have[k] || m->doc[k] != sc->doc || m->funcs[k] != sc->funcs || m->line[k] != sc->line) {
        parts_free(&m->p[k]);
        if (k == 0) {
            toks_free(&m->joined);
            m->have_joined = false;
        }
        normal_parts(cond, sc, k, &m->p[k]);
        m->have[k] = true;
        m->doc[k] = sc->doc;
        m->funcs[k] = sc->funcs;
        m->line[k] = sc->line;
    }
    return &m->p[k];
}

/* The tokens of ps joined with "&&": the memo's when ps is its as-written form, else made in
 * *own. */
static const toks *joined_of(const parts *ps, const gscope *sc, toks *own)
{
    gnormal *m = sc->nsubst ? NULL : sc->memo;
    toks *t = m && ps == &m->p[0] ? &m->joined : own;
    if (t == own || !m->have_joined) {
        char *j = parts_join(ps, "&&");
        tokenize(j, t);
        free(j);
        if (t != own)
            m->have_joined = true;
    }
    return t;
}

gcmp guards_compare(const char *old_cond, const gscope *old_sc, const char *new_cond,
                    const gscope *new_sc, char **how)
{
    if (how)
        *how = NULL;
    /* first as written (parameters substituted, constants not followed), then with the
     * constants in scope followed to their values */
    gcmp r = GC_OTHER;
    int passes = old_sc->follow || new_sc->follow ? 2 : 1;
    for (int follow = 0; follow < passes && r != GC_SAME; follow++) {
        parts own_o = {0}, own_n = {0};
        const parts *o = normal_of(old_cond, old_sc, follow, &own_o);
        const parts *n = normal_of(new_cond, new_sc, follow, &own_n);
        if (o->n == 0 || n->n == 0) {
            parts_free(&own_o);
            parts_free(&own_n);
            break;
        }
        char *h = NULL;
        gcmp c = compare_parts(o, n, how && r == GC_OTHER ? &h : NULL);
        if (c == GC_OTHER && follow == 0) {
            toks own_oj = {0}, own_nj = {0};
            if (renamed(joined_of(o, old_sc, &own_oj), joined_of(n, new_sc, &own_nj), old_sc, new_sc))
                c = GC_SAME;
            toks_free(&own_oj);
            toks_free(&own_nj);
        }
        if (c == GC_SAME || r == GC_OTHER) {
            if (how) {
                free(*how);
                *how = c == GC_SAME ? NULL : h;
                h = NULL;
            }
            r = c;
        }
        free(h);
        parts_free(&own_o);
        parts_free(&own_n);
    }
    return r;
}
