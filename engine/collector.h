/* The interface every evidence collector implements (one file per collector under
 * engine/collectors/), and the kit they share. A collector has up to two stages:
 *
 *   - a per-file stage, called once for each changed file the collector reads (it declares
 *     which: languages and a path test), that reads that one file's base and head (text and
 *     syntax tree) and produces the file's findings and small facts about it. The runner keeps
 *     both, keyed by what the file is (collector_run.c), so an edit re-runs only the edited
 *     file's stage;
 *   - a change-wide stage, called once per review with every file's facts, that joins them
 *     (across files, with tree-wide indexes) and writes the status line.
 *
 * A collector that still needs the whole change at once has a `run` instead. Either way it
 * always states what it did in one status line: what it found, "nothing found: …", or
 * "skipped: …" — silence is never ambiguous. The runner stamps the collector's name on every
 * finding it makes.
 *
 * Ownership: the contexts borrow everything; facts a per-file stage makes belong to the
 * runner, which frees them with the collector's free_facts. */
#ifndef RL_COLLECTOR_H
#define RL_COLLECTOR_H

#include "engine/change.h"
#include "engine/finding.h"
#include "engine/path_gate.h"  /* every file a collector opens goes through the gate */
#include "engine/strset.h"
#include "engine/util.h"

typedef struct repo repo;
typedef struct syntax_cache syntax_cache;
typedef struct base_texts base_texts;

/* A text beside the change: an open editor buffer that is not part of it (path relative to the
 * work tree, its unsaved text), or a pull-request description (description set; path names
 * it as the user gave it). */
typedef struct collector_buffer {
    const char *path;
    const char *text;
    size_t len;
    bool description;
} collector_buffer;

struct py_outline; /* py_outline.h */

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
    base_texts *bases;     /* base texts kept between reviews, or NULL: read from git */
    struct collector_coverage_memo *coverage; /* each change file's coverage counts, worked
                              out once per review for every collector (NULL: not kept) */
    struct collector_outline_memo *outlines; /* each changed Python file's outline, read once
                              per review for every collector (NULL: not kept) */
    bool parse_ahead;      /* a second thread parses ahead (collector_parse_ahead): a
                              change-wide stage that will read several files' trees may queue
                              the next while it reads one */
} collector_ctx;

/* Which files a collector reads, by language (its path test, `reads`, narrows it further). */
enum {
    COLLECT_PYTHON = 1 << 0,   /* .py .pyi */
    COLLECT_CPP = 1 << 1,      /* C/C++/HIP sources and headers */
    COLLECT_OTHER = 1 << 2,    /* anything else: configs, scripts, docs */
    COLLECT_ANY = COLLECT_PYTHON | COLLECT_CPP | COLLECT_OTHER,
};

/* What a per-file stage is handed: one changed file of the review. */
typedef struct collector_file_ctx {
    collector_ctx *review;     /* the review (its change, repository, root, syntax cache) */
    const change_file *f;      /* the file */
    finding_list *out;         /* this file's findings */
    void *facts;               /* set by the stage: what the change-wide stage reads, or NULL */
    char *skip;                /* set by the stage (a new string) when it could not read the
                                  file: why; the file then counts as skipped */
    bool used_change;          /* set by collector_file_change: the result depends on other
                                  files of the change or the tree, not on this file alone */
    void *shared;              /* what the collector's shared_new made (compiled patterns and
                                  the like), or NULL when it has none */
    bool code_same;            /* a C/C++ or Python file whose code the change left as it
                                  was: only comments or layout differ (same_code.h). Nothing is
                                  parsed ahead for such a file, and a stage handed it reads no
                                  tree of it (guards: its changed lines hold no code) */
} collector_file_ctx;

/* One file's per-file result, as the change-wide stage sees it. */
typedef struct collector_file_result {
    const change_file *f;
    const void *facts;         /* the stage's facts (borrowed), or NULL */
    const char *skip;          /* why it was skipped, or NULL */
    bool cached;               /* reused from an earlier review */
} collector_file_result;

/* Every file the collector read in this review, in the change's order. */
typedef struct collector_files {
    const collector_file_result *items;
    size_t n;
    size_t nskipped;           /* how many have a skip */
    const char *first_skip;    /* the first skip's reason, or NULL */
} collector_files;

typedef struct collector {
    const char *name;      /* "guards", "siblings", ... */
    const char *rules;     /* the rule ids it gives evidence for, space separated */
    /* the files it reads: languages, then (when set) a test of the file */
    unsigned langs;
    bool (*reads)(const change_file *f);
    /* true when the per-file stage judges code only: a C/C++ or Python file whose code the
     * change left as it was (only comments or layout differ) is then not handed to it, and its
     * status line says how many were left out */
    bool judges_code;
    /* true when the per-file stage, handed a file whose code did not change
     * (collector_file_ctx.code_same), reads no tree of it: nothing is parsed ahead for it */
    bool code_same_untreed;
    /* the per-file stage (NULL: none) and how to free its facts (NULL: free()) */
    void (*file_stage)(collector_file_ctx *fx);
    /* whether the runner should parse f ahead for the stage: false when, from f's diff and
     * head text (o: its outline for a Python file, else NULL), the stage will likely parse
     * neither of f's docs (it still may, itself). NULL: whenever it reads the file. */
    bool (*parse_ahead)(collector_ctx *ctx, const change_file *f, const char *head, size_t hlen,
                        const struct py_outline *o);
    void (*free_facts)(void *facts);
    /* read-only things every per-file stage uses (NULL: none), made once and kept as long as
     * the runner: compiled patterns, tables */
    void *(*shared_new)(void);
    void (*shared_free)(void *shared);
    /* the change-wide stage: joins the files' facts, writes the status line (NULL only for a
     * collector with `run`) */
    void (*change_stage)(collector_ctx *ctx, const collector_files *files);
    /* a collector that reads the whole change at once (instead of the two stages) */
    void (*run)(collector_ctx *ctx);
    /* true when run reads only the change, files of the head tree and its own state (no
     * syntax cache, no repository, nothing another collector writes): the runner may start it
     * on a thread of its own before the per-file stages, its findings and status taken at its
     * turn */
    bool runs_apart;
    void (*free_state)(void *state); /* frees what it kept in *ctx->state; NULL if nothing */
} collector;

/* A parse_ahead for a collector whose stage reads diff lines only, or parses so rarely that
 * parsing ahead for it would waste the second thread: false. */
bool collector_never_parses_ahead(collector_ctx *ctx, const change_file *f, const char *head,
                                  size_t hlen, const struct py_outline *o);

/* True when the collector reads f (by its languages and its path test). */
bool collector_reads(const collector *c, const change_file *f);
/* Run one collector over ctx's change without a cache (both stages, or its run), stamping its
 * name on the findings it adds to ctx->out. For unit tests and one-off callers; the engine
 * runs collectors through collector_run.h. */
void collector_run(const collector *c, collector_ctx *ctx);
/* The change, for a per-file stage that must look beyond its file (other changed files, the
 * tree): marks the result as depending on them, so it is reused only while they are the same. */
const change *collector_file_change(collector_file_ctx *fx);
/* Write the status line for the two cases every per-file collector words alike: no file to
 * read ("nothing found: <none>"), or every file skipped ("skipped: <first reason>"). Returns
 * true when it wrote one. */
bool collector_files_status(collector_ctx *ctx, const collector_files *files, const char *none);

/* Set the status line ("found 2 …", "nothing found: …", "skipped: …"). */
void collector_status(collector_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add to the status line that n files it reads were left out because their code did not
 * change (collector.judges_code, collector_file_ctx.code_same); nothing when n is 0. */
void collector_status_code_same(collector_ctx *ctx, size_t n);

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
/* Queue f's head and base docs (default view) to be parsed on a second thread before a
 * collector asks for them (syntax_cache_parse_ahead); returns the text bytes queued. */
size_t collector_parse_ahead(collector_ctx *ctx, const change_file *f);
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

/* The same in two steps, for a per-file stage: one file's count (zero for a file that is not
 * C/C++, deleted, skipped or without added lines), then the note from every file's. */
typedef struct collector_coverage {
    const char *path;      /* borrowed from the change file (reset it from the file in hand
                              when the count was kept beyond its review) */
    int lines;             /* added C/C++ lines */
    int readable;          /* how many of them some view reads as code */
    int analysed;          /* how many the collector reads (all views, or collector_doc's) */
    int first, last;       /* the first and last line not read, 0 when all were */
} collector_coverage;
void collector_file_coverage(collector_ctx *ctx, const change_file *f, bool all_views,
                             collector_coverage *out);
/* The per-review memo of collector_file_coverage for a change of nfiles files (the runner makes
 * one per review and hands it to every collector: the counts depend on the file and the views
 * read, not on the collector). */
typedef struct collector_coverage_memo collector_coverage_memo;
collector_coverage_memo *collector_coverage_memo_new(size_t nfiles);
void collector_coverage_memo_free(collector_coverage_memo *m);
/* Copy into `into` the counts that `from` holds and `into` lacks (from: the memo of another
 * thread that read other files of the same change). */
void collector_coverage_memo_merge(collector_coverage_memo *into,
                                   const collector_coverage_memo *from);
/* Change file i's code did not change (only comments or layout): its added lines hold no
 * code to read, so its counts are zero and no view of it is parsed to count them. */
void collector_coverage_memo_code_same(collector_coverage_memo *m, size_t i);
void collector_coverage_join(const collector_coverage *files, size_t n, strbuf *out);
/* The note over every C/C++ file of the change, in the change's order, for a two-stage
 * collector whose facts hold a collector_coverage at cov_offset: from the facts of the files
 * it read, counted here (primary view) for the others. */
void collector_coverage_from_facts(collector_ctx *ctx, const struct collector_files *files,
                                   size_t cov_offset, strbuf *out);

/* The outline of f's head text (a Python file): the review's, read once for every collector
 * (borrowed, *owned NULL), else read for this call (*owned set: free it with
 * py_outline_free). */
typedef struct collector_outline_memo collector_outline_memo;
const struct py_outline *collector_outline(collector_ctx *ctx, const change_file *f,
                                           const char *text, size_t len,
                                           struct py_outline **owned);
/* The per-review memo of collector_outline for a change of nfiles files; drop f's outline
 * when its stages are over. */
collector_outline_memo *collector_outline_memo_new(size_t nfiles);
void collector_outline_memo_free(collector_outline_memo *m);
void collector_forget_outline(collector_ctx *ctx, const change_file *f);
/* The names module path (text [0, len), the same all review) binds at its top level
 * (py_toplevel_names): the review's, listed once (borrowed), else listed into *owned (the
 * caller frees it with strset_free). */
const strset *collector_module_names(collector_ctx *ctx, const char *path, const char *text,
                                     size_t len, strset *owned);

/* Release the parsed head and base of f (every view) from the shared syntax cache. */
void collector_release_docs(collector_ctx *ctx, const change_file *f);
/* Drop f's docs queued to be parsed ahead that no collector took (its stages are over). */
void collector_forget_ahead(collector_ctx *ctx, const change_file *f);
/* The shared syntax cache's key for a module a collector reads that is not a file of the
 * change (an imported module), as a new string. */
char *collector_module_key(const char *path);
/* Release every module parsed under collector_module_key from the shared syntax cache. */
void collector_release_modules(collector_ctx *ctx);

/* A hash of how f's first-party headers decorate it for the parser (its head, and its base
 * when the change edits an #include line): 0 for a file that is not C/C++. Part of a file's
 * identity for the per-file cache, since a header's new macro changes how the file parses. */
uint64_t collector_decoration_hash(collector_ctx *ctx, const change_file *f);

/* The registry, NULL-terminated, in the order they run. */
extern const collector *const collectors_all[];

#endif
