/* Reviews off the loop. A review of a large change takes seconds; run on the loop it would
 * leave every request waiting. So the review runs on a libuv worker thread (uv_queue_work)
 * while the loop goes on reading messages and answering from the last complete review.
 *
 * An engine is not thread-safe, so each workspace's engine belongs to one thread at a time:
 * the loop, or, while its review runs, the worker. engine_prepare_review runs on the loop
 * first, so the worker leaves the catalogue, the configuration and the work tree path alone
 * and the loop may still read those (hover, code actions, links); everything else the loop
 * would do to the engine (an overlay set or dropped, a path marked dirty, new settings, a
 * watched path to check against .gitignore) is held here, in arrival order, and applied on the
 * loop when the review comes back. The handoff is the job struct: the worker writes its result
 * there and libuv hands it back to the loop (after_work), nothing else is shared.
 *
 * This file also records what changed since the last review began (pending) and what the
 * running review covers, so a request about a file nobody touched since the last complete
 * review is answered from it at once, and one about a changed file waits for the fresh one. */
#include <stdlib.h>
#include <string.h>

#include "lsp/server.h"

enum edit_kind { EDIT_OVERLAY, EDIT_DROP, EDIT_DIRTY, EDIT_CONFIGURE, EDIT_INCREMENTAL, EDIT_WATCHED };

struct held_edit {
    enum edit_kind kind;
    char *relpath;                /* NULL for EDIT_DIRTY / EDIT_WATCHED: everything */
    char *text;                   /* EDIT_OVERLAY */
    size_t len;
    engine_settings es;           /* EDIT_CONFIGURE: a deep copy */
    held_edit *next;
};

struct review_job {
    uv_work_t req;                /* first: the libuv request is the job */
    server *s;
    workspace *ws;                /* the loop's; the worker reads only eng */
    engine *eng;
    worker_done_fn done;
    review *out;                  /* written by the worker, read by the loop after it */
    char *cause;
    uint64_t ns;
};

/* --- path sets --- */

static bool set_has(const path_set *ps, const char *p)
{
    for (size_t i = 0; i < ps->n; i++)
        if (strcmp(ps->v[i], p) == 0)
            return true;
    return false;
}

static void set_add(path_set *ps, const char *p)
{
    if (!set_has(ps, p))
        *ARRAY_PUSH(ps->v, ps->n, ps->cap) = xstrdup(p);
}

static void set_clear(path_set *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        free(ps->v[i]);
    ps->n = 0;
}

static void set_free(path_set *ps)
{
    set_clear(ps);
    free(ps->v);
    ps->v = NULL;
    ps->cap = 0;
}

/* --- staleness --- */

void worker_note_change(workspace *ws, const char *relpath)
{
    if (!relpath)
        ws->work.pending_all = true;
    else if (!ws->work.pending_all)
        set_add(&ws->work.pending, relpath);
}

bool worker_due(const workspace *ws)
{
    return ws->work.pending_all || ws->work.pending.n > 0;
}

bool worker_busy(const workspace *ws)
{
    return ws->work.job != NULL;
}

bool worker_stale(const workspace *ws, const char *relpath)
{
    const worker_state *w = &ws->work;
    bool due = worker_due(ws), running = w->job != NULL;
    if (!relpath || !ws->last)
        return due || running;
    return w->pending_all || (running && w->running_all) || set_has(&w->pending, relpath) ||
           (running && set_has(&w->running, relpath));
}

/* --- held edits --- */

/* A NULL-terminated copy of a NULL-terminated string array (NULL stays NULL). */
static const char *const *copy_strv(const char *const *v)
{
    if (!v)
        return NULL;
    size_t n = 0;
    while (v[n])
        n++;
    char **out = xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = xstrdup(v[i]);
    return (const char *const *)out;
}

static void free_strv(const char *const *v)
{
    for (size_t i = 0; v && v[i]; i++)
        free((char *)v[i]);
    free((void *)v);
}

static const char *copy_str(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

/* Deep-copy engine settings (the caller's strings may not outlive the review). */
static void settings_copy(engine_settings *to, const engine_settings *from)
{
    *to = *from;
    to->base = copy_str(from->base);
    to->title = copy_str(from->title);
    to->rules_path = copy_str(from->rules_path);
    to->precision_policy = copy_str(from->precision_policy);
    to->derived_hints = copy_str(from->derived_hints);
    to->disabled_rules = copy_strv(from->disabled_rules);
    to->severity = copy_strv(from->severity);
}

static void settings_copy_free(engine_settings *es)
{
    free((char *)es->base);
    free((char *)es->title);
    free((char *)es->rules_path);
    free((char *)es->precision_policy);
    free((char *)es->derived_hints);
    free_strv(es->disabled_rules);
    free_strv(es->severity);
}

/* Queue an edit for when the review comes back. */
static held_edit *hold(workspace *ws, enum edit_kind kind, const char *relpath)
{
    held_edit *h = xcalloc(1, sizeof *h);
    h->kind = kind;
    h->relpath = relpath ? xstrdup(relpath) : NULL;
    if (ws->work.held_last)
        ws->work.held_last->next = h;
    else
        ws->work.held = h;
    ws->work.held_last = h;
    return h;
}

static void held_free(held_edit *h)
{
    if (h->kind == EDIT_CONFIGURE)
        settings_copy_free(&h->es);
    free(h->relpath);
    free(h->text);
    free(h);
}

/* Mark a path dirty in the engine (NULL: everything). */
static void mark_dirty(engine *eng, const char *relpath)
{
    if (relpath)
        engine_mark_dirty(eng, relpath);
    else
        engine_mark_all_dirty(eng);
}

/* Apply one held edit to the (idle) engine. */
static void apply(workspace *ws, held_edit *h)
{
    switch (h->kind) {
    case EDIT_OVERLAY:
        engine_set_overlay(ws->eng, h->relpath, h->text, h->len);
        break;
    case EDIT_DROP:
        engine_drop_overlay(ws->eng, h->relpath);
        break;
    case EDIT_DIRTY:
        mark_dirty(ws->eng, h->relpath);
        break;
    case EDIT_CONFIGURE:
        engine_configure(ws->eng, &h->es);
        free(ws->rules_file); /* the rules file may be another one now */
        ws->rules_file = NULL;
        break;
    case EDIT_INCREMENTAL:
        engine_set_incremental(ws->eng, true);
        break;
    case EDIT_WATCHED:
        /* checked against .gitignore now that the engine can be asked */
        if (!h->relpath || !engine_path_ignored(ws->eng, h->relpath)) {
            mark_dirty(ws->eng, h->relpath);
            worker_note_change(ws, h->relpath);
        }
        break;
    }
}

/* Apply every held edit, in arrival order. */
static void apply_held(workspace *ws)
{
    while (ws->work.held) {
        held_edit *h = ws->work.held;
        ws->work.held = h->next;
        apply(ws, h);
        held_free(h);
    }
    ws->work.held_last = NULL;
}

/* Forget the held overlay edits of a path: a newer one replaces them (only the last text
 * matters, and setting an overlay marks the path dirty anyway), so a flood of edits during a
 * long review holds one copy of the text, not one per edit. */
static void forget_overlay_edits(workspace *ws, const char *relpath)
{
    held_edit *prev = NULL;
    for (held_edit **pp = &ws->work.held; *pp;) {
        held_edit *h = *pp;
        if ((h->kind == EDIT_OVERLAY || h->kind == EDIT_DROP) && strcmp(h->relpath, relpath) == 0) {
            *pp = h->next;
            held_free(h);
            continue;
        }
        prev = h;
        pp = &h->next;
    }
    ws->work.held_last = prev;
}

void worker_set_overlay(workspace *ws, const char *relpath, const char *text, size_t len)
{
    if (!worker_busy(ws)) {
        engine_set_overlay(ws->eng, relpath, text, len);
        return;
    }
    forget_overlay_edits(ws, relpath);
    held_edit *h = hold(ws, EDIT_OVERLAY, relpath);
    h->text = xstrndup(text, len);
    h->len = len;
}

void worker_drop_overlay(workspace *ws, const char *relpath)
{
    if (!worker_busy(ws)) {
        engine_drop_overlay(ws->eng, relpath);
        return;
    }
    forget_overlay_edits(ws, relpath);
    hold(ws, EDIT_DROP, relpath);
}

void worker_mark_dirty(workspace *ws, const char *relpath)
{
    if (!worker_busy(ws))
        mark_dirty(ws->eng, relpath);
    else
        hold(ws, EDIT_DIRTY, relpath);
}

void worker_configure(workspace *ws, const engine_settings *es)
{
    if (!worker_busy(ws)) {
        engine_configure(ws->eng, es);
        free(ws->rules_file);
        ws->rules_file = NULL;
        return;
    }
    held_edit *h = hold(ws, EDIT_CONFIGURE, NULL);
    settings_copy(&h->es, es);
}

void worker_set_incremental(workspace *ws)
{
    if (!worker_busy(ws))
        engine_set_incremental(ws->eng, true);
    else
        hold(ws, EDIT_INCREMENTAL, NULL);
}

bool worker_watched(workspace *ws, const char *relpath)
{
    if (worker_busy(ws)) {
        hold(ws, EDIT_WATCHED, relpath);
        return false;
    }
    mark_dirty(ws->eng, relpath); /* the watcher asked about .gitignore already */
    return true;
}

bool worker_path_ignored(void *data, const char *relpath)
{
    workspace *ws = data;
    return !worker_busy(ws) && engine_path_ignored(ws->eng, relpath);
}

/* --- jobs --- */

/* Move what is pending to what the review about to start covers. */
static void take_pending(workspace *ws)
{
    worker_state *w = &ws->work;
    set_clear(&w->running);
    for (size_t i = 0; i < w->pending.n; i++)
        set_add(&w->running, w->pending.v[i]);
    w->running_all = w->pending_all || !ws->last;
    set_clear(&w->pending);
    w->pending_all = false;
}

/* On the worker thread: the review itself. Touches only the job and its engine. */
static void run_review(uv_work_t *req)
{
    review_job *job = (review_job *)req;
    uint64_t t0 = uv_hrtime();
    if (engine_review(job->eng, &job->out, &job->cause) < 0)
        job->out = NULL;
    job->ns = uv_hrtime() - t0;
}

/* Back on the loop: the engine is the loop's again; apply what waited, then report. */
static void review_back(uv_work_t *req, int status)
{
    (void)status; /* never cancelled: the job always ran */
    review_job *job = (review_job *)req;
    workspace *ws = job->ws;
    ws->work.job = NULL;
    set_clear(&ws->work.running);
    ws->work.running_all = false;
    apply_held(ws);
    bool superseded = worker_due(ws);
    worker_done_fn done = job->done;
    server *s = job->s;
    review *out = job->out;
    char *cause = job->cause;
    double ms = (double)job->ns / 1e6;
    free(job);
    done(s, ws, out, cause, ms, superseded);
}

void worker_start(server *s, workspace *ws, worker_done_fn done)
{
    take_pending(ws);
    engine_prepare_review(ws->eng);
    review_job *job = xcalloc(1, sizeof *job);
    job->s = s;
    job->ws = ws;
    job->eng = ws->eng;
    job->done = done;
    ws->work.job = job;
    if (uv_queue_work(&s->loop, &job->req, run_review, review_back) < 0) {
        /* no thread to hand it to: review here, on the loop */
        ws->work.job = NULL;
        free(job);
        worker_review_here(s, ws, done);
    }
}

void worker_review_here(server *s, workspace *ws, worker_done_fn done)
{
    take_pending(ws);
    set_clear(&ws->work.running);
    ws->work.running_all = false;
    review *out = NULL;
    char *cause = NULL;
    uint64_t t0 = uv_hrtime();
    if (engine_review(ws->eng, &out, &cause) < 0)
        out = NULL;
    done(s, ws, out, cause, (double)(uv_hrtime() - t0) / 1e6, false);
}

void worker_free(workspace *ws)
{
    while (ws->work.held) {
        held_edit *h = ws->work.held;
        ws->work.held = h->next;
        held_free(h);
    }
    ws->work.held_last = NULL;
    set_free(&ws->work.pending);
    set_free(&ws->work.running);
}
