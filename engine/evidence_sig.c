/* Function signatures for the evidence module (evidence_internal.h): tree-sitter finds each
 * C++ function declarator and Python def, and the parameter list is then read lexically
 * (comments dropped, split at top-level commas) into named parameters, so a base and a head
 * signature can be compared parameter by parameter. */
#include <stdlib.h>
#include <string.h>

#include "engine/evidence_internal.h"
#include "engine/util.h"

static const char CPP_SIG_QUERY[] =
    "(function_declarator declarator: (_) @name parameters: (parameter_list) @params)";
static const char PY_SIG_QUERY[] =
    "(function_definition name: (identifier) @name parameters: (parameters) @params)";

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
            if (*t && strcmp(t, "void") != 0)
                parse_param(lang, t, ARRAY_PUSH(s->p, s->np, cap));
            free(t);
            start = q + 1;
        }
    }
}

int ev_param_index(const ev_sig *s, const char *name)
{
    for (size_t i = 0; i < s->np; i++)
        if (*s->p[i].name && !strcmp(s->p[i].name, name))
            return (int)i;
    return -1;
}

typedef struct sig_scan {
    syn_lang lang;
    ev_sig_list *out;
} sig_scan;

/* The node captured as name in a match. */
static TSNode capture(const TSQuery *q, const TSQueryMatch *m, const char *name)
{
    for (uint16_t i = 0; i < m->capture_count; i++)
        if (!strcmp(syntax_capture_name(q, m->captures[i].index), name))
            return m->captures[i].node;
    TSNode none = {0};
    return none;
}

/* The definition around a declarator (its function_definition ancestor), and whether it sits
 * inside a function body (then it is a local declaration or a misread call, not a signature). */
static TSNode definition_of(TSNode n, bool *in_body)
{
    TSNode def = {0};
    *in_body = false;
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        const char *t = ts_node_type(p);
        if (!strcmp(t, "function_definition") && ts_node_is_null(def)) {
            def = p;
        } else if (!strcmp(t, "compound_statement") && ts_node_is_null(def)) {
            *in_body = true; /* C++ only: Python bodies are "block", and nested defs count */
            break;
        }
    }
    return def;
}

/* The plain name of a declarator's name text ("ns::Foo::bar<T>" → "bar"), or NULL when it is
 * not a plain identifier (operators, destructors, parenthesised declarators) or is all
 * capitals (a macro use read as a declaration). */
static char *plain_name(const char *t)
{
    const char *s = t, *c;
    while ((c = strstr(s, "::")))
        s = c + 2;
    size_t k = 0;
    while (ev_ident_char(s[k]))
        k++;
    if (!k || (s[k] && s[k] != '<') || (s[0] >= '0' && s[0] <= '9'))
        return NULL;
    bool caps = true;
    for (size_t i = 0; i < k; i++)
        if (s[i] >= 'a' && s[i] <= 'z')
            caps = false;
    return caps ? NULL : xstrndup(s, k);
}

static bool on_sig(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    sig_scan *sc = arg;
    TSNode name = capture(q, m, "name"), params = capture(q, m, "params");
    if (ts_node_is_null(name) || ts_node_is_null(params))
        return true;
    bool in_body = false;
    TSNode def = definition_of(name, &in_body);
    if (in_body)
        return true;
    char *nt = syntax_node_text(d, name);
    char *plain = plain_name(nt);
    free(nt);
    if (!plain)
        return true;
    ev_sig *s = ARRAY_PUSH(sc->out->items, sc->out->n, sc->out->cap);
    memset(s, 0, sizeof *s);
    s->name = plain;
    s->line = syntax_node_line(name);
    s->first = syntax_node_line(params);
    s->last = syntax_node_end_line(params);
    if (!ts_node_is_null(def)) {
        s->def_first = syntax_node_line(def);
        s->def_last = syntax_node_end_line(def);
    }
    uint32_t a = ts_node_start_byte(params), b = ts_node_end_byte(params);
    char *raw = strip_comments(sc->lang, d->text + a, b - a);
    s->params = ev_collapse(raw, strlen(raw));
    free(raw);
    s->key = no_space(s->params);
    size_t kl = strlen(s->key); /* a trailing comma is formatting, not a change */
    if (kl >= 2 && s->key[kl - 2] == ',') {
        s->key[kl - 2] = ')';
        s->key[kl - 1] = '\0';
    }
    split_params(sc->lang, s->params, s);
    s->is_method = sc->lang == SYN_PYTHON && s->np &&
                   (!strcmp(s->p[0].name, "self") || !strcmp(s->p[0].name, "cls"));
    return true;
}

void ev_signatures(const syntax_doc *d, ev_sig_list *out)
{
    if (!d || (d->lang != SYN_CPP && d->lang != SYN_PYTHON))
        return;
    sig_scan sc = {d->lang, out};
    (void)syntax_query(d, d->lang == SYN_CPP ? CPP_SIG_QUERY : PY_SIG_QUERY, 0, 0, on_sig, &sc,
                       NULL);
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
