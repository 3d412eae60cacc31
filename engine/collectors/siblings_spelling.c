/* Spellings of the same code, for the sibling-drift collector: a rewrite that only spells a
 * unit another way is not a fix a variant could lack. Five kinds are read as equal:
 * - a floating-point literal written another way: `0.25` / `0.25f` / `.25f`, `1e-6` / `1.0e-6`
 *   (the same value; integer literals are left alone, `1` / `1.0` or `1` / `1ll` change the
 *   arithmetic);
 * - an MLIR type built through its class or through FlyDSL's `T` alias: `ir.IndexType.get()` /
 *   `T.index`, `ir.F32Type.get()` / `T.f32`, `IntegerType.get_signless(32)` / `T.i32`;
 * - trailing arguments written out where the call used to leave them to their defaults, when
 *   every argument added is a zero literal (`0`, `false`, `nullptr`, `NULL`, `{}`; Python
 *   `None`, `False`, `0`). The call compiled without them, so the callee declares defaults
 *   there, and a trailing flag, auxiliary word or optional pointer defaults to zero; an
 *   argument other than zero (`1`, `true`, a name) is a choice and stays a rewrite;
 * - a trailing comma before a closing bracket that already separates two items (`f(a, b,)` /
 *   `f(a, b)`, what a formatter adds when it splits a call one argument per line); `(a,)`,
 *   a one-item tuple, keeps its comma;
 * - a statement only wrapped another way (a call joined onto one line, or split over
 *   several): its first line and its argument lines change, the statement does not;
 * - an index cast written through FlyDSL's constructors: `arith.index_cast(T.i64, x)` /
 *   `fx.Int64(x)` / `fx.Int64(x).ir_value()` (and `Int32`, `Index`), the migration aiter's
 *   FlyDSL kernels went through;
 * - a Python keyword argument moved into a dict the call now splats: `BLOCK_M=BLOCK_M,` /
 *   `"BLOCK_M": BLOCK_M,` in `kw = {...}` then `k[grid](*args, **kw)`, the same name bound
 *   to the same value.
 * The first two, the fourth and the sixth are folded into a unit's key when it is cut
 * (siblings_units.c); the third, the fifth and the seventh are asked of a lost unit against
 * its function in the head. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/util.h"

/* --- floating-point literals ------------------------------------------------------------- */

/* The end of a floating-point literal starting at s (a digit, or '.' then a digit), or NULL
 * when the number there is an integer, hexadecimal or runs into a name. */
static const char *float_end(const char *s)
{
    const char *p = s;
    bool frac = false, expo = false;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return NULL;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p == '.') {
        frac = true;
        p++;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if ((*p == 'e' || *p == 'E') &&
        (isdigit((unsigned char)p[1]) || ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
        expo = true;
        p += 2;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'f' || *p == 'F' || *p == 'l' || *p == 'L')
        p++;
    if (!(frac || expo) || str_ident_char(*p) || *p == '.')
        return NULL;
    return p;
}

/* The shortest decimal spelling of v that reads back as v, always with a '.' or an exponent
 * (so it never equals an integer literal). */
static void float_spelling(double v, char *out, size_t cap)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, cap, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            break;
    }
    if (!strpbrk(out, ".enEN") && strlen(out) + 3 < cap)
        strcat(out, ".0");
}

/* flat with every floating-point literal in one spelling, into sb. */
static void fold_floats(const char *flat, strbuf *sb)
{
    for (const char *p = flat; *p;) {
        bool starts = isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]));
        bool after_name = p > flat && (str_ident_char(p[-1]) || p[-1] == ')' || p[-1] == ']');
        if (str_ident_char(*p) && !isdigit((unsigned char)*p)) {
            while (str_ident_char(*p))
                sb_addc(sb, *p++);
            continue;
        }
        const char *e = starts && !after_name ? float_end(p) : NULL;
        if (!e) {
            if (isdigit((unsigned char)*p))
                while (str_ident_char(*p))
                    sb_addc(sb, *p++); /* an integer or a hex literal, whole */
            else
                sb_addc(sb, *p++);
            continue;
        }
        char num[64], spelled[40];
        size_t n = (size_t)(e - p) < sizeof num ? (size_t)(e - p) : sizeof num - 1;
        memcpy(num, p, n);
        num[n] = '\0';
        float_spelling(strtod(num, NULL), spelled, sizeof spelled);
        sb_adds(sb, spelled);
        p = e;
    }
}

/* --- MLIR type spellings ------------------------------------------------------------------ */

typedef struct type_alias {
    const char *cls; /* the class form, without its `ir.` qualifier */
    const char *alias;
} type_alias;

static const type_alias TYPE_ALIASES[] = {
    {"IndexType.get()", "T.index"},
    {"F16Type.get()", "T.f16"},
    {"BF16Type.get()", "T.bf16"},
    {"F32Type.get()", "T.f32"},
    {"F64Type.get()", "T.f64"},
    {"IntegerType.get_signless(8)", "T.i8"},
    {"IntegerType.get_signless(16)", "T.i16"},
    {"IntegerType.get_signless(32)", "T.i32"},
    {"IntegerType.get_signless(64)", "T.i64"},
    {NULL, NULL},
};

/* key (no white space) with the class forms of TYPE_ALIASES, bare or qualified `ir.`, written
 * as their alias; a new string. */
static char *fold_types(const char *key)
{
    if (!strstr(key, "Type.get")) /* every class form spells it: most keys have none */
        return xstrdup(key);
    strbuf sb;
    sb_init(&sb);
    for (const char *p = key; *p;) {
        bool matched = false;
        if (p == key || (!str_ident_char(p[-1]) && p[-1] != '.')) {
            const char *q = str_starts(p, "ir.") ? p + 3 : p;
            for (int i = 0; TYPE_ALIASES[i].cls && !matched; i++)
                if (str_starts(q, TYPE_ALIASES[i].cls)) {
                    sb_adds(&sb, TYPE_ALIASES[i].alias);
                    p = q + strlen(TYPE_ALIASES[i].cls);
                    matched = true;
                }
        }
        if (!matched)
            sb_addc(&sb, *p++);
    }
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* --- FlyDSL casts ----------------------------------------------------------------------------- */

typedef struct cast_alias {
    const char *arith; /* `arith.index_cast(` and its target type, as keyed */
    const char *fx;    /* the FlyDSL constructor that casts the same way */
} cast_alias;

static const cast_alias CAST_ALIASES[] = {
    {"arith.index_cast(T.i64,", "fx.Int64("},
    {"arith.index_cast(T.i32,", "fx.Int32("},
    {"arith.index_cast(T.index,", "fx.Index("},
    {NULL, NULL},
};

#define CAST_DEPTH_MAX 64

/* key (no white space, types already folded) with `arith.index_cast(T.i64, x)` written as
 * FlyDSL's `fx.Int64(x)` (and `T.i32` / `Int32`, `T.index` / `Index`), and the `.ir_value()`
 * taken of such a cast dropped (the raw MLIR value and the DSL value stand for the same
 * cast); a new string. */
static char *fold_casts(const char *key)
{
    if (!strstr(key, "arith.index_cast(") && !strstr(key, ".ir_value()"))
        return xstrdup(key);
    strbuf sb;
    sb_init(&sb);
    bool cast_at[CAST_DEPTH_MAX] = {false}; /* which open brackets are a cast's */
    int depth = 0;
    for (const char *p = key; *p;) {
        bool boundary = p == key || (!str_ident_char(p[-1]) && p[-1] != '.');
        bool matched = false;
        for (int i = 0; boundary && CAST_ALIASES[i].arith && !matched; i++)
            if (str_starts(p, CAST_ALIASES[i].arith)) {
                sb_adds(&sb, CAST_ALIASES[i].fx);
                p += strlen(CAST_ALIASES[i].arith);
                matched = true;
            }
        if (!matched && boundary &&
            (str_starts(p, "fx.Int64(") || str_starts(p, "fx.Int32(") || str_starts(p, "fx.Index("))) {
            size_t n = strlen("fx.Int64(");
            sb_add(&sb, p, n);
            p += n;
            matched = true;
        }
        if (matched) {
            if (depth < CAST_DEPTH_MAX)
                cast_at[depth] = true;
            depth++;
            continue;
        }
        if (*p == '(' || *p == '[' || *p == '{') {
            if (depth < CAST_DEPTH_MAX)
                cast_at[depth] = false;
            depth++;
        } else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0) {
            depth--;
            if (depth < CAST_DEPTH_MAX && cast_at[depth] && str_starts(p + 1, ".ir_value()")) {
                sb_addc(&sb, *p);
                p += 1 + strlen(".ir_value()");
                continue;
            }
        }
        sb_addc(&sb, *p++);
    }
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* --- trailing commas ------------------------------------------------------------------------ */

#define COMMA_DEPTH_MAX 64 /* brackets nested deeper keep their trailing commas */

/* key (no white space) without the trailing commas that follow another comma of the same
 * bracket (`(a,b,)` to `(a,b)`, `(a,)` kept), into sb. Unbalanced closers are copied. */
static void drop_trailing_commas(const char *key, strbuf *sb)
{
    int commas[COMMA_DEPTH_MAX];
    int depth = 0;
    for (const char *p = key; *p; p++) {
        if (*p == '(' || *p == '[' || *p == '{') {
            if (depth < COMMA_DEPTH_MAX)
                commas[depth] = 0;
            depth++;
        } else if (*p == ')' || *p == ']' || *p == '}') {
            depth -= depth > 0;
        } else if (*p == ',' && depth > 0 && depth <= COMMA_DEPTH_MAX) {
            bool closes = p[1] == ')' || p[1] == ']' || p[1] == '}';
            if (closes && commas[depth - 1] > 0)
                continue;
            commas[depth - 1]++;
        }
        sb_addc(sb, *p);
    }
}

char *sib_canonical_key(const char *flat)
{
    strbuf folded;
    sb_init(&folded);
    fold_floats(flat, &folded);
    strbuf spaceless;
    sb_init(&spaceless);
    for (const char *p = folded.buf ? folded.buf : ""; *p; p++)
        if (*p != ' ')
            sb_addc(&spaceless, *p);
    strbuf key;
    sb_init(&key);
    drop_trailing_commas(spaceless.buf ? spaceless.buf : "", &key);
    sb_free(&spaceless);
    sb_free(&folded);
    char *bare = key.buf ? sb_detach(&key) : xstrdup("");
    char *typed = fold_types(bare);
    free(bare);
    char *out = fold_casts(typed);
    free(typed);
    return out;
}

/* --- default arguments written out --------------------------------------------------------- */

/* The length of a zero literal argument at s (`,` already read) ending right before a `,`, a
 * `)` or a `>`, else 0. Python also takes `name=None` and the like. */
static size_t zero_arg(const char *s, syn_lang lang)
{
    static const char *const cpp[] = {"0", "false", "nullptr", "NULL", "{}", NULL};
    static const char *const py[] = {"None", "False", "0", NULL};
    const char *v = s;
    if (lang == SYN_PYTHON) {
        const char *q = s;
        while (str_ident_char(*q))
            q++;
        if (q > s && *q == '=' && q[1] != '=')
            v = q + 1;
    }
    const char *const *lits = lang == SYN_PYTHON ? py : cpp;
    for (int i = 0; lits[i]; i++) {
        size_t n = strlen(lits[i]);
        if (strncmp(v, lits[i], n) == 0 && (v[n] == ',' || v[n] == ')' || v[n] == '>'))
            return (size_t)(v - s) + n;
    }
    return 0;
}

bool sib_defaults_written(const char *before, const char *after, syn_lang lang)
{
    const char *a = before, *b = after;
    bool any = false;
    while (*a || *b) {
        if (*a == *b) {
            a++;
            b++;
            continue;
        }
        /* b appends `,0` (one or more) where a closes an argument list */
        if (*b != ',' || (*a != ')' && *a != '>') || a == before || a[-1] == '(' || a[-1] == '<')
            return false;
        while (*b == ',' && *b != *a) {
            size_t n = zero_arg(b + 1, lang);
            if (n == 0)
                return false;
            b += 1 + n;
        }
        if (*b != *a)
            return false;
        any = true;
    }
    return any;
}

bool sib_respelled(const sib_unit *u, const sib_unit_list *after, const bool *after_touched, syn_lang lang)
{
    for (size_t i = 0; i < after->n; i++)
        if (after_touched[i] && after->items[i].kind == u->kind &&
            sib_defaults_written(u->key, after->items[i].key, lang))
            return true;
    return false;
}

/* --- statements wrapped another way --------------------------------------------------------- */

/* The statement of l holding u (a first line or an argument line): the innermost SIB_STMT
 * whose own code spans u's lines. NULL when none does. */
static const sib_unit *holding_statement(const sib_unit *u, const sib_unit_list *l)
{
    const sib_unit *best = NULL;
    for (size_t i = 0; i < l->n; i++) {
        const sib_unit *s = &l->items[i];
        if (s->kind == SIB_STMT && s->line <= u->line && s->end_line >= u->end_line &&
            (!best || s->end_line - s->line < best->end_line - best->line))
            best = s;
    }
    return best;
}

/* How many units of l are statements of this key. */
static int statements_keyed(const sib_unit_list *l, const char *key)
{
    int n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += l->items[i].kind == SIB_STMT && strcmp(l->items[i].key, key) == 0;
    return n;
}

bool sib_rewrapped(const sib_unit *u, const sib_unit_list *before, const sib_unit_list *after)
{
    if (u->kind != SIB_HEAD && u->kind != SIB_ARG)
        return false;
    const sib_unit *s = holding_statement(u, before);
    return s && statements_keyed(after, s->key) >= statements_keyed(before, s->key);
}

/* --- keyword arguments moved into a dict ------------------------------------------------------ */

char *sib_text_key(const char *text, size_t len)
{
    char *flat = xstrndup(text, len);
    for (char *p = flat; *p; p++)
        if (isspace((unsigned char)*p))
            *p = ' ';
    char *key = sib_canonical_key(flat);
    free(flat);
    return key;
}

/* True when entry (`"NAME":value`, keyed) occurs in text (keyed lines) as one entry of a dict:
 * after `{` or `,`, before `,` or `}`, its key quoted with either quote. */
static bool has_entry(const char *text, const char *name, const char *value)
{
    for (int q = 0; q < 2; q++) {
        char *entry = xasprintf("%c%s%c:%s", q ? '\'' : '"', name, q ? '\'' : '"', value);
        size_t n = strlen(entry);
        bool found = false;
        for (const char *p = strstr(text, entry); p && !found; p = strstr(p + 1, entry)) {
            char before = p == text ? '\n' : p[-1], after = p[n];
            found = (before == '{' || before == ',' || before == '\n') &&
                    (after == ',' || after == '}' || after == '\n' || after == '\0');
        }
        free(entry);
        if (found)
            return true;
    }
    return false;
}

bool sib_kwarg_into_dict(const sib_unit *u, const change_file *f, int first, int last, syn_lang lang)
{
    if (lang != SYN_PYTHON || u->kind != SIB_ARG || !u->shown)
        return false;
    const char *p = u->shown;
    size_t nlen = 0;
    while (str_ident_char(p[nlen]))
        nlen++;
    if (nlen == 0 || isdigit((unsigned char)p[0]))
        return false;
    const char *eq = p + nlen;
    while (*eq == ' ')
        eq++;
    if (eq[0] != '=' || eq[1] == '=')
        return false;
    char *name = xstrndup(p, nlen);
    char *value = sib_text_key(eq + 1, strlen(eq + 1));
    size_t vl = strlen(value);
    if (vl > 0 && value[vl - 1] == ',')
        value[--vl] = '\0';
    strbuf added;
    sb_init(&added);
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind != '+' || l->new_no < first || l->new_no > last)
            continue;
        char *sq = sib_text_key(l->text, l->len);
        sb_adds(&added, sq);
        sb_addc(&added, '\n');
        free(sq);
    }
    bool moved = vl > 0 && added.len > 0 && has_entry(added.buf, name, value);
    sb_free(&added);
    free(name);
    free(value);
    return moved;
}
