/* One changed file as the sibling-drift collector reads it: its base and head sides, whose
 * functions are cut into units only when the comparison reaches them, and what the change did
 * to it (deleted and added lines, the functions owning them, where code was written again). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/collectors/siblings_memo.h"
#include "engine/syntax.h"
#include "engine/util.h"

void sib_side_init(sib_side *s, const syntax_doc *d, const syn_func_list *fl)
{
    s->d = d;
    s->fl = fl;
    s->units = xcalloc(fl->n ? fl->n : 1, sizeof *s->units);
    s->borrowed = xcalloc(fl->n ? fl->n : 1, sizeof *s->borrowed);
    s->memo = NULL;
    s->touched_keys = (strset){0};
    s->touched_of = NULL;
}

void sib_side_free(sib_side *s)
{
    for (size_t i = 0; s->fl && i < s->fl->n; i++)
        if (s->units[i] && !s->borrowed[i]) {
            sib_unit_list_free(s->units[i]);
            free(s->units[i]);
        }
    free(s->units);
    free(s->borrowed);
    strset_free(&s->touched_keys);
}

const sib_unit_list *sib_units_of(sib_side *s, const syn_func *fn)
{
    size_t i = (size_t)(fn - s->fl->items);
    if (!s->units[i] && s->memo) {
        /* the memo's lists are not changed by anyone: only read through this const view */
        s->units[i] = (sib_unit_list *)sib_memo_units(s->memo, s->d, fn);
        s->borrowed[i] = s->units[i] != NULL;
    }
    if (!s->units[i]) {
        s->units[i] = xcalloc(1, sizeof *s->units[i]);
        sib_units(s->d, fn, s->units[i]);
    }
    return s->units[i];
}

/* How many units of fn have this key. */
int sib_key_count(sib_side *s, const syn_func *fn, const char *key)
{
    const sib_unit_list *u = sib_units_of(s, fn);
    int n = 0;
    for (size_t i = 0; i < u->n; i++)
        n += strcmp(u->items[i].key, key) == 0;
    return n;
}

/* The function of `to` matching fn of `from`: same qualified name (the k-th of that name for
 * the k-th, for overloads), else the only function of that plain name. NULL when none. */
const syn_func *sib_counterpart(const syn_func_list *from, const syn_func *fn, const syn_func_list *to)
{
    int k = 0;
    for (const syn_func *p = from->items; p < fn; p++)
        k += strcmp(p->qualname, fn->qualname) == 0;
    const syn_func *by_name = NULL;
    int same_name = 0;
    for (size_t i = 0; i < to->n; i++) {
        if (strcmp(to->items[i].qualname, fn->qualname) == 0 && k-- == 0)
            return &to->items[i];
        if (strcmp(to->items[i].name, fn->name) == 0) {
            by_name = &to->items[i];
            same_name++;
        }
    }
    return same_name == 1 ? by_name : NULL;
}


static void push_unique(const syn_func ***arr, size_t *n, size_t *cap, const syn_func *fn)
{
    if (!fn)
        return;
    for (size_t i = 0; i < *n; i++)
        if ((*arr)[i] == fn)
            return;
    *ARRAY_PUSH(*arr, *n, *cap) = fn;
}

void sib_change_init(sib_change *c, const change_file *f, const sib_side *b, const sib_side *h)
{
    memset(c, 0, sizeof *c);
    c->f = f;
    c->bn = b->d->nlines;
    c->hn = h->d->nlines;
    c->deleted = xcalloc((size_t)c->bn + 2, sizeof *c->deleted);
    c->added = xcalloc((size_t)c->hn + 2, sizeof *c->added);
    c->changed = xcalloc((size_t)c->hn + 2, sizeof *c->changed);
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind != ' ' && l->new_no >= 1 && l->new_no <= c->hn)
            c->changed[l->new_no] = true;
        if (l->kind == '-' && l->old_no >= 1 && l->old_no <= c->bn) {
            c->deleted[l->old_no] = true;
            push_unique(&c->touched_b, &c->ntb, &c->cap_b, syntax_enclosing_function(b->fl, l->old_no));
        } else if (l->kind == '+' && l->new_no >= 1 && l->new_no <= c->hn) {
            c->added[l->new_no] = true;
            push_unique(&c->touched_h, &c->nth, &c->cap_h, syntax_enclosing_function(h->fl, l->new_no));
        }
    }
    /* each side's counterparts of the other's touched functions count as touched */
    size_t ntb = c->ntb, nth = c->nth;
    for (size_t i = 0; i < ntb; i++)
        push_unique(&c->touched_h, &c->nth, &c->cap_h, sib_counterpart(b->fl, c->touched_b[i], h->fl));
    for (size_t i = 0; i < nth; i++)
        push_unique(&c->touched_b, &c->ntb, &c->cap_b, sib_counterpart(h->fl, c->touched_h[i], b->fl));
}

void sib_change_free(sib_change *c)
{
    free(c->deleted);
    free(c->added);
    free(c->changed);
    free(c->touched_b);
    free(c->touched_h);
}

/* True when lines [l0, l1] hold a marked line. */
bool sib_any_marked(const bool *marks, int n, int l0, int l1)
{
    for (int l = l0 < 1 ? 1 : l0; l <= l1 && l <= n; l++)
        if (marks[l])
            return true;
    return false;
}

/* How often key occurs in the units of the touched functions of one side. */
int sib_touched_count(sib_side *s, const syn_func **fns, size_t n, const char *key)
{
    if (s->touched_of != fns) {
        strset_free(&s->touched_keys);
        for (size_t i = 0; i < n; i++) {
            const sib_unit_list *l = sib_units_of(s, fns[i]);
            for (size_t k = 0; k < l->n; k++) {
                size_t at = strset_add_val(&s->touched_keys, l->items[k].key, 0);
                s->touched_keys.vals[at]++;
            }
        }
        s->touched_of = fns;
    }
    long at = strset_find(&s->touched_keys, key);
    return at < 0 ? 0 : s->touched_keys.vals[at];
}

/* True when the change wrote key again somewhere in the file: a unit holding an added line has
 * it, or a function the base did not have (the code moved into a helper that now serves
 * several functions; git may even align the helper's body with the old one as context). */
bool sib_written_again(sib_change *fc, sib_side *b, sib_side *h, const char *key)
{
    for (size_t i = 0; i < fc->nth; i++) {
        const syn_func *fn = fc->touched_h[i];
        bool is_new = sib_counterpart(h->fl, fn, b->fl) == NULL;
        const sib_unit_list *l = sib_units_of(h, fn);
        for (size_t k = 0; k < l->n; k++)
            if (strcmp(l->items[k].key, key) == 0 &&
                (is_new || sib_any_marked(fc->added, fc->hn, l->items[k].line, l->items[k].end_line)))
                return true;
    }
    return false;
}

/* The diff index of the first deleted line within base lines [l0, l1], or f->nlines. */
size_t sib_first_deleted(const change_file *f, int l0, int l1)
{
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '-' && f->lines[i].old_no >= l0 && f->lines[i].old_no <= l1)
            return i;
    return f->nlines;
}

void sib_changed_run(const change_file *f, size_t i, size_t *s, size_t *e)
{
    *s = *e = i;
    while (*s > 0 && (f->lines[*s - 1].kind == '-' || f->lines[*s - 1].kind == '+'))
        (*s)--;
    while (*e < f->nlines && (f->lines[*e].kind == '-' || f->lines[*e].kind == '+'))
        (*e)++;
}

/* The code of the added lines of the block of changed lines holding diff line i (comments
 * and strings blanked: a comment naming a parameter explains nothing), as one string. */
char *sib_replacement(const change_file *f, size_t i)
{
    size_t s, e;
    sib_changed_run(f, i, &s, &e);
    strbuf sb;
    sb_init(&sb);
    syn_lang lang = syntax_lang_of_path(f->path);
    for (size_t k = s; k < e; k++)
        if (f->lines[k].kind == '+') {
            char *code = syntax_text_code(lang, f->lines[k].text, f->lines[k].len);
            sb_adds(&sb, code);
            sb_addc(&sb, '\n');
            free(code);
        }
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

bool sib_block_added(const change_file *f, size_t i, int *first, int *last)
{
    if (i >= f->nlines)
        return false;
    size_t s, e;
    sib_changed_run(f, i, &s, &e);
    *first = *last = 0;
    for (size_t k = s; k < e; k++)
        if (f->lines[k].kind == '+') {
            if (!*first)
                *first = f->lines[k].new_no;
            *last = f->lines[k].new_no;
        }
    return *first > 0;
}

/* True when text holds word as a whole identifier. */
bool sib_has_word(const char *text, const char *word)
{
    return str_find_word(text, strlen(text), word) != NULL;
}

/* True when outer is inner or encloses it. */
bool sib_within(const syn_func *outer, const syn_func *inner)
{
    return outer->start_byte <= inner->start_byte && inner->end_byte <= outer->end_byte;
}

/* The outermost function holding fn (fn itself at top level). */
const syn_func *sib_outermost(const sib_side *h, const syn_func *fn)
{
    const syn_func *top = fn;
    for (size_t i = 0; i < h->fl->n; i++)
        if (sib_within(&h->fl->items[i], fn) && sib_within(&h->fl->items[i], top))
            top = &h->fl->items[i];
    return top;
}

/* How often piece (np bytes) occurs in the keys of the units of fn on side s. */
static int piece_count(sib_side *s, const syn_func *fn, const char *piece, size_t np)
{
    const sib_unit_list *l = sib_units_of(s, fn);
    int k = 0;
    for (size_t i = 0; i < l->n; i++)
        for (const char *p = l->items[i].key; (p = memmem(p, strlen(p), piece, np)) != NULL; p += np)
            k++;
    return k;
}

/* True when piece occurs more often on side `more` than on side `fewer` in some function the
 * change touched other than hf (the same function matched across the sides by name). */
static bool piece_shifted(sib_change *fc, sib_side *more, sib_side *fewer, bool more_is_head, const syn_func *hf,
                          const char *piece, size_t np)
{
    const syn_func **fns = more_is_head ? fc->touched_h : fc->touched_b;
    size_t n = more_is_head ? fc->nth : fc->ntb;
    for (size_t i = 0; i < n; i++) {
        const syn_func *g = fns[i];
        if (strcmp(g->qualname, hf->qualname) == 0)
            continue;
        const syn_func *other = sib_counterpart(more->fl, g, fewer->fl);
        int had = other ? piece_count(fewer, other, piece, np) : 0;
        if (piece_count(more, g, piece, np) > had)
            return true;
    }
    return false;
}

bool sib_piece_moved(sib_change *fc, sib_side *b, sib_side *h, const syn_func *hf, const sib_unit *u,
                     const sib_unit *twin)
{
    if (!twin)
        return false;
    const char *a = u->key, *t = twin->key;
    size_t na = strlen(a), nt = strlen(t), pre = 0, suf = 0;
    while (pre < na && pre < nt && a[pre] == t[pre])
        pre++;
    while (suf < na - pre && suf < nt - pre && a[na - 1 - suf] == t[nt - 1 - suf])
        suf++;
    size_t gone = na - pre - suf, added = nt - pre - suf;
    if (gone >= MOVED_PIECE && added == 0) /* taken out here: did another function gain it? */
        return piece_shifted(fc, h, b, true, hf, a + pre, gone);
    if (added >= MOVED_PIECE && gone == 0) /* put in here: did another function lose it? */
        return piece_shifted(fc, b, h, false, hf, t + pre, added);
    return false;
}
