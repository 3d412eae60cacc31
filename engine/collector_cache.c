/* The per-file collector results of collector_cache.h: an open-addressing table keyed by
 * "collector\npath", each slot holding the result and the file identity it came from. */
#include "engine/collector_cache.h"

#include <stdlib.h>
#include <string.h>

#include "engine/util.h"

typedef struct entry {
    char *key;               /* "collector\npath"; NULL: an empty slot */
    uint64_t id;
    bool used;               /* asked for or put since the last trim */
    cached_result r;
} entry;

struct collector_cache {
    entry *slots;
    size_t cap, n;
};

collector_cache *collector_cache_new(void)
{
    collector_cache *c = xcalloc(1, sizeof *c);
    c->cap = 64;
    c->slots = xcalloc(c->cap, sizeof *c->slots);
    return c;
}

/* Free what a result owns. */
static void result_clear(cached_result *r)
{
    findings_clear(&r->findings);
    free(r->findings.items);
    if (r->facts)
        (r->free_facts ? r->free_facts : free)(r->facts);
    free(r->skip);
    memset(r, 0, sizeof *r);
}

void collector_cache_free(collector_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i].key) {
            free(c->slots[i].key);
            result_clear(&c->slots[i].r);
        }
    free(c->slots);
    free(c);
}

/* The slot holding key, or the empty one where it would go. */
static entry *slot_of(const collector_cache *c, const char *key)
{
    size_t i = (size_t)hash_bytes(key, strlen(key)) & (c->cap - 1);
    while (c->slots[i].key && strcmp(c->slots[i].key, key) != 0)
        i = (i + 1) & (c->cap - 1);
    return &c->slots[i];
}

/* Re-insert every entry into a table of cap slots (a power of two, > 2n). */
static void rehash(collector_cache *c, size_t cap)
{
    entry *old = c->slots;
    size_t ocap = c->cap;
    c->slots = xcalloc(cap, sizeof *c->slots);
    c->cap = cap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].key)
            *slot_of(c, old[i].key) = old[i];
    free(old);
}

bool collector_cache_holds(const collector_cache *c, const char *collector, const char *path,
                           uint64_t id)
{
    char *key = xasprintf("%s\n%s", collector, path);
    const entry *e = slot_of((collector_cache *)c, key);
    free(key);
    return e->key && e->id == id;
}

const cached_result *collector_cache_get(collector_cache *c, const char *collector,
                                         const char *path, uint64_t id, uint64_t gen)
{
    char *key = xasprintf("%s\n%s", collector, path);
    entry *e = slot_of(c, key);
    free(key);
    if (!e->key || e->id != id || (e->r.used_change && e->r.change_gen != gen))
        return NULL;
    e->used = true;
    return &e->r;
}

void collector_cache_put(collector_cache *c, const char *collector, const char *path,
                         uint64_t id, cached_result *r)
{
    if ((c->n + 1) * 2 > c->cap)
        rehash(c, c->cap * 2);
    char *key = xasprintf("%s\n%s", collector, path);
    entry *e = slot_of(c, key);
    if (e->key) {
        free(key);
        result_clear(&e->r);
    } else {
        e->key = key;
        c->n++;
    }
    e->id = id;
    e->used = true;
    e->r = *r;
    memset(r, 0, sizeof *r);
}

void collector_cache_trim(collector_cache *c)
{
    entry *old = c->slots;
    size_t ocap = c->cap;
    c->slots = xcalloc(ocap, sizeof *c->slots);
    c->n = 0;
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].key)
            continue;
        if (!old[i].used) {
            free(old[i].key);
            result_clear(&old[i].r);
            continue;
        }
        old[i].used = false;
        *slot_of(c, old[i].key) = old[i];
        c->n++;
    }
    free(old);
}

size_t collector_cache_size(const collector_cache *c)
{
    return c->n;
}

/* FNV-1a, continued over more bytes. */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Mix a string with its terminator (so "ab","c" and "a","bc" differ). */
static uint64_t mix_str(uint64_t h, const char *s)
{
    return s ? mix(h, s, strlen(s) + 1) : mix(h, "\1", 1);
}

uint64_t collector_cache_file_hash(const change_file *f)
{
    uint64_t h = 14695981039346656037ull;
    h = mix_str(h, f->path);
    h = mix_str(h, f->old_path);
    unsigned char flags[] = {f->is_new, f->is_deleted, f->is_renamed, f->is_binary, f->is_skipped};
    h = mix(h, flags, sizeof flags);
    h = mix_str(h, f->skip_reason);
    h = mix(h, &f->head_len, sizeof f->head_len);
    if (f->head_text)
        h = mix(h, f->head_text, f->head_len);
    for (size_t i = 0; i < f->nhunks; i++) {
        const diff_hunk *k = &f->hunks[i];
        int nums[] = {k->old_start, k->old_count, k->new_start, k->new_count};
        h = mix(h, nums, sizeof nums);
        h = mix_str(h, k->section);
    }
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        int nums[] = {l->kind, l->old_no, l->new_no};
        h = mix(h, nums, sizeof nums);
        h = mix(h, &l->len, sizeof l->len);
        h = mix(h, l->text, l->len);
    }
    return h;
}
