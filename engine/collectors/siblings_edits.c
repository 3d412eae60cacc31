/* The edits of a changed function that are no fix to copy into its variants, for the
 * sibling-drift collector: marking a variable unused (`x` to `_x` or `_`, the lint sweeps of
 * aiter#4403's kind) and deleting an assignment whose names nothing reads (dead code). A
 * variant keeping its own copy of either is not drift. A rename to a new name is not among
 * them: `total_elems` to `total_vecs` or `K` to `K_elems` usually changes what is computed;
 * a parameter renamed in place (`x` to `x_fp4`, the same position), a local renamed or split
 * with its value kept (`idx` to `residual_idx`, bound to the same code) and an import given
 * an alias are (the same code under new names), and so is a launch whose kernel the function
 * now picks into a local. A parameter given a default (made optional) is the function's own
 * API choice, not a fix. Works on the units of siblings_units.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/strset.h"
#include "engine/util.h"

/* --- tokens ------------------------------------------------------------------------------ */

typedef sib_tok tok;

sib_tok *sib_tokens(const char *code, size_t *n)
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
        bool id = str_ident_char(*p);
        if (id)
            while (str_ident_char(*e))
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
        if (strncmp(p, t->s, t->n) == 0 && (p == s || !str_ident_char(p[-1])) && !str_ident_char(p[t->n]))
            return true;
    return false;
}

/* Says whether a plain variable may be renamed from `from` to `to` (ctx: the caller's). */
typedef bool (*rename_ok)(const tok *from, const tok *to, const void *ctx);

/* True when b is a with some plain variables renamed, consistently (every place of an old
 * name gets the same new name), each rename allowed by ok. */
static bool renamed_with(const char *a, const char *b, rename_ok ok_rename, const void *ctx)
{
    size_t na, nb;
    tok *ta = sib_tokens(a, &na), *tb = sib_tokens(b, &nb);
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
        ok = ok && ok_rename(&ta[i], &tb[i], ctx);
        any = true;
    }
    free(ta);
    free(tb);
    return ok && any;
}

/* A rename to `_` or `_x`: the variable marked unused. */
static bool marks_unused(const tok *from, const tok *to, const void *ctx)
{
    (void)ctx;
    return tok_is(to, "_") || (to->n == from->n + 1 && to->s[0] == '_' && memcmp(to->s + 1, from->s, from->n) == 0);
}

/* True when b is a with some plain variables marked unused, consistently. */
static bool rename_of(const char *a, const char *b)
{
    return renamed_with(a, b, marks_unused, NULL);
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
    tok *t = sib_tokens(lhs, &n);
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
    tok *ta = sib_tokens(a, &na), *tb = sib_tokens(b, &nb);
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
        while (str_ident_char(*e) || *e == '.')
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

/* --- renames that follow the API or the imports --------------------------------------------- */

/* The parameters of a function before and after the change, by position. */
typedef struct param_pairs {
    const sib_unit_list *before, *after;
} param_pairs;

/* The name of the k-th parameter of l, or NULL. */
static const char *kth_param(const sib_unit_list *l, size_t k)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].kind == SIB_PARAM && l->items[i].name && k-- == 0)
            return l->items[i].name;
    return NULL;
}

/* A parameter renamed in place: `from` was the k-th parameter and `to` is the k-th now. */
static bool follows_param(const tok *from, const tok *to, const void *ctx)
{
    const param_pairs *pp = ctx;
    for (size_t k = 0;; k++) {
        const char *b = kth_param(pp->before, k), *a = kth_param(pp->after, k);
        if (!b || !a)
            return false;
        if (strlen(b) == from->n && memcmp(b, from->s, from->n) == 0)
            return strlen(a) == to->n && memcmp(a, to->s, to->n) == 0;
    }
}

bool sib_param_renamed(const sib_unit *u, const sib_unit_list *before, const sib_unit_list *after,
                       const bool *after_touched)
{
    param_pairs pp = {before, after};
    for (size_t i = 0; i < after->n; i++)
        if (after_touched[i] && after->items[i].kind == u->kind &&
            renamed_with(u->code, after->items[i].code, follows_param, &pp))
            return true;
    return false;
}

/* The locals of a function that one statement binds, each to one value: names in the order
 * met, with the value (white space and a closing `;` dropped) of the only binding of each, or
 * NULL for a name bound more than once or together with others (a tuple). */
struct sib_locals {
    strset names;
    char **values; /* per position in names */
};

/* The value u binds (its code after the assignment), white space and a closing `;` dropped. */
static char *bound_value(const sib_unit *u)
{
    strbuf sb;
    sb_init(&sb);
    for (const char *p = assign_at(u->code) + 1; *p; p++)
        if (*p != ' ' && !(*p == ';' && p[1] == '\0'))
            sb_addc(&sb, *p);
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

sib_locals *sib_locals_of(const sib_unit_list *l, syn_lang lang)
{
    sib_locals *lc = xcalloc(1, sizeof *lc);
    size_t cap = 0;
    for (size_t i = 0; i < l->n; i++) {
        char **bound = sib_bound_names(&l->items[i], lang);
        size_t nb = 0;
        while (bound && bound[nb])
            nb++;
        for (size_t k = 0; k < nb; k++) {
            size_t before = lc->names.n, pos = strset_add_val(&lc->names, bound[k], 0);
            if (lc->names.n > before) {
                if (lc->names.n > cap) {
                    cap = cap ? cap * 2 : 16;
                    lc->values = xrealloc(lc->values, cap * sizeof *lc->values);
                }
                lc->values[pos] = nb == 1 ? bound_value(&l->items[i]) : NULL;
            } else {
                free(lc->values[pos]);
                lc->values[pos] = NULL;
            }
        }
        sib_names_free(bound);
    }
    return lc;
}

void sib_locals_free(sib_locals *lc)
{
    if (!lc)
        return;
    for (size_t i = 0; i < lc->names.n; i++)
        free(lc->values[i]);
    free(lc->values);
    strset_free(&lc->names);
    free(lc);
}

/* The value of the only binding of name in lc, or NULL. */
static const char *sole_value(const sib_locals *lc, const tok *name)
{
    char *n = xstrndup(name->s, name->n);
    long pos = strset_find(&lc->names, n);
    free(n);
    return pos < 0 ? NULL : lc->values[pos];
}

/* A function's locals before and after the change, for renames that keep a value. */
typedef struct local_pairs {
    const sib_locals *before, *after;
} local_pairs;

/* A local renamed, or split into several, with its value kept: `from` is bound once before
 * and `to` once after, both to the same code (`idx = t * h + a` now `residual_idx = t * h +
 * a`). */
static bool follows_local(const tok *from, const tok *to, const void *ctx)
{
    const local_pairs *lp = ctx;
    const char *vb = sole_value(lp->before, from), *va = vb ? sole_value(lp->after, to) : NULL;
    return va && *va && strcmp(va, vb) == 0;
}

bool sib_local_renamed(const sib_unit *u, const sib_locals *before, const sib_locals *after,
                       const sib_unit_list *after_units, const bool *after_touched)
{
    local_pairs lp = {before, after};
    for (size_t i = 0; i < after_units->n; i++)
        if (after_touched[i] && after_units->items[i].kind == u->kind &&
            renamed_with(u->code, after_units->items[i].code, follows_local, &lp))
            return true;
    return false;
}

/* --- parameters made optional ---------------------------------------------------------------- */

bool sib_param_made_optional(const sib_unit *u, const sib_unit_list *after)
{
    if (u->kind != SIB_PARAM || !u->name || assign_at(u->code))
        return false;
    for (size_t i = 0; i < after->n; i++) {
        const sib_unit *p = &after->items[i];
        if (p->kind == SIB_PARAM && p->name && strcmp(p->name, u->name) == 0)
            return assign_at(p->code) != NULL;
    }
    return false;
}

/* What a rename of a name from outside a function is checked against: the function's units
 * before and after, whose parameters and locals must hold neither name. */
typedef struct outer_names {
    const sib_unit_list *before, *after;
    syn_lang lang;
} outer_names;

/* True when a unit of l binds the name t (a parameter or a local). */
static bool binds(const sib_unit_list *l, const tok *t, syn_lang lang)
{
    for (size_t i = 0; i < l->n; i++) {
        const sib_unit *u = &l->items[i];
        if (u->kind == SIB_PARAM && u->name && strlen(u->name) == t->n && memcmp(u->name, t->s, t->n) == 0)
            return true;
        char **bound = sib_bound_names(u, lang);
        bool hit = false;
        for (size_t k = 0; bound && bound[k] && !hit; k++)
            hit = strlen(bound[k]) == t->n && memcmp(bound[k], t->s, t->n) == 0;
        sib_names_free(bound);
        if (hit)
            return true;
    }
    return false;
}

/* A module-level name the function only refers to, renamed (an import given an alias): the
 * function binds neither name, and one holds the other (`_k` / `_triton_k`). */
static bool follows_import(const tok *from, const tok *to, const void *ctx)
{
    const outer_names *on = ctx;
    const tok *s = from->n < to->n ? from : to, *l = from->n < to->n ? to : from;
    bool holds = false;
    for (size_t i = 0; i + s->n <= l->n && !holds; i++)
        holds = memcmp(l->s + i, s->s, s->n) == 0;
    return holds && !binds(on->before, from, on->lang) && !binds(on->after, to, on->lang) &&
           !binds(on->after, from, on->lang);
}

bool sib_import_renamed_only(const bool *added, int hn, const bool *deleted, int bn, const sib_unit_list *before,
                             const sib_unit_list *after, syn_lang lang)
{
    outer_names on = {before, after, lang};
    int nadd = 0, ndel = 0;
    for (size_t i = 0; i < after->n; i++) {
        const sib_unit *u = &after->items[i];
        if (!sib_any_marked(added, hn, u->line, u->end_line) || u->kind == SIB_HEAD)
            continue;
        bool renamed = false;
        for (size_t k = 0; k < before->n && !renamed; k++)
            renamed = before->items[k].kind == u->kind && sib_any_marked(deleted, bn, before->items[k].line,
                                                                         before->items[k].end_line) &&
                      renamed_with(before->items[k].code, u->code, follows_import, &on);
        if (!renamed)
            return false;
        nadd++;
    }
    for (size_t k = 0; k < before->n; k++)
        ndel += before->items[k].kind != SIB_HEAD && sib_any_marked(deleted, bn, before->items[k].line,
                                                                    before->items[k].end_line);
    return nadd > 0 && nadd == ndel;
}

/* --- an argument hoisted into a local ------------------------------------------------------ */

bool sib_hoisted(const sib_unit *u, const sib_unit_list *after, const bool *after_touched)
{
    if (u->kind != SIB_ARG)
        return false;
    size_t n = strlen(u->key);
    for (size_t i = 0; i < after->n; i++) {
        const sib_unit *t = &after->items[i];
        if (!after_touched[i] || t->kind != SIB_STMT)
            continue;
        const char *p = t->key;
        while (str_ident_char(*p))
            p++;
        if (p == t->key || *p != '=' || p[1] == '=')
            continue;
        p++;
        if (strncmp(p, u->key, n) == 0 && (p[n] == '\0' || (p[n] == ';' && p[n + 1] == '\0')))
            return true;
    }
    return false;
}
