/* Spellings of the same code, for the sibling-drift collector: a rewrite that only spells a
 * unit another way is not a fix a variant could lack. Three kinds are read as equal:
 * - a floating-point literal written another way: `0.25` / `0.25f` / `.25f`, `1e-6` / `1.0e-6`
 *   (the same value; integer literals are left alone, `1` / `1.0` or `1` / `1ll` change the
 *   arithmetic);
 * - an MLIR type built through its class or through FlyDSL's `T` alias: `ir.IndexType.get()` /
 *   `T.index`, `ir.F32Type.get()` / `T.f32`, `IntegerType.get_signless(32)` / `T.i32`;
 * - trailing arguments written out where the call used to leave them to their defaults, when
 *   every argument added is a zero literal (`0`, `false`, `nullptr`, `NULL`, `{}`; Python
 *   `None`, `False`, `0`). The call compiled without them, so the callee declares defaults
 *   there, and a trailing flag, auxiliary word or optional pointer defaults to zero; an
 *   argument other than zero (`1`, `true`, a name) is a choice and stays a rewrite.
 * The first two are folded into a unit's key when it is cut (siblings_units.c); the third is
 * asked of a lost unit against the edited units of its function. */
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

char *sib_canonical_key(const char *flat)
{
    strbuf folded;
    sb_init(&folded);
    fold_floats(flat, &folded);
    strbuf key;
    sb_init(&key);
    for (const char *p = folded.buf ? folded.buf : ""; *p; p++)
        if (*p != ' ')
            sb_addc(&key, *p);
    sb_free(&folded);
    char *bare = key.buf ? sb_detach(&key) : xstrdup("");
    char *out = fold_types(bare);
    free(bare);
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
