/* Constructs real kernels use that the pinned C++ grammar (tree-sitter-cpp 0.22.3) cannot read,
 * rewritten in the copy the parser reads into something it can, byte for byte the same length
 * with the same newlines (so every position still maps to the text; node text is always taken
 * from the real text). Each rewrite is confined to shapes that are parse errors as written, so
 * a tree the grammar could build is left as it is:
 *
 * - `= {}` as a default argument (`number<aux> = {}` before `,` or `)`) reads as `= 0`;
 * - a call argument that is a built-in type (`__builtin_bit_cast(uint32_t, x)`, a macro's
 *   `GPTR_(char, p)`) reads as a name;
 * - a statement macro used without a semicolon (`CK_MOE_STAGE1_GEMM_DEFINE(32, 4)` on its own
 *   line, `AITER_SET_STREAM_PYBIND` before `m.def(...)`, `case 4: DISPATCH(4) break;`) is
 *   blanked when a new statement follows it;
 * - `else if constexpr DISPATCH(a, b)`, a macro giving an `if` its condition and body, is
 *   blanked with its `else if`;
 * - `>=` reads as `<=` (same precedence), which a template argument list cannot mistake for
 *   its end (`enable_if<sizeof...(U) >= 2, bool>`);
 * - a function-defining macro (`ENTRY(name, (int a), (a)) { ... }`) reads as `name (int a) {`;
 * - inline assembly operands that are not plain names (`"=v"(w[i])`) read as names, and asm
 *   labels on declarations are blanked;
 * - `operator()<T>(...)` (an explicit specialization) reads as `operator()(...)`;
 * - a ";" inside a macro's arguments (`DISPATCH(a, f(x););`) is blanked;
 * - the stray `;` after a function body (`int f() { ... };`) is blanked (never after a lambda,
 *   where it ends the declaration). */
#include <stdlib.h>
#include <string.h>

#include "engine/syntax_internal.h"
#include "engine/util.h"

/* One token of the blanked copy: an identifier ('i'), a number ('n'), a string or character
 * literal ('s'), or one punctuation character (its own byte; "::" is ':' with wide set). */
typedef struct tok {
    uint32_t start, end;
    char kind;
    bool wide;               /* "::" */
    bool line_first;         /* the first token of its line (after a preprocessor line too) */
    bool builtin_type;       /* an identifier spelling a built-in type word (see below) */
    int match;               /* the matching bracket's index for ( ) [ ] { }, else -1 */
} tok;

typedef struct toks {
    tok *t;
    size_t n, cap;
} toks;

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

/* True when s[a, b) equals w. */
static bool span_is(const char *s, size_t a, size_t b, const char *w)
{
    size_t n = strlen(w);
    return b - a == n && memcmp(s + a, w, n) == 0;
}

/* True when s[a, b) is one of the built-in type words the grammar lexes as keywords (its
 * primitive_type, the sized modifiers, and cv-qualifiers), by a switch on the first byte: this
 * runs for every identifier of the file on every keystroke. */
static bool builtin_type_word(const char *s, size_t a, size_t b)
{
    switch (s[a]) {
    case 'b': return span_is(s, a, b, "bool");
    case 'c': return span_is(s, a, b, "char") || span_is(s, a, b, "const") ||
                     span_is(s, a, b, "charptr_t") || span_is(s, a, b, "char8_t") ||
                     span_is(s, a, b, "char16_t") || span_is(s, a, b, "char32_t") ||
                     span_is(s, a, b, "char64_t");
    case 'd': return span_is(s, a, b, "double");
    case 'f': return span_is(s, a, b, "float");
    case 'i': return span_is(s, a, b, "int") || span_is(s, a, b, "intptr_t") ||
                     span_is(s, a, b, "int8_t") || span_is(s, a, b, "int16_t") ||
                     span_is(s, a, b, "int32_t") || span_is(s, a, b, "int64_t");
    case 'l': return span_is(s, a, b, "long");
    case 'm': return span_is(s, a, b, "max_align_t");
    case 'n': return span_is(s, a, b, "nullptr_t");
    case 'p': return span_is(s, a, b, "ptrdiff_t");
    case 's': return span_is(s, a, b, "size_t") || span_is(s, a, b, "ssize_t") ||
                     span_is(s, a, b, "signed") || span_is(s, a, b, "short");
    case 'u': return span_is(s, a, b, "unsigned") || span_is(s, a, b, "uintptr_t") ||
                     span_is(s, a, b, "uint8_t") || span_is(s, a, b, "uint16_t") ||
                     span_is(s, a, b, "uint32_t") || span_is(s, a, b, "uint64_t");
    case 'v': return span_is(s, a, b, "void") || span_is(s, a, b, "volatile");
    default: return false;
    }
}

/* Skip a comment or a preprocessor line at i (at a line start for the latter); returns the new
 * index, or i when there is none. */
static size_t skip_trivia(const char *s, size_t len, size_t i, bool line_start)
{
    if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
        while (i < len && s[i] != '\n')
            i++;
    } else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
        const char *close = memmem(s + i + 2, len - i - 2, "*/", 2);
        i = close ? (size_t)(close - s) + 2 : len;
    } else if (line_start && s[i] == '#') {
        while (i < len && !(s[i] == '\n' && s[i - 1] != '\\' &&
                            !(s[i - 1] == '\r' && i > 1 && s[i - 2] == '\\')))
            i++;
    }
    return i;
}

/* The end of the literal starting at s[i] (a quote). */
static size_t literal_end(const char *s, size_t len, size_t i)
{
    char q = s[i];
    for (i++; i < len && s[i] != q && s[i] != '\n'; i++)
        if (s[i] == '\\')
            i++;
    return i < len ? i + 1 : len;
}

/* Tokenize s, matching brackets. */
static void tokenize(const char *s, size_t len, toks *out)
{
    bool line_start = true, first = true;
    int *stack = NULL;
    size_t depth = 0, cap = 0;
    for (size_t i = 0; i < len;) {
        char c = s[i];
        if (c == '\n') {
            line_start = first = true;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\\') {
            i++;
            continue;
        }
        size_t k = skip_trivia(s, len, i, line_start);
        if (k != i) {
            i = k;
            continue;
        }
        line_start = false;
        tok t = {.start = (uint32_t)i, .match = -1, .line_first = first};
        first = false;
        if (ident_start(c)) {
            while (i < len && ident_char(s[i]))
                i++;
            t.kind = 'i';
            t.builtin_type = i - t.start <= 11 && builtin_type_word(s, t.start, i);
        } else if (c >= '0' && c <= '9') {
            while (i < len && (ident_char(s[i]) || s[i] == '.' || s[i] == '\'' ||
                               ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
                i++;
            t.kind = 'n';
        } else if (c == '"' || c == '\'') {
            i = literal_end(s, len, i);
            t.kind = 's';
        } else {
            t.kind = c;
            t.wide = c == ':' && i + 1 < len && s[i + 1] == ':';
            i += t.wide ? 2 : 1;
        }
        t.end = (uint32_t)i;
        *ARRAY_PUSH(out->t, out->n, out->cap) = t;
        int idx = (int)out->n - 1;
        if (c == '(' || c == '[' || c == '{') {
            *ARRAY_PUSH(stack, depth, cap) = idx;
        } else if ((c == ')' || c == ']' || c == '}') && depth) {
            char open = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (out->t[stack[depth - 1]].kind == open) {
                out->t[idx].match = stack[depth - 1];
                out->t[stack[--depth]].match = idx;
            }
        }
    }
    free(stack);
}

/* True when token i is the identifier w (the first byte is compared first: this runs for
 * every token of the file on every keystroke). */
static bool is_word(const char *s, const toks *ts, size_t i, const char *w)
{
    const tok *t = &ts->t[i];
    if (t->kind != 'i' || s[t->start] != w[0])
        return false;
    size_t n = strlen(w);
    return t->end - t->start == n && memcmp(s + t->start, w, n) == 0;
}

/* True when token i is one of the words of list. */
static bool is_one_of(const char *s, const toks *ts, size_t i, const char *const *list)
{
    for (int k = 0; list[k]; k++)
        if (is_word(s, ts, i, list[k]))
            return true;
    return false;
}

/* Words before "(" that take a type there legitimately. */
static const char *const type_takers[] = {
    "sizeof", "alignof", "_Alignof", "alignas", "_Alignas", "decltype", "typeid", "__typeof__",
    "typeof", "__alignof__", "noexcept", "if", "for", "while", "switch", "return", "catch",
    "throw", "static_assert", "operator", "__attribute__", "__declspec", "defined", NULL,
};

/* Blank [a, b) of s keeping newlines. */
static void blank(char *s, size_t a, size_t b)
{
    for (size_t i = a; i < b; i++)
        if (s[i] != '\n' && s[i] != '\r')
            s[i] = ' ';
}

/* `= {}` before "," or ")": a default argument the grammar cannot read; make it `= 0`. */
static void default_braces(char *s, const toks *ts, size_t i)
{
    const tok *t = ts->t;
    if (t[i].kind != '=' || i + 3 >= ts->n || t[i + 1].kind != '{' || t[i + 2].kind != '}' ||
        (t[i + 3].kind != ',' && t[i + 3].kind != ')'))
        return;
    /* `x >= {}` and such are comparisons, not a default */
    if (i > 0 && t[i - 1].end == t[i].start && strchr("=!<>+-*/%&|^", t[i - 1].kind))
        return;
    s[t[i + 1].start] = '0';
    s[t[i + 2].start] = ' ';
}

/* `>=` inside a template argument list (`enable_if<sizeof...(U) >= 2, bool>`) reads to the
 * grammar as the list's closing `>`; `<=` has the same precedence and never closes one. */
static void greater_equal(char *s, const toks *ts, size_t i)
{
    const tok *t = ts->t;
    if (t[i].kind != '>' || i + 1 >= ts->n || t[i + 1].kind != '=' || t[i + 1].start != t[i].end)
        return;
    if (i + 2 < ts->n && t[i + 2].kind == '=' && t[i + 2].start == t[i + 1].end)
        return;
    if (i > 0 && t[i - 1].end == t[i].start && strchr("<>-", t[i - 1].kind))
        return; /* `>>=`, `<=>` and such */
    s[t[i].start] = '<';
}

/* Tokens [a, b) spell a built-in type only (`uint32_t`, `unsigned int`, `const char*`). */
static bool builtin_type_arg(const char *s, const toks *ts, size_t a, size_t b)
{
    bool word = false;
    for (size_t k = a; k < b; k++) {
        if (ts->t[k].builtin_type)
            word = word || !(is_word(s, ts, k, "const") || is_word(s, ts, k, "volatile"));
        else if (ts->t[k].kind != '*' && ts->t[k].kind != '&')
            return false;
    }
    return word && memchr(s + ts->t[a].start, '\n', ts->t[b - 1].end - ts->t[a].start) == NULL;
}

/* Words after which a name starts an expression, not a declarator. */
static const char *const expression_starters[] = {
    "return", "case", "throw", "else", "do", "co_return", "co_yield", "co_await", NULL,
};

/* True when the name whose last token is i (a call's callee) sits in an expression: what
 * precedes its first component is not a type (a declaration's unnamed parameters are left). */
static bool in_expression(const char *s, const toks *ts, size_t i)
{
    const tok *t = ts->t;
    while (i >= 2 && t[i - 1].kind == ':' && t[i - 1].wide && t[i - 2].kind == 'i')
        i -= 2;
    if (i == 0)
        return true;
    char p = t[i - 1].kind;
    if (p == 'i')
        return is_one_of(s, ts, i - 1, expression_starters);
    return !(p == '>' || p == '*' || p == '&' || p == '~' || p == ':');
}

/* Turn the built-in type arguments of the call whose "(" is token i into names: the span
 * becomes one identifier (`unsigned int` -> `_nsigned_int`, `char*` -> `_har `). */
static void type_arguments(char *s, const toks *ts, size_t i)
{
    const tok *t = ts->t;
    if (t[i].kind != '(' || t[i].match < 0 || i == 0 || t[i - 1].kind != 'i' ||
        t[i - 1].builtin_type)
        return;
    size_t close = (size_t)t[i].match, a = i + 1;
    bool callee_checked = false;
    for (size_t k = i + 1; k <= close; k++) {
        if (k < close && t[k].match > (int)k) {
            k = (size_t)t[k].match; /* skip a nested group */
            continue;
        }
        if (k < close && t[k].kind != ',')
            continue;
        if (k > a && builtin_type_arg(s, ts, a, k)) {
            /* only now, rarely, ask whether the callee takes a type or declares */
            if (!callee_checked && (is_one_of(s, ts, i - 1, type_takers) ||
                                    !in_expression(s, ts, i - 1)))
                return;
            callee_checked = true;
            for (size_t p = t[a].start; p < t[k - 1].end; p++)
                s[p] = s[p] == ' ' || s[p] == '\t' ? '_' : s[p] == '*' || s[p] == '&' ? ' ' : s[p];
            s[t[a].start] = '_';
        }
        a = k + 1;
    }
}

/* True for a name spelled like a macro: mostly capitals (`TORCH_CHECK`, `CK_MOE_DEFINE`). */
static bool macro_like(const char *s, const tok *t)
{
    if (!(s[t->start] == '_' || (s[t->start] >= 'A' && s[t->start] <= 'Z')))
        return false;
    int up = 0, low = 0;
    for (uint32_t k = t->start; k < t->end; k++) {
        up += s[k] >= 'A' && s[k] <= 'Z';
        low += s[k] >= 'a' && s[k] <= 'z';
    }
    return (s[t->start] == '_' || (s[t->start] >= 'A' && s[t->start] <= 'Z')) && up >= 2 &&
           up >= low;
}

/* Words that may follow a declarator's ")" on the same declaration. */
static const char *const declarator_tail[] = {
    "const", "noexcept", "override", "final", "volatile", "throw", "requires", "try",
    "mutable", "__attribute__", NULL,
};

/* The "{" at token i opens a function body (not a lambda's, not an initializer). */
static bool function_body(const char *s, const toks *ts, size_t i)
{
    const tok *t = ts->t;
    size_t k = i;
    while (k > 0 && is_one_of(s, ts, k - 1, declarator_tail))
        k--;
    if (k == 0 || t[k - 1].kind != ')' || t[k - 1].match < 0)
        return false;
    size_t open = (size_t)t[k - 1].match;
    if (open == 0)
        return false;
    char before = t[open - 1].kind;
    return before == 'i' || before == '>' || before == ')';
}

/* A statement macro used without ";" at token i (a statement starts there, or a statement
 * macro blanked just before): blank it when the next token starts another statement, or closes
 * a class or namespace body (in a function body, `CHECK(x) }` is only a missing ";", and the
 * call stays readable). in_function says whether the innermost "{" is a function body's.
 * Returns the index of its last token, or 0 when it is left. */
static size_t statement_macro(char *s, const toks *ts, size_t i, bool after_blanked,
                              bool in_function)
{
    const tok *t = ts->t;
    if (t[i].kind != 'i' || !macro_like(s, &t[i]))
        return 0;
    if (i > 0 && !after_blanked) {
        char p = t[i - 1].kind;
        if (!(p == ';' || p == '{' || p == '}' || (p == ':' && !t[i - 1].wide)))
            return 0;
    }
    size_t last = i;
    bool bare = true;
    if (i + 1 < ts->n && t[i + 1].kind == '(') {
        if (t[i + 1].match < 0)
            return 0;
        last = (size_t)t[i + 1].match;
        bare = false;
    } else if (i + 1 < ts->n && !t[i + 1].line_first) {
        return 0; /* a bare name must stand alone on its line */
    }
    size_t next = last + 1;
    bool closes = next >= ts->n || (t[next].kind == '}' && (bare || !in_function));
    if (!closes && (t[next].kind != 'i' || is_one_of(s, ts, next, declarator_tail)))
        return 0;
    blank(s, t[i].start, t[last].end);
    return last;
}

/* A function-defining macro at file level: `ENTRY(name, (int a, float* b), (a, b)) { ... }`.
 * Reads as `name (int a, float* b) { ... }`: the body parses as the function's. */
static void function_macro(char *s, const toks *ts, size_t i, bool in_function)
{
    const tok *t = ts->t;
    if (in_function || t[i].kind != 'i' || !macro_like(s, &t[i]) || i + 5 >= ts->n ||
        t[i + 1].kind != '(' || t[i + 1].match < 0 || t[i + 2].kind != 'i' ||
        t[i + 3].kind != ',' || t[i + 4].kind != '(' || t[i + 4].match < 0)
        return;
    size_t close = (size_t)t[i + 1].match, params_end = (size_t)t[i + 4].match;
    if (close + 1 >= ts->n || t[close + 1].kind != '{' || params_end >= close)
        return;
    if (i > 0 && !strchr(";{}", t[i - 1].kind))
        return;
    blank(s, t[i].start, t[i + 1].end);
    blank(s, t[i + 3].start, t[i + 3].end);
    blank(s, t[params_end].end, t[close].end);
}

/* Inline assembly: operands are `"constraint"(expression)`, but the grammar takes only a name
 * there (`"=v"(w[i])` fails); such an expression reads as one name of its length. */
static void asm_operands(char *s, const toks *ts, size_t i)
{
    const tok *t = ts->t;
    if (!is_word(s, ts, i, "asm") && !is_word(s, ts, i, "__asm__") && !is_word(s, ts, i, "__asm"))
        return;
    size_t k = i + 1;
    while (k < ts->n && (is_word(s, ts, k, "volatile") || is_word(s, ts, k, "__volatile__") ||
                         is_word(s, ts, k, "goto") || is_word(s, ts, k, "inline")))
        k++;
    if (k >= ts->n || t[k].kind != '(' || t[k].match < 0)
        return;
    size_t close = (size_t)t[k].match;
    if (k > 0 && t[i - 1].kind == ')' && close + 1 < ts->n && t[close + 1].kind == ';') {
        blank(s, t[i].start, t[close].end); /* an asm label on a declaration */
        return;
    }
    for (size_t a = k + 1; a + 2 < close; a++) {
        if (t[a].kind != 's' || t[a + 1].kind != '(' || t[a + 1].match < 0)
            continue;
        size_t e = (size_t)t[a + 1].match;
        if (e == a + 3 && t[a + 2].kind == 'i')
            continue;
        uint32_t from = t[a + 2].start, to = t[e - 1].end;
        if (e <= a + 2 || memchr(s + from, '\n', to - from))
            continue;
        for (uint32_t p = from; p < to; p++)
            if (!ident_char(s[p]))
                s[p] = '_';
        if (!ident_start(s[from]))
            s[from] = '_';
    }
}

/* `operator()<F16, float>(...)`: an explicit specialization's template arguments after the
 * operator name, which the grammar lacks; blanked, it reads as a plain `operator()`. */
static void operator_template_args(char *s, const toks *ts, size_t i)
{
    const tok *t = ts->t;
    if (!is_word(s, ts, i, "operator") || i + 3 >= ts->n || t[i + 1].kind != '(' ||
        t[i + 2].kind != ')' || t[i + 3].kind != '<')
        return;
    int depth = 0;
    for (size_t k = i + 3; k < ts->n && k < i + 200; k++) {
        if (t[k].kind == '<')
            depth++;
        else if (t[k].kind == '>' && --depth == 0) {
            if (k + 1 < ts->n && t[k + 1].kind == '(')
                blank(s, t[i + 3].start, t[k].end);
            return;
        } else if (t[k].kind == ';' || t[k].kind == '{' || t[k].kind == '(') {
            return;
        }
    }
}

/* A ";" inside parentheses that are not a `for`/`if`/`switch` header: a statement passed to a
 * macro (`DISPATCH(a, b, f(x););`). Blanked, the argument reads as an expression. open is the
 * index of the innermost open bracket around token i (or -1). */
static void semicolon_in_parens(char *s, const toks *ts, size_t i, long open)
{
    const tok *t = ts->t;
    if (t[i].kind != ';' || open < 0 || t[open].kind != '(')
        return;
    if (open > 0 && (is_word(s, ts, (size_t)open - 1, "for") || is_word(s, ts, (size_t)open - 1, "if") ||
                     is_word(s, ts, (size_t)open - 1, "switch")))
        return;
    s[t[i].start] = ' ';
}

/* The ";" right after the "}" of a function body at token i: blank it. */
static void stray_semicolon(char *s, const toks *ts, size_t i)
{
    const tok *t = ts->t;
    if (t[i].kind != '}' || t[i].match < 0 || i + 1 >= ts->n || t[i + 1].kind != ';')
        return;
    size_t open = (size_t)t[i].match;
    if (!function_body(s, ts, open))
        return;
    /* a lambda: "(" right after "]" */
    size_t k = open;
    while (k > 0 && is_one_of(s, ts, k - 1, declarator_tail))
        k--;
    size_t paren = (size_t)t[k - 1].match;
    if (paren > 0 && t[paren - 1].kind == ']')
        return;
    s[t[i + 1].start] = ' ';
}

/* `if MACRO(...)` / `else if constexpr MACRO(...)`: a macro that supplies the condition and the
 * body (C++ wants "(" right after `if`). Blank it with its `if` and `else`: the chain reads on. */
static void macro_if(char *s, const toks *ts, size_t i)
{
    const tok *t = ts->t;
    if (!is_word(s, ts, i, "if"))
        return;
    size_t k = i + 1;
    if (k < ts->n && is_word(s, ts, k, "constexpr"))
        k++;
    if (k + 1 >= ts->n || t[k].kind != 'i' || t[k + 1].kind != '(' || t[k + 1].match < 0 ||
        !macro_like(s, &t[k]))
        return;
    size_t from = i > 0 && is_word(s, ts, i - 1, "else") ? i - 1 : i;
    blank(s, t[from].start, t[t[k + 1].match].end);
}

void gaps_rewrite(char *s, size_t len)
{
    toks ts = {0};
    grow_array((void **)&ts.t, &ts.cap, len / 4 + 16, sizeof *ts.t); /* about a token per 4 bytes */
    tokenize(s, len, &ts);
    long *open = NULL; /* the innermost open bracket around each token */
    size_t nopen = 0, opencap = 0;
    for (size_t i = 0; i < ts.n; i++) {
        char k = ts.t[i].kind;
        if ((k == ')' || k == ']' || k == '}') && nopen)
            nopen--;
        /* each rule starts at one kind of token (and identifiers at one first byte) */
        switch (k) {
        case '=': default_braces(s, &ts, i); break;
        case '(': type_arguments(s, &ts, i); break;
        case '>': greater_equal(s, &ts, i); break;
        case '}': stray_semicolon(s, &ts, i); break;
        case ';': semicolon_in_parens(s, &ts, i, nopen ? open[nopen - 1] : -1); break;
        case 'i':
            switch (s[ts.t[i].start]) {
            case 'i': macro_if(s, &ts, i); break;
            case 'a':
            case '_': asm_operands(s, &ts, i); break;
            case 'o': operator_template_args(s, &ts, i); break;
            default: break;
            }
            break;
        default: break;
        }
        if (k == '(' || k == '[' || k == '{')
            *ARRAY_PUSH(open, nopen, opencap) = (long)i;
    }
    free(open);
    /* last: blanking a macro changes what the rules above look back at */
    /* the kinds of the open braces: whether each is a function body's */
    bool *fn_stack = NULL;
    size_t depth = 0, cap = 0;
    bool after_blanked = false;
    for (size_t i = 0; i < ts.n; i++) {
        if (ts.t[i].kind == '{') {
            *ARRAY_PUSH(fn_stack, depth, cap) = function_body(s, &ts, i);
            after_blanked = false;
            continue;
        }
        if (ts.t[i].kind == '}' && depth)
            depth--;
        if (ts.t[i].kind != 'i' || !macro_like(s, &ts.t[i])) {
            after_blanked = false;
            continue;
        }
        function_macro(s, &ts, i, depth && fn_stack[depth - 1]);
        size_t last = statement_macro(s, &ts, i, after_blanked, depth && fn_stack[depth - 1]);
        after_blanked = last > 0;
        if (last)
            i = last;
    }
    free(fn_stack);
    free(ts.t);
}
