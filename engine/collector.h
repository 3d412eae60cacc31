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

/* A text beside the change: an open editor buffer that is not part of it (path relative to the
 * work tree, its unsaved text), or a pull-request description (description set; path names
 * it as the user gave it). */
typedef struct collector_buffer {
    const char *path;
    const char *text;
    size_t len;
    bool description;
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
    const struct collector_buffer *side_buffers; /* texts beside the change: editor buffers
                              that are not part of it (git's commit message, ignored files) and
                              a pull-request description; may be NULL */
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
 * the parse fails. A C/C++ file is parsed in the preprocessor view that keeps the #if branches
 * its changed lines are in (the base keeps the same branches for the same edits), with the
 * decoration macros of the first-party headers it includes (found under ctx->root). */
struct syntax_doc;
const struct syntax_doc *collector_doc(collector_ctx *ctx, const change_file *f, bool base,
                                       const char *text, size_t len, struct syntax_doc **owned,
                                       char **cause);
/* How many views it takes for every changed line of f to be parsed (1 unless the change
 * touches two branches of one #if block), and view k (0 <= k < that; 0 is collector_doc's):
 * the same, keeping the k-th touched branch of such blocks. */
int collector_view_count(collector_ctx *ctx, const change_file *f, bool base, const char *text,
                         size_t len);
const struct syntax_doc *collector_doc_view(collector_ctx *ctx, const change_file *f, bool base,
                                            const char *text, size_t len, int view,
                                            struct syntax_doc **owned, char **cause);
/* Append to out, for a status line, how many added C/C++ lines of the change the collector
 * did not read as code: "; 10 of 12 changed C/C++ line(s) analysed, 2 unparsed (a.cu:40-41)"
 * for lines no view reads (inside ERROR nodes; up to three files named), and ", N only in
 * another preprocessor branch (not read by this collector)" for lines only a view other than
 * collector_doc's reads, when the collector reads that one alone (all_views false). Nothing
 * when every added line was read. */
void collector_coverage_note(collector_ctx *ctx, bool all_views, strbuf *out);

/* The registry, NULL-terminated, in the order they run. */
extern const collector *const collectors_all[];

#endif
