/* The collector runner of collector_run.h, and the one-collector runs of collector.h
 * (collector_run, collector_reads, collector_files_status, collector_file_change). */
#include "engine/collector_run.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "engine/base_texts.h"
#include "engine/beside.h"
#include "engine/collector_cache.h"
#include "engine/py_outline.h"
#include "engine/same_code.h"
#include "engine/syntax.h"

struct collector_runner {
    bool keep;
    void **states;           /* one per registry entry */
    void **shared;           /* one per registry entry: what its shared_new made */
    size_t nstates;
    collector_cache *cache;  /* NULL without keep */
    base_texts *bases;       /* NULL without keep */
    FILE *timing;
    bool second_thread;      /* share the files out, or parse ahead (see run_file_stages), and
                                run whole-change runs apart, on a second thread */
    size_t heap_budget;      /* HEAP_BUDGET (BATCH_HEAP_BUDGET without keep) unless a caller
                                sets another */
    uint64_t disk_epoch;     /* bumped when something outside the change may have changed */
};

/* What one review knows about its files, worked out on first need. */
typedef struct review_files {
    const collector_inputs *in;
    collector_ctx *ctx;      /* for the decorations of C/C++ files */
    uint64_t *id;            /* per change file: its identity for the cache (0: not yet) */
    uint64_t *content;       /* per change file: collector_cache_file_hash (0: not yet) */
    uint64_t epoch;
    const collector *gen_of; /* the collector gen was worked out for, or NULL */
    uint64_t gen;
    signed char *same;       /* per change file: its code left as it was (1), changed (-1),
                                not asked yet (0) */
} review_files;

/* The heap the runner lets the process use while it reads a change file by file before it
 * gives the trees of files it is done with back (a small change keeps them all, for the
 * change-wide stages; a branch switch touching a thousand files stays within the budget).
 * Open documents are always kept: they are reparsed incrementally as they are typed in.
 * A runner that keeps nothing between reviews (a batch review, which has no memory target of
 * the server's) has more: the change-wide stages then find the trees of large changes still
 * held instead of parsing them again (the README's figures, from bench/large_pr_costs.py). */
#define HEAP_BUDGET ((size_t)24 << 20)
#define BATCH_HEAP_BUDGET ((size_t)64 << 20)

/* How far parsing runs ahead of the collectors in a large change: files to be parsed, and
 * text bytes waiting to be taken. A review's first file is parsed by the collectors
 * themselves. */
#define AHEAD_FILES 2
#define AHEAD_BYTES ((size_t)1 << 20)
/* How far past the current file the window may reach over files no stage will parse. */
#define AHEAD_LOOK 32
/* The fewest files a change must have for a batch review to share them out between two
 * reading threads (a smaller one is read as quickly by one, parsing ahead). */
#define SHARED_OUT_FILES 4

/* What one collector did in one review, for the timing line. */
typedef struct stage_cost {
    double files_ms, change_ms, parse_ms;
    size_t nrun, ncached;
    bool apart; /* a whole-change run made on a thread of its own (collector.runs_apart) */
} stage_cost;

bool collector_reads(const collector *c, const change_file *f)
{
    syn_lang lang = syntax_lang_of_path(f->path);
    unsigned want = lang == SYN_PYTHON ? COLLECT_PYTHON : lang == SYN_CPP ? COLLECT_CPP : COLLECT_OTHER;
    return (c->langs & want) && (!c->reads || c->reads(f));
}

const change *collector_file_change(collector_file_ctx *fx)
{
    fx->used_change = true;
    return fx->review->chg;
}

bool collector_files_status(collector_ctx *ctx, const collector_files *files, const char *none)
{
    if (!files->n)
        collector_status(ctx, "nothing found: %s", none);
    else if (files->nskipped == files->n)
        collector_status(ctx, "skipped: %s", files->first_skip);
    else
        return false;
    return true;
}

/* Set the collector name on the findings of l from index `from` that have none. */
static void stamp(finding_list *l, size_t from, const char *name)
{
    for (size_t i = from; i < l->n; i++)
        if (!l->items[i].collector)
            l->items[i].collector = xstrdup(name);
}

/* True when change file i is a C/C++ or Python file whose code the change left as it was:
 * only comments or layout differ between its base and head (same_code.h). Asked once per
 * review. */
static bool code_unchanged(review_files *rf, size_t i)
{
    if (rf->same[i])
        return rf->same[i] > 0;
    rf->same[i] = -1;
    const change_file *f = &rf->in->chg->files[i];
    syn_lang lang = syntax_lang_of_path(f->path);
    if ((lang != SYN_CPP && lang != SYN_PYTHON) || f->is_new || f->is_deleted || f->is_binary ||
        f->is_skipped || !rf->ctx)
        return false;
    char *cause = NULL;
    size_t hlen = 0, blen = 0;
    char *head = change_head_text(rf->in->chg, f, &hlen, &cause);
    free(cause);
    cause = NULL;
    char *base = head ? collector_base_text(rf->ctx, f, &blen, &cause) : NULL;
    free(cause);
    if (head && !base)
        base = change_base_from_head(f, head, hlen, &blen);
    bool same = head && base &&
                (lang == SYN_CPP ? same_code_cpp(base, blen, head, hlen) : same_code_py(base, blen, head, hlen));
    if (same) {
        rf->same[i] = 1;
        collector_coverage_memo_code_same(rf->ctx->coverage, i);
    }
    free(head);
    free(base);
    return rf->same[i] > 0;
}

/* The content hash of change file i. */
static uint64_t content_of(review_files *rf, size_t i)
{
    if (!rf->content[i])
        rf->content[i] = collector_cache_file_hash(&rf->in->chg->files[i]) | 1;
    return rf->content[i];
}

/* The identity of change file i for the cache: its content, how its headers decorate it, and
 * the review's mode and root. */
static uint64_t identity_of(review_files *rf, size_t i)
{
    if (rf->id[i])
        return rf->id[i];
    const change_file *f = &rf->in->chg->files[i];
    uint64_t parts[3] = {content_of(rf, i), collector_decoration_hash(rf->ctx, f),
                         rf->in->rp ? 1u : 2u};
    uint64_t h = hash_bytes(parts, sizeof parts);
    if (rf->in->root)
        h ^= hash_bytes(rf->in->root, strlen(rf->in->root)) * 31u;
    rf->id[i] = h | 1;
    return rf->id[i];
}

/* The generation of the change as collector c sees it: the paths and flags of every file,
 * the content of those in c's languages, and the disk epoch. A per-file result that looked
 * beyond its file is reused only in the same generation, so an edit of a C++ file leaves the
 * results of a Python-only collector alone. */
static uint64_t generation_of(review_files *rf, const collector *c)
{
    if (rf->gen_of == c)
        return rf->gen;
    const change *chg = rf->in->chg;
    uint64_t *all = xcalloc(chg->nfiles + 1, sizeof *all);
    for (size_t i = 0; i < chg->nfiles; i++) {
        const change_file *f = &chg->files[i];
        collector probe = {.langs = c->langs};
        if (collector_reads(&probe, f)) {
            all[i] = content_of(rf, i);
        } else {
            char *flags = xasprintf("%s\n%s\n%d%d%d%d", f->path, f->old_path ? f->old_path : "",
                                    f->is_new, f->is_deleted, f->is_renamed, f->is_skipped);
            all[i] = hash_bytes(flags, strlen(flags));
            free(flags);
        }
    }
    all[chg->nfiles] = rf->epoch;
    rf->gen = hash_bytes(all, (chg->nfiles + 1) * sizeof *all) | 1;
    rf->gen_of = c;
    free(all);
    return rf->gen;
}

/* True when r keeps c's result for change file i as it is now. */
static bool result_kept(collector_runner *r, const collector *c, review_files *rf, size_t i)
{
    return r && r->cache &&
           collector_cache_holds(r->cache, c->name, rf->in->chg->files[i].path, identity_of(rf, i));
}

/* Run c's per-file stage on change file i, or take its result from the cache. Appends the
 * findings to ctx->out and fills res; a result not kept in the cache has its facts put in
 * *own (to be freed after the change-wide stage). */
static void file_result(collector_runner *r, const collector *c, collector_ctx *ctx,
                        review_files *rf, size_t i, void *shared, collector_file_result *res,
                        void **own, char **own_skip, stage_cost *cost)
{
    const change_file *f = &ctx->chg->files[i];
    uint64_t id = 0;
    *res = (collector_file_result){.f = f};
    if (r && r->cache) {
        id = identity_of(rf, i);
        const cached_result *cr = collector_cache_get(r->cache, c->name, f->path, id,
                                                      generation_of(rf, c));
        if (cr) {
            for (size_t k = 0; k < cr->findings.n; k++)
                findings_copy(ctx->out, &cr->findings.items[k]);
            res->facts = cr->facts;
            res->skip = cr->skip;
            res->cached = true;
            cost->ncached++;
            return;
        }
    }
    double t0 = monotonic_ms();
    cached_result kept = {.free_facts = c->free_facts};
    /* the stage sees the review with its own findings list as the output */
    collector_ctx fctx = *ctx;
    fctx.out = &kept.findings;
    collector_file_ctx fx = {.review = &fctx, .f = f, .out = &kept.findings, .shared = shared,
                             .code_same = code_unchanged(rf, i)};
    c->file_stage(&fx);
    cost->files_ms += monotonic_ms() - t0;
    cost->nrun++;
    stamp(&kept.findings, 0, c->name);
    for (size_t k = 0; k < kept.findings.n; k++)
        findings_copy(ctx->out, &kept.findings.items[k]);
    res->facts = fx.facts;
    res->skip = fx.skip;
    if (r && r->cache) {
        kept.facts = fx.facts;
        kept.skip = fx.skip;
        kept.used_change = fx.used_change;
        kept.change_gen = fx.used_change ? generation_of(rf, c) : 0;
        collector_cache_put(r->cache, c->name, f->path, id, &kept);
        return;
    }
    *own = fx.facts;
    *own_skip = fx.skip;
    findings_clear(&kept.findings);
    free(kept.findings.items);
}

/* One collector's per-file results of a review, filled file by file. */
typedef struct file_results {
    collector_file_result *res;
    void **own;              /* facts not kept in a cache, freed after the change-wide stage */
    char **own_skip;
    collector_files files;
    size_t nsame;            /* files it reads left out: their code did not change */
} file_results;

static void results_begin(file_results *fr, size_t nfiles)
{
    fr->res = xcalloc(nfiles + 1, sizeof *fr->res);
    fr->own = xcalloc(nfiles + 1, sizeof *fr->own);
    fr->own_skip = xcalloc(nfiles + 1, sizeof *fr->own_skip);
    fr->files = (collector_files){fr->res, 0, 0, NULL};
    fr->nsame = 0;
}

/* One collector's outcome on one change file, filled by whichever thread read the file. */
typedef struct file_slot {
    collector_file_result res;
    void *own;      /* facts not kept in a cache */
    char *own_skip;
    bool ran;       /* its stage ran, or its kept result was taken */
    bool same;      /* left out: the file's code did not change */
} file_slot;

/* Run (or take from the cache) c's per-file stage on change file i, when c reads it, into s;
 * its findings go to ctx->out. */
static void slot_fill(collector_runner *r, const collector *c, collector_ctx *ctx,
                      review_files *rf, size_t i, void *shared, file_slot *s, stage_cost *cost)
{
    if (!c->file_stage || !collector_reads(c, &ctx->chg->files[i]))
        return;
    /* a kept result was made for code that changed; only a file whose stage would run is
     * compared with its base (a review of an unchanged change reads no text for this) */
    if (c->judges_code && !result_kept(r, c, rf, i) && code_unchanged(rf, i)) {
        s->same = true;
        return;
    }
    double p0 = ctx->syn ? syntax_cache_parse_ms(ctx->syn) : 0;
    file_result(r, c, ctx, rf, i, shared, &s->res, &s->own, &s->own_skip, cost);
    if (ctx->syn)
        cost->parse_ms += syntax_cache_parse_ms(ctx->syn) - p0;
    s->ran = true;
}

/* Add a file's outcome to c's per-file results (files taken in the change's order). */
static void results_take(file_results *fr, const file_slot *s)
{
    fr->nsame += s->same;
    if (!s->ran)
        return;
    size_t k = fr->files.n++;
    fr->res[k] = s->res;
    fr->own[k] = s->own;
    fr->own_skip[k] = s->own_skip;
    if (fr->res[k].skip && fr->files.nskipped++ == 0)
        fr->files.first_skip = fr->res[k].skip;
}

/* Run c's change-wide stage over its per-file results, then free them. */
static void results_finish(const collector *c, collector_ctx *ctx, file_results *fr,
                           stage_cost *cost)
{
    double t0 = monotonic_ms(), p0 = ctx->syn ? syntax_cache_parse_ms(ctx->syn) : 0;
    c->change_stage(ctx, &fr->files);
    if (fr->files.n == 0 && fr->nsame > 0)
        /* every file it reads was left out: it looked, and there is no new code to judge (its
         * stage, handed no file, would say it had nothing to read, which reads as skipped) */
        collector_status(ctx, "nothing found: the code of the %zu changed file(s) it reads did not "
                              "change (only comments or layout)", fr->nsame);
    else
        collector_status_code_same(ctx, fr->nsame);
    cost->change_ms += monotonic_ms() - t0;
    if (ctx->syn)
        cost->parse_ms += syntax_cache_parse_ms(ctx->syn) - p0;
    for (size_t k = 0; k < fr->files.n; k++) {
        if (fr->own[k])
            (c->free_facts ? c->free_facts : free)(fr->own[k]);
        free(fr->own_skip[k]);
    }
    free(fr->own);
    free(fr->own_skip);
    free(fr->res);
}

/* Run a collector that reads the whole change at once, timed. */
static void run_whole(const collector *c, collector_ctx *ctx, stage_cost *cost)
{
    double t0 = monotonic_ms(), p0 = ctx->syn ? syntax_cache_parse_ms(ctx->syn) : 0;
    c->run(ctx);
    cost->change_ms += monotonic_ms() - t0;
    if (ctx->syn)
        cost->parse_ms += syntax_cache_parse_ms(ctx->syn) - p0;
}

/* A whole-change run started beside the per-file stages (collector.runs_apart): its findings
 * go to a list of its own until it is joined. */
typedef struct apart_run {
    const collector *c;
    collector_ctx *ctx;  /* the collector's context, its out pointed at `out` meanwhile */
    finding_list out;
    finding_list *review_out;
    stage_cost *cost;
    beside job;
} apart_run;

static void apart_main(void *arg)
{
    apart_run *a = arg;
    double t0 = monotonic_ms(); /* the syntax cache's parse time is not read: it is not ours */
    a->c->run(a->ctx);
    a->cost->change_ms += monotonic_ms() - t0;
}

/* Start c's run apart (its ctx and cost are not touched by anyone else until apart_join);
 * when no thread can be started it runs here and now, its findings kept for its turn. */
static void apart_start(apart_run *a, const collector *c, collector_ctx *ctx, stage_cost *cost)
{
    *a = (apart_run){.c = c, .ctx = ctx, .review_out = ctx->out, .cost = cost};
    ctx->out = &a->out;
    cost->apart = beside_start(&a->job, true, apart_main, a);
}

/* Wait for a run started apart and append its findings to the review's, in the order it made
 * them. */
static void apart_join(apart_run *a)
{
    beside_join(&a->job);
    a->ctx->out = a->review_out;
    findings_take(a->review_out, &a->out);
    a->c = NULL;
}

void collector_run(const collector *c, collector_ctx *ctx)
{
    size_t n = ctx->chg->nfiles, from = ctx->out->n;
    collector_inputs in = {.chg = ctx->chg, .rp = ctx->rp, .root = ctx->root, .syn = ctx->syn};
    review_files rf = {&in, ctx, xcalloc(n + 1, sizeof *rf.id), xcalloc(n + 1, sizeof *rf.content),
                       0, NULL, 0, xcalloc(n + 1, sizeof *rf.same)};
    stage_cost cost = {0};
    if (c->run) {
        run_whole(c, ctx, &cost);
    } else {
        void *shared = c->shared_new ? c->shared_new() : NULL;
        file_results fr;
        results_begin(&fr, n);
        for (size_t i = 0; i < n; i++) {
            file_slot slot = {0};
            slot_fill(NULL, c, ctx, &rf, i, shared, &slot, &cost);
            results_take(&fr, &slot);
        }
        results_finish(c, ctx, &fr, &cost);
        if (shared && c->shared_free)
            c->shared_free(shared);
    }
    stamp(ctx->out, from, c->name);
    free(rf.id);
    free(rf.content);
    free(rf.same);
}

collector_runner *collector_runner_new(bool keep)
{
    collector_runner *r = xcalloc(1, sizeof *r);
    r->keep = keep;
    while (collectors_all[r->nstates])
        r->nstates++;
    r->states = xcalloc(r->nstates + 1, sizeof *r->states);
    r->shared = xcalloc(r->nstates + 1, sizeof *r->shared);
    r->cache = keep ? collector_cache_new() : NULL;
    r->bases = keep ? base_texts_new() : NULL;
    r->heap_budget = keep ? HEAP_BUDGET : BATCH_HEAP_BUDGET;
    return r;
}

void collector_runner_free(collector_runner *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nstates; i++) {
        if (r->states[i] && collectors_all[i]->free_state)
            collectors_all[i]->free_state(r->states[i]);
        if (r->shared[i] && collectors_all[i]->shared_free)
            collectors_all[i]->shared_free(r->shared[i]);
    }
    free(r->states);
    free(r->shared);
    collector_cache_free(r->cache);
    base_texts_free(r->bases);
    free(r);
}

void collector_runner_set_timing(collector_runner *r, FILE *fp)
{
    r->timing = fp;
}

void collector_runner_set_second_thread(collector_runner *r, bool on)
{
    r->second_thread = on;
}

void collector_runner_set_heap_budget(collector_runner *r, size_t bytes)
{
    r->heap_budget = bytes;
}

/* True when something outside the change may have changed on disk since the last review: the
 * touched paths are unknown, or one of them is not a file of the change. */
static bool outside_touched(const collector_inputs *in)
{
    if (!in->touched)
        return true;
    for (size_t i = 0; in->touched[i]; i++)
        if (!change_find(in->chg, in->touched[i]))
            return true;
    return false;
}

/* Write one collector's costs. */
static void write_cost(FILE *fp, const collector *c, const stage_cost *cost)
{
    fprintf(fp, "review-lsp: collector %s %.2f ms", c->name, cost->files_ms + cost->change_ms - cost->parse_ms);
    if (c->run)
        fprintf(fp, " (whole change%s", cost->apart ? ", beside the per-file stages" : "");
    else
        fprintf(fp, " (files: %zu run, %zu cached; change stage %.2f ms", cost->nrun, cost->ncached,
                cost->change_ms);
    if (cost->parse_ms > 0)
        fprintf(fp, "; parsing %.2f ms not counted", cost->parse_ms);
    fprintf(fp, ")\n");
}

/* The heap in use: the larger of what the main malloc arena holds (glibc) and what the docs
 * hold (their trees, counted by the allocator whichever thread parsed them, and their texts).
 * The main arena alone misses the trees the second thread parsed ahead, which live in its own
 * arena; the trees alone miss everything else. Without glibc, an estimate from the parsed
 * text (trees take some tens of times their text). */
static size_t heap_in_use(const syntax_cache *syn)
{
#ifdef __GLIBC__
    /* the two reading threads ask one at a time: glibc's figures are not made to be read
     * concurrently everywhere (a sanitizer's malloc leaves glibc's arenas to be set up by the
     * first caller) */
    static pthread_mutex_t asking = PTHREAD_MUTEX_INITIALIZER;
    size_t docs = syntax_tree_bytes() + syntax_cache_bytes(syn);
    pthread_mutex_lock(&asking);
    struct mallinfo2 m = mallinfo2();
    pthread_mutex_unlock(&asking);
    size_t main_arena = m.uordblks + m.hblkhd;
    return main_arena > docs ? main_arena : docs;
#else
    return syntax_cache_bytes(syn) * 40; /* tree bytes are counted with glibc only */
#endif
}

/* True when path is one of the open documents (NULL-terminated list, may be NULL). */
static bool is_open(const char *const *open, const char *path)
{
    for (size_t i = 0; open && open[i]; i++)
        if (strcmp(open[i], path) == 0)
            return true;
    return false;
}

/* Give back what a review over its budget still holds of the files it read (not open) and
 * of the modules they import, which a later file's imports may have parsed again after the
 * file's own docs were given back: a server then does not keep them until the next review.
 * Open documents stay, to be reparsed incrementally as they are typed in. */
static void give_back_read(const collector_inputs *in, collector_ctx *ctx)
{
    for (size_t j = 0; j < in->chg->nfiles; j++)
        if (!is_open(in->open, in->chg->files[j].path))
            collector_release_docs(ctx, &in->chg->files[j]);
    collector_release_modules(ctx);
}

/* True when change file i's docs are likely to be asked for: some collector that reads it has
 * no kept result for its content, so that collector's per-file stage will run, and it may
 * parse the file (its parse_ahead test, from the file's head text and outline). */
static bool worth_parsing_ahead(collector_runner *r, review_files *rf, size_t i, collector_ctx *ctx)
{
    rf->ctx = ctx;
    const change_file *f = &rf->in->chg->files[i];
    char *head = NULL;
    size_t hlen = 0;
    bool head_read = false, worth = false;
    const py_outline *o = NULL;
    py_outline *own = NULL;
    for (size_t k = 0; k < r->nstates && !worth; k++) {
        const collector *c = collectors_all[k];
        if (!c->file_stage || !collector_reads(c, f) || result_kept(r, c, rf, i))
            continue;
        /* a stage will run: a file whose code did not change is parsed by no collector that
         * judges code or reads it without trees (collector_file_ctx.code_same); others
         * (flydsl_bounds, imports and triton_masks on a Python file) still read it */
        if ((c->judges_code || c->code_same_untreed) && code_unchanged(rf, i))
            continue;
        if (!c->parse_ahead) {
            worth = true;
            break;
        }
        if (!head_read) {
            head_read = true;
            char *cause = NULL;
            head = change_head_text(ctx->chg, f, &hlen, &cause);
            free(cause);
            if (head && syntax_lang_of_path(f->path) == SYN_PYTHON)
                o = collector_outline(ctx, f, head, hlen, &own);
        }
        worth = !head || c->parse_ahead(ctx, f, head, hlen, o);
    }
    py_outline_free(own);
    free(head);
    return worth;
}

/* What the threads reading a change's files share: the next file to take, and each
 * (collector, file) outcome and each file's findings, wherever they were made. */
typedef struct file_work {
    collector_runner *r;
    const collector_inputs *in;
    size_t nfiles;
    atomic_size_t next;
    file_slot *slots;      /* [collector * nfiles + file] */
    finding_list *found;   /* per file: its findings, collector by collector */
} file_work;

/* One thread reading files: its contexts (its syntax cache and memos), what it knows of the
 * files, its costs, and the collectors' shared_new objects it uses. */
typedef struct file_reader {
    file_work *w;
    collector_ctx *ctxs;
    review_files rf;
    stage_cost *costs;
    void **shared;
    bool ahead_on;         /* a second thread parses ahead of this reader (the only one) */
    size_t ntaken;         /* files it took */
} file_reader;

/* Read files until none is left, taking them one at a time: every collector that reads a file
 * runs on it (or takes its kept result) while its parse is at hand, and a file that is not open
 * then gives its trees back when the docs held pass the budget, so a change of any size is read
 * within it. */
static void read_files(file_reader *rd)
{
    file_work *w = rd->w;
    collector_runner *r = w->r;
    const collector_inputs *in = w->in;
    collector_ctx *ctxs = rd->ctxs;
    syntax_cache *syn = ctxs[0].syn;
    size_t ahead = 1, nqueued = 0; /* nqueued: files after the current one queued to parse */
    bool *queued = xcalloc(w->nfiles + 1, sizeof *queued);
    for (;;) {
        size_t j = atomic_fetch_add(&w->next, 1);
        if (j >= w->nfiles)
            break;
        rd->ntaken++;
        nqueued -= queued[j];
        if (ahead <= j)
            ahead = j + 1;
        /* while this file is read, the next ones that some stage will parse are parsed on a
         * second thread: a window of such files and of bytes, so what waits to be taken stays
         * within the memory budget; files no stage parses are passed over (up to a distance,
         * as their outlines are kept until their turn) */
        for (; rd->ahead_on && syn && ahead < w->nfiles && nqueued < AHEAD_FILES &&
               ahead <= j + AHEAD_LOOK && syntax_cache_ahead_bytes(syn) < AHEAD_BYTES;
             ahead++)
            if (worth_parsing_ahead(r, &rd->rf, ahead, &ctxs[0])) {
                collector_parse_ahead(&ctxs[0], &in->chg->files[ahead]);
                queued[ahead] = true;
                nqueued++;
            }
        for (size_t i = 0; i < r->nstates; i++) {
            if (!collectors_all[i]->file_stage)
                continue; /* a whole-change run (one apart writes to its own list meanwhile) */
            rd->rf.ctx = &ctxs[i];
            ctxs[i].out = &w->found[j];
            slot_fill(r, collectors_all[i], &ctxs[i], &rd->rf, j, rd->shared[i],
                      &w->slots[i * w->nfiles + j], &rd->costs[i]);
        }
        const change_file *f = &in->chg->files[j];
        collector_forget_outline(&ctxs[0], f);
        if (rd->ahead_on)
            collector_forget_ahead(&ctxs[0], f);
        if (syn && !is_open(in->open, f->path) && heap_in_use(syn) > r->heap_budget)
            collector_release_docs(&ctxs[0], f);
    }
    free(queued);
}

static void read_files_main(void *arg)
{
    read_files(arg);
}

/* The second reader of a change's files: a thread of its own with a syntax
 * cache, memos and collector objects of its own, its contexts copies of the review's. */
typedef struct second_reader {
    file_reader rd;
    syntax_cache *syn;
    collector_coverage_memo *coverage;
    collector_outline_memo *outlines;
    beside job;
} second_reader;

static void second_start(second_reader *s, file_work *w, const collector_ctx *ctxs)
{
    collector_runner *r = w->r;
    size_t n = r->nstates, nf = w->nfiles;
    s->syn = syntax_cache_new_beside(w->in->syn);
    s->coverage = collector_coverage_memo_new(nf);
    s->outlines = collector_outline_memo_new(nf);
    s->rd = (file_reader){.w = w, .ctxs = xcalloc(n + 1, sizeof(collector_ctx)),
                          .costs = xcalloc(n + 1, sizeof(stage_cost)),
                          .shared = xcalloc(n + 1, sizeof(void *))};
    s->rd.rf = (review_files){w->in, NULL, xcalloc(nf + 1, sizeof(uint64_t)),
                              xcalloc(nf + 1, sizeof(uint64_t)), r->disk_epoch, NULL, 0,
                              xcalloc(nf + 1, 1)};
    for (size_t i = 0; i < n; i++) {
        /* the review's context but for what is this thread's (its status and out, which a
         * run apart may be writing meanwhile, are not read) */
        const collector_ctx *o = &ctxs[i];
        s->rd.ctxs[i] = (collector_ctx){o->chg, o->rp, o->root, NULL, s->syn, o->state,
                                        o->touched, o->side_buffers, o->nside_buffers, {0},
                                        o->bases, s->coverage, s->outlines, false};
        sb_init(&s->rd.ctxs[i].status);
        if (collectors_all[i]->file_stage && collectors_all[i]->shared_new)
            s->rd.shared[i] = collectors_all[i]->shared_new();
    }
    beside_start(&s->job, true, read_files_main, &s->rd);
}

/* Wait for the second reader, then give what it read to the review: its docs to the review's
 * syntax cache, its coverage counts to the review's memo, its costs to the review's. */
static void second_join(second_reader *s, syntax_cache *syn, collector_coverage_memo *coverage,
                        stage_cost *costs)
{
    beside_join(&s->job);
    collector_runner *r = s->rd.w->r;
    for (size_t i = 0; i < r->nstates; i++) {
        const stage_cost *c = &s->rd.costs[i];
        costs[i].files_ms += c->files_ms;
        costs[i].parse_ms += c->parse_ms;
        costs[i].nrun += c->nrun;
        costs[i].ncached += c->ncached;
        sb_free(&s->rd.ctxs[i].status);
        if (s->rd.shared[i] && collectors_all[i]->shared_free)
            collectors_all[i]->shared_free(s->rd.shared[i]);
    }
    syntax_cache_adopt(syn, s->syn);
    syntax_cache_free(s->syn);
    collector_coverage_memo_merge(coverage, s->coverage);
    collector_coverage_memo_free(s->coverage);
    collector_outline_memo_free(s->outlines);
    free(s->rd.ctxs);
    free(s->rd.costs);
    free(s->rd.shared);
    free(s->rd.rf.id);
    free(s->rd.rf.content);
    free(s->rd.rf.same);
}

/* The per-file stages of every collector over every file of the change (read_files), then
 * each collector's results and each file's findings taken in the change's order, so the
 * review reads the same however the files were shared out. With a second thread and nothing
 * kept between reviews, the files are shared out between this thread and a second reader
 * (which parses what it reads itself); otherwise this thread reads them all, a second thread
 * parsing a few files ahead of it when there is one. True when the files were shared out
 * (*second_took says how many the second reader took: none, when this thread was quicker to
 * every file). */
static bool run_file_stages(collector_runner *r, const collector_inputs *in, collector_ctx *ctxs,
                            review_files *rf, file_results *frs, stage_cost *costs,
                            finding_list *out, size_t *second_took)
{
    size_t nf = in->chg->nfiles;
    for (size_t i = 0; i < r->nstates; i++) {
        if (!collectors_all[i]->run)
            results_begin(&frs[i], nf);
        if (collectors_all[i]->shared_new && !r->shared[i])
            r->shared[i] = collectors_all[i]->shared_new();
    }
    file_work w = {.r = r, .in = in, .nfiles = nf,
                   .slots = xcalloc(r->nstates * nf + 1, sizeof(file_slot)),
                   .found = xcalloc(nf + 1, sizeof(finding_list))};
    atomic_init(&w.next, 0);
    bool two = r->second_thread && !r->keep && in->syn && nf >= SHARED_OUT_FILES;
    file_reader main_rd = {.w = &w, .ctxs = ctxs, .rf = *rf, .costs = costs, .shared = r->shared,
                           .ahead_on = r->second_thread && !two};
    second_reader second;
    if (two)
        second_start(&second, &w, ctxs);
    read_files(&main_rd);
    *rf = main_rd.rf;
    if (two) {
        second_join(&second, in->syn, ctxs[0].coverage, costs);
        *second_took = second.rd.ntaken;
    }
    for (size_t j = 0; j < nf; j++) {
        findings_take(out, &w.found[j]);
        for (size_t i = 0; i < r->nstates; i++)
            if (!collectors_all[i]->run)
                results_take(&frs[i], &w.slots[i * nf + j]);
    }
    for (size_t i = 0; i < r->nstates; i++)
        if (collectors_all[i]->file_stage)
            ctxs[i].out = out;
    free(w.found);
    free(w.slots);
    return two;
}

char **collector_runner_run(collector_runner *r, const collector_inputs *in, finding_list *out,
                            size_t *n)
{
    size_t nf = in->chg->nfiles;
    if (outside_touched(in))
        r->disk_epoch++;
    review_files rf = {in, NULL, xcalloc(nf + 1, sizeof *rf.id), xcalloc(nf + 1, sizeof *rf.content),
                       r->disk_epoch, NULL, 0, xcalloc(nf + 1, sizeof *rf.same)};
    collector_coverage_memo *coverage = collector_coverage_memo_new(nf);
    collector_outline_memo *outlines = collector_outline_memo_new(nf);
    collector_ctx *ctxs = xcalloc(r->nstates + 1, sizeof *ctxs);
    stage_cost *costs = xcalloc(r->nstates + 1, sizeof *costs);
    file_results *frs = xcalloc(r->nstates + 1, sizeof *frs);
    for (size_t i = 0; i < r->nstates; i++) {
        ctxs[i] = (collector_ctx){in->chg, in->rp, in->root, out, in->syn,
                                  r->keep ? &r->states[i] : NULL, in->touched, in->side, in->nside,
                                  {0}, r->bases, coverage, outlines, r->second_thread};
        sb_init(&ctxs[i].status);
    }
    /* a whole-change run that reads only files runs beside the per-file stages */
    apart_run *apart = xcalloc(r->nstates + 1, sizeof *apart);
    for (size_t i = 0; i < r->nstates; i++)
        if (collectors_all[i]->run && collectors_all[i]->runs_apart && r->second_thread)
            apart_start(&apart[i], collectors_all[i], &ctxs[i], &costs[i]);
    size_t second_took = 0; /* files the second reading thread took, when there was one */
    bool shared_out = run_file_stages(r, in, ctxs, &rf, frs, costs, out, &second_took);
    if (in->syn)
        syntax_cache_ahead_clear(in->syn); /* parsed ahead for a stage that did not ask */
    char **status = xcalloc(r->nstates + 1, sizeof *status);
    double parse_total = 0;
    for (size_t i = 0; i < r->nstates; i++) {
        const collector *c = collectors_all[i];
        size_t from = out->n;
        rf.ctx = &ctxs[i];
        if (apart[i].c)
            apart_join(&apart[i]);
        else if (c->run)
            run_whole(c, &ctxs[i], &costs[i]);
        else
            results_finish(c, &ctxs[i], &frs[i], &costs[i]);
        stamp(out, from, c->name);
        parse_total += costs[i].parse_ms;
        if (r->timing)
            write_cost(r->timing, c, &costs[i]);
        status[i] = xasprintf("%s: %s", c->name, ctxs[i].status.len ? ctxs[i].status.buf : "ran");
        sb_free(&ctxs[i].status);
    }
    if (in->syn)
        syntax_cache_ahead_clear(in->syn); /* queued by a change-wide stage and not asked for */
    if (r->timing) {
        size_t nparses = 0, nupdates = 0;
        if (in->syn)
            syntax_cache_stats(in->syn, NULL, &nparses, &nupdates);
        fprintf(r->timing, "review-lsp: parse %.2f ms (cache totals: %zu parses, %zu incremental "
                "updates, %zu from a related tree, %zu parsed ahead; %.2f ms waited for the "
                "second thread)\n", parse_total, nparses, nupdates,
                in->syn ? syntax_cache_related_parses(in->syn) : 0,
                in->syn ? syntax_cache_ahead_taken(in->syn) : 0,
                in->syn ? syntax_cache_ahead_waited_ms(in->syn) : 0.0);
        if (shared_out)
            fprintf(r->timing, "review-lsp: files shared out between two reading threads: %zu "
                    "read here, %zu on the second\n", nf - second_took, second_took);
    }
    if (in->syn && heap_in_use(in->syn) > r->heap_budget)
        give_back_read(in, &ctxs[0]);
    if (r->cache)
        collector_cache_trim(r->cache);
    if (r->bases)
        base_texts_trim(r->bases);
    free(frs);
    free(apart);
    free(costs);
    free(ctxs);
    collector_coverage_memo_free(coverage);
    collector_outline_memo_free(outlines);
    free(rf.id);
    free(rf.content);
    free(rf.same);
    *n = r->nstates;
    return status;
}
