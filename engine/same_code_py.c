/* Whether two texts of a Python file are the same code: a change made by a formatter (black,
 * ruff format) or one that only edits comments leaves every statement as it was.
 *
 * Both texts are read as a stream of tokens, and the two streams are compared as they are read,
 * so a file whose code changed near its top costs little. What the reading sets aside:
 * - comments, blank lines, white space between tokens, and line breaks inside brackets or after
 *   a backslash (a call wrapped over lines or joined onto one);
 * - how deep a statement is indented, as long as its block is the same (each logical line is
 *   read with its block level, not its column, so re-indenting by another width is layout);
 * - which quotes a string is written with (' or ", single or triple) and the case and order of
 *   its prefix letters (a `u` prefix is no prefix); its body is compared byte for byte;
 * - a trailing comma before a closing bracket where it changes nothing: in a call's or a
 *   definition's arguments, a list, set or dict display, or a bracket that holds another comma
 *   (`(a, b,)` is `(a, b)`, but `(a,)` is a tuple and `x[a,]` a tuple index).
 * The reading is one-sided: equal streams are equal code; anything it does not follow (an
 * unterminated string, indentation that matches no open block, nesting past its limits) makes
 * the texts differ. */
#include "engine/same_code.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "engine/util.h"

#define BRACKETS_MAX 256 /* open brackets followed; deeper reads as "cannot tell" */
#define INDENTS_MAX 128  /* open blocks followed */
#define NEST_MAX 16      /* strings nested in f-string replacement fields */
#define NOWHERE SIZE_MAX /* a scan that found no end */

typedef enum { TK_END, TK_LINE, TK_NAME, TK_NUMBER, TK_STRING, TK_OP, TK_ERROR } tk_kind;

/* A token: its bytes (a string's body), a string's normalised prefix, a line's block level. */
typedef struct py_tok {
    tk_kind kind;
    const char *p;
    size_t n;
    char prefix[3];
    int level;
} py_tok;

/* What an opening bracket opens, for the trailing-comma rule. */
typedef enum { BR_CALL, BR_PAREN, BR_SUBSCRIPT, BR_LIST, BR_BRACE } bracket_kind;

typedef struct bracket {
    bracket_kind kind;
    int commas; /* commas read at its own level */
} bracket;

/* A reader of one text's tokens. */
typedef struct py_reader {
    const char *s;
    size_t n, i;
    bool line_start;
    int indents[INDENTS_MAX];
    int nindents;
    bracket brackets[BRACKETS_MAX];
    int nbrackets;
    py_tok prev;     /* the last token given */
    py_tok pending;  /* a token read ahead (after a comma), or kind TK_END when none */
    bool has_pending;
} py_reader;

static char at(const py_reader *r, size_t k)
{
    return k < r->n ? r->s[k] : 0;
}

/* Identifier bytes: ASCII ones, and any byte of a UTF-8 letter. */
static bool name_start(unsigned char c)
{
    return (str_ident_char((char)c) && !(c >= '0' && c <= '9')) || c >= 0x80;
}

static bool name_char(unsigned char c)
{
    return str_ident_char((char)c) || c >= 0x80;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static size_t scan_string(const py_reader *r, size_t j, bool fstring, int nest, size_t *body, size_t *body_end);

/* The end (just past its closing brace) of an f-string replacement field whose expression
 * starts at k, or NOWHERE. Strings inside are skipped whole, whatever their quotes (Python 3.12
 * lets them repeat the outer one); a format spec's characters are literal except for nested
 * fields. */
static size_t scan_field(const py_reader *r, size_t k, int nest)
{
    if (nest > NEST_MAX)
        return NOWHERE;
    int depth = 0;
    while (k < r->n) {
        char c = r->s[k];
        if (c == '"' || c == '\'') {
            bool f = false;
            for (size_t b = k; b > 0 && b + 2 >= k && r->s[b - 1] && strchr("rRbBuUfF", r->s[b - 1]); b--)
                f |= r->s[b - 1] == 'f' || r->s[b - 1] == 'F';
            size_t b0, b1;
            k = scan_string(r, k, f, nest + 1, &b0, &b1);
            if (k == NOWHERE)
                return NOWHERE;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']') {
            if (--depth < 0)
                return NOWHERE;
        } else if (c == '}') {
            if (depth == 0)
                return k + 1;
            depth--;
        } else if (depth == 0 && c == ':') {
            /* the format spec: literal, with nested fields, up to the field's closing brace */
            for (k++; k < r->n; k++) {
                if (r->s[k] == '}')
                    return k + 1;
                if (r->s[k] == '{') {
                    k = scan_field(r, k + 1, nest + 1);
                    if (k == NOWHERE)
                        return NOWHERE;
                    k--;
                }
            }
            return NOWHERE;
        }
        k++;
    }
    return NOWHERE;
}

/* The end (just past its closing quote) of the string whose opening quote is at j, its body
 * [*body, *body_end); NOWHERE when it does not end (a single-quoted string reaching a line end,
 * or the text's end). */
static size_t scan_string(const py_reader *r, size_t j, bool fstring, int nest, size_t *body, size_t *body_end)
{
    char q = r->s[j];
    bool triple = at(r, j + 1) == q && at(r, j + 2) == q;
    size_t k = j + (triple ? 3 : 1);
    *body = k;
    while (k < r->n) {
        char c = r->s[k];
        if (c == '\\') {
            k += 2; /* an escaped quote (raw strings too) does not close it */
            continue;
        }
        if (c == '\n' && !triple)
            return NOWHERE;
        if (c == q && (!triple || (at(r, k + 1) == q && at(r, k + 2) == q))) {
            *body_end = k;
            return k + (triple ? 3 : 1);
        }
        if (fstring && c == '{') {
            if (at(r, k + 1) == '{') {
                k += 2;
                continue;
            }
            k = scan_field(r, k + 1, nest);
            if (k == NOWHERE)
                return NOWHERE;
            continue;
        }
        k++;
    }
    return NOWHERE;
}

/* True when the name [p, p + n) is a string prefix (one or two of r, b, u, f in any case). */
static bool string_prefix(const char *p, size_t n)
{
    if (n < 1 || n > 2)
        return false;
    for (size_t k = 0; k < n; k++)
        if (!p[k] || !strchr("rRbBuUfF", p[k]))
            return false;
    return true;
}

/* A string prefix as compared: lower case, without u, its letters in order. */
static void normal_prefix(const char *p, size_t n, char out[3])
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        char c = (char)(p[k] | 0x20);
        if (c != 'u')
            out[m++] = c;
    }
    out[m] = 0;
    if (m == 2 && out[0] > out[1]) {
        char t = out[0];
        out[0] = out[1];
        out[1] = t;
    }
}

/* Operators of more than one character, longest first. */
static const char *const OPERATORS[] = {"**=", "//=", ">>=", "<<=", "...", "**", "//", "->", ":=", "==", "!=",
                                        "<=",  ">=",  "<<",  ">>",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=",
                                        "^=",  "@="};

/* Measure the indentation of the line at i: give its block level as a line token, skip a blank
 * or comment-only line (false, with i past it), or an error. */
static bool line_token(py_reader *r, py_tok *t)
{
    int width = 0;
    size_t k = r->i;
    while (k < r->n && (r->s[k] == ' ' || r->s[k] == '\t' || r->s[k] == '\f')) {
        width = r->s[k] == ' ' ? width + 1 : r->s[k] == '\t' ? (width / 8 + 1) * 8 : 0;
        k++;
    }
    if (k >= r->n) {
        r->i = k;
        t->kind = TK_END;
        return true;
    }
    if (r->s[k] == '\n' || r->s[k] == '\r' || r->s[k] == '#') {
        while (k < r->n && r->s[k] != '\n' && !(r->s[k] == '\r' && at(r, k + 1) != '\n'))
            k++;
        r->i = k + 1;
        return false;
    }
    r->i = k;
    r->line_start = false;
    if (width > r->indents[r->nindents - 1]) {
        if (r->nindents == INDENTS_MAX) {
            t->kind = TK_ERROR;
            return true;
        }
        r->indents[r->nindents++] = width;
    } else {
        while (width < r->indents[r->nindents - 1])
            r->nindents--;
        if (width != r->indents[r->nindents - 1]) {
            t->kind = TK_ERROR; /* a dedent to no open block */
            return true;
        }
    }
    t->kind = TK_LINE;
    t->level = r->nindents;
    return true;
}

/* The string token whose prefix letters are [start, quote) and whose opening quote is at
 * quote (start == quote: no prefix); an error token when it does not end. */
static void string_token(py_reader *r, py_tok *t, size_t start, size_t quote)
{
    size_t np = quote - start;
    bool f = memchr(r->s + start, 'f', np) || memchr(r->s + start, 'F', np);
    size_t b0 = 0, b1 = 0, end = scan_string(r, quote, f, 0, &b0, &b1);
    if (end == NOWHERE) {
        t->kind = TK_ERROR;
        return;
    }
    t->kind = TK_STRING;
    t->p = r->s + b0;
    t->n = b1 - b0;
    normal_prefix(r->s + start, np, t->prefix);
    r->i = end;
}

/* The next token as written (no trailing-comma rule). */
static void raw_token(py_reader *r, py_tok *t)
{
    memset(t, 0, sizeof *t);
    for (;;) {
        if (r->line_start && r->nbrackets == 0) {
            if (line_token(r, t))
                return;
            continue;
        }
        if (r->i >= r->n) {
            t->kind = TK_END;
            return;
        }
        char c = r->s[r->i];
        if (c == ' ' || c == '\t' || c == '\f' || (c == '\r' && at(r, r->i + 1) == '\n')) {
            r->i++;
            continue;
        }
        if (c == '\\' && (at(r, r->i + 1) == '\n' || (at(r, r->i + 1) == '\r' && at(r, r->i + 2) == '\n'))) {
            r->i += at(r, r->i + 1) == '\n' ? 2 : 3; /* a continued line is one line */
            continue;
        }
        if (c == '#') {
            while (r->i < r->n && r->s[r->i] != '\n' && r->s[r->i] != '\r')
                r->i++;
            continue;
        }
        if (c == '\n' || c == '\r') {
            r->i++;
            r->line_start = r->nbrackets == 0; /* inside brackets a line break is layout */
            continue;
        }
        break;
    }
    size_t start = r->i;
    unsigned char c = (unsigned char)r->s[start];
    if (name_start(c)) {
        size_t k = start;
        while (k < r->n && name_char((unsigned char)r->s[k]))
            k++;
        if ((at(r, k) == '"' || at(r, k) == '\'') && string_prefix(r->s + start, k - start)) {
            string_token(r, t, start, k);
            return;
        }
        t->kind = TK_NAME;
        t->p = r->s + start;
        t->n = k - start;
        r->i = k;
        return;
    }
    if (c == '"' || c == '\'') {
        string_token(r, t, start, start);
        return;
    }
    if (is_digit((char)c) || (c == '.' && is_digit(at(r, start + 1)))) {
        bool hex = c == '0' && (at(r, start + 1) | 0x20) == 'x';
        size_t k = start + 1;
        while (k < r->n && (name_char((unsigned char)r->s[k]) || r->s[k] == '.' ||
                            (!hex && (r->s[k] == '+' || r->s[k] == '-') && (r->s[k - 1] | 0x20) == 'e')))
            k++;
        t->kind = TK_NUMBER;
        t->p = r->s + start;
        t->n = k - start;
        r->i = k;
        return;
    }
    t->kind = TK_OP;
    t->p = r->s + start;
    t->n = 1;
    for (size_t k = 0; k < sizeof OPERATORS / sizeof *OPERATORS; k++) {
        size_t len = strlen(OPERATORS[k]);
        if (start + len <= r->n && memcmp(r->s + start, OPERATORS[k], len) == 0) {
            t->n = len;
            break;
        }
    }
    r->i = start + t->n;
}

static bool op_is(const py_tok *t, char c)
{
    return t->kind == TK_OP && t->n == 1 && t->p[0] == c;
}

/* True when a name is a keyword (hard or soft): a bracket after it opens no call. */
static bool keyword(const py_tok *t)
{
    static const char *const KEYWORDS[] = {
        "False",  "None",   "True",  "and",      "as",     "assert", "async", "await",  "break",
        "class",  "continue", "def", "del",      "elif",   "else",   "except", "finally", "for",
        "from",   "global", "if",    "import",   "in",     "is",     "lambda", "nonlocal", "not",
        "or",     "pass",   "raise", "return",   "try",    "while",  "with",  "yield",  "match",
        "case",   "type"};
    for (size_t k = 0; k < sizeof KEYWORDS / sizeof *KEYWORDS; k++)
        if (strlen(KEYWORDS[k]) == t->n && memcmp(KEYWORDS[k], t->p, t->n) == 0)
            return true;
    return false;
}

/* What the opening bracket t opens, from the token before it. */
static bracket_kind opened(const py_reader *r, const py_tok *t)
{
    const py_tok *p = &r->prev;
    bool applied = (p->kind == TK_NAME && !keyword(p)) || op_is(p, ')') || op_is(p, ']');
    if (op_is(t, '('))
        return applied ? BR_CALL : BR_PAREN;
    if (op_is(t, '['))
        return applied || p->kind == TK_STRING ? BR_SUBSCRIPT : BR_LIST;
    return BR_BRACE;
}

/* True when a trailing comma before the innermost bracket's close changes nothing. */
static bool comma_droppable(const py_reader *r)
{
    if (r->nbrackets == 0)
        return false;
    const bracket *b = &r->brackets[r->nbrackets - 1];
    return b->kind == BR_CALL || b->kind == BR_LIST || b->kind == BR_BRACE || b->commas >= 1;
}

/* The next token as compared: brackets followed, a trailing comma that changes nothing left
 * out. */
static void next_token(py_reader *r, py_tok *t)
{
    if (r->has_pending) {
        *t = r->pending;
        r->has_pending = false;
    } else {
        raw_token(r, t);
    }
    if (op_is(t, ',') && r->nbrackets > 0) {
        raw_token(r, &r->pending);
        bool closer = op_is(&r->pending, ')') || op_is(&r->pending, ']') || op_is(&r->pending, '}');
        if (closer && comma_droppable(r)) {
            *t = r->pending; /* the comma is left out */
        } else {
            r->has_pending = true;
            r->brackets[r->nbrackets - 1].commas++;
        }
    }
    if (op_is(t, '(') || op_is(t, '[') || op_is(t, '{')) {
        if (r->nbrackets == BRACKETS_MAX) {
            t->kind = TK_ERROR;
            return;
        }
        r->brackets[r->nbrackets++] = (bracket){opened(r, t), 0};
    } else if ((op_is(t, ')') || op_is(t, ']') || op_is(t, '}')) && r->nbrackets > 0) {
        r->nbrackets--;
    }
    r->prev = *t;
}

static bool same_token(const py_tok *a, const py_tok *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == TK_LINE)
        return a->level == b->level;
    if (a->kind == TK_STRING && strcmp(a->prefix, b->prefix) != 0)
        return false;
    return a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n) == 0);
}

bool same_code_py(const char *a, size_t alen, const char *b, size_t blen)
{
    py_reader ra = {.s = a, .n = alen, .line_start = true, .nindents = 1};
    py_reader rb = {.s = b, .n = blen, .line_start = true, .nindents = 1};
    for (;;) {
        py_tok x, y;
        next_token(&ra, &x);
        next_token(&rb, &y);
        if (x.kind == TK_ERROR || y.kind == TK_ERROR || !same_token(&x, &y))
            return false;
        if (x.kind == TK_END)
            return true;
    }
}
