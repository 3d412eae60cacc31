/* Sorting one deleted guard, for the removed-guards collector (rules D4 and B7), and its
 * finding. In order:
 *   kept      the same check is added back where it was (reworded, re-indented, macro renamed,
 *             conjuncts reordered, a literal named): silent;
 *   moved     the same check is added elsewhere, or inside a helper the change adds that the
 *             guard's function now calls: a hint that says where;
 *   path gone the function that held it is deleted with it: silent, counted in the status;
 *   dropped   a zero-init or .contiguous() whose buffer is gone: silent, counted;
 *   swapped   a zero-init that became an empty allocation: D4, a warning when a comment
 *             required the zeros, a hint when the change says why empty is safe;
 *   changed   an added check on the same subject: B7 when it got stricter, else D4;
 *   gone      nothing replaces it: D4.
 * A changed or gone guard whose invariant is still checked on the same path (see
 * guards_find_enforcement) drops to a hint. Every finding shows the deletion as a small diff
 * titled with the function the guard was in: the deleted line, and the line that took its
 * place (its new form, the empty allocation, or the guard at its new place when it moved,
 * so a move shows both places). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/guards.h"
#include "engine/suppress.h" /* text_line_at */

#define ZERO_NEAR 8
#define KEPT_NEAR 3

/* The line that took a deleted guard's place, for its diff: where it is and its text. */
typedef struct gplus {
    const gfile *gf;
    int line;
    char *text;          /* owned; NULL: nothing took its place */
} gplus;

/* Record what took the deleted guard's place. */
static void set_plus(gplus *plus, const gfile *gf, int line, const char *text)
{
    free(plus->text);
    plus->gf = gf;
    plus->line = line;
    plus->text = xstrdup(text);
}

/* --- matching ------------------------------------------------------------------------------ */

/* How well an added guard matches a deleted one on subject: 0 for no match, higher for a
 * better one (shared checked symbol counts most, then shared words, then place). */
static int subject_score(const gstmt *del, const gstmt *add)
{
    /* a zero-init or contiguous call is kept (same target) or not: it has no "bound" */
    if (add->kind != del->kind || del->kind != GK_CHECK || strcmp(add->norm, del->norm) == 0)
        return 0;
    int overlap = 0;
    for (size_t i = 0; i < del->words.n; i++)
        if (guards_words_has(&add->words, del->words.w[i]))
            overlap++;
    bool same_subject = del->subject && add->subject && strcmp(del->subject, add->subject) == 0;
    if (!del->subject) /* a check on a call's result (`get_arch() == "gfx950"`): the same function */
        same_subject = del->call && add->call && strcmp(del->call, add->call) == 0;
    if (!same_subject && overlap < 2)
        return 0;
    int score = 10 * overlap + (same_subject ? 50 : 0);
    if (add->gf == del->gf) {
        int dist = abs(add->head_line - del->head_line);
        score += 20 + (dist < 20 ? 20 - dist : 0);
    }
    return score;
}

/* The scope a statement's condition is read in: the base for a deleted one, the head for an
 * added one; follow says whether its named constants may be followed. */
static gscope scope_of(const gstmt *s, bool follow)
{
    gscope sc = {0};
    sc.follow = follow;
    if (s->old_line) {
        sc.doc = s->gf->bdoc;
        sc.funcs = &s->gf->bfuncs;
        sc.line = s->old_line;
    } else {
        sc.doc = s->gf->hdoc;
        sc.funcs = &s->gf->hfuncs;
        sc.line = s->head_line;
    }
    return sc;
}

/* Compare the conditions of a deleted and an added check (constants followed only when they
 * share a subject, which keeps the search cheap). */
static gcmp compare_checks(const gstmt *del, const gstmt *add, bool follow, char **how)
{
    gscope ds = scope_of(del, follow), as = scope_of(add, follow);
    ds.memo = del->nf;
    as.memo = add->nf;
    return guards_compare(del->cond, &ds, add->cond, &as, how);
}

/* True when an added statement keeps what a deleted one enforced: the same check condition
 * (the macro, message or spelling may differ), or a zero-init / contiguous call of the same
 * target. */
static bool equivalent(const gstmt *del, const gstmt *add)
{
    if (add->kind != del->kind)
        return false;
    if (del->kind != GK_CHECK)
        return del->target && add->target && strcmp(del->target, add->target) == 0;
    return compare_checks(del, add, subject_score(del, add) > 0, NULL) == GC_SAME;
}

/* True when the head of a guard's file no longer mentions its subject at all (the buffer or
 * variable it guarded was removed with it). */
static bool subject_gone(const gstmt *del)
{
    const char *sym = del->subject ? del->subject : del->target;
    if (!sym || !del->gf->head)
        return false;
    const char *last = strrchr(sym, ':');
    return guards_find_word(del->gf->head, last ? last + 1 : sym, false) == NULL;
}

/* The added statement that keeps del: the same text anywhere (same file preferred), else an
 * equivalent condition (nearest in the same file preferred); *reworded says which. */
static const gstmt *find_moved(const gstmt *del, const gstmt_list *added, bool *reworded)
{
    const gstmt *moved = NULL;
    *reworded = false;
    for (size_t i = 0; i < added->n; i++) {
        const gstmt *a = &added->items[i];
        if (strcmp(a->norm, del->norm) == 0 && (!moved || (a->gf == del->gf && moved->gf != del->gf)))
            moved = a;
    }
    if (moved)
        return moved;
    for (size_t i = 0; i < added->n; i++) {
        const gstmt *a = &added->items[i];
        bool better = !moved || (a->gf == del->gf && (moved->gf != del->gf ||
                                                      abs(a->head_line - del->head_line) <
                                                          abs(moved->head_line - del->head_line)));
        if (better && equivalent(del, a))
            moved = a;
    }
    *reworded = moved != NULL;
    return moved;
}

/* --- evidence -------------------------------------------------------------------------------- */

/* Add the evidence that the invariant still holds to a finding (and lower it to a hint). */
static void attach_enforcement(finding *fi, genforce *ev, size_t nev, gcounts *c)
{
    if (!nev)
        return;
    fi->sev = SEV_HINT;
    c->hinted++;
    for (size_t i = 0; i < nev; i++)
        finding_add_related(fi, ev[i].gf->f->path, ev[i].line, "still checked here: %s", ev[i].text);
    char *m = xasprintf("%s (still checked at %s:%d, so probably safe)", fi->message,
                        ev[0].gf->f->path, ev[0].line);
    free(fi->message);
    fi->message = m;
}

/* True when a comment's text (lower case) says the memory must be zero or is read back. */
static bool says_zero_needed(const char *t)
{
    return strstr(t, "read back") || strstr(t, "reads back") || strstr(t, "read as zero") ||
           strstr(t, "zero-init") || strstr(t, "zero init") || strstr(t, "zeroed") ||
           strstr(t, "must be zero") || strstr(t, "must be 0") || strstr(t, "uninitiali") ||
           strstr(t, "garbage") || strstr(t, "zeros for") || strstr(t, "zero the") ||
           (strstr(t, "must") && (strstr(t, "zero") || strstr(t, "read")));
}

/* True when a comment's text (lower case) says why an uninitialised buffer is safe: every
 * element is written before it is read. */
static bool says_empty_safe(const char *t)
{
    return (strstr(t, "safe") && (strstr(t, "empty") || strstr(t, "write") || strstr(t, "written"))) ||
           strstr(t, "every element") || strstr(t, "all elements") || strstr(t, "fully written") ||
           strstr(t, "overwrit") || strstr(t, "no need to zero") || strstr(t, "written before");
}

static char *lower(const char *s)
{
    char *t = xstrdup(s);
    for (char *c = t; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return t;
}

/* A comment line in the diff (added or deleted) is one whose code view is blank but whose
 * text is not. */
static bool is_comment_line(const gfile *gf, size_t i)
{
    const diff_line *l = &gf->f->lines[i];
    const char *c = str_lskip(gf->dcode[i]);
    const char *t = l->text;
    while (*t == ' ' || *t == '\t')
        t++;
    return !*c && *t && *t != '\r';
}

typedef enum zsay { ZS_NONE, ZS_NEEDED, ZS_SAFE } zsay;

typedef struct zero_evidence {
    zsay says;
    bool deleted;     /* the comment was deleted by the change */
    int line;         /* head line (for a deleted comment, where it was deleted) */
    char *text;
} zero_evidence;

/* The comment block around diff line i (adjacent comment lines of the same kind), joined
 * into one line with the continuation lines' markers dropped. */
static char *comment_block(const gfile *gf, size_t i)
{
    const change_file *f = gf->f;
    char kind = f->lines[i].kind;
    size_t s = i, e = i + 1;
    while (s > 0 && i - s < 4 && f->lines[s - 1].kind == kind && is_comment_line(gf, s - 1))
        s--;
    while (e < f->nlines && e - i < 4 && f->lines[e].kind == kind && is_comment_line(gf, e))
        e++;
    strbuf sb;
    sb_init(&sb);
    for (size_t k = s; k < e; k++) {
        char *t = xstrndup(f->lines[k].text, f->lines[k].len);
        char *st = str_strip(t);
        const char *p = st;
        if (k > s)
            while (*p == '#' || *p == '/' || *p == '*' || *p == ' ')
                p++;
        if (sb.len && *p)
            sb_addc(&sb, ' ');
        sb_adds(&sb, p);
        free(t);
        free(st);
    }
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* What a comment says about zeros: that they are needed, that empty is safe, or nothing. */
static zsay comment_says(const char *text)
{
    char *t = lower(text);
    zsay r = says_empty_safe(t) ? ZS_SAFE : says_zero_needed(t) ? ZS_NEEDED : ZS_NONE;
    free(t);
    return r;
}

/* Keep the comment at distance dist if it says something about zeros, is nearer than the best
 * so far and (when functions are known) sits in the same function as line at. */
static void consider(const gfile *gf, zero_evidence *ev, int *best, int at, int line, bool deleted,
                     zsay want, const char *text)
{
    zsay says = comment_says(text);
    int dist = abs(line - at);
    if (says == ZS_NONE || (want != ZS_NONE && says != want) || dist >= *best)
        return;
    if (!deleted && gf->hdoc &&
        guards_function_at(&gf->hfuncs, line) != guards_function_at(&gf->hfuncs, at))
        return;
    *best = dist;
    free(ev->text);
    ev->says = says;
    ev->deleted = deleted;
    ev->line = line;
    ev->text = guards_quote(text);
}

/* Look for the comment about zeros near a zeros→empty swap: a deleted comment that required
 * them (the reversal), else the nearest added or head comment next to the new allocation, in
 * its function, that says why empty is safe (the change cites its reason) or that the zeros
 * are needed. */
static void find_zero_comment(const gfile *gf, const gstmt *del, const gstmt *add, zero_evidence *ev)
{
    memset(ev, 0, sizeof *ev);
    const change_file *f = gf->f;
    size_t lo = del->di > 12 ? del->di - 12 : 0, hi = del->di + 12 < f->nlines ? del->di + 12 : f->nlines;
    int at = add ? add->head_line : del->head_line;
    int best = 1 << 30;
    for (int pass = 0; pass < 2 && ev->says == ZS_NONE; pass++) {
        char kind = pass == 0 ? '-' : '+';
        for (size_t i = lo; i < hi; i++) {
            if (f->lines[i].kind != kind || !is_comment_line(gf, i))
                continue;
            char *t = comment_block(gf, i);
            consider(gf, ev, &best, at, f->lines[i].new_no, pass == 0, pass == 0 ? ZS_NEEDED : ZS_NONE, t);
            free(t);
        }
        if (pass == 1 && gf->hdoc) {
            syn_comment_list cl = {0};
            syntax_comments(gf->hdoc, at > 6 ? at - 6 : 1, at + 6, &cl);
            for (size_t i = 0; i < cl.n; i++)
                consider(gf, ev, &best, at, cl.items[i].line, false, ZS_NONE, cl.items[i].text);
            syn_comment_list_free(&cl);
        }
    }
}

/* --- findings -------------------------------------------------------------------------------- */

/* A zero-init that became an empty allocation near it (aiter#4043); false when there is none. */
static bool report_zero_swap(collector_ctx *ctx, gfile *files, size_t nfiles, const gstmt *del,
                             const gstmt_list *added, const char *old, gcounts *c, gplus *plus)
{
    const gstmt *swap = NULL;
    for (size_t i = 0; i < added->n; i++) {
        const gstmt *a = &added->items[i];
        if (a->gf != del->gf || !a->is_empty_alloc || abs(a->head_line - del->head_line) > ZERO_NEAR)
            continue;
        if (del->target && a->target && strcmp(del->target, a->target) != 0)
            continue;
        if (!swap || abs(a->head_line - del->head_line) < abs(swap->head_line - del->head_line))
            swap = a;
    }
    if (!swap)
        return false;
    const char *path = del->gf->f->path;
    zero_evidence ze;
    find_zero_comment(del->gf, del, swap, &ze);
    char *neu = guards_quote(swap->text);
    finding *fi;
    if (ze.says == ZS_NEEDED) {
        fi = findings_add(ctx->out, "D4", SEV_WARNING, path, del->head_line,
                          "zero-initialisation removed: `%s` became `%s`, but the %scomment "
                          "%s \"%s\" — cite the spec, asm or test that makes it safe",
                          old, neu, ze.deleted ? "deleted " : "", ze.deleted ? "said" : "says", ze.text);
        finding_add_related(fi, path, ze.line, "%s: %s",
                            ze.deleted ? "the deleted comment (removed here)" : "the comment", ze.text);
    } else if (ze.says == ZS_SAFE) {
        fi = findings_add(ctx->out, "D4", SEV_HINT, path, del->head_line,
                          "zero-initialisation removed: `%s` became `%s`; the comment says why "
                          "that is safe: \"%s\"", old, neu, ze.text);
        finding_add_related(fi, path, ze.line, "the comment: %s", ze.text);
        c->hinted++;
    } else {
        fi = findings_add(ctx->out, "D4", SEV_INFORMATION, path, del->head_line,
                          "zero-initialisation removed: `%s` became `%s` — every element "
                          "must now be written before it is read", old, neu);
    }
    finding_add_related(fi, path, swap->head_line, "the uninitialised allocation");
    set_plus(plus, swap->gf, swap->head_line, swap->text);
    if (ze.says != ZS_SAFE) {
        genforce ev[GUARDS_EVIDENCE_MAX];
        size_t nev = guards_find_enforcement(files, nfiles, del, NULL, 0, ev);
        attach_enforcement(fi, ev, nev, c);
        guards_enforcement_free(ev, nev);
    }
    free(ze.text);
    free(neu);
    c->zero++;
    return true;
}

/* The number right after the first occurrence of op (as an operator) in code; false if none. */
static bool bound_after(const char *code, const char *op, long long *v)
{
    size_t n = strlen(op);
    for (const char *p = strstr(code, op); p; p = strstr(p + 1, op)) {
        if (p > code && strchr("<>=!", p[-1]))
            continue;
        if (strchr("<>=", p[n]) && !(n == 1 && op[0] == '%'))
            continue;
        const char *q = p + n;
        while (*q == ' ' || *q == '\t')
            q++;
        if (!isdigit((unsigned char)*q))
            continue;
        char *end;
        *v = strtoll(q, &end, 0);
        return true;
    }
    return false;
}

/* The comparisons of a condition: its top-level parts split at &&, ||, and, or. Counts how
 * many there are and whether each is an equality (==). */
static void equality_parts(const char *cond, int *n, bool *all_eq)
{
    *n = 0;
    *all_eq = true;
    int depth = 0;
    const char *s = cond;
    for (const char *p = cond;; p++) {
        bool end = !*p;
        if (!end && (*p == '(' || *p == '['))
            depth++;
        else if (!end && (*p == ')' || *p == ']'))
            depth--;
        bool split = end || (depth == 0 && ((p[0] == '&' && p[1] == '&') || (p[0] == '|' && p[1] == '|') ||
                                            guards_find_word(p, "and", false) == p ||
                                            guards_find_word(p, "or", false) == p));
        if (!split)
            continue;
        char *part = xstrndup(s, (size_t)(p - s));
        if (*str_lskip(part)) {
            (*n)++;
            const char *eq = strstr(part, "==");
            *all_eq = *all_eq && eq && !strstr(eq + 2, "==") && !strpbrk(part, "<>") &&
                      !strstr(part, "!=");
        }
        free(part);
        if (end)
            break;
        p += (*p == '&' || *p == '|') ? 1 : (*p == 'a' ? 2 : 1);
        s = p + 1;
    }
}

/* True when a check that pinned exact values now pins others, as strictly: both made only of
 * equalities, as many of them (or the new one pinning a rank with dim()): a tensor's shape or
 * an option's encoding changed on purpose, not an invariant dropped. */
static bool values_swapped(const char *oc, const char *nc)
{
    int on, nn;
    bool oe, ne;
    equality_parts(oc, &on, &oe);
    equality_parts(nc, &nn, &ne);
    return oe && ne && on > 0 && (on == nn || (strstr(nc, "dim()") && strstr(oc, "dim()")));
}

/* Describe how a check changed, and whether it got stricter (B7) rather than weaker or just
 * different (D4). */
static char *describe_change(const gstmt *del, const gstmt *add, bool *stricter)
{
    static const char *const ops[] = {"<=", ">=", "<", ">", "%", NULL};
    *stricter = false;
    char *oc = guards_condition(del->code), *nc = guards_condition(add->code);
    char *r = NULL;
    for (int i = 0; ops[i] && !r; i++) {
        long long a, b;
        if (!bound_after(oc, ops[i], &a) || !bound_after(nc, ops[i], &b) || a == b)
            continue;
        bool tighter = ops[i][0] == '<' ? b < a : ops[i][0] == '>' ? b > a : (a && b > a && b % a == 0);
        bool looser = ops[i][0] == '<' ? b > a : ops[i][0] == '>' ? b < a : (b && a > b && a % b == 0);
        if (tighter) {
            *stricter = true;
            r = xasprintf("bound tightened: %s %lld became %s %lld", ops[i], a, ops[i], b);
        } else if (looser) {
            r = xasprintf("bound loosened: %s %lld became %s %lld", ops[i], a, ops[i], b);
        }
    }
    if (!r) {
        char *how = NULL;
        gcmp cmp = compare_checks(del, add, true, &how);
        if (cmp == GC_STRICTER || cmp == GC_LOOSER) {
            *stricter = cmp == GC_STRICTER;
            r = how;
            how = NULL;
        }
        free(how);
    }
    bool old_set = strstr(oc, "||") || guards_find_word(oc, "or", false) || guards_find_word(oc, "in", false);
    if (!r && strstr(oc, "==") && !old_set &&
        (guards_find_word(nc, "in", false) || strstr(nc, "||") || guards_find_word(nc, "or", false)))
        r = xstrdup("an equality became a membership test: more values now pass");
    if (!r && guards_is_presence_check(oc) && !guards_is_presence_check(nc))
        r = xstrdup("a presence check became a value check: nothing checks the absent case now");
    if (!r && guards_named_predicate(nc) && !guards_named_predicate(oc)) {
        char *name = xstrndup(str_lskip(nc), strcspn(str_lskip(nc), " \t("));
        r = xasprintf("replaced by the named predicate `%s`: check that it covers the old condition",
                      name);
        free(name);
        *stricter = false;
    }
    if (!r && del->subject && add->subject && strcmp(del->subject, add->subject) != 0)
        r = xasprintf("it now checks `%s` instead of `%s`", add->subject, del->subject);
    if (!r && values_swapped(oc, nc))
        r = xstrdup("the accepted values changed: a new shape or encoding, as strictly pinned");
    if (!r)
        r = xstrdup("same subject, different condition");
    free(oc);
    free(nc);
    return r;
}

/* When a rewrite split a check in two (`a and b` became `a` plus a separate check on b), how
 * the dropped part compares with the added check next to best that tests its first name:
 * GC_SAME (kept), GC_LOOSER / GC_STRICTER (with *how), GC_OTHER when there is none. */
static gcmp split_part(const gstmt *best, const char *part, const gstmt_list *added, char **how)
{
    *how = NULL;
    const char *p = part;
    while (*p && !(isalpha((unsigned char)*p) || *p == '_'))
        p++;
    size_t n = 0;
    while (str_ident_char(p[n]))
        n++;
    if (!n)
        return GC_OTHER;
    char *name = xstrndup(p, n);
    gcmp r = GC_OTHER;
    gscope none = {0};
    for (size_t i = 0; i < added->n && r == GC_OTHER; i++) {
        const gstmt *a = &added->items[i];
        if (a == best || a->gf != best->gf || a->kind != GK_CHECK || abs(a->head_line - best->head_line) > 6)
            continue;
        const char *ac = a->cond;
        if (guards_find_word(ac, name, false)) {
            char *h = NULL;
            r = guards_compare(part, &none, ac, &none, &h);
            if (r == GC_LOOSER && h)
                *how = xasprintf("more values now pass: the %s part became `%s`", name, ac);
            else if (r == GC_STRICTER && h)
                *how = xasprintf("the %s part became the stricter `%s`", name, ac);
            free(h);
            if (r == GC_OTHER && !*how) {
                /* an equality that became a membership test of its own */
                if (strstr(part, "==") && (guards_find_word(ac, "in", false) || strstr(ac, "||"))) {
                    r = GC_LOOSER;
                    *how = xasprintf("more values now pass: the %s part became `%s`", name, ac);
                }
            }
        }
    }
    free(name);
    return r;
}

/* A check replaced by another on the same subject. */
static finding *report_changed(collector_ctx *ctx, const gstmt *del, const gstmt *best,
                               const gstmt_list *added, const char *old, gplus *plus)
{
    const char *path = del->gf->f->path;
    char *neu = guards_quote(best->text);
    bool stricter = false;
    char *how = describe_change(del, best, &stricter);
    static const char dropped[] = "part of the condition was dropped: ";
    if (str_starts(how, dropped)) {
        /* the dropped part may have moved into a check of its own next to it */
        char *moved_how = NULL;
        gcmp m = split_part(best, how + strlen(dropped), added, &moved_how);
        if (m == GC_SAME) {
            free(how);
            free(neu);
            return NULL;
        }
        if (m == GC_LOOSER || m == GC_STRICTER) {
            free(how);
            how = moved_how;
            stricter = m == GC_STRICTER;
        } else {
            free(moved_how);
        }
    }
    finding *fi;
    if (str_starts(how, "replaced by the named predicate"))
        fi = findings_add(ctx->out, "D4", SEV_HINT, path, del->head_line,
                          "guard replaced: `%s` became `%s` (%s)", old, neu, how);
    else if (stricter)
        fi = findings_add(ctx->out, "B7", SEV_INFORMATION, path, del->head_line,
                          "guard tightened: `%s` became `%s` (%s) — check the kernel's padding "
                          "before turning these shapes away", old, neu, how);
    else if (str_starts(how, "the accepted values changed"))
        fi = findings_add(ctx->out, "D4", SEV_INFORMATION, path, del->head_line,
                          "guard re-pinned: `%s` became `%s` (%s) — check that the code follows "
                          "the new values", old, neu, how);
    else if (str_starts(how, "more values now pass") || str_starts(how, "an equality became"))
        /* a list of accepted values that grew is usually the feature the change adds: worth a
         * look at the new case, not a reversed invariant */
        fi = findings_add(ctx->out, "D4", SEV_INFORMATION, path, del->head_line,
                          "guard widened: `%s` became `%s` (%s) — check that the code handles the "
                          "new case", old, neu, how);
    else
        fi = findings_add(ctx->out, "D4", SEV_WARNING, path, del->head_line,
                          "guard changed: `%s` became `%s` (%s) — cite why the old invariant no "
                          "longer holds", old, neu, how);
    finding_add_related(fi, best->gf->f->path, best->head_line, "the new guard: %s", neu);
    set_plus(plus, best->gf, best->head_line, best->text);
    free(how);
    free(neu);
    return fi;
}

/* A guard that nothing replaces. */
static finding *report_gone(collector_ctx *ctx, const gstmt *del, const gstmt_list *test_added,
                            const char *old, gcounts *c)
{
    const char *path = del->gf->f->path;
    const char *what = del->kind == GK_ZERO     ? "zero-initialisation removed"
                       : del->kind == GK_CONTIG ? ".contiguous() removed"
                                                : "guard removed";
    finding *fi;
    if (del->kind == GK_CHECK && subject_gone(del)) {
        fi = findings_add(ctx->out, "D4", SEV_HINT, path, del->head_line,
                          "%s: `%s` is deleted, and `%s` no longer appears in this file — check "
                          "that nothing else now needs the invariant", what, old, del->subject);
        c->hinted++;
    } else {
        /* a dropped zero-init with no swap for empty is weaker evidence than a dropped check:
         * the allocation was usually restructured; a dropped .contiguous() was wrong to warn
         * about in every case judged on real history (kernels take strides, packers copy), so
         * both are information */
        fi = findings_add(ctx->out, "D4", del->kind == GK_CHECK ? SEV_WARNING : SEV_INFORMATION,
                          path, del->head_line,
                          "%s: `%s` is deleted and no guard on %s%s%s replaces it — cite why the "
                          "invariant no longer holds", what, old,
                          del->subject ? "`" : "the same subject", del->subject ? del->subject : "",
                          del->subject ? "`" : "");
    }
    for (size_t i = 0; i < test_added->n; i++) {
        const gstmt *a = &test_added->items[i];
        if (strcmp(a->norm, del->norm) == 0) {
            finding_add_related(fi, a->gf->f->path, a->head_line,
                                "re-added only in a test, which guards nothing at run time");
            break;
        }
    }
    return fi;
}

/* True when a zero-init's target is now allocated empty somewhere in its file (then a zeroed
 * buffer in a helper is some other buffer). */
static bool swapped_for_empty(const gstmt *del, const gstmt_list *added)
{
    if (del->kind != GK_ZERO || !del->target)
        return false;
    for (size_t i = 0; i < added->n; i++) {
        const gstmt *a = &added->items[i];
        if (a->gf == del->gf && a->is_empty_alloc && a->target && !strcmp(a->target, del->target))
            return true;
    }
    return false;
}

/* The head text of lines [a, b] of a doc's code view, joined without white space. */
static char *code_window(const syntax_doc *d, int a, int b)
{
    strbuf sb;
    sb_init(&sb);
    for (int k = a < 1 ? 1 : a; k <= b && k <= d->nlines; k++) {
        char *c = syntax_line_code(d, k);
        char *n = c ? guards_no_space(c) : NULL;
        if (n)
            sb_adds(&sb, n);
        free(c);
        free(n);
    }
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* The code view of lines [a, b] of a doc, lines joined by spaces. */
static char *code_window_spaced(const syntax_doc *d, int a, int b)
{
    strbuf sb;
    sb_init(&sb);
    for (int k = a < 1 ? 1 : a; k <= b && k <= d->nlines; k++) {
        char *c = syntax_line_code(d, k);
        if (c) {
            sb_adds(&sb, c);
            sb_addc(&sb, ' ');
        }
        free(c);
    }
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* A deleted .contiguous() that still holds: the call is still there next to the deletion
 * (a chain re-wrapped over lines): kept; or the function now hands the kernel the tensor's
 * strides, so any layout reads right: a hint. True when handled. */
static bool contig_kept(collector_ctx *ctx, const gstmt *del, const char *old, gcounts *c)
{
    const gfile *gf = del->gf;
    char *root = guards_contig_root(del->code);
    if (!gf->hdoc || !root) {
        free(root);
        return false;
    }
    int g = guards_anchor_line(gf, del);
    char *near = code_window(gf->hdoc, g - KEPT_NEAR, g + KEPT_NEAR);
    bool kept = strstr(near, ".contiguous(") && guards_find_word(near, root, false);
    free(near);
    if (kept) {
        c->kept++;
        free(root);
        return true;
    }
    const syn_func *fn = guards_function_at(&gf->hfuncs, g);
    /* the same tensor still made contiguous further on in the function (often only when
     * its strides need it) */
    for (int line = fn ? fn->body_line : 1; fn && line <= fn->end_line; line++) {
        char *lc = syntax_line_code(gf->hdoc, line);
        char *r = lc && strstr(lc, ".contiguous(") ? guards_contig_root(lc) : NULL;
        bool same = r && strcmp(r, root) == 0;
        free(lc);
        free(r);
        if (same) {
            finding *fi = findings_add(ctx->out, "D4", SEV_HINT, gf->f->path, del->head_line,
                                       ".contiguous() removed: `%s`, but `%s` is still made "
                                       "contiguous at line %d", old, root, line);
            finding_add_related(fi, gf->f->path, line, "still made contiguous here");
            c->hinted++;
            free(root);
            return true;
        }
    }
    const char *names[2] = {root, del->target};
    bool strided = false;
    for (int k = 0; k < 2 && fn && !strided; k++) {
        if (!names[k])
            continue;
        char *body = code_window(gf->hdoc, fn->body_line, fn->end_line);
        char *pat = xasprintf("%s.stride(", names[k]);
        for (const char *q = strstr(body, pat); q && !strided; q = strstr(q + 1, pat))
            strided = q == body || !str_ident_char(q[-1]);
        free(pat);
        free(body);
        if (strided) {
            findings_add(ctx->out, "D4", SEV_HINT, del->gf->f->path, del->head_line,
                         ".contiguous() removed: `%s`, but the kernel is given `%s`'s strides "
                         "here, so it reads any layout", old, names[k]);
            c->hinted++;
        }
    }
    free(root);
    return strided;
}

/* A check whose subject the rewritten function no longer mentions at all (the input it
 * guarded is gone from it, as a fused op that stops taking a packed tensor): a hint, true. */
static bool subject_left_function(collector_ctx *ctx, const gstmt *del, const char *old, gcounts *c)
{
    const gfile *gf = del->gf;
    const syn_func *hf = guards_head_function(gf, del);
    if (!hf || !del->subject || subject_gone(del))
        return false;
    const char *sym = strrchr(del->subject, ':') ? strrchr(del->subject, ':') + 1 : del->subject;
    char *body = code_window_spaced(gf->hdoc, hf->start_line, hf->end_line);
    bool gone = !guards_find_word(body, sym, false);
    free(body);
    if (!gone)
        return false;
    findings_add(ctx->out, "D4", SEV_HINT, gf->f->path, del->head_line,
                 "guard removed: `%s` is deleted, and `%s` no longer appears in `%s` — check that "
                 "nothing it calls still needs the invariant", old, sym, hf->name);
    c->hinted++;
    c->gone++;
    return true;
}

/* The first added line of del's head function (or, with whole_file, of its file) whose text
 * (no spaces) contains one of the patterns (each with one %s for the condition), or 0. */
static int added_line_with(const gstmt *del, const char *cond, const char *const *pats, size_t npats,
                           bool whole_file)
{
    const gfile *gf = del->gf;
    const syn_func *hf = guards_head_function(gf, del);
    for (size_t i = 0; (hf || whole_file) && i < gf->f->nlines; i++) {
        const diff_line *l = &gf->f->lines[i];
        if (l->kind != '+' || (!whole_file && (l->new_no < hf->start_line || l->new_no > hf->end_line)))
            continue;
        char *n = guards_no_space(gf->dtext[i]);
        bool hit = false;
        for (size_t k = 0; k < npats && !hit; k++) {
            char *pat = xasprintf(pats[k], cond);
            hit = strstr(n, pat) != NULL;
            free(pat);
        }
        free(n);
        if (hit)
            return l->new_no;
    }
    return 0;
}

/* Why a deleted check is now a case the code handles, or NULL: its condition became a branch
 * (`if c:`, `... if c else ...`, `c ? a : b`) — an unsupported input turned supported — or the
 * two names an equality tied are now passed on separately. *at gets the line. */
static const char *handled_case(const gstmt *del, int *at)
{
    static const char *const branch[] = {"if%s", "ifnot%s", "if(%s", "if(!%s", "(%s)?", "elif%s"};
    char *n = guards_no_space(del->cond);
    const char *core = n;
    if (str_starts(core, "not"))
        core += 3;
    while (*core == '!' || *core == '(')
        core++;
    char *c = xstrdup(core);
    size_t len = strlen(c);
    while (len && c[len - 1] == ')' && guards_paren_balance(c) < 0)
        c[--len] = '\0';
    const char *why = NULL;
    if (len >= 3 && (*at = added_line_with(del, c, branch, sizeof branch / sizeof branch[0], false)))
        why = "the change now handles it as a case";
    /* a == b between two names, both now passed on */
    const char *eq = strstr(n, "==");
    if (!why && eq && !strstr(eq + 2, "==") && !strpbrk(n, "()[]&|<>!")) {
        char *a = xstrndup(n, (size_t)(eq - n)), *b = xstrdup(eq + 2);
        static const char *const arg[] = {",%s,", "(%s,", ",%s)"};
        /* passed on together, even in a macro or helper written elsewhere in the file */
        int la = added_line_with(del, a, arg, 3, true), lb = added_line_with(del, b, arg, 3, true);
        if (la && la == lb) {
            *at = la;
            why = "both sides of the equality are now passed on separately";
        }
        free(a);
        free(b);
    }
    free(c);
    free(n);
    return why;
}

/* A comment's text without its markers and white space. */
static char *comment_body(const char *text)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '/' || *p == '#' || *p == '*')
        p++;
    return guards_no_space(p);
}

/* True when an added comment line is code commented out (a deleted line kept as a comment,
 * or a guard): that explains nothing. */
static bool commented_out(const change_file *f, const char *text)
{
    char *body = comment_body(text);
    bool code = guards_kind(body) != GK_NONE;
    for (size_t i = 0; i < f->nlines && !code && *body; i++) {
        if (f->lines[i].kind != '-')
            continue;
        char *t = xstrndup(f->lines[i].text, f->lines[i].len);
        char *b = comment_body(t);
        code = strcmp(b, body) == 0;
        free(b);
        free(t);
    }
    free(body);
    return code;
}

/* An added comment at the deletion point (the rewrite block, or the lines next to it) that
 * names the guard's subject: the change says why, in place. Its line, or 0. */
static int explaining_comment(const gstmt *del)
{
    const gfile *gf = del->gf;
    const change_file *f = gf->f;
    const char *sym = strrchr(del->subject, ':') ? strrchr(del->subject, ':') + 1 : del->subject;
    size_t lo = del->di > 3 ? del->di - 3 : 0, hi = del->di + 6 < f->nlines ? del->di + 6 : f->nlines;
    for (size_t i = lo; i < hi; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind != '+' || !is_comment_line(gf, i))
            continue;
        char *t = xstrndup(l->text, l->len);
        bool names = guards_find_word(t, sym, false) != NULL && !commented_out(f, t);
        free(t);
        if (names)
            return l->new_no;
    }
    return 0;
}

/* The `(` that the `)` at close (in s) closes, or s when unbalanced. */
static const char *open_of(const char *s, const char *close)
{
    int depth = 0;
    for (const char *p = close; p >= s; p--) {
        if (*p == ')')
            depth++;
        else if (*p == '(' && --depth == 0)
            return p + 1;
    }
    return s;
}

/* A line of the guard's head function that rounds its subject up (`(n + k - 1) // k`, cdiv,
 * ceil_div, round_up): a divisibility check the code pads for. Its line, or 0. */
static int padding_line(const gstmt *del)
{
    const gfile *gf = del->gf;
    const syn_func *hf = guards_head_function(gf, del);
    const char *sym = strrchr(del->subject, ':') ? strrchr(del->subject, ':') + 1 : del->subject;
    static const char *const up[] = {"cdiv(", "ceil_div(", "div_up(", "round_up(", "align_up(",
                                     "-1)//", "-1)/", "divup(", "ceildiv("};
    int g = guards_anchor_line(gf, del);
    for (int line = hf ? hf->body_line : 1; hf && line <= hf->end_line; line++) {
        char *c = syntax_line_code(gf->hdoc, line);
        char *n = c ? guards_no_space(c) : xstrdup("");
        /* where the rounding's argument starts: `cdiv(`, or the `(` of `(m + 63) // 64` */
        const char *arg = NULL;
        for (size_t k = 0; k < sizeof up / sizeof up[0] && !arg; k++) {
            const char *q = strstr(n, up[k]);
            if (q && up[k][0] != '-')
                arg = q + strlen(up[k]);
            else if (q)
                arg = open_of(n, q + 2);
        }
        for (const char *q = strstr(n, ")/"); q && !arg; q = strstr(q + 1, ")/")) {
            const char *d = q;
            while (d > n && isdigit((unsigned char)d[-1]))
                d--;
            if (d < q && d > n && d[-1] == '+')
                arg = open_of(n, q);
        }
        /* the subject, or a name it is derived from (N_i from N_i_raw), rounded up itself, by
         * code (not another check) that runs on the way to the guard's place */
        bool names = false;
        const char *close = arg ? strchr(arg, ')') : NULL;
        for (const char *q = arg ? strstr(arg, sym) : NULL; q && (!close || q < close) && !names;
             q = strstr(q + 1, sym))
            names = !str_ident_char(q[-1]);
        bool ok = names && guards_kind(c ? c : "") == GK_NONE &&
                  guards_reaches(gf->hdoc, &gf->hfuncs, line, g);
        free(c);
        free(n);
        if (ok)
            return line;
    }
    return 0;
}

/* A check the change explains in place (an added comment naming its subject where it was), or
 * a divisibility check whose subject the code now rounds up: a hint, true. */
static bool explained_or_padded(collector_ctx *ctx, const gstmt *del, const char *old, gcounts *c)
{
    if (!del->subject)
        return false;
    int at = explaining_comment(del);
    const char *why = "the change explains it in a comment here";
    if (!at && strchr(del->code, '%')) {
        at = padding_line(del);
        why = "the code now rounds the size up instead";
    }
    if (!at)
        return false;
    finding *fi = findings_add(ctx->out, "D4", SEV_HINT, del->gf->f->path, del->head_line,
                               "guard removed: `%s`; %s (line %d)", old, why, at);
    finding_add_related(fi, del->gf->f->path, at, "the reason");
    c->hinted++;
    c->gone++;
    return true;
}

/* Kept in place, moved elsewhere or into a helper the change adds: true when reported. */
static bool report_moved(collector_ctx *ctx, gfile *files, size_t nfiles, const gstmt *del,
                         const gstmt_list *added, const char *old, gcounts *c, gplus *plus)
{
    const char *path = del->gf->f->path;
    bool reworded;
    const gstmt *moved = find_moved(del, added, &reworded);
    if (moved && moved->gf == del->gf && abs(moved->head_line - del->head_line) <= KEPT_NEAR) {
        /* re-added where it was (re-indented, reworded, macro renamed): kept, not moved —
         * unless it now sits in a branch the old place was not in */
        const gfile *gf = del->gf;
        int g = guards_anchor_line(gf, del);
        if (!gf->hdoc || guards_dominates(gf->hdoc, &gf->hfuncs, moved->head_line, g)) {
            c->kept++;
            return true;
        }
        char *neu = guards_quote(moved->text);
        finding *fi = findings_add(ctx->out, "D4", SEV_INFORMATION, path, del->head_line,
                                   "guard now conditional: `%s` is re-added as `%s` under a branch "
                                   "it was not in, so it no longer runs on every path here — "
                                   "check the paths that now skip it", old, neu);
        finding_add_related(fi, path, moved->head_line, "the guard now");
        set_plus(plus, moved->gf, moved->head_line, moved->text);
        free(neu);
        c->conditional++;
        return true;
    }
    char *helper = NULL;
    const gfile *where = moved ? moved->gf : NULL;
    int line = moved ? moved->head_line : 0;
    bool new_helper = false;
    if (!moved && (swapped_for_empty(del, added) ||
                   !guards_helper_move(files, nfiles, del, &helper, &where, &line, &new_helper)))
        return false;
    finding *fi;
    if (helper)
        fi = findings_add(ctx->out, "D4", SEV_HINT, path, del->head_line,
                          "guard moved, not removed: `%s` is now done by `%s`, which %sthis code "
                          "calls (%s:%d)", old, helper, new_helper ? "the change adds and " : "",
                          where->f->path, line);
    else
        fi = findings_add(ctx->out, "D4", SEV_HINT, path, del->head_line,
                          "guard moved, not removed: `%s` is now at %s:%d%s", old, where->f->path,
                          line, reworded ? " (reworded)" : "");
    finding_add_related(fi, where->f->path, line, "the guard now");
    if (moved) {
        set_plus(plus, moved->gf, moved->head_line, moved->text);
    } else {
        const char *l;
        size_t n;
        if (text_line_at(where->head, where->head_len, line, &l, &n)) {
            char *t = xstrndup(l, n), *st = str_strip(t);
            set_plus(plus, where, line, st);
            free(t);
            free(st);
        }
    }
    free(helper);
    c->moved++;
    return true;
}

/* Sort one deleted guard and make its finding (if any); *plus gets what took its place. */
static void report_deleted(collector_ctx *ctx, gfile *files, size_t nfiles, const gstmt *del,
                           const gstmt_list *added, const gstmt_list *test_added, gcounts *c,
                           gplus *plus)
{
    char *old = guards_quote(del->text);
    if (report_moved(ctx, files, nfiles, del, added, old, c, plus)) {
        free(old);
        return;
    }
    if (guards_path_deleted(files, nfiles, del)) {
        c->path_gone++; /* the code it guarded is gone with it */
        free(old);
        return;
    }
    if (del->kind != GK_CHECK && subject_gone(del)) {
        c->dropped++; /* the buffer itself is gone, not its initialisation */
        free(old);
        return;
    }
    if (del->kind == GK_ZERO && report_zero_swap(ctx, files, nfiles, del, added, old, c, plus)) {
        free(old);
        return;
    }
    if (del->kind == GK_CONTIG && contig_kept(ctx, del, old, c)) {
        free(old);
        return;
    }
    if (del->kind == GK_CHECK && (subject_left_function(ctx, del, old, c) ||
                                  explained_or_padded(ctx, del, old, c))) {
        free(old);
        return;
    }
    /* changed: the best added guard on the same subject */
    const gstmt *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < added->n; i++) {
        int sc = subject_score(del, &added->items[i]);
        if (sc > best_score) {
            best_score = sc;
            best = &added->items[i];
        }
    }
    genforce ev[GUARDS_EVIDENCE_MAX];
    size_t nev = guards_find_enforcement(files, nfiles, del, best ? best->gf : NULL,
                                         best ? best->head_line : 0, ev);
    finding *fi;
    if (best) {
        fi = report_changed(ctx, del, best, added, old, plus);
        if (!fi) {
            c->kept++; /* split in two checks that together keep it */
            guards_enforcement_free(ev, nev);
            free(old);
            return;
        }
        c->changed++;
    } else {
        int at = 0;
        const char *why = del->kind == GK_CHECK ? handled_case(del, &at) : NULL;
        if (why) {
            fi = findings_add(ctx->out, "D4", SEV_HINT, del->gf->f->path, del->head_line,
                              "guard removed: `%s`, and %s (line %d) — check that path", old, why, at);
            finding_add_related(fi, del->gf->f->path, at, "handled here");
            c->hinted++;
        } else {
            fi = report_gone(ctx, del, test_added, old, c);
        }
        c->gone++;
    }
    attach_enforcement(fi, ev, nev, c);
    guards_enforcement_free(ev, nev);
    free(old);
}

/* The qualified name of the function of fl holding line, or NULL (borrowed). */
static const char *function_name(const syn_func_list *fl, int line)
{
    const syn_func *fn = line > 0 ? guards_function_at(fl, line) : NULL;
    return fn && fn->qualname && *fn->qualname ? fn->qualname : fn ? fn->name : NULL;
}

/* The deleted guard as a small diff: "-" the guard where it was deleted, "+" what took its
 * place (plus->text NULL: nothing), titled with the function(s) they are in (their files are
 * the rows' places). */
static void add_guard_diff(finding *fi, const gstmt *del, const gplus *plus)
{
    const char *path = del->gf->f->path;
    const char *was = function_name(&del->gf->bfuncs, del->old_line);
    if (!was)
        was = function_name(&del->gf->hfuncs, del->head_line);
    const char *now = plus->text ? function_name(&plus->gf->hfuncs, plus->line) : NULL;
    bool elsewhere = plus->text && (plus->gf != del->gf || (now ? !was || strcmp(now, was) != 0
                                                                : was != NULL));
    strbuf title;
    sb_init(&title);
    if (!plus->text && was)
        sb_addf(&title, "The guard deleted from `%s`", was);
    else if (!plus->text)
        sb_adds(&title, "The deleted guard");
    else if (elsewhere && was && now)
        sb_addf(&title, "The guard deleted from `%s`, and the one now in `%s`", was, now);
    else if (elsewhere)
        sb_adds(&title, "The deleted guard, and the one now in its place elsewhere");
    else if (was)
        sb_addf(&title, "The guard in `%s`, before and after", was);
    else
        sb_adds(&title, "The guard, before and after");
    exhibit *e = finding_add_exhibit(fi, EXHIBIT_DIFF, "%s", title.buf);
    sb_free(&title);
    exhibit_add_line(e, "-", path, del->head_line, del->text);
    if (plus->text)
        exhibit_add_line(e, "+", plus->gf->f->path, plus->line, plus->text);
}

void guards_report(collector_ctx *ctx, gfile *files, size_t nfiles, const gstmt *del,
                   const gstmt_list *added, const gstmt_list *test_added, gcounts *c)
{
    size_t before = ctx->out->n;
    gplus plus = {0};
    report_deleted(ctx, files, nfiles, del, added, test_added, c, &plus);
    for (size_t i = before; i < ctx->out->n; i++)
        add_guard_diff(&ctx->out->items[i], del, &plus);
    free(plus.text);
}
