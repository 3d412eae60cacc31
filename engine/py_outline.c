/* A Python text read without parsing (py_outline.h).
 *
 * One pass over the text follows what ends a logical line: strings (single or triple quoted,
 * a backslash escaping the next character, a single-quoted one ending at a newline), comments,
 * brackets and backslash continuations. Each logical line gets its extent and indentation; a
 * column-0 one is read for the names it binds (its code, string literals reduced to "",
 * comments dropped, lines joined, for def, class and assignments; its tokens for a plain
 * import, as py_outline_imports reads them); a `def` one opens a def block that the next
 * statement indented as much or less closes. Compound statements other than def and class
 * (if, try, for, with, …) bind in their indented bodies, which top_names leaves to the
 * parse. */
#include <stdlib.h>
#include <string.h>

#include "engine/py_outline.h"
#include "engine/util.h"

/* A statement's code longer than this is not read (a generated table): the parse decides. */
#define MAX_STMT (64u << 10)

static bool ident_byte(char c)
{
    return str_ident_char(c) || (unsigned char)c >= 0x80;
}

/* Skip spaces in s from i. */
static size_t skip_sp(const char *s, size_t i)
{
    while (s[i] == ' ')
        i++;
    return i;
}

/* The identifier at s[i] (its length, 0 when none starts there). */
static size_t ident_at(const char *s, size_t i)
{
    if (!ident_byte(s[i]) || (s[i] >= '0' && s[i] <= '9'))
        return 0;
    size_t n = 0;
    while (ident_byte(s[i + n]))
        n++;
    return n;
}

static bool word_is(const char *s, size_t i, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s + i, w, n) == 0;
}

static void add_word(strset *out, const char *s, size_t i, size_t n)
{
    char *w = xstrndup(s + i, n);
    strset_add(out, w);
    free(w);
}

/* What one simple statement (no `;`) of the module binds, besides imports (read from the
 * statement's tokens: bind_imports): NAME = … or NAME: … (an assignment, or an annotated
 * one). */
static void simple_statement(const char *s, strset *out)
{
    size_t i = skip_sp(s, 0);
    size_t n = ident_at(s, i);
    if (n == 0)
        return;
    size_t j = skip_sp(s, i + n);
    if ((s[j] == '=' && s[j + 1] != '=') || s[j] == ':')
        add_word(out, s, i, n);
}

/* What one logical line of the module (its code, joined) binds. */
static void module_statement(const char *s, strset *out)
{
    size_t i = skip_sp(s, 0);
    size_t n = ident_at(s, i);
    if (word_is(s, i, n, "async")) {
        i = skip_sp(s, i + n);
        n = ident_at(s, i);
    }
    if (word_is(s, i, n, "def") || word_is(s, i, n, "class")) {
        size_t j = skip_sp(s, i + n);
        size_t m = ident_at(s, j);
        if (m)
            add_word(out, s, j, m);
        return;
    }
    static const char *const compound[] = {"if", "elif", "else", "for", "while", "with", "try",
                                           "except", "finally", "match", "case", "async", NULL};
    for (size_t k = 0; compound[k]; k++)
        if (word_is(s, i, n, compound[k]))
            return;
    /* simple statements, split at `;` outside brackets */
    char *copy = xstrdup(s);
    int depth = 0;
    char *part = copy;
    for (char *p = copy;; p++) {
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0)
            depth--;
        if (*p == '\0' || (*p == ';' && depth == 0)) {
            char end = *p;
            *p = '\0';
            simple_statement(part, out);
            if (end == '\0')
                break;
            part = p + 1;
        }
    }
    free(copy);
}

/* The end of the string literal opening at text[i] (one past its closing quote, or where an
 * unterminated one stops). */
static size_t string_end(const char *text, size_t len, size_t i)
{
    char q = text[i];
    bool triple = i + 2 < len && text[i + 1] == q && text[i + 2] == q;
    size_t k = i + (triple ? 3 : 1);
    while (k < len) {
        if (text[k] == '\\') {
            k += 2;
            continue;
        }
        if (!triple && text[k] == '\n')
            return k; /* unterminated: the newline still ends the line */
        if (text[k] == q && (!triple || (k + 2 < len && text[k + 1] == q && text[k + 2] == q)))
            return k + (triple ? 3 : 1);
        k++;
    }
    return len;
}

/* Columns of indentation of the line starting at text[off] (a tab to the next multiple of 8),
 * and where its first other character is. */
static int indentation(const char *text, size_t len, size_t off, size_t *first)
{
    int col = 0;
    size_t i = off;
    for (; i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\f'); i++)
        col = text[i] == '\t' ? (col / 8 + 1) * 8 : text[i] == '\f' ? 0 : col + 1;
    *first = i;
    return col;
}

/* The name after `def` (or `async def`) at text[i], as a new string, else NULL. */
static char *def_name(const char *text, size_t len, size_t i)
{
    if (len - i < 4 || (memcmp(text + i, "def", 3) != 0 && memcmp(text + i, "async", 5 <= len - i ? 5 : 4) != 0))
        return NULL; /* most statements: not a def */
    char buf[256];
    size_t n = 0;
    while (i < len && n + 1 < sizeof buf && text[i] != '\n')
        buf[n++] = text[i++];
    buf[n] = '\0';
    size_t k = 0, w = ident_at(buf, k);
    if (word_is(buf, k, w, "async")) {
        k = skip_sp(buf, k + w);
        w = ident_at(buf, k);
    }
    if (!word_is(buf, k, w, "def"))
        return NULL;
    k += w;
    if (buf[k] != ' ' && buf[k] != '\t')
        return NULL;
    while (buf[k] == ' ' || buf[k] == '\t')
        k++;
    w = ident_at(buf, k);
    return w ? xstrndup(buf + k, w) : NULL;
}

/* Open def blocks while reading: closed by the next statement indented as much or less. */
typedef struct open_defs {
    size_t *items; /* indexes into the outline's defs */
    size_t n, cap;
} open_defs;

static void close_defs(py_outline *o, open_defs *st, int indent, int line)
{
    while (st->n && o->defs[st->items[st->n - 1]].indent >= indent) {
        py_def *d = &o->defs[st->items[--st->n]];
        d->end_line = line - 1 < d->header_end ? d->header_end : line - 1;
    }
}

/* The statement that started at line `first` ended at line `last`. */
static void end_statement(py_outline *o, int first, int last)
{
    if (last > o->nlines)
        last = o->nlines; /* a string left open runs to the end of the text */
    for (int l = first; l <= last && l <= o->nlines; l++) {
        o->stmt_first[l] = first;
        o->stmt_last[l] = last;
    }
    if (o->ndefs && o->defs[o->ndefs - 1].name_line == first)
        o->defs[o->ndefs - 1].header_end = last;
}

/* Add to top_names what the plain import statement starting at line binds, if it is one:
 * its alias, else a from-import's name, else the first part of the module (`import a.b`
 * binds a); a star import binds nothing this reader can name. */
static void bind_imports(py_outline *o, const char *text, int line)
{
    syn_import_list l = {0};
    if (!py_outline_imports(o, text, line, &l))
        return;
    for (size_t i = 0; i < l.n; i++) {
        const syn_import *im = &l.items[i];
        if (im->alias) {
            strset_add(&o->top_names, im->alias);
        } else if (im->name) {
            if (strcmp(im->name, "*") != 0)
                strset_add(&o->top_names, im->name);
        } else {
            size_t n = strcspn(im->module, ".");
            add_word(&o->top_names, im->module, 0, n);
        }
    }
    syn_import_list_free(&l);
}

py_outline *py_outline_read(const char *text, size_t len)
{
    py_outline *o = xcalloc(1, sizeof *o);
    size_t *starts = text_line_starts(text, len, &o->nlines);
    int n = o->nlines ? o->nlines : 1; /* an empty text still has its first line's start */
    o->line_off = xcalloc((size_t)n + 2, sizeof *o->line_off);
    o->stmt_first = xcalloc((size_t)n + 2, sizeof *o->stmt_first);
    o->stmt_last = xcalloc((size_t)n + 2, sizeof *o->stmt_last);
    o->indent = xcalloc((size_t)n + 2, sizeof *o->indent);
    for (int l = 1; l <= n; l++) {
        o->line_off[l] = starts[l - 1];
        o->stmt_first[l] = o->stmt_last[l] = l;
        o->indent[l] = -1;
    }
    o->line_off[n + 1] = len;
    free(starts);
    size_t cap = 0;
    open_defs st = {0};
    strbuf code;
    sb_init(&code);
    int line = 1, stmt = 0, decor_line = 0, decor_indent = -1, depth = 0, looked = 0;
    bool collecting = false, too_long = false, cont = false;
    for (size_t i = 0; i <= len;) {
        if (i == len || text[i] == '\n') {
            if (stmt && (i == len || (depth == 0 && !cont))) {
                end_statement(o, stmt, line);
                if (collecting && !too_long && code.buf)
                    module_statement(code.buf, &o->top_names);
                if (collecting)
                    bind_imports(o, text, stmt);
                stmt = 0;
                collecting = false;
            } else if (collecting) {
                sb_addc(&code, ' '); /* the statement goes on: its lines are joined */
            }
            cont = false;
            if (i == len)
                break;
            i++;
            line++;
            continue;
        }
        if (!stmt && line <= n && i == o->line_off[line] && line != looked) {
            looked = line;
            size_t first;
            int ind = indentation(text, len, i, &first);
            if (first < len && text[first] != '\n' && text[first] != '\r' && text[first] != '#') {
                stmt = line;
                depth = 0;
                o->indent[line] = ind;
                close_defs(o, &st, ind, line);
                char *name = text[first] == '@' ? NULL : def_name(text, len, first);
                if (text[first] == '@') {
                    if (decor_indent != ind) {
                        decor_line = line;
                        decor_indent = ind;
                    }
                } else {
                    if (name) {
                        py_def *d = ARRAY_PUSH(o->defs, o->ndefs, cap);
                        d->name = name;
                        d->name_line = d->header_end = d->end_line = line;
                        d->first_line = decor_indent == ind ? decor_line : line;
                        d->indent = ind;
                        *ARRAY_PUSH(st.items, st.n, st.cap) = o->ndefs - 1;
                    }
                    decor_indent = -1;
                }
                collecting = ind == 0 && first == i;
                too_long = false;
                sb_reset(&code);
            }
            i = first;
            continue;
        }
        char c = text[i];
        size_t next = i + 1;
        const char *add = NULL;
        char one[2] = {c, '\0'};
        if (c == '#') {
            while (next < len && text[next] != '\n')
                next++;
        } else if (c == '"' || c == '\'') {
            next = string_end(text, len, i);
            for (size_t k = i; k < next; k++)
                line += text[k] == '\n';
            add = "\"\"";
        } else if (c == '\\' && i + 1 < len && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
            next = i + 1;
            while (next < len && text[next] != '\n')
                next++;
            cont = true;
            add = " ";
        } else {
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0)
                depth--;
            add = c == '\t' || c == '\r' || c == '\f' ? " " : one;
        }
        if (collecting && add && !too_long) {
            sb_adds(&code, add);
            too_long = code.len > MAX_STMT;
        }
        i = next;
    }
    close_defs(o, &st, -1, n + 1);
    free(st.items);
    sb_free(&code);
    return o;
}

void py_outline_free(py_outline *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->ndefs; i++)
        free(o->defs[i].name);
    free(o->defs);
    free(o->line_off);
    free(o->stmt_first);
    free(o->stmt_last);
    free(o->indent);
    strset_free(&o->top_names);
    free(o);
}

bool py_outline_stmt_has_word(const py_outline *o, const char *text, int line, const char *word)
{
    if (line < 1 || line > o->nlines)
        return false;
    size_t from = o->line_off[o->stmt_first[line]], to = o->line_off[o->stmt_last[line] + 1];
    return str_find_word(text + from, to - from, word) != NULL;
}

void py_toplevel_names(const char *text, size_t len, strset *out)
{
    py_outline *o = py_outline_read(text, len);
    strset_union(out, &o->top_names);
    py_outline_free(o);
}

/* --- module-level import statements ------------------------------------------------------ */

/* A token of an import statement: a name, or one of . , ( ) * (kind), where it starts. */
typedef struct imp_tok {
    char kind;        /* 'n' a name, else the character */
    size_t at, len;   /* in the text */
    int line, col;
    bool spaced;      /* white space (or a comment) before it */
} imp_tok;

/* The tokens of text [from, to) starting at line; false on anything an import statement
 * this reader knows cannot hold (a string, a `;`, an operator). */
static bool import_tokens(const char *text, size_t from, size_t to, int line, size_t line_start,
                          imp_tok **out, size_t *n)
{
    size_t cap = 0;
    bool spaced = false;
    *n = 0;
    for (size_t i = from; i < to;) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
            spaced = true;
            i++;
        } else if (c == '\n') {
            spaced = true;
            line++;
            line_start = ++i;
        } else if (c == '\\' && i + 1 < to && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
            spaced = true;
            i++;
        } else if (c == '#') {
            while (i < to && text[i] != '\n')
                i++;
            spaced = true;
        } else if (ident_byte(c) && !(c >= '0' && c <= '9')) {
            size_t k = i;
            while (k < to && ident_byte(text[k]))
                k++;
            *ARRAY_PUSH(*out, *n, cap) = (imp_tok){'n', i, k - i, line, (int)(i - line_start), spaced};
            spaced = false;
            i = k;
        } else if (c == '.' || c == ',' || c == '(' || c == ')' || c == '*') {
            *ARRAY_PUSH(*out, *n, cap) = (imp_tok){c, i, 1, line, (int)(i - line_start), spaced};
            spaced = false;
            i++;
        } else {
            return false;
        }
    }
    return true;
}

static bool tok_is(const char *text, const imp_tok *t, const char *w)
{
    return t->kind == 'n' && strlen(w) == t->len && memcmp(text + t->at, w, t->len) == 0;
}

/* A dotted name from tokens [*k, n) (`a.b.c`, no white space inside, as its node's text),
 * as a new string; NULL when there is none. */
static char *dotted(const char *text, const imp_tok *t, size_t n, size_t *k)
{
    size_t i = *k;
    if (i >= n || t[i].kind != 'n')
        return NULL;
    size_t end = i + 1;
    while (end + 1 < n && t[end].kind == '.' && t[end + 1].kind == 'n' && !t[end].spaced &&
           !t[end + 1].spaced)
        end += 2;
    if (end < n && t[end].kind == '.')
        return NULL; /* `a.` or `a . b`: left to the parse */
    *k = end;
    return xstrndup(text + t[i].at, t[end - 1].at + t[end - 1].len - t[i].at);
}

/* `as NAME` at tokens *k, when there: the alias as a new string (advancing *k), else NULL.
 * *bad is set for an `as` with no name after it. */
static char *alias_of(const char *text, const imp_tok *t, size_t n, size_t *k, bool *bad)
{
    if (*k >= n || !tok_is(text, &t[*k], "as"))
        return NULL;
    if (*k + 1 >= n || t[*k + 1].kind != 'n') {
        *bad = true;
        return NULL;
    }
    *k += 2;
    return xstrndup(text + t[*k - 1].at, t[*k - 1].len);
}

static syn_import *push_import(syn_import_list *l, const imp_tok *at)
{
    syn_import *im = ARRAY_PUSH(l->items, l->n, l->cap);
    memset(im, 0, sizeof *im);
    im->line = at->line;
    im->col = at->col;
    return im;
}

/* Read `import …` or `from … import …` from the tokens into tmp; false when they are not one. */
static bool read_import(const char *text, const imp_tok *t, size_t n, syn_import_list *tmp)
{
    size_t k = 1;
    bool bad = false;
    if (tok_is(text, &t[0], "import")) {
        for (;;) {
            const imp_tok *at = k < n ? &t[k] : NULL;
            char *mod = dotted(text, t, n, &k);
            if (!mod)
                return false;
            char *al = alias_of(text, t, n, &k, &bad);
            syn_import *im = push_import(tmp, at);
            im->module = mod;
            im->alias = al;
            if (bad)
                return false;
            if (k == n)
                return true;
            if (t[k].kind != ',' || ++k == n)
                return false;
        }
    }
    if (!tok_is(text, &t[0], "from"))
        return false;
    int level = 0;
    while (k < n && t[k].kind == '.') {
        level++;
        k++;
    }
    char *mod = NULL;
    if (k < n && !tok_is(text, &t[k], "import")) {
        mod = dotted(text, t, n, &k);
        if (!mod)
            return false;
    }
    if (k >= n || !tok_is(text, &t[k], "import") || (level == 0 && !mod)) {
        free(mod);
        return false;
    }
    k++;
    bool future = level == 0 && strcmp(mod, "__future__") == 0;
    if (k < n && t[k].kind == '*' && k + 1 == n && !future) {
        syn_import *im = push_import(tmp, &t[k]);
        im->module = mod ? mod : xstrdup("");
        im->level = level;
        im->name = xstrdup("*");
        return true;
    }
    bool paren = k < n && t[k].kind == '(';
    k += paren;
    size_t names = 0;
    bool trailing = false;
    while (k < n && t[k].kind == 'n') {
        const imp_tok *at = &t[k];
        /* a name imported from a module is one identifier (the grammar's dotted_name of one) */
        size_t k0 = k;
        char *name = dotted(text, t, n, &k);
        if (!name || k != k0 + 1) {
            free(name);
            break;
        }
        char *al = alias_of(text, t, n, &k, &bad);
        syn_import *im = push_import(tmp, at);
        im->module = xstrdup(mod ? mod : "");
        im->level = level;
        im->name = name;
        im->alias = al;
        names++;
        trailing = false;
        if (bad || k == n || t[k].kind != ',')
            break;
        k++;
        trailing = true;
    }
    free(mod);
    if (bad || names == 0 || (trailing && !paren))
        return false;
    if (paren) {
        if (k >= n || t[k].kind != ')')
            return false;
        k++;
    }
    return k == n;
}

bool py_outline_imports(const py_outline *o, const char *text, int line, syn_import_list *out)
{
    if (line < 1 || line > o->nlines || o->stmt_first[line] != line || o->indent[line] != 0)
        return false;
    size_t from = o->line_off[line], to = o->line_off[o->stmt_last[line] + 1];
    imp_tok *t = NULL;
    size_t n = 0;
    syn_import_list tmp = {0};
    bool ok = import_tokens(text, from, to, line, from, &t, &n) && n > 0 && read_import(text, t, n, &tmp);
    free(t);
    if (!ok) {
        syn_import_list_free(&tmp);
        return false;
    }
    for (size_t i = 0; i < tmp.n; i++)
        *ARRAY_PUSH(out->items, out->n, out->cap) = tmp.items[i];
    free(tmp.items);
    return true;
}
