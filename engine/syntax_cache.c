/* The document cache of the syntax layer (syntax.h syntax_cache_*): parsed docs kept by key
 * and reparsed incrementally when their text changes, with each doc's function and struct lists
 * kept beside it, the header reader, and the compiled queries its docs share. It sits above
 * the parser (syntax.c) and the extractors (syntax_functions.c, syntax_structs.c), which know
 * nothing of it. */
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/syntax_ahead.h"
#include "engine/syntax_internal.h"
#include "engine/util.h"

typedef struct cache_entry {
    char *key;
    syntax_doc *doc;
    syn_func_list *funcs;     /* NULL until asked for; on the heap, so a pointer to it stays */
    syn_struct_list *structs; /* valid while the entry's doc does (the array of entries moves) */
    bool used;          /* asked for since the last trim */
} cache_entry;

struct syntax_cache {
    cache_entry *items;
    size_t n, cap;
    size_t nparses, nupdates;
    size_t nahead;            /* parses done ahead on the second thread (counted in nparses) */
    size_t nqueued;           /* docs queued to be parsed ahead */
    size_t nrelated;          /* parses that started from a related doc's tree (in nparses) */
    double parse_ms;          /* time spent parsing and reparsing, in total */
    syntax_headers *headers;  /* decoration macros of the tree's headers, or NULL */
    syntax_queries *queries;  /* compiled queries, shared by the docs here */
    bool queries_borrowed;    /* another cache's (syntax_cache_new_beside) */
    syntax_ahead *ahead;      /* docs being parsed ahead on a second thread, or NULL */
};

/* A new, empty cache. */
syntax_cache *syntax_cache_new(void)
{
    syntax_cache *c = xcalloc(1, sizeof(syntax_cache));
    c->queries = syntax_queries_new();
    return c;
}

/* A cache for a second reviewing thread: empty, sharing c's compiled queries. */
syntax_cache *syntax_cache_new_beside(syntax_cache *c)
{
    syntax_cache *b = xcalloc(1, sizeof(syntax_cache));
    b->queries = c->queries;
    b->queries_borrowed = true;
    return b;
}

/* Forget an entry's function and struct lists (its doc changed or goes). */
static void entry_lists_clear(cache_entry *e)
{
    if (e->funcs)
        syn_func_list_free(e->funcs);
    if (e->structs)
        syn_struct_list_free(e->structs);
    free(e->funcs);
    free(e->structs);
    e->funcs = NULL;
    e->structs = NULL;
}

/* Release one entry's doc, lists and key. */
static void cache_entry_clear(cache_entry *e)
{
    free(e->key);
    syntax_free(e->doc);
    entry_lists_clear(e);
}

/* Release the cache and every doc in it. */
void syntax_cache_free(syntax_cache *c)
{
    if (!c)
        return;
    syntax_ahead_free(c->ahead);
    for (size_t i = 0; i < c->n; i++)
        cache_entry_clear(&c->items[i]);
    free(c->items);
    syntax_headers_free(c->headers);
    if (!c->queries_borrowed)
        syntax_queries_free(c->queries); /* after the docs that use them */
    free(c);
}

/* The doc for key with this text: kept, updated incrementally, or parsed. */
const syntax_doc *syntax_cache_get(syntax_cache *c, const char *key, syn_lang lang,
                                   const char *text, size_t len, char **cause)
{
    return syntax_cache_get_with(c, key, lang, text, len, NULL, cause);
}

/* True when a doc was parsed with options equal to o. */
static bool same_opts(const syntax_doc *d, const syntax_parse_opts *o)
{
    size_t nkeep = o ? o->nkeep : 0;
    const char *deco = o && o->decorations && *o->decorations ? o->decorations : NULL;
    if (d->nkeep != nkeep || (o ? o->view : 0) != d->view || (deco == NULL) != (d->decorations == NULL) ||
        (deco && strcmp(deco, d->decorations) != 0))
        return false;
    return nkeep == 0 || memcmp(d->keep, o->keep_lines, nkeep * sizeof *d->keep) == 0;
}

/* The doc kept for key when it holds exactly text in the view of o (decorations aside) and was
 * asked for since the last trim; NULL otherwise. */
const syntax_doc *syntax_cache_peek(syntax_cache *c, const char *key, syn_lang lang,
                                    const char *text, size_t len, const syntax_parse_opts *o)
{
    for (size_t i = 0; i < c->n; i++) {
        cache_entry *e = &c->items[i];
        if (strcmp(e->key, key) != 0)
            continue;
        syntax_parse_opts view = o ? *o : (syntax_parse_opts){0};
        view.decorations = e->doc->decorations;
        if (e->used && e->doc->lang == lang && e->doc->len == len &&
            memcmp(e->doc->text, text, len) == 0 && same_opts(e->doc, &view))
            return e->doc;
        return NULL;
    }
    return NULL;
}

/* The doc for key with this text and these options: kept, updated incrementally, or parsed. */
/* A doc a new one may be parsed from (syntax_cache_get_related): its key and the line map. */
typedef struct related {
    const char *key;
    const int *line_map;
    size_t nmap;
} related;

static const syntax_doc *cache_get(syntax_cache *c, const char *key, syn_lang lang,
                                   const char *text, size_t len, const syntax_parse_opts *o,
                                   const related *from, char **cause);

const syntax_doc *syntax_cache_get_with(syntax_cache *c, const char *key, syn_lang lang,
                                        const char *text, size_t len,
                                        const syntax_parse_opts *o, char **cause)
{
    double t0 = monotonic_ms();
    const syntax_doc *d = cache_get(c, key, lang, text, len, o, NULL, cause);
    c->parse_ms += monotonic_ms() - t0;
    return d;
}

const syntax_doc *syntax_cache_get_related(syntax_cache *c, const char *key, syn_lang lang,
                                           const char *text, size_t len,
                                           const syntax_parse_opts *o, const char *from_key,
                                           const int *line_map, size_t nmap, char **cause)
{
    double t0 = monotonic_ms();
    related from = {from_key, line_map, nmap};
    const syntax_doc *d = cache_get(c, key, lang, text, len, o, &from, cause);
    c->parse_ms += monotonic_ms() - t0;
    return d;
}

double syntax_cache_parse_ms(const syntax_cache *c)
{
    return c->parse_ms;
}

/* The doc held for key, or NULL. */
static const syntax_doc *cache_find(const syntax_cache *c, const char *key)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->items[i].key, key) == 0)
            return c->items[i].doc;
    return NULL;
}

void syntax_cache_adopt(syntax_cache *into, syntax_cache *from)
{
    for (size_t i = 0; i < from->n; i++) {
        cache_entry *e = &from->items[i];
        if (cache_find(into, e->key)) {
            cache_entry_clear(e); /* the same text parsed on both threads: one is enough */
            continue;
        }
        *ARRAY_PUSH(into->items, into->n, into->cap) = *e;
    }
    from->n = 0;
    into->nparses += from->nparses;
    into->nupdates += from->nupdates;
    into->nrelated += from->nrelated;
    into->parse_ms += from->parse_ms;
    from->nparses = from->nupdates = from->nrelated = 0;
    from->parse_ms = 0;
}

/* syntax_cache_get_with, untimed. */
static const syntax_doc *cache_get(syntax_cache *c, const char *key, syn_lang lang,
                                   const char *text, size_t len, const syntax_parse_opts *o,
                                   const related *from, char **cause)
{
    cache_entry *e = NULL;
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->items[i].key, key) == 0) {
            e = &c->items[i];
            break;
        }
    if (e && e->doc->lang == lang) {
        e->used = true;
        bool same_text = e->doc->len == len && memcmp(e->doc->text, text, len) == 0;
        if (same_text && same_opts(e->doc, o))
            return e->doc;
        TSTree *before = e->doc->tree;
        if (syntax_update_with(e->doc, text, len, o, cause) < 0)
            return NULL;
        if (same_text && e->doc->tree == before)
            return e->doc; /* other options, same blanked copy: nothing was reparsed */
        c->nupdates++;
        entry_lists_clear(e);
        return e->doc;
    }
    /* a doc not held yet may have been parsed ahead; else it is parsed here */
    syntax_doc *d = e ? NULL : syntax_ahead_take(c->ahead, key, lang, text, len, o);
    const syntax_doc *origin_doc = from && !d ? cache_find(c, from->key) : NULL;
    if (d) {
        c->nahead++;
    } else if (origin_doc && origin_doc->lang == lang) {
        /* a related doc is held (a changed file's head, for its base): only what differs is
         * parsed again */
        syntax_origin *origin = syntax_origin_new(origin_doc);
        d = syntax_parse_from(origin, from->line_map, from->nmap, lang, text, len, o, cause);
        syntax_origin_free(origin);
        c->nrelated += d != NULL;
    } else {
        d = syntax_parse_with(lang, text, len, o, cause);
    }
    if (!d)
        return NULL;
    d->queries = c->queries; /* borrowed: the cache outlives its docs */
    c->nparses++;
    if (e) {
        syntax_free(e->doc);
        entry_lists_clear(e);
    } else {
        e = ARRAY_PUSH(c->items, c->n, c->cap);
        memset(e, 0, sizeof *e);
        e->key = xstrdup(key);
    }
    e->doc = d;
    e->used = true;
    return d;
}

bool syntax_cache_parse_ahead(syntax_cache *c, const char *key, syn_lang lang, const char *text,
                              size_t len, const syntax_parse_opts *o)
{
    return syntax_cache_parse_ahead_related(c, key, lang, text, len, o, NULL, NULL, 0);
}

bool syntax_cache_parse_ahead_related(syntax_cache *c, const char *key, syn_lang lang,
                                      const char *text, size_t len, const syntax_parse_opts *o,
                                      const char *from_key, const int *line_map, size_t nmap)
{
    if (cache_find(c, key))
        return false; /* held: asking again costs a comparison or an incremental update */
    if (!c->ahead)
        c->ahead = syntax_ahead_new();
    bool queued = syntax_ahead_submit_related(c->ahead, key, lang, text, len, o, from_key,
                                              line_map, nmap);
    c->nqueued += queued;
    return queued;
}

size_t syntax_cache_related_parses(const syntax_cache *c)
{
    return c->nrelated;
}

size_t syntax_cache_ahead_queued(const syntax_cache *c)
{
    return c->nqueued;
}

double syntax_cache_ahead_waited_ms(syntax_cache *c)
{
    return syntax_ahead_waited_ms(c->ahead);
}

size_t syntax_cache_ahead_taken(const syntax_cache *c)
{
    return c->nahead;
}

size_t syntax_cache_ahead_bytes(syntax_cache *c)
{
    return syntax_ahead_pending_bytes(c->ahead);
}

void syntax_cache_ahead_forget(syntax_cache *c, const char *key)
{
    syntax_ahead_forget(c->ahead, key);
}

void syntax_cache_ahead_clear(syntax_cache *c)
{
    syntax_ahead_clear(c->ahead);
}

/* The cached function list of a doc from this cache. */
const syn_func_list *syntax_cache_functions(syntax_cache *c, const syntax_doc *d)
{
    for (size_t i = 0; i < c->n; i++) {
        cache_entry *e = &c->items[i];
        if (e->doc != d)
            continue;
        if (!e->funcs) {
            e->funcs = xcalloc(1, sizeof *e->funcs);
            syntax_functions(d, e->funcs);
        }
        return e->funcs;
    }
    return NULL;
}

/* The cached struct list of a doc from this cache. */
const syn_struct_list *syntax_cache_structs(syntax_cache *c, const syntax_doc *d)
{
    for (size_t i = 0; i < c->n; i++) {
        cache_entry *e = &c->items[i];
        if (e->doc != d)
            continue;
        if (!e->structs) {
            e->structs = xcalloc(1, sizeof *e->structs);
            syntax_structs(d, e->structs);
        }
        return e->structs;
    }
    return NULL;
}

/* The cache's header reader for root. */
syntax_headers *syntax_cache_headers(syntax_cache *c, const char *root)
{
    if (!root)
        return NULL;
    const char *have = syntax_headers_root(c->headers);
    if (!have || strcmp(have, root) != 0) {
        syntax_headers_free(c->headers);
        c->headers = syntax_headers_new(root);
    }
    return c->headers;
}

void syntax_cache_headers_changed(syntax_cache *c)
{
    syntax_headers_next_round(c->headers);
}

/* Drop the docs nobody asked for since the previous trim. */
void syntax_cache_trim(syntax_cache *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (c->items[i].used) {
            c->items[i].used = false;
            c->items[k++] = c->items[i];
        } else {
            cache_entry_clear(&c->items[i]);
        }
    }
    c->n = k;
}

void syntax_cache_drop(syntax_cache *c, const char *key)
{
    size_t n = strlen(key), k = 0;
    for (size_t i = 0; i < c->n; i++) {
        const char *ek = c->items[i].key;
        if (strncmp(ek, key, n) == 0 && (ek[n] == '\0' || ek[n] == '#'))
            cache_entry_clear(&c->items[i]);
        else
            c->items[k++] = c->items[i];
    }
    c->n = k;
}

void syntax_cache_drop_prefix(syntax_cache *c, const char *prefix)
{
    size_t n = strlen(prefix), k = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (strncmp(c->items[i].key, prefix, n) == 0)
            cache_entry_clear(&c->items[i]);
        else
            c->items[k++] = c->items[i];
    }
    c->n = k;
}

size_t syntax_cache_bytes(const syntax_cache *c)
{
    size_t total = 0;
    for (size_t i = 0; i < c->n; i++)
        total += c->items[i].doc->len;
    return total;
}

/* Counts for logs and tests. */
void syntax_cache_stats(const syntax_cache *c, size_t *ndocs, size_t *nparses, size_t *nupdates)
{
    if (ndocs)
        *ndocs = c->n;
    if (nparses)
        *nparses = c->nparses;
    if (nupdates)
        *nupdates = c->nupdates;
}
