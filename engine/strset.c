/* The insertion-ordered string set of strset.h: an array of copies, and past a few items an
 * open-addressing table of their positions keyed by an FNV hash. */
#include "engine/strset.h"

#include <stdlib.h>
#include <string.h>

#include "engine/util.h"

/* Below this many items a linear scan beats hashing. */
#define LINEAR_MAX 8

/* Put item i's position into the table (which has room). */
static void slot_put(size_t *slots, size_t nslots, const char *str, size_t i)
{
    size_t h = (size_t)hash_bytes(str, strlen(str)) & (nslots - 1);
    while (slots[h])
        h = (h + 1) & (nslots - 1);
    slots[h] = i + 1;
}

/* Rebuild the table at twice the items' count (a power of two). */
static void reindex(strset *s)
{
    size_t want = 16;
    while (want < s->n * 2)
        want *= 2;
    free(s->slots);
    s->slots = xcalloc(want, sizeof *s->slots);
    s->nslots = want;
    for (size_t i = 0; i < s->n; i++)
        slot_put(s->slots, s->nslots, s->items[i], i);
}

long strset_find(const strset *s, const char *str)
{
    if (!s->slots) {
        for (size_t i = 0; i < s->n; i++)
            if (strcmp(s->items[i], str) == 0)
                return (long)i;
        return -1;
    }
    size_t h = (size_t)hash_bytes(str, strlen(str)) & (s->nslots - 1);
    for (; s->slots[h]; h = (h + 1) & (s->nslots - 1))
        if (strcmp(s->items[s->slots[h] - 1], str) == 0)
            return (long)(s->slots[h] - 1);
    return -1;
}

bool strset_has(const strset *s, const char *str)
{
    return strset_find(s, str) >= 0;
}

size_t strset_add_val(strset *s, const char *str, int val)
{
    long at = strset_find(s, str);
    if (at >= 0)
        return (size_t)at;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->items = xrealloc(s->items, s->cap * sizeof *s->items);
        s->vals = xrealloc(s->vals, s->cap * sizeof *s->vals);
    }
    size_t i = s->n++;
    s->items[i] = xstrdup(str);
    s->vals[i] = val;
    if (s->slots && s->n * 2 <= s->nslots)
        slot_put(s->slots, s->nslots, s->items[i], i);
    else if (s->n > LINEAR_MAX)
        reindex(s);
    return i;
}

bool strset_add(strset *s, const char *str)
{
    size_t before = s->n;
    strset_add_val(s, str, 0);
    return s->n > before;
}

const char *strset_at(const strset *s, size_t i)
{
    return i < s->n ? s->items[i] : NULL;
}

void strset_union(strset *dst, const strset *src)
{
    for (size_t i = 0; i < src->n; i++)
        strset_add_val(dst, src->items[i], src->vals[i]);
}

void strset_free(strset *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->items[i]);
    free(s->items);
    free(s->vals);
    free(s->slots);
    memset(s, 0, sizeof *s);
}
