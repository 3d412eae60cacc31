/* Decoration macros and HIP syntax, for the syntax layer. The C++ grammar does not know HIP's
 * declaration words (`__global__`, `__device__`, `__launch_bounds__(n)`, ...) nor the macros a
 * project builds from them (`#define OPUS_D __device__ __forceinline__`,
 * `#define LDS_ADDR __attribute__((address_space(3)))`, `#define LB(n) __launch_bounds__(n)`):
 * in front of a declaration they read as a type name and the rest of the declaration becomes an
 * ERROR. They only decorate, so the parser is given a copy with them blanked to spaces (same
 * length, newlines kept), as the preprocessor would leave the declaration minus attributes.
 *
 * A macro counts as a decoration when every definition of it expands to qualifiers and
 * attributes only: HIP words, `inline`/`static`/`constexpr`-like specifiers, `__attribute__`,
 * `__declspec`, `alignas`, `__launch_bounds__` with their argument lists, `[[...]]`, other
 * decoration macros, or nothing at all. Learning is lexical (preprocessor lines only) and runs
 * over the file itself and over the first-party headers it includes (syntax_headers.c). */
#include <stdlib.h>
#include <string.h>

#include "engine/syntax_internal.h"
#include "engine/util.h"

#define GROUP_LIMIT 1024

typedef struct deco_entry {
    char *name;
    bool fnlike;
    bool dead;               /* removed (open addressing keeps the slot) */
} deco_entry;

struct deco_set {
    deco_entry *slots;
    size_t cap, used;        /* cap is a power of two; used counts live and dead slots */
    uint64_t lengths[128];   /* per first byte, a bit per name length (mod 64) ever added: most
                                identifiers are rejected without hashing */
};

/* HIP/CUDA and ck_tile decoration words the C++ grammar does not know. */
static const char *const hip_words[] = {
    "__global__", "__device__", "__host__", "__forceinline__", "__noinline__", "__shared__",
    "__constant__", "__managed__", "__inline__", "CK_TILE_DEVICE", "CK_TILE_HOST",
    "CK_TILE_HOST_DEVICE", "CK_TILE_HOST_DEVICE_EXTERN", "__volatile__", NULL,
};
/* Decorations blanked with their argument list wherever they stand: attributes the grammar
 * reads in some places but not in a type (`using f4 = float __attribute__((ext_vector_type(4)))`),
 * HIP's __align__(n) and the argument of C23's _BitInt(n) (the name stays, as a type). */
static const char *const blanked_groups[] = {
    "__launch_bounds__", "__attribute__", "__align__", NULL,
};
/* Specifiers the grammar knows that may sit in a decoration macro's body. */
static const char *const specifiers[] = {
    "inline", "static", "constexpr", "consteval", "constinit", "extern", "__inline", "__inline__",
    "__forceinline", "thread_local", "__thread", "explicit", "__restrict__", "__extension__", NULL,
};
/* Words that decorate only together with their parenthesized argument list. */
static const char *const group_words[] = {
    "__launch_bounds__", "__attribute__", "__declspec", "alignas", "_Alignas", NULL,
};

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* True when w[0..n) is one of list. */
static bool word_in(const char *const *list, const char *w, size_t n)
{
    for (int i = 0; list[i]; i++)
        if (list[i][0] == w[0] && strlen(list[i]) == n && memcmp(list[i], w, n) == 0)
            return true;
    return false;
}

/* --- the set ------------------------------------------------------------------------------ */

deco_set *deco_new(void)
{
    deco_set *s = xcalloc(1, sizeof *s);
    s->cap = 64;
    s->slots = xcalloc(s->cap, sizeof *s->slots);
    return s;
}

void deco_free(deco_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->cap; i++)
        free(s->slots[i].name);
    free(s->slots);
    free(s);
}

/* The slot holding name, or the free slot where it would go. */
static deco_entry *slot_of(const deco_set *s, const char *name, size_t n)
{
    size_t i = (size_t)hash_bytes(name, n) & (s->cap - 1);
    for (;; i = (i + 1) & (s->cap - 1)) {
        deco_entry *e = &s->slots[i];
        if (!e->name || (strlen(e->name) == n && memcmp(e->name, name, n) == 0))
            return e;
    }
}

bool deco_has(const deco_set *s, const char *name, size_t n, bool *fnlike)
{
    if (!s || n == 0 || (unsigned char)name[0] >= 128 ||
        !(s->lengths[(unsigned char)name[0]] & (1ull << (n & 63))))
        return false;
    const deco_entry *e = slot_of(s, name, n);
    if (!e->name || e->dead)
        return false;
    if (fnlike)
        *fnlike = e->fnlike;
    return true;
}

/* Double the table. */
static void grow(deco_set *s)
{
    deco_entry *old = s->slots;
    size_t oldcap = s->cap;
    s->cap *= 2;
    s->slots = xcalloc(s->cap, sizeof *s->slots);
    s->used = 0;
    for (size_t i = 0; i < oldcap; i++) {
        if (old[i].name && !old[i].dead) {
            *slot_of(s, old[i].name, strlen(old[i].name)) = old[i];
            s->used++;
        } else {
            free(old[i].name);
        }
    }
    free(old);
}

void deco_add(deco_set *s, const char *name, size_t n, bool fnlike)
{
    if ((s->used + 1) * 2 > s->cap)
        grow(s);
    deco_entry *e = slot_of(s, name, n);
    if (!e->name) {
        e->name = xstrndup(name, n);
        s->used++;
    }
    e->dead = false;
    e->fnlike = fnlike;
    if (n && (unsigned char)name[0] < 128)
        s->lengths[(unsigned char)name[0]] |= 1ull << (n & 63);
}

/* Remove name from the set (a later definition that is not a decoration). */
static void deco_remove(deco_set *s, const char *name, size_t n)
{
    deco_entry *e = slot_of(s, name, n);
    if (e->name)
        e->dead = true;
}

void deco_add_list(deco_set *s, const char *list)
{
    for (const char *p = list ? list : ""; *p;) {
        while (*p == ' ')
            p++;
        const char *w = p;
        while (is_ident_char(*p))
            p++;
        if (p > w)
            deco_add(s, w, (size_t)(p - w), *p == '(');
        while (*p && *p != ' ')
            p++;
    }
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *deco_list(const deco_set *s)
{
    char **names = xcalloc(s->cap, sizeof *names);
    size_t n = 0;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i].name && !s->slots[i].dead)
            names[n++] = s->slots[i].fnlike ? xasprintf("%s(", s->slots[i].name)
                                            : xstrdup(s->slots[i].name);
    qsort(names, n, sizeof *names, str_cmp);
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_addc(&sb, ' ');
        sb_adds(&sb, names[i]);
        free(names[i]);
    }
    free(names);
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* --- lexing helpers ------------------------------------------------------------------------- */

/* Length of a balanced (...) group starting at s[i] == '(' (strings and char literals inside
 * understood), or 0 when it does not close within limit bytes or reaches a ';' or '{' first. */
static size_t paren_group(const char *s, size_t i, size_t len, size_t limit)
{
    int depth = 0;
    char quote = 0;
    for (size_t j = i; j < len && j - i < limit; j++) {
        char c = s[j];
        if (quote) {
            if (c == '\\')
                j++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '(') {
            depth++;
        } else if (c == ')' && --depth == 0) {
            return j - i + 1;
        } else if (c == ';' || c == '{') {
            return 0;
        }
    }
    return 0;
}

/* Index after the spaces and tabs from i. */
static size_t skip_blank(const char *s, size_t len, size_t i)
{
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

/* --- learning ------------------------------------------------------------------------------- */

/* True when body[0..n) (a #define's replacement, comments already blanked) expands to
 * decorations only, given the set known. */
static bool body_is_decoration(const char *b, size_t n, const deco_set *known)
{
    for (size_t i = 0; i < n;) {
        char c = b[i];
        if (c == ' ' || c == '\t' || c == '\\' || c == '\n' || c == '\r') {
            i++;
        } else if (c == '[' && i + 1 < n && b[i + 1] == '[') {
            const char *close = NULL;
            for (size_t j = i + 2; j + 1 < n; j++)
                if (b[j] == ']' && b[j + 1] == ']') {
                    close = b + j;
                    break;
                }
            if (!close)
                return false;
            i = (size_t)(close - b) + 2;
        } else if (is_ident_start(c)) {
            size_t e = i;
            while (e < n && is_ident_char(b[e]))
                e++;
            size_t q = skip_blank(b, n, e);
            if (e - i == 6 && memcmp(b + i, "extern", 6) == 0 && q + 3 <= n &&
                memcmp(b + q, "\"C\"", 3) == 0) {
                i = q + 3; /* extern "C": linkage, no more than a decoration to a reader */
                continue;
            }
            bool fn = false, known_word = deco_has(known, b + i, e - i, &fn);
            bool needs_group = word_in(group_words, b + i, e - i) || (known_word && fn);
            if (!needs_group && !(known_word || word_in(hip_words, b + i, e - i) ||
                                  word_in(specifiers, b + i, e - i)))
                return false;
            i = e;
            if (needs_group) {
                size_t k = skip_blank(b, n, i);
                size_t g = k < n && b[k] == '(' ? paren_group(b, k, n, n) : 0;
                if (!g)
                    return false;
                i = k + g;
            }
        } else {
            return false;
        }
    }
    return true;
}

/* One #define of a text. */
typedef struct define {
    const char *name;
    size_t name_len;
    bool fnlike;
    char *body;              /* its replacement, comments blanked, continuations kept */
    size_t body_len;
    bool deco;
} define;

/* Read the #define on the logical line [start, end) of s into d; false when it is not one. */
static bool read_define(const char *s, size_t start, size_t end, define *d)
{
    size_t i = skip_blank(s, end, start);
    if (i >= end || s[i] != '#')
        return false;
    i = skip_blank(s, end, i + 1);
    if (end - i < 6 || memcmp(s + i, "define", 6) != 0 || (i + 6 < end && is_ident_char(s[i + 6])))
        return false;
    i = skip_blank(s, end, i + 6);
    size_t w = i;
    while (i < end && is_ident_char(s[i]))
        i++;
    if (i == w || !is_ident_start(s[w]))
        return false;
    *d = (define){.name = s + w, .name_len = i - w, .fnlike = i < end && s[i] == '('};
    if (d->fnlike) {
        while (i < end && s[i] != ')')
            i++;
        if (i == end)
            return false;
        i++;
    }
    d->body = xstrndup(s + i, end - i);
    d->body_len = end - i;
    /* blank the comments of the body */
    bool in_comment = false;
    for (size_t k = 0; k < d->body_len; k++) {
        if (!in_comment && d->body[k] == '/' && k + 1 < d->body_len && d->body[k + 1] == '/') {
            memset(d->body + k, ' ', d->body_len - k);
            break;
        }
        if (!in_comment && d->body[k] == '/' && k + 1 < d->body_len && d->body[k + 1] == '*')
            in_comment = true;
        if (in_comment) {
            bool closes = d->body[k] == '*' && k + 1 < d->body_len && d->body[k + 1] == '/';
            d->body[k] = ' ';
            if (closes) {
                d->body[++k] = ' ';
                in_comment = false;
            }
        }
    }
    return true;
}

/* The #defines of a text, in order. */
static define *read_defines(const char *s, size_t len, size_t *n)
{
    define *defs = NULL;
    size_t cap = 0, i = 0, start, end;
    bool in_comment = false;
    *n = 0;
    while (pp_next_directive(s, len, &i, &in_comment, &start, &end)) {
        define d;
        if (read_define(s, start, end, &d))
            *ARRAY_PUSH(defs, *n, cap) = d;
    }
    return defs;
}

char *deco_defines_text(const char *text, size_t len, size_t *out_len)
{
    strbuf sb;
    sb_init(&sb);
    size_t i = 0, start, end;
    bool in_comment = false;
    define d;
    while (pp_next_directive(text, len, &i, &in_comment, &start, &end))
        if (read_define(text, start, end, &d)) {
            free(d.body);
            sb_add(&sb, text + start, end - start);
            sb_addc(&sb, '\n');
        }
    *out_len = sb.len;
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

void deco_learn(deco_set *known, const char *text, size_t len)
{
    size_t n;
    define *defs = read_defines(text, len, &n);
    /* names this text defines are its own: forget what headers said of them */
    for (size_t i = 0; i < n; i++)
        deco_remove(known, defs[i].name, defs[i].name_len);
    /* a decoration may be built of decorations defined further down: iterate to a fixpoint */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < n; i++) {
            if (defs[i].deco || !body_is_decoration(defs[i].body, defs[i].body_len, known))
                continue;
            defs[i].deco = changed = true;
            deco_add(known, defs[i].name, defs[i].name_len, defs[i].fnlike);
        }
    }
    /* every definition of a name must decorate only */
    for (size_t i = 0; i < n; i++)
        if (!defs[i].deco)
            deco_remove(known, defs[i].name, defs[i].name_len);
    for (size_t i = 0; i < n; i++)
        free(defs[i].body);
    free(defs);
}

/* --- masking -------------------------------------------------------------------------------- */

/* Blank n bytes at p, keeping newlines so line numbers hold. */
static void blank(char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != '\n' && p[i] != '\r')
            p[i] = ' ';
}

/* At s[i] == '<' starting "<<<": blank a launch configuration <<<...>>> followed by "(".
 * Returns the index to continue from. */
static size_t mask_launch(char *s, size_t len, size_t i)
{
    for (size_t j = i + 3; j + 2 < len && j - i < 1024; j++) {
        if (s[j] == ';' || s[j] == '{' || s[j] == '}')
            break;
        if (s[j] == '>' && s[j + 1] == '>' && s[j + 2] == '>') {
            size_t k = j + 3;
            while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r'))
                k++;
            if (k < len && s[k] == '(') {
                blank(s + i, j + 3 - i);
                return j + 3;
            }
            break;
        }
    }
    return i + 3;
}

/* At an identifier s[i..e): blank it (and its argument list) when it decorates. Returns the
 * index to continue from. */
static size_t mask_word(char *s, size_t len, size_t i, size_t e, const deco_set *set)
{
    bool fn = false;
    if (e - i == 7 && memcmp(s + i, "_BitInt", 7) == 0) {
        size_t k = skip_blank(s, len, e);
        size_t g = k < len && s[k] == '(' ? paren_group(s, k, len, 64) : 0;
        if (g)
            blank(s + k, g);
        return k + g > e ? k + g : e;
    }
    /* the built-in words all start with '_' or 'C' */
    bool builtin_start = s[i] == '_' || s[i] == 'C';
    if (deco_has(set, s + i, e - i, &fn)) {
    } else if (builtin_start && word_in(hip_words, s + i, e - i)) {
        fn = false;
    } else if (builtin_start && word_in(blanked_groups, s + i, e - i)) {
        fn = true;
    } else {
        return e;
    }
    size_t end = e;
    if (fn) {
        size_t k = skip_blank(s, len, e);
        size_t g = k < len && s[k] == '(' ? paren_group(s, k, len, GROUP_LIMIT) : 0;
        if (!g)
            return e; /* a function-like macro named without arguments is not invoked */
        end = k + g;
    }
    blank(s + i, end - i);
    return end;
}

/* A preprocessor line at s[i] == '#' (its continuations too) is left as written, except its
 * block comments: the grammar's #define value stops at a `/ *`, leaving the rest an ERROR.
 * Returns the index of the line's end. */
static size_t mask_directive(char *s, size_t len, size_t i)
{
    char quote = 0;
    for (; i < len; i++) {
        char c = s[i];
        if (c == '\n' && !(s[i - 1] == '\\' || (s[i - 1] == '\r' && i > 1 && s[i - 2] == '\\')))
            break;
        if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || (c == '\'' && !(s[i - 1] >= '0' && s[i - 1] <= '9'))) {
            quote = c;
        } else if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i + 1 < len && s[i + 1] != '\n')
                i++;
        } else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            const char *close = memmem(s + i + 2, len - i - 2, "*/", 2);
            size_t e = close ? (size_t)(close - s) + 2 : len;
            bool one_line = true;
            for (size_t k = i; k < e && one_line; k++)
                if (s[k] == '\n' && !(s[k - 1] == '\\' || (s[k - 1] == '\r' && s[k - 2] == '\\')))
                    one_line = false;
            if (!close || !one_line)
                return e; /* a comment running past the directive: leave it */
            blank(s + i, e - i);
            i = e - 1;
        }
    }
    return i;
}

void deco_mask(char *s, size_t len, const deco_set *set)
{
    bool line_start = true;
    for (size_t i = 0; i < len;) {
        char c = s[i];
        if (c == '\n') {
            line_start = true;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if (line_start && c == '#') {
            i = mask_directive(s, len, i);
        } else {
            line_start = false;
            if (c == '/' && i + 1 < len && s[i + 1] == '/') {
                while (i < len && s[i] != '\n')
                    i++;
            } else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
                const char *close = len - i > 2 ? memmem(s + i + 2, len - i - 2, "*/", 2) : NULL;
                i = close ? (size_t)(close - s) + 2 : len;
            } else if (c == '"' || (c == '\'' && !(i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'))) {
                for (i++; i < len && s[i] != c && s[i] != '\n'; i++)
                    if (s[i] == '\\')
                        i++;
                i++;
            } else if (c == '<' && i + 2 < len && s[i + 1] == '<' && s[i + 2] == '<') {
                i = mask_launch(s, len, i);
            } else if (is_ident_start(c)) {
                size_t e = i;
                while (e < len && is_ident_char(s[e]))
                    e++;
                i = mask_word(s, len, i, e, set);
            } else {
                i++;
            }
        }
    }
}
