/* The interface every evidence collector implements (one file per collector under
 * engine/collectors/). A collector reads the change (and head/base text through the helpers
 * here), appends findings, and always states what it did in one status line: what it found,
 * "nothing found: …", or "skipped: …" — silence is never ambiguous.
 *
 * Ownership: the context borrows everything; a collector owns nothing after it returns. */
#ifndef RL_COLLECTOR_H
#define RL_COLLECTOR_H

#include "engine/change.h"
#include "engine/finding.h"
#include "engine/path_gate.h"  /* every file a collector opens goes through the gate */
#include "engine/util.h"

typedef struct repo repo;
typedef struct syntax_cache syntax_cache;

/* An open editor buffer (path relative to the work tree, its unsaved text). */
typedef struct collector_buffer {
    const char *path;
    const char *text;
    size_t len;
} collector_buffer;

typedef struct collector_ctx {
    const change *chg;
    repo *rp;              /* the repository, or NULL in --diff mode */
    const char *root;      /* directory of the head tree (work tree or --root), or NULL */
    finding_list *out;     /* append findings here */
    syntax_cache *syn;     /* parsed documents shared by every collector and kept between
                              reviews; NULL in some unit tests (use collector_doc) */
    void **state;          /* where the collector may keep state between reviews (a tree-wide
                              index, say), freed by its free_state; NULL: nothing is kept */
    const char *const *touched; /* work-tree paths changed on disk since the previous review,
                              NULL-terminated; NULL when unknown (assume anything changed) */
    const struct collector_buffer *side_buffers; /* editor buffers that are not part of the
                              change (git's commit message, ignored files); may be NULL */
    size_t nside_buffers;
    strbuf status;         /* the collector's one-line status; set with collector_status */
} collector_ctx;

typedef struct collector {
    const char *name;      /* "guards", "siblings", ... */
    const char *rules;     /* the rule ids it gives evidence for, space separated */
    void (*run)(collector_ctx *ctx);
    void (*free_state)(void *state); /* frees what run kept in *ctx->state; NULL if nothing */
} collector;

/* Set the status line ("found 2 …", "nothing found: …", "skipped: …"). */
void collector_status(collector_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Base text of a file (NULL with *cause when not available: --diff mode, new file). */
char *collector_base_text(collector_ctx *ctx, const change_file *f, size_t *len, char **cause);

/* The parsed head (base=false) or base version of f holding text: from the shared cache when
 * the context has one (borrowed, *owned set to NULL), else parsed for this call (*owned set:
 * the caller frees it with syntax_free). NULL with *cause when the language is not parsed or
 * the parse fails. */
struct syntax_doc;
const struct syntax_doc *collector_doc(collector_ctx *ctx, const change_file *f, bool base,
                                       const char *text, size_t len, struct syntax_doc **owned,
                                       char **cause);

/* The registry, NULL-terminated, in the order they run. */
extern const collector *const collectors_all[];

#endif
