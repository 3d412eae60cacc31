/* Names a Python module surely binds at its top level, from its text alone (py_toplevel.h).
 *
 * One pass over the text follows what ends a logical line: strings (single or triple quoted,
 * a backslash escaping the next character, a single-quoted one ending at a newline), comments,
 * brackets and backslash continuations. A logical line that starts in column 0 is a statement
 * of the module itself; its code (string literals reduced to "", comments dropped, lines
 * joined) is then read for what it binds. Compound statements other than def and class
 * (if, try, for, with, …) bind in their indented bodies, which this reader leaves to the
 * parse. */
#include <stdlib.h>
#include <string.h>

#include "engine/py_toplevel.h"
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

/* The items of an import list from s[i] (`a.b as c, d` or, after from-import, `(x as y, z)`):
 * each binds its alias, else (dotted) its first part when dotted_binds_first, else the name. */
static void import_items(const char *s, size_t i, bool dotted_binds_first, strset *out)
{
    i = skip_sp(s, i);
    if (s[i] == '(')
        i = skip_sp(s, i + 1);
    for (;;) {
        size_t n = ident_at(s, i);
        if (n == 0)
            return; /* `*`, `)` or something this reader does not know */
        size_t first = i, first_n = n;
        i += n;
        while (s[i] == '.' && ident_at(s, i + 1)) /* a dotted module name */
            i += 1 + ident_at(s, i + 1);
        size_t bound = first, bound_n = first_n;
        if (!dotted_binds_first && i > first + first_n)
            return; /* a dotted name after `from … import` is not Python */
        size_t j = skip_sp(s, i);
        size_t as_n = ident_at(s, j);
        if (word_is(s, j, as_n, "as")) {
            j = skip_sp(s, j + as_n);
            bound_n = ident_at(s, j);
            if (bound_n == 0)
                return;
            bound = j;
            i = j + bound_n;
        }
        add_word(out, s, bound, bound_n);
        i = skip_sp(s, i);
        if (s[i] != ',')
            return;
        i = skip_sp(s, i + 1);
    }
}

/* What one simple statement (no `;`) of the module binds. */
static void simple_statement(const char *s, strset *out)
{
    size_t i = skip_sp(s, 0);
    size_t n = ident_at(s, i);
    if (n == 0)
        return;
    if (word_is(s, i, n, "import")) {
        import_items(s, i + n, true, out);
        return;
    }
    if (word_is(s, i, n, "from")) {
        size_t j = skip_sp(s, i + n);
        while (s[j] == '.' || s[j] == ' ' || ident_byte(s[j])) {
            /* the module: dots and dotted name up to the word import */
            size_t w = ident_at(s, j);
            if (w && word_is(s, j, w, "import") && j > 0 && s[j - 1] == ' ')
                break;
            j += w ? w : 1;
        }
        size_t w = ident_at(s, j);
        if (word_is(s, j, w, "import"))
            import_items(s, j + w, false, out);
        return;
    }
    /* NAME = … or NAME: … (an assignment, or an annotated one) */
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

void py_toplevel_names(const char *text, size_t len, strset *out)
{
    strbuf code;
    sb_init(&code);
    bool collecting = false, too_long = false, continued = false;
    int depth = 0;
    for (size_t i = 0; i <= len;) {
        bool line_start = i == 0 || text[i - 1] == '\n';
        if (i < len && line_start && depth == 0 && !continued && !collecting) {
            char c = text[i];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '#') {
                collecting = true;
                too_long = false;
                sb_reset(&code);
            }
        }
        continued = false;
        if (i == len || (text[i] == '\n' && depth == 0)) {
            if (collecting && !too_long && code.buf)
                module_statement(code.buf, out);
            collecting = false;
            i++;
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
            add = "\"\"";
        } else if (c == '\\' && i + 1 < len && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
            next = i + 1;
            while (next < len && text[next] != '\n')
                next++;
            next++; /* past the newline: the logical line goes on */
            continued = true;
            add = " ";
        } else {
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0)
                depth--;
            add = c == '\n' || c == '\t' || c == '\r' || c == '\f' ? " " : one;
        }
        if (collecting && add && !too_long) {
            sb_adds(&code, add);
            too_long = code.len > MAX_STMT;
        }
        i = next;
    }
    sb_free(&code);
}
