/* The layout-pin index of pin_index.h. Each C/C++ file is lexed once into tokens (comments,
 * string and character literals skipped; #define bodies kept as their own token runs, other
 * preprocessor lines dropped) and scanned for pins. A function-like macro whose body pins one
 * of its parameters is a "pinning macro": its body tokens are kept, and every invocation of it
 * anywhere in the tree is expanded (parameters replaced by the invocation's arguments) and
 * scanned again, so the pin lands on the invocation line with the real struct name.
 *
 * Building is two passes: the first finds direct pins and pinning macros in every file, the
 * second re-reads only the files that may invoke a pinning macro (a small Bloom filter of the
 * names each file calls says which). */
#include "engine/pin_index.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/path_gate.h"
#include "engine/util.h"

#define INDEX_MAX_FILE_BYTES (2u * 1024 * 1024)
#define PIN_TEXT_MAX 160
#define EXPAND_MAX_DEPTH 6
#define BLOOM_WORDS 8

/* --- tokens ------------------------------------------------------------------------------ */

enum { T_IDENT, T_NUMBER, T_STRING, T_PUNCT };

typedef struct tok {
    const char *p;
    uint32_t len;
    int line;
    int region;        /* -1: ordinary code; k: the body of the file's k-th #define */
    unsigned char kind;
} tok;

typedef struct tok_list {
    tok *items;
    size_t n, cap;
} tok_list;

typedef struct define_info {
    char *name;
    char **params;
    size_t nparams, params_cap;
    bool function_like, variadic;
    int line;
    size_t body_off, body_end;   /* byte range of the body in the file text */
} define_info;

typedef struct define_list {
    define_info *items;
    size_t n, cap;
} define_list;

/* True for a byte that may start an identifier. */
static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           (unsigned char)c >= 0x80;
}

/* True for a byte that may continue an identifier. */
static bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* True for a decimal digit. */
static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* True when a token's text equals the NUL-terminated s. */
static bool tok_is(const tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->p, s, n) == 0;
}

/* Skip a backslash-newline at i (also "\\\r\n"); returns the new index, counting the line. */
static size_t skip_continuation(const char *s, size_t len, size_t i, int *line)
{
    if (i < len && s[i] == '\\') {
        size_t j = i + 1;
        if (j < len && s[j] == '\r')
            j++;
        if (j < len && s[j] == '\n') {
            (*line)++;
            return j + 1;
        }
    }
    return i;
}

/* Index just past a quoted literal starting at s[i] (the quote); stops at an unescaped
 * newline, so an unterminated literal never swallows the file. */
static size_t skip_quoted(const char *s, size_t len, size_t i, int *line)
{
    char q = s[i++];
    while (i < len && s[i] != q && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < len) {
            if (s[i + 1] == '\n')
                (*line)++;
            i++;
        }
        i++;
    }
    return i < len && s[i] == q ? i + 1 : i;
}

/* Index just past a raw string R"delim( ... )delim" whose opening quote is at s[i]. */
static size_t skip_raw_string(const char *s, size_t len, size_t i, int *line)
{
    size_t d0 = i + 1, d1 = d0;
    while (d1 < len && s[d1] != '(' && s[d1] != '"' && s[d1] != '\n' && d1 - d0 < 16)
        d1++;
    if (d1 >= len || s[d1] != '(')
        return skip_quoted(s, len, i, line);
    size_t dl = d1 - d0;
    for (size_t j = d1 + 1; j < len; j++) {
        if (s[j] == '\n')
            (*line)++;
        if (s[j] == ')' && j + 1 + dl < len && memcmp(s + j + 1, s + d0, dl) == 0 &&
            s[j + 1 + dl] == '"')
            return j + dl + 2;
    }
    return len;
}

/* Skip a block comment opening at s[i] ("/" "*"); returns the index past its end. */
static size_t skip_block_comment(const char *s, size_t len, size_t i, int *line)
{
    i += 2;
    while (i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/')) {
        if (s[i] == '\n')
            (*line)++;
        i++;
    }
    return i < len ? i + 2 : len;
}

/* Read a #define's name and parameters from s[j] (just past "define"); adds it to defs and
 * returns the index where its body starts, or 0 when no name follows (not a definition). */
static size_t read_define(const char *s, size_t len, size_t j, int *line, define_list *defs)
{
    while (j < len && (s[j] == ' ' || s[j] == '\t'))
        j++;
    size_t n0 = j;
    while (j < len && is_ident_char(s[j]))
        j++;
    if (j == n0)
        return 0;
    define_info *d = ARRAY_PUSH(defs->items, defs->n, defs->cap);
    memset(d, 0, sizeof *d);
    d->name = xstrndup(s + n0, j - n0);
    d->line = *line;
    if (j < len && s[j] == '(') {
        d->function_like = true;
        j++;
        while (j < len && s[j] != ')' && s[j] != '\n') {
            if (is_ident_start(s[j])) {
                size_t p0 = j;
                while (j < len && is_ident_char(s[j]))
                    j++;
                char **slot = ARRAY_PUSH(d->params, d->nparams, d->params_cap);
                *slot = xstrndup(s + p0, j - p0);
            } else if (s[j] == '.' && j + 2 < len && s[j + 1] == '.' && s[j + 2] == '.') {
                d->variadic = true;
                j += 3;
            } else {
                size_t k = skip_continuation(s, len, j, line);
                j = k != j ? k : j + 1;
            }
        }
        if (j < len && s[j] == ')')
            j++;
    }
    d->body_off = j;
    d->body_end = len;
    return j;
}

/* Skip a directive other than #define from s[i] to the end of its logical line. */
static size_t skip_directive(const char *s, size_t len, size_t i, int *line)
{
    while (i < len && s[i] != '\n') {
        size_t k = skip_continuation(s, len, i, line);
        if (k != i)
            i = k;
        else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*')
            i = skip_block_comment(s, len, i, line);
        else
            i++;
    }
    return i;
}

/* Read the token at s[i] (not white space, a comment or a directive) into t; returns the
 * index past it. */
static size_t lex_token(const char *s, size_t len, size_t i, int *line, tok *t)
{
    char c = s[i];
    size_t j = i;
    if (c == 'R' && i + 1 < len && s[i + 1] == '"') {
        j = skip_raw_string(s, len, i + 1, line);
        t->kind = T_STRING;
    } else if (is_ident_start(c)) {
        while (j < len && is_ident_char(s[j]))
            j++;
        t->kind = T_IDENT;
    } else if (is_digit(c) || (c == '.' && i + 1 < len && is_digit(s[i + 1]))) {
        while (j < len && (is_ident_char(s[j]) || s[j] == '.' ||
                           (s[j] == '\'' && j + 1 < len && is_ident_char(s[j + 1])) ||
                           ((s[j] == '+' || s[j] == '-') && strchr("eEpP", s[j - 1]) != NULL)))
            j++;
        t->kind = T_NUMBER;
    } else if (c == '"' || c == '\'') {
        j = skip_quoted(s, len, i, line);
        t->kind = T_STRING;
    } else {
        t->kind = T_PUNCT;
        j = i + 1;
        if (i + 1 < len && ((c == '=' && s[i + 1] == '=') || (c == ':' && s[i + 1] == ':') ||
                            (c == '#' && s[i + 1] == '#') || (c == '!' && s[i + 1] == '=')))
            j = i + 2;
    }
    t->len = (uint32_t)(j - i);
    return j;
}

/* Lex text into toks. With directives true, "#" at the start of a line opens a preprocessor
 * line: a #define's body becomes a run of tokens with its own region (and an entry in defs),
 * any other directive is skipped. With directives false (a stored macro body) "#" is a token. */
static void lex(const char *s, size_t len, bool directives, tok_list *toks, define_list *defs)
{
    size_t i = 0;
    int line = 1;
    bool line_start = true;
    int region = -1;               /* the open #define body, or -1 */
    while (i < len) {
        char c = s[i];
        if (c == '\n') {
            line++;
            i++;
            line_start = true;
            if (region >= 0) {
                defs->items[region].body_end = i - 1;
                region = -1;
            }
            continue;
        }
        if (c == '\\') {
            size_t j = skip_continuation(s, len, i, &line);
            if (j != i) {
                i = j;
                continue;
            }
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n') {
                size_t j = skip_continuation(s, len, i, &line);
                i = j != i ? j : i + 1;
            }
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            i = skip_block_comment(s, len, i, &line);
            continue;
        }
        if (c == '#' && line_start && directives && region < 0) {
            /* a preprocessor line: a #define opens its body's region, others are skipped */
            size_t j = i + 1;
            while (j < len && (s[j] == ' ' || s[j] == '\t'))
                j++;
            size_t d0 = j;
            while (j < len && is_ident_char(s[j]))
                j++;
            size_t body = j - d0 == 6 && memcmp(s + d0, "define", 6) == 0
                              ? read_define(s, len, j, &line, defs) : 0;
            if (body) {
                region = (int)(defs->n - 1);
                line_start = false;
                i = body;
            } else {
                i = skip_directive(s, len, i, &line);
            }
            continue;
        }
        line_start = false;
        tok *t = ARRAY_PUSH(toks->items, toks->n, toks->cap);
        t->p = s + i;
        t->line = line;
        t->region = region;
        i = lex_token(s, len, i, &line, t);
    }
    if (region >= 0)
        defs->items[region].body_end = len;
}

/* Free a define list's contents. */
static void define_list_free(define_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].name);
        for (size_t k = 0; k < l->items[i].nparams; k++)
            free(l->items[i].params[k]);
        free(l->items[i].params);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* --- pins, macros, files ----------------------------------------------------------------- */

typedef struct pin_list {
    layout_pin *items;
    size_t n, cap;
} pin_list;

/* A function-like macro whose body pins one of its parameters. */
typedef struct pin_macro {
    char *name;
    char **params;
    size_t nparams;
    bool variadic;
    char *body;        /* the body text (owned); toks point into it */
    tok_list toks;
} pin_macro;

typedef struct index_file {
    char *path;
    pin_list pins;        /* found in the file's own text */
    pin_list macro_pins;  /* found by expanding invocations of pinning macros */
    pin_macro *macros;    /* the pinning macros it defines */
    size_t nmacros, macros_cap;
    uint64_t bloom[BLOOM_WORDS];  /* names the file calls (identifier followed by "(") */
    char **structs;       /* names of the structs/classes/unions it defines (with a body) */
    size_t nstructs, structs_cap;
} index_file;

struct pin_index {
    char *root;
    index_file *files;
    size_t nfiles, files_cap;
    size_t nskipped;
    const pin_macro **macros;     /* every file's pinning macros (borrowed), rebuilt on change */
    size_t nmacros, macros_cap;
    int32_t *slots;               /* open-addressing table over macros by name (-1 empty) */
    size_t nslots;
};

/* Free one pin's strings. */
static void pin_clear(layout_pin *p)
{
    free(p->type);
    free(p->field);
    free(p->path);
    free(p->text);
    free(p->via_macro);
}

/* Free a pin list's contents and leave it empty. */
static void pin_list_free(pin_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        pin_clear(&l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* Free a pinning macro's contents. */
static void pin_macro_clear(pin_macro *m)
{
    free(m->name);
    for (size_t i = 0; i < m->nparams; i++)
        free(m->params[i]);
    free(m->params);
    free(m->body);
    free(m->toks.items);
}

/* Free everything a file entry holds except its path. */
static void index_file_clear(index_file *f)
{
    pin_list_free(&f->pins);
    pin_list_free(&f->macro_pins);
    for (size_t i = 0; i < f->nmacros; i++)
        pin_macro_clear(&f->macros[i]);
    free(f->macros);
    f->macros = NULL;
    f->nmacros = f->macros_cap = 0;
    for (size_t i = 0; i < f->nstructs; i++)
        free(f->structs[i]);
    free(f->structs);
    f->structs = NULL;
    f->nstructs = f->structs_cap = 0;
    memset(f->bloom, 0, sizeof f->bloom);
}

/* Set the two Bloom bits of a name. */
static void bloom_add(uint64_t *bloom, const char *p, size_t n)
{
    uint64_t h = hash_bytes(p, n);
    unsigned a = (unsigned)(h & 511), b = (unsigned)((h >> 9) & 511);
    bloom[a / 64] |= 1ull << (a % 64);
    bloom[b / 64] |= 1ull << (b % 64);
}

/* True when the Bloom filter may hold the name. */
static bool bloom_has(const uint64_t *bloom, const char *p, size_t n)
{
    uint64_t h = hash_bytes(p, n);
    unsigned a = (unsigned)(h & 511), b = (unsigned)((h >> 9) & 511);
    return (bloom[a / 64] >> (a % 64) & 1) && (bloom[b / 64] >> (b % 64) & 1);
}

/* --- scanning a token run ---------------------------------------------------------------- */

typedef struct scan_ctx {
    const char *path;
    pin_list *out;
    bool only_via_macro;          /* second pass: keep only pins that come from an expansion */
    const define_info *def;       /* the #define whose body this run is, or NULL */
    bool pins_param;              /* out: the body pins one of def's parameters */
    const pin_index *ix;         /* whose pinning macros to expand, or NULL */
    /* set while scanning an expansion */
    const char *via;
    int inv_line, inv_first, inv_last;
    const char *inv_text;
    bool outer_asserted;
    int depth;
} scan_ctx;

/* The pinning macro named by token t, or NULL. */
static const pin_macro *lookup_macro(const pin_index *ix, const tok *t)
{
    if (!ix->nmacros)
        return NULL;
    size_t h = (size_t)hash_bytes(t->p, t->len) & (ix->nslots - 1);
    for (; ix->slots[h] >= 0; h = (h + 1) & (ix->nslots - 1))
        if (tok_is(t, ix->macros[ix->slots[h]]->name))
            return ix->macros[ix->slots[h]];
    return NULL;
}

/* Index of the ")" matching the "(" at open, or n when unbalanced. */
static size_t match_paren(const tok *t, size_t n, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < n; i++) {
        if (t[i].kind != T_PUNCT)
            continue;
        if (t[i].p[0] == '(')
            depth++;
        else if (t[i].p[0] == ')' && --depth == 0)
            return i;
    }
    return n;
}

/* True for a "(" or ")" punctuation token. */
static bool is_punct(const tok *t, char c)
{
    return t->kind == T_PUNCT && t->len == 1 && t->p[0] == c;
}

/* The tokens [a, b] joined, white space collapsed, cut to PIN_TEXT_MAX bytes (new string). */
static char *join_tokens(const tok *t, size_t a, size_t b)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = a; i <= b; i++) {
        if (i > a) {
            bool gap = t[i - 1].p + t[i - 1].len != t[i].p;
            bool words = t[i - 1].kind != T_PUNCT && t[i].kind != T_PUNCT;
            bool comma = is_punct(&t[i - 1], ',');
            if ((gap && !is_punct(&t[i], ')') && !is_punct(&t[i - 1], '(') &&
                 !is_punct(&t[i], ',')) || words || comma)
                sb_addc(&sb, ' ');
        }
        sb_add(&sb, t[i].p, t[i].len);
        if (sb.len > PIN_TEXT_MAX) {
            sb.len = PIN_TEXT_MAX - 3;
            sb.buf[sb.len] = '\0';
            sb_adds(&sb, "...");
            break;
        }
    }
    return sb_detach(&sb);
}

/* Parse an integer literal token (decimal, hex, octal, binary; suffixes and ' ignored). */
static bool number_value(const tok *t, long long *out)
{
    if (t->kind != T_NUMBER)
        return false;
    char buf[64];
    size_t n = 0;
    for (size_t i = 0; i < t->len && n + 1 < sizeof buf; i++)
        if (t->p[i] != '\'')
            buf[n++] = t->p[i];
    buf[n] = '\0';
    int base = 10;
    const char *d = buf;
    if (n > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) {
        base = 2;
        d = buf + 2;
    }
    char *end;
    long long v = strtoll(d, &end, base == 2 ? 2 : 0);
    if (end == d)
        return false;
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L' || *end == 'z' || *end == 'Z')
        end++;
    if (*end)
        return false;
    *out = v;
    return true;
}

/* The integer an operand at [i, ...) denotes: a literal, possibly in parentheses or after a
 * cast-like "(size_t)". Sets *out and returns true when found. */
static bool operand_after(const tok *t, size_t n, size_t i, long long *out)
{
    while (i < n && is_punct(&t[i], '('))
        i++;
    return i < n && number_value(&t[i], out);
}

/* The plain type name in tokens [a, b): the last identifier outside template arguments,
 * skipping struct/class/union/const/volatile/typename. Returns its token index or n. */
static size_t type_name_tok(const tok *t, size_t a, size_t b, size_t n)
{
    int angle = 0;
    size_t best = n;
    for (size_t i = a; i < b; i++) {
        if (t[i].kind == T_PUNCT) {
            if (t[i].p[0] == '<')
                angle++;
            else if (t[i].p[0] == '>' && angle > 0)
                angle--;
            continue;
        }
        if (angle > 0 || t[i].kind != T_IDENT)
            continue;
        if (tok_is(&t[i], "struct") || tok_is(&t[i], "class") || tok_is(&t[i], "union") ||
            tok_is(&t[i], "const") || tok_is(&t[i], "volatile") || tok_is(&t[i], "typename"))
            continue;
        best = i;
    }
    return best;
}

/* The index of def's parameter named by token t, or -1. */
static int param_index(const define_info *def, const tok *t)
{
    if (!def || t->kind != T_IDENT)
        return -1;
    for (size_t i = 0; i < def->nparams; i++)
        if (tok_is(t, def->params[i]))
            return (int)i;
    if (def->variadic && tok_is(t, "__VA_ARGS__"))
        return (int)def->nparams;
    return -1;
}

/* Record one pin found at token at (the offsetof/sizeof keyword) whose parentheses end at close. */
static void add_pin(scan_ctx *cx, const tok *t, size_t n, pin_kind kind, size_t at, size_t close,
                    size_t type_tok, size_t field_tok, size_t assert_at, size_t assert_end)
{
    if (cx->only_via_macro && !cx->via)
        return;
    layout_pin *p = ARRAY_PUSH(cx->out->items, cx->out->n, cx->out->cap);
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->type = xstrndup(t[type_tok].p, t[type_tok].len);
    p->field = field_tok < n ? xstrndup(t[field_tok].p, t[field_tok].len) : NULL;
    p->path = xstrdup(cx->path);
    p->asserted = assert_at < n || cx->outer_asserted;
    long long v;
    if (close + 1 < n && tok_is(&t[close + 1], "==") && operand_after(t, n, close + 2, &v)) {
        p->has_value = true;
        p->value = v;
    } else if (at >= 2 && tok_is(&t[at - 1], "==") && number_value(&t[at - 2], &v)) {
        p->has_value = true;
        p->value = v;
    }
    if (cx->via) {
        p->line = cx->inv_line;
        p->first_line = cx->inv_first;
        p->last_line = cx->inv_last;
        p->text = xstrdup(cx->inv_text);
        p->via_macro = xstrdup(cx->via);
    } else {
        p->line = t[at].line;
        size_t a = assert_at < n ? assert_at : at;
        size_t b = assert_at < n ? assert_end : close;
        if (b >= n)
            b = n - 1;
        p->first_line = t[a].line;
        p->last_line = t[b].line;
        p->text = join_tokens(t, a, b);
        p->in_define = cx->def != NULL;
    }
}

static void scan_run(scan_ctx *cx, const tok *t, size_t n);

/* Expand the invocation of pinning macro m whose name is t[at] and scan the expansion. */
static void expand_invocation(scan_ctx *cx, const tok *t, size_t n, size_t at, size_t close,
                              const pin_macro *m, bool asserted)
{
    /* split the arguments at top-level commas */
    size_t starts[64], ends[64], nargs = 0;
    int depth = 0;
    size_t s0 = at + 2;
    for (size_t i = at + 2; i <= close && nargs < 64; i++) {
        if (t[i].kind == T_PUNCT) {
            char c = t[i].p[0];
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if ((c == ')' || c == ']' || c == '}') && i != close)
                depth--;
            if ((c == ',' && depth == 0) || i == close) {
                starts[nargs] = s0;
                ends[nargs] = i;
                nargs++;
                s0 = i + 1;
            }
        }
    }
    define_info shape = {.params = m->params, .nparams = m->nparams, .variadic = m->variadic};
    tok_list ex = {0};
    for (size_t i = 0; i < m->toks.n; i++) {
        const tok *b = &m->toks.items[i];
        if (b->kind == T_PUNCT && (b->p[0] == '#'))
            continue;  /* stringising and pasting do not matter for pins */
        int k = param_index(&shape, b);
        if (k >= 0) {
            size_t last = (size_t)k == m->nparams ? nargs : (size_t)k + 1;
            for (size_t a = (size_t)k; a < last && a < nargs; a++) {
                if (a > (size_t)k) {
                    tok *c = ARRAY_PUSH(ex.items, ex.n, ex.cap);
                    *c = t[ends[a - 1]];
                }
                for (size_t j = starts[a]; j < ends[a]; j++) {
                    tok *c = ARRAY_PUSH(ex.items, ex.n, ex.cap);
                    *c = t[j];
                }
            }
            continue;
        }
        tok *c = ARRAY_PUSH(ex.items, ex.n, ex.cap);
        *c = *b;
    }
    char *text = cx->via ? NULL : join_tokens(t, at, close);
    scan_ctx sub = *cx;
    sub.def = NULL;
    sub.depth = cx->depth + 1;
    sub.outer_asserted = asserted || cx->outer_asserted;
    if (!cx->via) {
        sub.via = m->name;
        sub.inv_line = t[at].line;
        sub.inv_first = t[at].line;
        sub.inv_last = t[close].line;
        sub.inv_text = text;
    }
    if (ex.n)
        scan_run(&sub, ex.items, ex.n);
    free(text);
    free(ex.items);
}

/* Find the pins in one run of tokens (a file's code, one #define body, or an expansion). */
static void scan_run(scan_ctx *cx, const tok *t, size_t n)
{
    size_t assert_at = n, assert_end = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (assert_at < n && i > assert_end)
            assert_at = n;
        if (t[i].kind != T_IDENT || !is_punct(&t[i + 1], '('))
            continue;
        if (i > 0 && (tok_is(&t[i - 1], ".") || tok_is(&t[i - 1], "->")))
            continue;
        bool is_assert = tok_is(&t[i], "static_assert") || tok_is(&t[i], "_Static_assert");
        bool is_offsetof = tok_is(&t[i], "offsetof") || tok_is(&t[i], "__builtin_offsetof");
        bool is_sizeof = tok_is(&t[i], "sizeof") && assert_at < n;
        const pin_macro *macro = NULL;
        if (!is_assert && !is_offsetof && !is_sizeof && cx->ix && cx->depth < EXPAND_MAX_DEPTH)
            macro = lookup_macro(cx->ix, &t[i]);
        if (!is_assert && !is_offsetof && !is_sizeof && !macro)
            continue;
        size_t close = match_paren(t, n, i + 1);
        if (close >= n)
            continue;
        if (is_assert) {
            if (assert_at >= n) {
                assert_at = i;
                assert_end = close;
            }
            continue;
        }
        if (is_offsetof || is_sizeof) {
            size_t comma = close;
            if (is_offsetof) {
                int depth = 0, angle = 0;
                for (size_t k = i + 2; k < close; k++) {
                    if (t[k].kind != T_PUNCT)
                        continue;
                    char c = t[k].p[0];
                    if (c == '(')
                        depth++;
                    else if (c == ')')
                        depth--;
                    else if (c == '<')
                        angle++;
                    else if (c == '>' && angle > 0)
                        angle--;
                    else if (c == ',' && depth == 0 && angle == 0) {
                        comma = k;
                        break;
                    }
                }
                if (comma == close)
                    continue;
            }
            size_t ty = type_name_tok(t, i + 2, comma, n);
            if (ty >= n)
                continue;
            bool param = false;
            for (size_t k = i + 2; k < close; k++)
                if (param_index(cx->def, &t[k]) >= 0)
                    param = true;
            if (param) {
                cx->pins_param = true;
                continue;
            }
            size_t field = n;
            if (is_offsetof)
                for (size_t k = comma + 1; k < close && field == n; k++)
                    if (t[k].kind == T_IDENT)
                        field = k;
            if (is_offsetof && field == n)
                continue;
            add_pin(cx, t, n, is_offsetof ? PIN_OFFSETOF : PIN_SIZEOF, i, close, ty, field,
                    assert_at, assert_end);
            continue;
        }
        /* an invocation written with a parameter of the enclosing #define pins nothing yet */
        bool param = false;
        for (size_t k = i + 2; k < close; k++)
            if (param_index(cx->def, &t[k]) >= 0)
                param = true;
        if (!param)
            expand_invocation(cx, t, n, i, close, macro, assert_at < n);
    }
}

/* --- files ------------------------------------------------------------------------------- */

/* Split a file's tokens into runs: runs[0] the ordinary code, runs[k + 1] the body of the
 * k-th #define. Returns a new array of ndefs + 1 runs (the caller frees each and the array). */
static tok_list *split_regions(const tok_list *all, size_t ndefs)
{
    tok_list *runs = xcalloc(ndefs + 1, sizeof *runs);
    for (size_t i = 0; i < all->n; i++) {
        tok_list *r = &runs[all->items[i].region + 1];
        *ARRAY_PUSH(r->items, r->n, r->cap) = all->items[i];
    }
    return runs;
}

/* Free runs made by split_regions. */
static void free_regions(tok_list *runs, size_t ndefs)
{
    for (size_t i = 0; i <= ndefs; i++)
        free(runs[i].items);
    free(runs);
}

/* Index just past the parenthesised group opening at t[i] (a "("), or n. */
static size_t skip_group(const tok *t, size_t n, size_t i)
{
    size_t close = match_paren(t, n, i);
    return close < n ? close + 1 : n;
}

/* Record the names of the structs, classes and unions a run of code defines with a body:
 * `struct S {`, `struct __attribute__((packed)) S : Base {`, `typedef struct {...} S;`. */
static void collect_struct_names(index_file *f, const tok *t, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (t[i].kind != T_IDENT ||
            !(tok_is(&t[i], "struct") || tok_is(&t[i], "class") || tok_is(&t[i], "union")))
            continue;
        size_t j = i + 1;
        while (j < n && (tok_is(&t[j], "__attribute__") || tok_is(&t[j], "alignas") ||
                         tok_is(&t[j], "__declspec")))
            j = j + 1 < n && is_punct(&t[j + 1], '(') ? skip_group(t, n, j + 1) : j + 1;
        const tok *name = j < n && t[j].kind == T_IDENT ? &t[j] : NULL;
        size_t k = name ? j + 1 : j;
        int angle = 0;
        for (size_t guard = 0; k < n && guard < 64; guard++) {
            if (is_punct(&t[k], '<'))
                angle++;
            else if (is_punct(&t[k], '>') && angle > 0)
                angle--;
            else if (angle == 0 && (is_punct(&t[k], ';') || is_punct(&t[k], ')') ||
                                    is_punct(&t[k], '=') || is_punct(&t[k], '{') ||
                                    is_punct(&t[k], '(')))
                break;
            k++;
        }
        if (k >= n || !is_punct(&t[k], '{'))
            continue;
        if (name)
            *ARRAY_PUSH(f->structs, f->nstructs, f->structs_cap) = xstrndup(name->p, name->len);
        if (i > 0 && tok_is(&t[i - 1], "typedef")) {
            /* typedef struct [tag] { ... } Name; */
            int depth = 0;
            size_t m = k;
            for (; m < n; m++) {
                if (is_punct(&t[m], '{'))
                    depth++;
                else if (is_punct(&t[m], '}') && --depth == 0)
                    break;
            }
            if (m + 1 < n && t[m + 1].kind == T_IDENT)
                *ARRAY_PUSH(f->structs, f->nstructs, f->structs_cap) =
                    xstrndup(t[m + 1].p, t[m + 1].len);
        }
    }
}

/* First pass over one file's text: direct pins, pinning macros and the call-name filter. */
static void scan_file_direct(index_file *f, const char *text, size_t len)
{
    index_file_clear(f);
    tok_list toks = {0};
    define_list defs = {0};
    lex(text, len, true, &toks, &defs);
    for (size_t i = 0; i + 1 < toks.n; i++)
        if (toks.items[i].kind == T_IDENT && is_punct(&toks.items[i + 1], '('))
            bloom_add(f->bloom, toks.items[i].p, toks.items[i].len);
    scan_ctx cx = {.path = f->path, .out = &f->pins};
    tok_list *runs = split_regions(&toks, defs.n);
    scan_run(&cx, runs[0].items, runs[0].n);
    collect_struct_names(f, runs[0].items, runs[0].n);
    for (size_t d = 0; d < defs.n; d++) {
        scan_ctx dx = {.path = f->path, .out = &f->pins, .def = &defs.items[d]};
        scan_run(&dx, runs[d + 1].items, runs[d + 1].n);
        define_info *di = &defs.items[d];
        if (!dx.pins_param || !di->function_like)
            continue;
        pin_macro *m = ARRAY_PUSH(f->macros, f->nmacros, f->macros_cap);
        memset(m, 0, sizeof *m);
        m->name = xstrdup(di->name);
        m->params = di->params;
        m->nparams = di->nparams;
        m->variadic = di->variadic;
        di->params = NULL;
        di->nparams = 0;
        m->body = xstrndup(text + di->body_off, di->body_end - di->body_off);
        define_list none = {0};
        lex(m->body, strlen(m->body), false, &m->toks, &none);
        define_list_free(&none);
        for (size_t k = 0; k < m->toks.n; k++)
            m->toks.items[k].line = di->line;
    }
    free_regions(runs, defs.n);
    define_list_free(&defs);
    free(toks.items);
}

/* Second pass over one file's text: pins produced by invoking the index's pinning macros. */
static void scan_file_macros(const pin_index *ix, index_file *f, const char *text, size_t len)
{
    pin_list_free(&f->macro_pins);
    if (!ix->nmacros)
        return;
    tok_list toks = {0};
    define_list defs = {0};
    lex(text, len, true, &toks, &defs);
    scan_ctx cx = {.path = f->path, .out = &f->macro_pins, .only_via_macro = true, .ix = ix};
    tok_list *runs = split_regions(&toks, defs.n);
    scan_run(&cx, runs[0].items, runs[0].n);
    for (size_t d = 0; d < defs.n; d++) {
        scan_ctx dx = cx;
        dx.def = &defs.items[d];
        scan_run(&dx, runs[d + 1].items, runs[d + 1].n);
    }
    free_regions(runs, defs.n);
    define_list_free(&defs);
    free(toks.items);
}

/* True when the file's Bloom filter says it may call one of the index's pinning macros. */
static bool may_invoke_macro(const pin_index *ix, const index_file *f)
{
    for (size_t i = 0; i < ix->nmacros; i++)
        if (bloom_has(f->bloom, ix->macros[i]->name, strlen(ix->macros[i]->name)))
            return true;
    return false;
}

/* Rebuild the table of every file's pinning macros and its name lookup. */
static void rebuild_macro_table(pin_index *ix)
{
    ix->nmacros = 0;
    for (size_t i = 0; i < ix->nfiles; i++)
        for (size_t k = 0; k < ix->files[i].nmacros; k++)
            *ARRAY_PUSH(ix->macros, ix->nmacros, ix->macros_cap) = &ix->files[i].macros[k];
    free(ix->slots);
    ix->nslots = 16;
    while (ix->nslots < ix->nmacros * 2)
        ix->nslots *= 2;
    ix->slots = xmalloc(ix->nslots * sizeof *ix->slots);
    for (size_t i = 0; i < ix->nslots; i++)
        ix->slots[i] = -1;
    for (size_t m = 0; m < ix->nmacros; m++) {
        const char *name = ix->macros[m]->name;
        size_t h = (size_t)hash_bytes(name, strlen(name)) & (ix->nslots - 1);
        while (ix->slots[h] >= 0)
            h = (h + 1) & (ix->nslots - 1);
        ix->slots[h] = (int32_t)m;
    }
}

/* Read a file under the root (NULL when it cannot be read or is too large). */
static char *read_under_root(const pin_index *ix, const char *rel, size_t *len)
{
    if (!ix->root)
        return NULL;
    return gate_read(ix->root, rel, INDEX_MAX_FILE_BYTES, len, NULL);
}

/* Re-resolve macro invocations in every file except skip (which the caller handles). */
static void resolve_all(pin_index *ix, const index_file *skip)
{
    for (size_t i = 0; i < ix->nfiles; i++) {
        index_file *f = &ix->files[i];
        if (f == skip)
            continue;
        if (!may_invoke_macro(ix, f)) {
            pin_list_free(&f->macro_pins);
            continue;
        }
        size_t len;
        char *text = read_under_root(ix, f->path, &len);
        if (text)
            scan_file_macros(ix, f, text, len);
        else
            pin_list_free(&f->macro_pins);  /* unreadable now: stale pins would mislead */
        free(text);
    }
}

/* True for the extensions of C, C++, CUDA and HIP sources and headers. */
bool pin_index_wants_path(const char *path)
{
    static const char *const exts[] = {".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx",
                                       ".cu", ".cuh", ".hip", ".inl", ".ipp"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (str_ends(path, exts[i]))
            return true;
    return false;
}

/* True for a directory name the walk never enters. */
static bool skip_dir(const char *name)
{
    return strcmp(name, ".git") == 0 || strcmp(name, "node_modules") == 0 ||
           strcmp(name, "3rdparty") == 0 || str_starts(name, "build");
}

typedef struct path_list {
    char **items;
    size_t n, cap;
} path_list;

/* Collect the C/C++ files under root/rel (rel "" for the root) into out. */
static void walk(const char *root, const char *rel, path_list *out, size_t *nskipped, int depth)
{
    DIR *d = gate_opendir(root, rel);
    if (!d) {
        (*nskipped)++;
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        char *child = rel[0] ? xasprintf("%s/%s", rel, name) : xstrdup(name);
        struct stat st;
        /* d was opened through the gate: its entries are looked at without following links */
        if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISLNK(st.st_mode)) {
            free(child);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (!skip_dir(name) && depth < 64)
                walk(root, child, out, nskipped, depth + 1);
            free(child);
        } else if (S_ISREG(st.st_mode) && pin_index_wants_path(name)) {
            if (st.st_size > (off_t)INDEX_MAX_FILE_BYTES) {
                (*nskipped)++;
                free(child);
            } else {
                *ARRAY_PUSH(out->items, out->n, out->cap) = child;
            }
        } else {
            free(child);
        }
    }
    closedir(d);
}

/* qsort comparison of two path strings. */
static int cmp_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entry for path, or NULL. */
static index_file *find_file(pin_index *ix, const char *path)
{
    for (size_t i = 0; i < ix->nfiles; i++)
        if (strcmp(ix->files[i].path, path) == 0)
            return &ix->files[i];
    return NULL;
}

/* A summary of a file's pinning macros, to tell whether an update changed them. */
static char *macro_signature(const index_file *f)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < f->nmacros; i++) {
        sb_adds(&sb, f->macros[i].name);
        sb_addc(&sb, '(');
        for (size_t k = 0; k < f->macros[i].nparams; k++)
            sb_addf(&sb, "%s,", f->macros[i].params[k]);
        sb_adds(&sb, ")");
        sb_adds(&sb, f->macros[i].body);
        sb_addc(&sb, '\n');
    }
    return sb_detach(&sb);
}

/* An empty index remembering its root. */
pin_index *pin_index_new(const char *root)
{
    pin_index *ix = xcalloc(1, sizeof *ix);
    ix->root = root ? xstrdup(root) : NULL;
    return ix;
}

/* Drop every file entry. */
static void drop_files(pin_index *ix)
{
    for (size_t i = 0; i < ix->nfiles; i++) {
        index_file_clear(&ix->files[i]);
        free(ix->files[i].path);
    }
    ix->nfiles = 0;
    ix->nmacros = 0;
    ix->nskipped = 0;
}

/* Free the index and everything in it. */
void pin_index_free(pin_index *ix)
{
    if (!ix)
        return;
    drop_files(ix);
    free(ix->files);
    free(ix->macros);
    free(ix->slots);
    free(ix->root);
    free(ix);
}

/* Walk the root and index every C/C++ file in two passes (direct pins, then macro uses). */
int pin_index_build(pin_index *ix, char **cause)
{
    drop_files(ix);
    if (!ix->root) {
        if (cause)
            *cause = xstrdup("no root directory to index");
        return -1;
    }
    struct stat st;
    if (stat(ix->root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (cause)
            *cause = xasprintf("%s: not a readable directory", ix->root);
        return -1;
    }
    path_list paths = {0};
    walk(ix->root, "", &paths, &ix->nskipped, 0);
    qsort(paths.items, paths.n, sizeof *paths.items, cmp_paths);
    for (size_t i = 0; i < paths.n; i++) {
        size_t len;
        char *text = read_under_root(ix, paths.items[i], &len);
        if (!text) {
            ix->nskipped++;
            free(paths.items[i]);
            continue;
        }
        index_file *f = ARRAY_PUSH(ix->files, ix->nfiles, ix->files_cap);
        memset(f, 0, sizeof *f);
        f->path = paths.items[i];
        scan_file_direct(f, text, len);
        free(text);
    }
    free(paths.items);
    rebuild_macro_table(ix);
    if (ix->nmacros)
        resolve_all(ix, NULL);
    return 0;
}

/* Re-index one file from new text (NULL: drop it), re-resolving elsewhere if its macros changed. */
void pin_index_update_file(pin_index *ix, const char *relpath, const char *text, size_t len)
{
    if (!pin_index_wants_path(relpath))
        return;
    index_file *f = find_file(ix, relpath);
    char *before = f ? macro_signature(f) : xstrdup("");
    if (!text) {
        if (f) {
            index_file_clear(f);
            free(f->path);
            *f = ix->files[--ix->nfiles];
        }
        rebuild_macro_table(ix);
        if (before[0])
            resolve_all(ix, NULL);
        free(before);
        return;
    }
    if (!f) {
        f = ARRAY_PUSH(ix->files, ix->nfiles, ix->files_cap);
        memset(f, 0, sizeof *f);
        f->path = xstrdup(relpath);
    }
    scan_file_direct(f, text, len);
    char *after = macro_signature(f);
    rebuild_macro_table(ix);
    if (strcmp(before, after) != 0)
        resolve_all(ix, f);
    if (may_invoke_macro(ix, f))
        scan_file_macros(ix, f, text, len);
    free(before);
    free(after);
}

/* qsort comparison of pins by path, line, kind, field. */
static int cmp_pins(const void *a, const void *b)
{
    const layout_pin *x = *(const layout_pin *const *)a, *y = *(const layout_pin *const *)b;
    int c = strcmp(x->path, y->path);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return strcmp(x->field ? x->field : "", y->field ? y->field : "");
}

/* True when list holds a pin at the same place saying the same thing as p. */
static bool has_same_pin(const pin_list *l, const layout_pin *p)
{
    for (size_t i = 0; i < l->n; i++) {
        const layout_pin *q = &l->items[i];
        if (q->line == p->line && q->kind == p->kind && strcmp(q->type, p->type) == 0 &&
            strcmp(q->field ? q->field : "", p->field ? p->field : "") == 0)
            return true;
    }
    return false;
}

/* The pins of one struct name across the tree, direct and through macros, sorted. */
size_t pin_index_find(const pin_index *ix, const char *type, const layout_pin ***out)
{
    const layout_pin **arr = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < ix->nfiles; i++) {
        const index_file *f = &ix->files[i];
        for (size_t k = 0; k < f->pins.n; k++)
            if (strcmp(f->pins.items[k].type, type) == 0)
                *ARRAY_PUSH(arr, n, cap) = &f->pins.items[k];
        for (size_t k = 0; k < f->macro_pins.n; k++) {
            const layout_pin *p = &f->macro_pins.items[k];
            if (strcmp(p->type, type) == 0 && !has_same_pin(&f->pins, p))
                *ARRAY_PUSH(arr, n, cap) = p;
        }
    }
    if (n)
        qsort(arr, n, sizeof *arr, cmp_pins);
    *out = arr;
    return n;
}

/* True when the indexed file defines a struct, class or union of that name. */
bool pin_index_file_defines(const pin_index *ix, const char *path, const char *type)
{
    for (size_t i = 0; i < ix->nfiles; i++) {
        const index_file *f = &ix->files[i];
        if (strcmp(f->path, path) != 0)
            continue;
        for (size_t k = 0; k < f->nstructs; k++)
            if (strcmp(f->structs[k], type) == 0)
                return true;
        return false;
    }
    return false;
}

/* Counts of files, pins and skipped files. */
void pin_index_stats(const pin_index *ix, size_t *nfiles, size_t *npins, size_t *nskipped)
{
    size_t np = 0;
    for (size_t i = 0; i < ix->nfiles; i++)
        np += ix->files[i].pins.n + ix->files[i].macro_pins.n;
    if (nfiles)
        *nfiles = ix->nfiles;
    if (npins)
        *npins = np;
    if (nskipped)
        *nskipped = ix->nskipped;
}
