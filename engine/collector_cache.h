/* The per-file results of collectors, kept between reviews: for each (collector, path), the
 * findings and facts its per-file stage produced, and the identity of the file they were
 * produced from (its head text, its diff against the base — which together fix the base
 * text —, how its C/C++ headers decorate it, the mode and root of the review). A later review
 * of the same file content reuses them instead of re-reading and re-parsing it. A result that
 * looked beyond its file (collector_file_change) also records the generation of the whole
 * change it saw, and is reused only in a review of that same generation.
 *
 * Entries not asked for during a review are dropped when it ends (collector_cache_trim), so
 * the cache holds at most one entry per collector and file of the current change.
 *
 * Ownership: the cache owns its entries; a result returned by collector_cache_get is borrowed
 * until the next collector_cache_put for the same key or collector_cache_trim. */
#ifndef RL_COLLECTOR_CACHE_H
#define RL_COLLECTOR_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/change.h"
#include "engine/finding.h"

typedef struct collector_cache collector_cache;

typedef struct cached_result {
    finding_list findings;     /* the file's findings, collector names stamped */
    void *facts;               /* the stage's facts, or NULL */
    void (*free_facts)(void *facts);
    char *skip;                /* why the file was skipped, or NULL */
    bool used_change;          /* depends on the whole change: valid for change_gen only */
    uint64_t change_gen;
} cached_result;

collector_cache *collector_cache_new(void);
void collector_cache_free(collector_cache *c);
/* True when the cache holds a result of collector for path with identity id, whatever change it
 * was computed in (not marked used): its per-file stage will likely not run again. */
bool collector_cache_holds(const collector_cache *c, const char *collector, const char *path,
                           uint64_t id);
/* The result kept for (collector, path) computed from a file of identity id (and, when it
 * depended on the whole change, in generation gen), or NULL. Marks it used this round. */
const cached_result *collector_cache_get(collector_cache *c, const char *collector,
                                         const char *path, uint64_t id, uint64_t gen);
/* Keep a result (taken over whole: the caller's struct is zeroed) for (collector, path). */
void collector_cache_put(collector_cache *c, const char *collector, const char *path,
                         uint64_t id, cached_result *r);
/* Drop every entry not asked for or put since the previous trim. */
void collector_cache_trim(collector_cache *c);
/* How many entries it holds. */
size_t collector_cache_size(const collector_cache *c);

/* A hash of what a changed file is, independent of how it is parsed: path, old path, flags,
 * head text, hunks and lines. Two files with the same hash have the same base and head. */
uint64_t collector_cache_file_hash(const change_file *f);

#endif
