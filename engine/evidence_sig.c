/* Function signatures for the evidence module (evidence_internal.h), read lexically, so that
 * the packet does not parse again what the review parsed: C++ parameter lists are the
 * parenthesised groups outside every function body that follow a declared name (a type word,
 * '*', '&' or '>' before it), Python's the "def name(...)" headers. Each list is split at its
 * top-level commas into named parameters, so a base and a head signature can be compared
 * parameter by parameter. Bodies are found by their braces (a '{' after the list, qualifiers
 * or an initialiser list between) and by indentation (Python). */
#include <stdlib.h>
#include <string.h>

#include "engine/evidence_internal.h"
#include "engine/util.h"

/* The text of a parameter list without comments (C++ // and block comments, Python #),
 * string contents kept. A new string. */
static char *strip_comments(syn_lang lang, const char *s, size_t len)
{
    strbuf sb;
    sb_init(&sb);
    char quote = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (quote) {
            sb_addc(&sb, c);
            if (c == '\\' && i + 1 < len)
                sb_addc(&sb, s[++i]);
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
            sb_addc(&sb, c);
        } else if ((lang == SYN_PYTHON && c == '#') ||
                   (lang == SYN_CPP && c == '/' && i + 1 < len && s[i + 1] == '/')) {
            while (i < len && s[i] != '\n')
                i++;
            sb_addc(&sb, ' ');
        } else if (lang == SYN_CPP && c == '/' && i + 1 < len && s[i + 1] == '*') {
            const char *e = strstr(s + i + 2, "*/");
            i = e && (size_t)(e - s) < len ? (size_t)(e - s) + 1 : len;
            sb_addc(&sb, ' ');
        } else {
            sb_addc(&sb, c);
        }
    }
    return sb_detach(&sb);
}

/* s without any white space (a new string). */
static char *no_space(const char *s)
{
    char *k = xmalloc(strlen(s) + 1), *o = k;
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            *o++ = *s;
    *o = '\0';
    return k;
}

/* Offset of the first top-level '=' (a default value) in a parameter, or -1. */
static long default_at(const char *p)
{
    int depth = 0;
    char quote = 0;
    for (const char *s = p; *s; s++) {
        if (quote) {
            if (*s == '\\' && s[1])
                s++;
            else if (*s == quote)
                quote = 0;
        } else if (*s == '"' || *s == '\'') {
            quote = *s;
        } else if (strchr("([{<", *s)) {
            depth++;
        } else if (strchr(")]}>", *s) && depth > 0) {
            depth--;
        } else if (*s == '=' && depth == 0 && s[1] != '=' && (s == p || !strchr("=!<>", s[-1]))) {
            return s - p;
        }
    }
    return -1;
}

/* The name of a C++ parameter ("std::optional<at::Tensor> q_out" → "q_out"): the last
 * identifier before any array bounds, when the declaration has more than a type. */
static char *cpp_param_name(const char *decl)
{
    size_t n = strlen(decl);
    while (n && (decl[n - 1] == ' ' || decl[n - 1] == ']')) {
        if (decl[n - 1] == ']')
            while (n && decl[n - 1] != '[')
                n--;
        if (n)
            n--;
    }
    size_t e = n;
    while (n && ev_ident_char(decl[n - 1]))
        n--;
    if (e == n || (decl[n] >= '0' && decl[n] <= '9'))
        return xstrdup("");
    /* a lone type ("int", "at::Tensor&") names no parameter */
    const char *before = decl + n;
    bool only_type = true;
    for (const char *s = decl; s < before; s++)
        if (*s != ' ' && *s != ':')
            only_type = false;
    static const char *const types[] = {"void", "int", "float", "double", "bool", "char",
                                        "long", "short", "unsigned", "signed", "auto", NULL};
    char *name = xstrndup(decl + n, e - n);
    for (size_t i = 0; types[i]; i++)
        if (!strcmp(name, types[i]))
            only_type = true;
    if (only_type) {
        free(name);
        return xstrdup("");
    }
    return name;
}

/* Fill one parameter from its text (collapsed, comments gone). */
static void parse_param(syn_lang lang, const char *text, ev_param *p)
{
    memset(p, 0, sizeof *p);
    p->text = xstrdup(text);
    p->key = no_space(text);
    long d = default_at(text);
    char *decl = d >= 0 ? xstrndup(text, (size_t)d) : xstrdup(text);
    if (d >= 0) {
        char *v = ev_collapse(text + d + 1, strlen(text + d + 1));
        p->dflt = v;
    }
    char *t = ev_collapse(decl, strlen(decl));
    free(decl);
    if (lang == SYN_PYTHON) {
        const char *s = t;
        while (*s == '*') {
            p->splat = true;
            s++;
        }
        size_t k = 0;
        while (ev_ident_char(s[k]))
            k++;
        p->name = xstrndup(s, k);
    } else {
        p->name = cpp_param_name(t);
        p->splat = strstr(t, "...") != NULL;
    }
    free(t);
}

/* Split a parameter list "(a, b = f(1, 2))" at its top-level commas into s->p. */
static void split_params(syn_lang lang, const char *list, ev_sig *s)
{
    size_t n = strlen(list);
    if (n < 2)
        return;
    const char *b = list + 1, *end = list + n - 1; /* inside the parentheses */
    int depth = 0;
    char quote = 0;
    size_t cap = 0;
    bool kw_only = false;
    const char *start = b;
    for (const char *q = b; q <= end; q++) {
        bool at_end = q == end;
        char c = at_end ? ',' : *q;
        if (quote) {
            if (c == '\\' && q + 1 < end)
                q++;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '"' || c == '\'')
            quote = c;
        else if (strchr("([{", c) || (lang == SYN_CPP && c == '<'))
            depth++;
        else if ((strchr(")]}", c) || (lang == SYN_CPP && c == '>' && q > b && q[-1] != '-')) && depth > 0)
            depth--;
        else if (c == ',' && (depth == 0 || at_end)) {
            char *t = ev_collapse(start, (size_t)(q - start));
            if (lang == SYN_PYTHON && (!strcmp(t, "*") || !strcmp(t, "/"))) {
                kw_only |= t[0] == '*'; /* markers, not parameters */
            } else if (*t && strcmp(t, "void") != 0) {
                ev_param *p = ARRAY_PUSH(s->p, s->np, cap);
                parse_param(lang, t, p);
                p->kw_only = kw_only;
                kw_only |= lang == SYN_PYTHON && t[0] == '*' && t[1] != '*';
            }
            free(t);
            start = q + 1;
        }
    }
}

int ev_param_index(const ev_sig *s, const char *name)
{
    if (name[0] == '#') {
        long i = strtol(name + 1, NULL, 10);
        return i >= 0 && (size_t)i < s->np ? (int)i : -1;
    }
    for (size_t i = 0; i < s->np; i++)
        if (*s->p[i].name && !strcmp(s->p[i].name, name))
            return (int)i;
    return -1;
}

/* Words before a '(' that never name a declared function. */
static bool not_a_name(const char *s, size_t n)
{
    static const char *const kw[] = {
        "if", "for", "while", "switch", "return", "sizeof", "decltype", "alignas", "alignof",
        "static_assert", "noexcept", "throw", "catch", "defined", "template", "operator",
        "typeid", "new", "delete", "else", "do", "case", "using", "typedef", "asm", "volatile",
        "void", "int", "float", "double", "char", "bool", "long", "short", "unsigned", "auto",
        "signed", "const", "static", "inline", "extern", NULL};
    for (size_t i = 0; kw[i]; i++)
        if (strlen(kw[i]) == n && !strncmp(kw[i], s, n))
            return true;
    if (n >= 2 && s[0] == '_' && s[1] == '_') /* __attribute__, __launch_bounds__, ... */
        return true;
    bool caps = true; /* a macro use */
    for (size_t i = 0; i < n; i++)
        if (s[i] >= 'a' && s[i] <= 'z')
            caps = false;
    return caps;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The declared name before the '(' at open (C++), or NULL: an identifier (possibly qualified)
 * preceded by a type word, '*', '&' or '>'. Sets *len. */
static const char *cpp_declared_name(const char *t, const char *open, size_t *len)
{
    const char *e = open;
    while (e > t && is_space(e[-1]))
        e--;
    const char *s = e;
    while (s > t && ev_ident_char(s[-1]))
        s--;
    if (s == e || (*s >= '0' && *s <= '9') || not_a_name(s, (size_t)(e - s)))
        return NULL;
    const char *q = s;
    while (q - t >= 2 && q[-1] == ':' && q[-2] == ':') { /* Cls::name: look before Cls:: */
        q -= 2;
        while (q > t && (ev_ident_char(q[-1]) || q[-1] == '>' || q[-1] == '<'))
            q--;
    }
    while (q > t && is_space(q[-1]))
        q--;
    if (q == t)
        return NULL;
    char c = q[-1];
    if (ev_ident_char(c)) {
        const char *w = q;
        while (w > t && ev_ident_char(w[-1]))
            w--;
        static const char *const no[] = {"return", "else", "case", "new", "throw", "delete",
                                          "co_return", "co_await", "goto", NULL};
        for (size_t i = 0; no[i]; i++)
            if (strlen(no[i]) == (size_t)(q - w) && !strncmp(no[i], w, (size_t)(q - w)))
                return NULL;
    } else if (c != '*' && c != '&' && !(c == '>' && !(q - t >= 2 && q[-2] == '-'))) {
        return NULL;
    }
    *len = (size_t)(e - s);
    return s;
}

/* Whether a body follows the ')' of a parameter list (p just after it): qualifiers, a
 * trailing return type or a constructor's initialiser list, then '{'. */
static bool body_follows(const char *p, const char *end)
{
    int paren = 0;
    for (; p < end; p++) {
        char c = *p;
        if (c == '(')
            paren++;
        else if (c == ')')
            paren--;
        else if (paren <= 0 && (c == ';' || c == '=' || c == '}' || c == ','))
            return false;
        else if (paren <= 0 && c == '{')
            return true;
    }
    return false;
}

/* Add the signature whose list is open..close (inclusive) named name, at its lines. */
static ev_sig *add_sig(syn_lang lang, ev_sig_list *out, const char *name, size_t nlen,
                       const char *open, const char *close, int name_line, int first, int last)
{
    ev_sig *s = ARRAY_PUSH(out->items, out->n, out->cap);
    memset(s, 0, sizeof *s);
    s->name = xstrndup(name, nlen);
    s->line = name_line;
    s->first = first;
    s->last = last;
    char *raw = strip_comments(lang, open, (size_t)(close - open + 1));
    s->params = ev_collapse(raw, strlen(raw));
    free(raw);
    s->key = no_space(s->params);
    size_t kl = strlen(s->key); /* a trailing comma is formatting, not a change */
    if (kl >= 3 && s->key[kl - 2] == ',') {
        s->key[kl - 2] = ')';
        s->key[kl - 1] = '\0';
    }
    split_params(lang, s->params, s);
    s->is_method = lang == SYN_PYTHON && s->np &&
                   (!strcmp(s->p[0].name, "self") || !strcmp(s->p[0].name, "cls"));
    return s;
}

/* The 1-based line of p, counting on from a known (line, position) pair. */
static int line_of(const char *t, const char *p, int *line, const char **at)
{
    if (p < *at) {
        *line = 1;
        *at = t;
    }
    for (const char *q = *at; q < p; q++)
        *line += *q == '\n';
    *at = p;
    return *line;
}

/* Skip a comment, string, character literal or preprocessor line starting at p; returns the
 * last byte skipped, or NULL when there is none at p. */
static const char *cpp_skip(const char *t, const char *p, const char *end)
{
    if (p[0] == '/' && p + 1 < end && p[1] == '/') {
        while (p + 1 < end && p[1] != '\n')
            p++;
        return p;
    }
    if (p[0] == '/' && p + 1 < end && p[1] == '*') {
        const char *e = memmem(p + 2, (size_t)(end - p - 2), "*/", 2);
        return e ? e + 1 : end - 1;
    }
    if (*p == '"' || *p == '\'') {
        char q = *p;
        for (p++; p < end && *p != q && *p != '\n'; p++)
            if (*p == '\\' && p + 1 < end)
                p++;
        return p < end ? p : end - 1;
    }
    if (*p == '#') {
        const char *ls = p;
        while (ls > t && (ls[-1] == ' ' || ls[-1] == '\t'))
            ls--;
        if (ls != t && ls[-1] != '\n')
            return NULL;
        while (p + 1 < end && p[1] != '\n')
            p += (*p == '\\' && p[1] == '\n') ? 2 : 1;
        return p;
    }
    return NULL;
}

/* The ')' closing the '(' at open, or NULL. */
static const char *cpp_close(const char *t, const char *open, const char *end)
{
    int d = 0;
    for (const char *q = open; q < end; q++) {
        const char *s = cpp_skip(t, q, end);
        if (s) {
            q = s;
            continue;
        }
        if (*q == '(')
            d++;
        else if (*q == ')' && --d == 0)
            return q;
    }
    return NULL;
}

typedef struct cpp_brace {
    bool body;         /* a function body */
    long sig;          /* the signature whose body it is */
} cpp_brace;

#define BRACES_MAX 512

static void cpp_signatures(const char *t, size_t len, ev_sig_list *out)
{
    const char *end = t + len, *cat = t;
    cpp_brace stack[BRACES_MAX];
    int depth = 0, bodies = 0, cline = 1;
    long pending = -1; /* a signature whose body's '{' is still ahead */
    for (const char *p = t; p < end; p++) {
        const char *s = cpp_skip(t, p, end);
        if (s) {
            p = s;
            continue;
        }
        if (*p == '{') {
            if (depth < BRACES_MAX) {
                stack[depth] = (cpp_brace){pending >= 0 && !bodies, pending};
                if (stack[depth].body) {
                    out->items[pending].def_first = out->items[pending].line;
                    bodies++;
                }
            }
            pending = -1;
            depth++;
        } else if (*p == '}' && depth > 0) {
            depth--;
            if (depth < BRACES_MAX && stack[depth].body) {
                bodies--;
                out->items[stack[depth].sig].def_last = line_of(t, p, &cline, &cat);
            }
        } else if (*p == ';') {
            pending = -1;
        } else if (*p == '(' && !bodies) {
            const char *q = cpp_close(t, p, end);
            if (!q)
                break;
            size_t nlen = 0;
            const char *name = pending < 0 ? cpp_declared_name(t, p, &nlen) : NULL;
            if (name) {
                int nl = line_of(t, name, &cline, &cat);
                int first = line_of(t, p, &cline, &cat), last = line_of(t, q, &cline, &cat);
                add_sig(SYN_CPP, out, name, nlen, p, q, nl, first, last);
                if (body_follows(q + 1, end))
                    pending = (long)(out->n - 1);
            }
            p = q;
        }
    }
}

/* Indentation of a line (a tab counts as one). */
static int indent_of(const char *ls, const char *le)
{
    int n = 0;
    while (ls + n < le && (ls[n] == ' ' || ls[n] == '\t'))
        n++;
    return n;
}

/* The ')' closing a Python '(' at open (strings and comments skipped); *lines counts the
 * newlines passed. NULL when it does not close. */
static const char *py_close(const char *open, const char *end, int *lines)
{
    int d = 0;
    char quote = 0;
    for (const char *q = open; q < end; q++) {
        if (*q == '\n')
            (*lines)++;
        if (quote) {
            if (*q == '\\' && q + 1 < end)
                q++;
            else if (*q == quote)
                quote = 0;
        } else if (*q == '"' || *q == '\'') {
            quote = *q;
        } else if (*q == '#') {
            while (q + 1 < end && q[1] != '\n')
                q++;
        } else if (*q == '(') {
            d++;
        } else if (*q == ')' && --d == 0) {
            return q;
        }
    }
    return NULL;
}

/* The last line of the body of a def at indentation ind whose header ends on line last and
 * in text at q: every following line deeper than ind, blank and comment lines aside. */
static int py_body_end(const char *q, const char *end, int last, int ind)
{
    int body_end = last, bl = last + 1;
    const char *b = memchr(q, '\n', (size_t)(end - q));
    for (b = b ? b + 1 : end; b < end; bl++) {
        const char *be = memchr(b, '\n', (size_t)(end - b));
        if (!be)
            be = end;
        const char *c = b + indent_of(b, be);
        if (c < be && *c != '#' && *c != '\r') {
            if (indent_of(b, be) <= ind)
                break;
            body_end = bl;
        }
        b = be < end ? be + 1 : end;
    }
    return body_end;
}

static void py_signatures(const char *t, size_t len, ev_sig_list *out)
{
    const char *end = t + len;
    int line = 1;
    for (const char *ls = t; ls < end; line++) {
        const char *le = memchr(ls, '\n', (size_t)(end - ls));
        if (!le)
            le = end;
        int ind = indent_of(ls, le);
        const char *s = ls + ind;
        if (le - s > 10 && !strncmp(s, "async def ", 10))
            s += 6;
        size_t k = 0;
        const char *n = le - s > 4 && !strncmp(s, "def ", 4) ? str_lskip(s + 4) : NULL;
        while (n && ev_ident_char(n[k]))
            k++;
        const char *open = n ? n + k : NULL;
        while (open && open < le && (*open == ' ' || *open == '\t'))
            open++;
        int last = line;
        const char *q = k && open < le && *open == '(' ? py_close(open, end, &last) : NULL;
        if (q) {
            ev_sig *sg = add_sig(SYN_PYTHON, out, n, k, open, q, line, line, last);
            sg->def_first = line;
            sg->def_last = py_body_end(q, end, last, ind);
        }
        ls = le < end ? le + 1 : end;
    }
}

void ev_signatures(syn_lang lang, const char *text, size_t len, ev_sig_list *out)
{
    if (lang == SYN_CPP)
        cpp_signatures(text, len, out);
    else if (lang == SYN_PYTHON)
        py_signatures(text, len, out);
}

void ev_sig_list_free(ev_sig_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        ev_sig *s = &l->items[i];
        for (size_t k = 0; k < s->np; k++) {
            free(s->p[k].name);
            free(s->p[k].text);
            free(s->p[k].key);
            free(s->p[k].dflt);
        }
        free(s->p);
        free(s->name);
        free(s->params);
        free(s->key);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}
