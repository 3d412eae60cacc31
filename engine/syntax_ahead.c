/* Parsing ahead on a second thread: while the collectors read one file of a large change, the
 * files after it are parsed beside them, so a review of many files costs about the larger of
 * its parsing and its collectors' own work instead of their sum.
 *
 * A job is a key, a text and the options of one doc, all copied when it is queued; the worker
 * thread parses jobs in order with syntax_parse_with (which shares nothing with the caller),
 * and the syntax cache takes a job's doc when the same key is first asked for with the same
 * text and options (syntax_cache.c). A job the caller reaches before the worker does is taken
 * back and parsed by the caller; one being parsed is waited for; one whose text or options
 * turn out different is dropped. Nothing the worker does can change what a review finds. */
#include "engine/syntax_ahead.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util.h"

typedef enum job_state { JOB_QUEUED, JOB_RUNNING, JOB_DONE } job_state;

typedef struct ahead_job {
    char *key;
    syn_lang lang;
    char *text;
    size_t len;
    int *keep;
    size_t nkeep;
    int view;
    char *decorations;
    char *from_key;  /* a job before it whose tree this one starts from (a base, from its
                        head's), or NULL; with the line map from its lines to this text's */
    int *map;
    size_t nmap;
    job_state state;
    bool unwanted;   /* forgotten while being parsed: dropped once done */
    syntax_doc *doc; /* when done: the doc, or NULL when the parse failed */
    struct ahead_job *next;
} ahead_job;

struct syntax_ahead {
    pthread_mutex_t mu;
    pthread_cond_t work;   /* a job was queued, or the worker is asked to stop */
    pthread_cond_t done;   /* a job the worker ran is done */
    pthread_t thread;
    bool started, stopping;
    bool forget;           /* set by clear: the worker drops the tree it keeps when idle */
    double waited_ms;      /* time the caller spent waiting for the worker, in all */
    ahead_job *jobs;       /* in queue order */
    size_t queued_bytes;   /* text of the jobs not taken yet */
};

static void job_free(ahead_job *j)
{
    if (!j)
        return;
    free(j->key);
    free(j->text);
    free(j->keep);
    free(j->decorations);
    free(j->from_key);
    free(j->map);
    syntax_free(j->doc);
    free(j);
}

/* Unlink job j from the list (the lock held). */
static void unlink_job(syntax_ahead *a, ahead_job *j)
{
    for (ahead_job **p = &a->jobs; *p; p = &(*p)->next)
        if (*p == j) {
            *p = j->next;
            a->queued_bytes -= j->len;
            j->next = NULL;
            return;
        }
}

/* Parse a job's text with its options, from origin when given. */
static syntax_doc *parse_job(const ahead_job *j, const syntax_origin *origin)
{
    syntax_parse_opts o = {j->keep, j->nkeep, j->view, j->decorations};
    char *cause = NULL;
    syntax_doc *d = origin ? syntax_parse_from(origin, j->map, j->nmap, j->lang, j->text, j->len, &o,
                                               &cause)
                           : syntax_parse_with(j->lang, j->text, j->len, &o, &cause);
    free(cause);
    return d;
}

/* The worker: parse queued jobs in order until asked to stop. It keeps a copy of the last tree
 * it parsed, for a job that starts from it (a head's, for its base). */
static void *worker(void *arg)
{
    syntax_ahead *a = arg;
    syntax_origin *origin = NULL;
    char *origin_key = NULL;
    pthread_mutex_lock(&a->mu);
    for (;;) {
        ahead_job *j = a->jobs;
        while (j && j->state != JOB_QUEUED)
            j = j->next;
        if (a->stopping)
            break;
        if (!j) {
            if (a->forget) { /* the review is over: its last tree is not wanted */
                syntax_origin_free(origin);
                free(origin_key);
                origin = NULL;
                origin_key = NULL;
                a->forget = false;
            }
            pthread_cond_wait(&a->work, &a->mu);
            continue;
        }
        j->state = JOB_RUNNING;
        pthread_mutex_unlock(&a->mu);
        /* a running job is neither freed nor changed by the caller: read without the lock */
        bool related = j->from_key && origin_key && strcmp(j->from_key, origin_key) == 0;
        syntax_doc *d = parse_job(j, related ? origin : NULL);
        /* the last tree parsed is kept (a copy, a fraction of the parse's cost): the job after
         * it may be its base, queued now or later */
        syntax_origin_free(origin);
        free(origin_key);
        origin = d ? syntax_origin_new(d) : NULL;
        origin_key = d ? xstrdup(j->key) : NULL;
        pthread_mutex_lock(&a->mu);
        j->doc = d;
        j->state = JOB_DONE;
        pthread_cond_broadcast(&a->done);
    }
    pthread_mutex_unlock(&a->mu);
    syntax_origin_free(origin);
    free(origin_key);
    return NULL;
}

syntax_ahead *syntax_ahead_new(void)
{
    syntax_ahead *a = xcalloc(1, sizeof *a);
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->work, NULL);
    pthread_cond_init(&a->done, NULL);
    return a;
}

static ahead_job *find_job(syntax_ahead *a, const char *key)
{
    for (ahead_job *j = a->jobs; j; j = j->next)
        if (strcmp(j->key, key) == 0)
            return j;
    return NULL;
}

bool syntax_ahead_submit(syntax_ahead *a, const char *key, syn_lang lang, const char *text,
                         size_t len, const syntax_parse_opts *o)
{
    return syntax_ahead_submit_related(a, key, lang, text, len, o, NULL, NULL, 0);
}

bool syntax_ahead_submit_related(syntax_ahead *a, const char *key, syn_lang lang,
                                 const char *text, size_t len, const syntax_parse_opts *o,
                                 const char *from_key, const int *line_map, size_t nmap)
{
    if (lang == SYN_NONE)
        return false;
    pthread_mutex_lock(&a->mu);
    bool ok = !a->stopping && !find_job(a, key);
    if (ok && !a->started) {
        /* no second thread (resource limits): the caller parses everything itself */
        a->started = pthread_create(&a->thread, NULL, worker, a) == 0;
        ok = a->started;
    }
    if (ok) {
        ahead_job *j = xcalloc(1, sizeof *j);
        j->key = xstrdup(key);
        j->lang = lang;
        j->text = xstrndup(text ? text : "", text ? len : 0);
        j->len = text ? len : 0;
        j->view = o ? o->view : 0;
        j->decorations = o && o->decorations && *o->decorations ? xstrdup(o->decorations) : NULL;
        if (o && o->nkeep) {
            j->keep = xmalloc(o->nkeep * sizeof *j->keep);
            memcpy(j->keep, o->keep_lines, o->nkeep * sizeof *j->keep);
            j->nkeep = o->nkeep;
        }
        if (from_key) {
            j->from_key = xstrdup(from_key);
            j->nmap = line_map ? nmap : 0;
            j->map = xmalloc((j->nmap ? j->nmap : 1) * sizeof *j->map);
            if (j->nmap)
                memcpy(j->map, line_map, j->nmap * sizeof *j->map);
        }
        ahead_job **p = &a->jobs;
        while (*p)
            p = &(*p)->next;
        *p = j;
        a->queued_bytes += j->len;
        pthread_cond_signal(&a->work);
    }
    pthread_mutex_unlock(&a->mu);
    return ok;
}

/* True when a job was made from exactly this text and these options. */
static bool job_matches(const ahead_job *j, syn_lang lang, const char *text, size_t len,
                        const syntax_parse_opts *o)
{
    const char *deco = o && o->decorations && *o->decorations ? o->decorations : NULL;
    size_t nkeep = o ? o->nkeep : 0;
    if (j->lang != lang || j->len != len || (len && memcmp(j->text, text, len) != 0))
        return false;
    if (j->view != (o ? o->view : 0) || j->nkeep != nkeep || (deco == NULL) != (j->decorations == NULL))
        return false;
    if (deco && strcmp(deco, j->decorations) != 0)
        return false;
    return nkeep == 0 || memcmp(j->keep, o->keep_lines, nkeep * sizeof *j->keep) == 0;
}

/* Wait (the lock held) until the worker finishes a job, counting the time. */
static void wait_for_worker(syntax_ahead *a)
{
    double t0 = monotonic_ms();
    pthread_cond_wait(&a->done, &a->mu);
    a->waited_ms += monotonic_ms() - t0;
}

/* While the caller waits for the worker, it parses the next queued job that starts from no
 * other (a head), and that head's base after it from its tree, instead of idling: both threads
 * then share a stretch of the change heavier in parsing than in collecting. The lock is held
 * on entry and on return (released while parsing; the jobs are marked running, so the worker
 * passes them over, and only the caller unlinks jobs). False when there was nothing to do. */
static bool help_while_waiting(syntax_ahead *a)
{
    ahead_job *h = a->jobs;
    while (h && (h->state != JOB_QUEUED || h->from_key))
        h = h->next;
    if (!h)
        return false;
    ahead_job *b = h->next;
    if (!b || b->state != JOB_QUEUED || !b->from_key || strcmp(b->from_key, h->key) != 0)
        b = NULL;
    h->state = JOB_RUNNING;
    if (b)
        b->state = JOB_RUNNING;
    pthread_mutex_unlock(&a->mu);
    syntax_doc *hd = parse_job(h, NULL), *bd = NULL;
    if (b) {
        syntax_origin *origin = hd ? syntax_origin_new(hd) : NULL;
        bd = parse_job(b, origin);
        syntax_origin_free(origin);
    }
    pthread_mutex_lock(&a->mu);
    h->doc = hd;
    h->state = JOB_DONE;
    if (b) {
        b->doc = bd;
        b->state = JOB_DONE;
    }
    pthread_cond_broadcast(&a->done);
    return true;
}

syntax_doc *syntax_ahead_take(syntax_ahead *a, const char *key, syn_lang lang, const char *text,
                              size_t len, const syntax_parse_opts *o)
{
    if (!a)
        return NULL;
    pthread_mutex_lock(&a->mu);
    ahead_job *j = find_job(a, key);
    while (j && j->state == JOB_RUNNING)
        if (!help_while_waiting(a))
            wait_for_worker(a);
    if (j)
        unlink_job(a, j); /* queued: the caller parses it now; done: it is the caller's */
    pthread_mutex_unlock(&a->mu);
    syntax_doc *d = NULL;
    if (j && j->state == JOB_DONE && j->doc && job_matches(j, lang, text, len, o)) {
        d = j->doc;
        j->doc = NULL;
    }
    job_free(j);
    return d;
}

void syntax_ahead_wait(syntax_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    for (;;) {
        bool busy = false;
        for (ahead_job *j = a->jobs; j && !busy; j = j->next)
            busy = j->state != JOB_DONE;
        if (!busy || !a->started)
            break;
        pthread_cond_wait(&a->done, &a->mu);
    }
    pthread_mutex_unlock(&a->mu);
}

double syntax_ahead_waited_ms(syntax_ahead *a)
{
    if (!a)
        return 0;
    pthread_mutex_lock(&a->mu);
    double ms = a->waited_ms;
    pthread_mutex_unlock(&a->mu);
    return ms;
}

size_t syntax_ahead_pending_bytes(syntax_ahead *a)
{
    if (!a)
        return 0;
    pthread_mutex_lock(&a->mu);
    size_t n = a->queued_bytes;
    pthread_mutex_unlock(&a->mu);
    return n;
}

void syntax_ahead_clear(syntax_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    for (;;) {
        bool running = false;
        for (ahead_job *j = a->jobs, *next; j; j = next) {
            next = j->next;
            if (j->state == JOB_RUNNING) {
                running = true;
                continue;
            }
            unlink_job(a, j);
            job_free(j);
        }
        if (!running)
            break;
        pthread_cond_wait(&a->done, &a->mu);
    }
    a->forget = true;
    pthread_cond_signal(&a->work);
    pthread_mutex_unlock(&a->mu);
}

void syntax_ahead_forget(syntax_ahead *a, const char *key)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    ahead_job *j = find_job(a, key);
    if (j)
        j->unwanted = true;
    for (ahead_job *x = a->jobs, *next; x; x = next) {
        next = x->next;
        if (x->unwanted && x->state != JOB_RUNNING) {
            unlink_job(a, x);
            job_free(x);
        }
    }
    pthread_mutex_unlock(&a->mu);
}

void syntax_ahead_free(syntax_ahead *a)
{
    if (!a)
        return;
    syntax_ahead_clear(a);
    pthread_mutex_lock(&a->mu);
    a->stopping = true;
    pthread_cond_broadcast(&a->work);
    pthread_mutex_unlock(&a->mu);
    if (a->started)
        pthread_join(a->thread, NULL);
    pthread_cond_destroy(&a->work);
    pthread_cond_destroy(&a->done);
    pthread_mutex_destroy(&a->mu);
    free(a);
}
