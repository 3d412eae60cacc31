/* The edits of a changed function that are no fix to copy into its variants, for the
 * sibling-drift collector: marking a variable unused (`x` to `_x` or `_`, the lint sweeps of
 * aiter#4403's kind) and deleting an assignment whose names nothing reads (dead code). A
 * variant keeping its own copy of either is not drift. A rename to a new name is not among
 * them: `total_elems` to `total_vecs` or `K` to `K_elems` usually changes what is computed.
 * Works on the units of siblings_units.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/util.h"

/* --- tokens ------------------------------------------------------------------------------ */

typedef struct tok {
    const char *s;
    size_t n;
    bool ident;
} tok;

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The tokens of code (identifiers and numbers whole, other characters one by one, spaces
 * dropped), borrowed from code; *n of them. */
static tok *tokens(const char *code, size_t *n)
{
    tok *t = NULL;
    size_t cap = 0;
    *n = 0;
    for (const char *p = code; *p;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        const char *e = p + 1;
        bool id = ident_char(*p);
        if (id)
            while (ident_char(*e))
                e++;
        *ARRAY_PUSH(t, *n, cap) = (tok){.s = p, .n = (size_t)(e - p), .ident = id && !isdigit((unsigned char)*p)};
        p = e;
    }
    return t;
}

static bool tok_is(const tok *t, const char *s)
{
    return strlen(s) == t->n && memcmp(t->s, s, t->n) == 0;
}

/* True when the identifier at t[i] names a plain variable: not an attribute (after '.'),
 * not called (before '('), not a keyword. */
static bool plain_variable(const tok *t, size_t n, size_t i)
{
    static const char *const kw[] = {"return", "if", "else", "elif", "for", "while", "in", "is",
                                     "not", "and", "or", "None", "True", "False", "const",
                                     "static", "constexpr", "auto", "int", "float", "lambda",
                                     "yield", "assert", "raise", "del", "with", "as", NULL};
    if (!t[i].ident || (i > 0 && tok_is(&t[i - 1], ".")) || (i + 1 < n && tok_is(&t[i + 1], "(")))
        return false;
    for (int k = 0; kw[k]; k++)
        if (tok_is(&t[i], kw[k]))
            return false;
    return true;
}

/* True when s holds the identifier t as a whole word. */
static bool has_word(const char *s, const tok *t)
{
    for (const char *p = s; *p; p++)
        if (strncmp(p, t->s, t->n) == 0 && (p == s || !ident_char(p[-1])) && !ident_char(p[t->n]))
            return true;
    return false;
}

/* True when b is a with some plain variables marked unused, consistently. */
static bool rename_of(const char *a, const char *b)
{
    size_t na, nb;
    tok *ta = tokens(a, &na), *tb = tokens(b, &nb);
    bool ok = na == nb, any = false;
    for (size_t i = 0; ok && i < na; i++) {
        if (ta[i].n == tb[i].n && memcmp(ta[i].s, tb[i].s, ta[i].n) == 0)
            continue;
        if (!plain_variable(ta, na, i) || !plain_variable(tb, nb, i)) {
            ok = false;
            break;
        }
        /* consistent: every other place of this old name gets the same new name */
        for (size_t j = 0; ok && j < na; j++)
            if (ta[j].n == ta[i].n && memcmp(ta[j].s, ta[i].s, ta[i].n) == 0)
                ok = tb[j].n == tb[i].n && memcmp(tb[j].s, tb[i].s, tb[i].n) == 0;
        bool unused = tok_is(&tb[i], "_") ||
                      (tb[i].n == ta[i].n + 1 && tb[i].s[0] == '_' && memcmp(tb[i].s + 1, ta[i].s, ta[i].n) == 0);
        ok = ok && unused;
        any = true;
    }
    free(ta);
    free(tb);
    return ok && any;
}

bool sib_renamed(const sib_unit *u, const sib_unit_list *after,
                 const bool *after_touched)
{
    for (size_t i = 0; i < after->n; i++)
        if (after_touched[i] && after->items[i].kind == u->kind &&
            rename_of(u->code, after->items[i].code))
            return true;
    return false;
}

/* --- dead stores ------------------------------------------------------------------------- */

/* The end of an assignment's target in code: the first '=' at bracket depth 0 that is not
 * part of a comparison or an augmented assignment; NULL when code assigns nothing. */
static const char *assign_at(const char *code)
{
    int depth = 0;
    for (const char *p = code; *p; p++) {
        if (strchr("([{", *p))
            depth++;
        else if (strchr(")]}", *p))
            depth--;
        else if (*p == '=' && depth == 0 && p[1] != '=' && p > code) {
            if (!strchr("=!<>+-*/%&|^:", p[-1]))
                return p;
            /* an augmented assignment (`+=`, `//=`, `<<=`) rebinds its target too */
            const char *op = p - 1;
            if (strchr("<>", *op) && !(op > code && op[-1] == *op))
                continue; /* a comparison */
            if (*op == '=' || *op == '!' || *op == ':')
                continue;
            while (op > code && strchr("+-*/%&|^<>", op[-1]))
                op--;
            return op;
        }
    }
    return NULL;
}

/* True when fn's code outside lines [l0, l1] reads name as a whole word. */
static bool read_elsewhere(const syntax_doc *d, const syn_func *fn, int l0, int l1, const tok *name)
{
    bool found = false;
    for (int l = fn->start_line; l <= fn->end_line && !found; l++) {
        if (l >= l0 && l <= l1)
            continue;
        char *c = syntax_line_code(d, l);
        if (!c)
            break;
        found = has_word(c, name);
        free(c);
    }
    return found;
}

char **sib_bound_names(const sib_unit *u, syn_lang lang)
{
    const char *eq = u->kind == SIB_STMT ? assign_at(u->code) : NULL;
    if (!eq)
        return NULL;
    char *lhs = xstrndup(u->code, (size_t)(eq - u->code));
    size_t n, nn = 0, cap = 0;
    tok *t = tokens(lhs, &n);
    char **names = NULL;
    bool local = true;
    /* Python: the first identifier of each comma-separated target (`x: int` binds x); C++: the
     * last identifier of the declaration (`const int x`) */
    for (size_t i = 0; i < n && local; i++) {
        if (!t[i].ident)
            continue;
        bool bound = lang == SYN_PYTHON ? (i == 0 || tok_is(&t[i - 1], ",") || tok_is(&t[i - 1], "(") ||
                                           tok_is(&t[i - 1], "["))
                                        : i + 1 == n;
        if (tok_is(&t[i], "self") || (i + 1 < n && (tok_is(&t[i + 1], ".") || tok_is(&t[i + 1], "["))))
            local = false; /* an attribute or an element is written, not a local */
        else if (bound && !tok_is(&t[i], "_"))
            *ARRAY_PUSH(names, nn, cap) = xstrndup(t[i].s, t[i].n);
    }
    free(t);
    free(lhs);
    if (!local || nn == 0) {
        for (size_t i = 0; i < nn; i++)
            free(names[i]);
        free(names);
        return NULL;
    }
    *ARRAY_PUSH(names, nn, cap) = NULL;
    return names;
}

void sib_names_free(char **names)
{
    for (size_t i = 0; names && names[i]; i++)
        free(names[i]);
    free(names);
}

bool sib_dead_store(const syntax_doc *d, const syn_func *fn, const sib_unit *u)
{
    char **names = sib_bound_names(u, d->lang);
    bool dead = names != NULL;
    for (size_t i = 0; dead && names[i]; i++) {
        tok t = {.s = names[i], .n = strlen(names[i]), .ident = true};
        dead = !read_elsewhere(d, fn, u->line, u->end_line, &t);
    }
    sib_names_free(names);
    return dead;
}

/* --- rewrites that keep the logic --------------------------------------------------------- */

/* A copy of s without brackets. */
static char *no_brackets(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (; *s; s++)
        if (*s != '(' && *s != ')')
            sb_addc(&sb, *s);
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

bool sib_condition_kept(const sib_unit *u, const sib_unit *twin)
{
    static const char *const kw[] = {"elif", "ifconstexpr", "if", "while", NULL};
    if (!twin || u->kind != SIB_STMT)
        return false;
    const char *c = NULL;
    for (int i = 0; kw[i] && !c; i++)
        if (str_starts(u->key, kw[i]))
            c = u->key + strlen(kw[i]);
    if (!c)
        return false;
    char *core = no_brackets(c), *in = no_brackets(twin->key);
    size_t n = strlen(core);
    if (n > 0 && (core[n - 1] == ':' || core[n - 1] == '{'))
        core[--n] = '\0';
    bool kept = n >= 8 && strstr(in, core) != NULL;
    free(core);
    free(in);
    return kept;
}

bool sib_unused_param(const syntax_doc *d, const syn_func *fn, const sib_unit *u)
{
    if (u->kind != SIB_PARAM || !u->name)
        return false;
    tok t = {.s = u->name, .n = strlen(u->name), .ident = true};
    return !read_elsewhere(d, fn, u->line, u->end_line, &t);
}

/* --- a kernel picked into a local ---------------------------------------------------------- */

/* True when b is a with one name that a calls or launches (followed by `(` or `[`) replaced by
 * another everywhere, the rest token for token the same; *to gets the new name (borrowed
 * from b). */
static bool callee_swapped(const char *a, const char *b, tok *to)
{
    size_t na, nb;
    tok *ta = tokens(a, &na), *tb = tokens(b, &nb);
    bool ok = na == nb && na > 0, any = false;
    tok from = {0};
    for (size_t i = 0; ok && i < na; i++) {
        if (ta[i].n == tb[i].n && memcmp(ta[i].s, tb[i].s, ta[i].n) == 0)
            continue;
        ok = ta[i].ident && tb[i].ident && i + 1 < na && (tok_is(&ta[i + 1], "(") || tok_is(&ta[i + 1], "[")) &&
             !(i > 0 && tok_is(&ta[i - 1], "."));
        if (ok && any)
            ok = from.n == ta[i].n && memcmp(from.s, ta[i].s, from.n) == 0 && to->n == tb[i].n &&
                 memcmp(to->s, tb[i].s, to->n) == 0;
        else if (ok) {
            from = ta[i];
            *to = tb[i];
            any = true;
        }
    }
    free(ta);
    free(tb);
    return ok && any;
}

/* True when the units of l bind name only to a plain (dotted) name, at least once on an
 * edited line (touched[i]): a function picked into a local. */
static bool bound_to_functions(const sib_unit_list *l, const bool *touched, const tok *name, syn_lang lang)
{
    int picks = 0;
    for (size_t i = 0; i < l->n; i++) {
        const sib_unit *x = &l->items[i];
        char **bound = sib_bound_names(x, lang);
        bool binds = false;
        for (size_t k = 0; bound && bound[k] && !binds; k++)
            binds = strlen(bound[k]) == name->n && memcmp(bound[k], name->s, name->n) == 0;
        sib_names_free(bound);
        if (!binds)
            continue;
        const char *v = assign_at(x->code) + 1;
        while (*v == ' ')
            v++;
        const char *e = v;
        while (ident_char(*e) || *e == '.')
            e++;
        while (*e == ' ' || *e == ';')
            e++;
        if (e == v || *e || isdigit((unsigned char)*v))
            return false; /* bound to a value, not to a function's name */
        picks += touched[i];
    }
    return picks > 0;
}

bool sib_callee_selected(const sib_unit *u, const sib_unit_list *after, const bool *after_touched, syn_lang lang)
{
    for (size_t i = 0; i < after->n; i++) {
        tok to = {0};
        if (after_touched[i] && after->items[i].kind == u->kind && callee_swapped(u->code, after->items[i].code, &to) &&
            bound_to_functions(after, after_touched, &to, lang))
            return true;
    }
    return false;
}
