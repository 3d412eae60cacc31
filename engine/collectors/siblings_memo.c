/* The units of functions kept between reviews (siblings_memo.h). A function's units depend on
 * its own lines only: the text of those lines (the code views blank comments and strings line
 * by line), what the parser read of them (C/C++ views blank the #if branches they leave out
 * and the HIP syntax), the hidden ranges and decorations of the view, and the line it starts
 * at (units carry line numbers). All of that is the key, so a hit is the units a cut of this
 * doc would give. A tree with errors is never memoised: recovery may read a function's lines
 * differently depending on what comes before them. */
#include "engine/collectors/siblings_memo.h"

#include <stdlib.h>
#include <string.h>

#include "engine/strset.h"
#include "engine/syntax_internal.h"
#include "engine/util.h"

typedef struct memo_entry {
    sib_unit_list units;
    bool used; /* asked for since the last trim */
} memo_entry;

struct sib_memo {
    strset keys;          /* its vals index entries */
    memo_entry **entries; /* on the heap each, so a list handed out stays put */
    size_t n, cap;
    size_t hits;
};

sib_memo *sib_memo_new(void)
{
    return xcalloc(1, sizeof(sib_memo));
}

static void entry_free(memo_entry *e)
{
    sib_unit_list_free(&e->units);
    free(e);
}

void sib_memo_free(void *memo)
{
    sib_memo *m = memo;
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        entry_free(m->entries[i]);
    free(m->entries);
    strset_free(&m->keys);
    free(m);
}

/* The key of fn's units in d (a new string), or NULL when they cannot be memoised. */
static char *memo_key(const syntax_doc *d, const syn_func *fn)
{
    if (d->has_errors || fn->start_line < 1 || fn->end_line < fn->start_line)
        return NULL;
    size_t s = syntax_line_start(d, fn->start_line), e = syntax_line_start(d, fn->end_line + 1);
    if (e < s || e > d->len || memchr(d->text + s, '\0', e - s) ||
        (d->parsed && memchr(d->parsed + s, '\0', e - s)))
        return NULL;
    strbuf k;
    sb_init(&k);
    sb_addf(&k, "%d %d %d %zu\n", (int)d->lang, d->view, fn->start_line, e - s);
    sb_add(&k, d->text + s, e - s);
    sb_adds(&k, "\n--parsed--\n");
    if (d->parsed)
        sb_add(&k, d->parsed + s, e - s);
    sb_adds(&k, "\n--hidden--\n");
    for (size_t i = 0; i < d->nhidden; i++)
        if (d->hidden[i].end > s && d->hidden[i].start < e)
            sb_addf(&k, "%ld-%ld ", (long)d->hidden[i].start - (long)s, (long)d->hidden[i].end - (long)s);
    sb_adds(&k, "\n--decorations--\n");
    if (d->decorations)
        sb_adds(&k, d->decorations);
    return sb_detach(&k);
}

const sib_unit_list *sib_memo_units(sib_memo *m, const syntax_doc *d, const syn_func *fn)
{
    char *key = memo_key(d, fn);
    if (!key)
        return NULL;
    long at = strset_find(&m->keys, key);
    memo_entry *e;
    if (at >= 0) {
        e = m->entries[m->keys.vals[at]];
        m->hits++;
    } else {
        e = xcalloc(1, sizeof *e);
        sib_units(d, fn, &e->units);
        strset_add_val(&m->keys, key, (int)m->n);
        *ARRAY_PUSH(m->entries, m->n, m->cap) = e;
    }
    free(key);
    e->used = true;
    return &e->units;
}

void sib_memo_trim(sib_memo *m)
{
    if (!m)
        return;
    memo_entry **old = m->entries;
    strset keys = m->keys;
    m->entries = NULL;
    m->n = m->cap = 0;
    memset(&m->keys, 0, sizeof m->keys);
    for (size_t i = 0; i < keys.n; i++) {
        memo_entry *e = old[keys.vals[i]];
        if (!e->used) {
            entry_free(e);
            continue;
        }
        e->used = false;
        strset_add_val(&m->keys, keys.items[i], (int)m->n);
        *ARRAY_PUSH(m->entries, m->n, m->cap) = e;
    }
    free(old);
    strset_free(&keys);
}

size_t sib_memo_size(const sib_memo *m)
{
    return m ? m->n : 0;
}

size_t sib_memo_hits(const sib_memo *m)
{
    return m ? m->hits : 0;
}
