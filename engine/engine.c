/* The engine facade (engine.h): settings, rules-file choice, overlays, and the review itself —
 * build the change, derive the families, run every collector, drop suppressed findings. */
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "engine/collector.h"
#include "engine/repo.h"
#include "engine/path_gate.h"
#include "engine/precision_policy.h"
#include "engine/suppress.h"
#include "engine/syntax.h"
#include "engine/util.h"

typedef struct overlay_entry {
    char *path;
    char *text;
    size_t len;
} overlay_entry;

struct engine {
    repo *rp;
    char *base;
    char *title;
    char *rules_path;
    size_t max_file_bytes;
    char **disabled;
    size_t ndisabled;
    rule_catalog *cat;
    char *cat_problem;
    overlay_entry *ovl;
    size_t novl, ovl_cap;
    /* incremental mode: the last change built, for its base, and what changed since */
    bool incremental;
    bool all_dirty;
    change *cache;
    char *cache_base;
    char **dirty;
    size_t ndirty, dirty_cap;
    syntax_cache *syn;     /* parsed head/base documents, reused across reviews */
    precision_policy policy; /* which rules may report at Warning */
    void *states[64];      /* each collector's state kept between reviews */
    char **touched;        /* paths changed on disk since the previous review (NULL: unknown) */
};

static char *dup_or_null(const char *s)
{
    return s && *s ? xstrdup(s) : NULL;
}

/* Choose and load the rules file: the setting, else the workspace's own, else bundled. */
static void load_catalog(engine *e)
{
    catalog_free(e->cat);
    free(e->cat_problem);
    e->cat = NULL;
    e->cat_problem = NULL;
    if (e->rules_path) {
        e->cat = catalog_load(e->rules_path, &e->cat_problem);
        return;
    }
    static const char own_rel[] = ".claude/skills/review-pr/rules.md";
    char *own = xasprintf("%s%s", repo_workdir(e->rp), own_rel);
    struct stat st;
    if (lstat(own, &st) == 0) {
        /* the workspace's own file, read through the gate: a link to elsewhere is refused */
        size_t len = 0;
        char *why = NULL;
        char *text = gate_read(repo_workdir(e->rp), own_rel, 8u << 20, &len, &why);
        e->cat = text ? catalog_parse(text, len, own, &why) : NULL;
        if (!e->cat) {
            e->cat_problem = xasprintf("%s%s; using the bundled rules", text ? "" : "cannot read rules file ", why);
            e->cat = catalog_bundled();
        }
        free(why);
        free(text);
    } else {
        e->cat = catalog_bundled();
    }
    free(own);
}

/* Load the precision policy from path (NULL or unreadable: the bundled one). */
static void load_policy(precision_policy *p, const char *path)
{
    size_t len = 0;
    char *text = path && *path ? read_file(path, 1u << 20, &len, NULL) : NULL;
    if (text)
        precision_policy_parse(p, text, len);
    else
        precision_policy_bundled(p);
    free(text);
}

static void free_settings(engine *e)
{
    free(e->base);
    free(e->title);
    free(e->rules_path);
    for (size_t i = 0; i < e->ndisabled; i++)
        free(e->disabled[i]);
    free(e->disabled);
    e->disabled = NULL;
    e->ndisabled = 0;
}

void engine_configure(engine *e, const engine_settings *s)
{
    char *old_rules = e->rules_path ? xstrdup(e->rules_path) : NULL;
    bool first = e->cat == NULL;
    e->all_dirty = true; /* the base, the size cap or the rules may differ now */
    free_settings(e);
    engine_settings none = {0};
    if (!s)
        s = &none;
    e->base = dup_or_null(s->base);
    e->title = dup_or_null(s->title);
    e->rules_path = dup_or_null(s->rules_path);
    e->max_file_bytes = s->max_file_bytes ? s->max_file_bytes : 2u << 20;
    if (s->disabled_rules)
        for (size_t i = 0; s->disabled_rules[i]; i++) {
            e->disabled = xrealloc(e->disabled, (e->ndisabled + 1) * sizeof *e->disabled);
            e->disabled[e->ndisabled++] = xstrdup(s->disabled_rules[i]);
        }
    bool rules_changed = (old_rules == NULL) != (e->rules_path == NULL) ||
                         (old_rules && strcmp(old_rules, e->rules_path) != 0);
    if (first || rules_changed)
        load_catalog(e);
    free(old_rules);
    precision_policy_free(&e->policy);
    load_policy(&e->policy, s->precision_policy);
}

engine *engine_open(const char *path, const engine_settings *s, char **cause)
{
    repo *rp = repo_open(path, cause);
    if (!rp)
        return NULL;
    engine *e = xcalloc(1, sizeof *e);
    e->rp = rp;
    e->all_dirty = true;
    e->syn = syntax_cache_new();
    engine_configure(e, s);
    return e;
}

/* Forget the list of paths touched since the previous review. */
static void free_touched(engine *e)
{
    for (size_t i = 0; e->touched && e->touched[i]; i++)
        free(e->touched[i]);
    free(e->touched);
    e->touched = NULL;
}

void engine_free(engine *e)
{
    if (!e)
        return;
    free_settings(e);
    catalog_free(e->cat);
    free(e->cat_problem);
    for (size_t i = 0; i < e->novl; i++) {
        free(e->ovl[i].path);
        free(e->ovl[i].text);
    }
    free(e->ovl);
    change_free(e->cache);
    free(e->cache_base);
    for (size_t i = 0; i < e->ndirty; i++)
        free(e->dirty[i]);
    free(e->dirty);
    syntax_cache_free(e->syn);
    precision_policy_free(&e->policy);
    for (size_t i = 0; i < 64 && collectors_all[i]; i++)
        if (e->states[i] && collectors_all[i]->free_state)
            collectors_all[i]->free_state(e->states[i]);
    free_touched(e);
    repo_free(e->rp);
    free(e);
}

void engine_set_incremental(engine *e, bool on)
{
    e->incremental = on;
    e->all_dirty = true;
}

void engine_mark_dirty(engine *e, const char *relpath)
{
    for (size_t i = 0; i < e->ndirty; i++)
        if (strcmp(e->dirty[i], relpath) == 0)
            return;
    /* A storm of events is cheaper as one full rebuild than as thousands of re-diffs. */
    if (e->ndirty >= 256) {
        e->all_dirty = true;
        return;
    }
    *ARRAY_PUSH(e->dirty, e->ndirty, e->dirty_cap) = xstrdup(relpath);
}

void engine_mark_all_dirty(engine *e)
{
    e->all_dirty = true;
}

bool engine_path_ignored(engine *e, const char *relpath)
{
    return repo_path_ignored(e->rp, relpath);
}

const char *engine_workdir(const engine *e)
{
    return repo_workdir(e->rp);
}

const rule_catalog *engine_catalog(const engine *e)
{
    return e->cat;
}

const char *engine_catalog_problem(const engine *e)
{
    return e->cat_problem;
}

void engine_set_overlay(engine *e, const char *relpath, const char *text, size_t len)
{
    engine_mark_dirty(e, relpath);
    for (size_t i = 0; i < e->novl; i++)
        if (strcmp(e->ovl[i].path, relpath) == 0) {
            free(e->ovl[i].text);
            e->ovl[i].text = xstrndup(text, len);
            e->ovl[i].len = len;
            return;
        }
    overlay_entry *o = ARRAY_PUSH(e->ovl, e->novl, e->ovl_cap);
    o->path = xstrdup(relpath);
    o->text = xstrndup(text, len);
    o->len = len;
}

void engine_drop_overlay(engine *e, const char *relpath)
{
    engine_mark_dirty(e, relpath);
    for (size_t i = 0; i < e->novl; i++)
        if (strcmp(e->ovl[i].path, relpath) == 0) {
            free(e->ovl[i].path);
            free(e->ovl[i].text);
            e->ovl[i] = e->ovl[--e->novl];
            return;
        }
}

static bool rule_disabled(const char *const *disabled, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(disabled[i], id) == 0)
            return true;
    return false;
}

/* Drop findings whose rule is disabled or whose head line carries a suppression for it. */
static void filter_findings(review *r, const char *const *disabled, size_t ndisabled)
{
    size_t keep = 0;
    for (size_t i = 0; i < r->findings.n; i++) {
        finding *f = &r->findings.items[i];
        bool drop = rule_disabled(disabled, ndisabled, f->rule_id);
        if (!drop) {
            const change_file *cf = change_find(r->chg, f->path);
            const char *line;
            size_t len;
            if (cf && cf->head_text &&
                text_line_at(cf->head_text, cf->head_len, f->range.line, &line, &len))
                drop = suppress_line_ignores(line, len, f->rule_id);
        }
        if (drop) {
            finding_clear(f);
            continue;
        }
        r->findings.items[keep++] = *f;
    }
    r->findings.n = keep;
}

/* Monotonic milliseconds, for REVIEW_LSP_TIMING=1 (per-step costs on stderr). */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Run derivation and every collector over r->chg. */
static void run_all(review *r, repo *rp, syntax_cache *syn, void **states,
                    const char *const *touched, const collector_buffer *side, size_t nside,
                    const char *root, const char *title, const char *const *disabled,
                    size_t ndisabled, const precision_policy *policy)
{
    bool timing = getenv("REVIEW_LSP_TIMING") != NULL;
    double t0 = now_ms();
    derive_run(r->chg, title, &r->derived);
    if (timing)
        fprintf(stderr, "review-lsp: derive %.2f ms\n", now_ms() - t0);
    size_t n = 0;
    while (collectors_all[n])
        n++;
    r->collector_status = xcalloc(n + 1, sizeof *r->collector_status);
    for (size_t i = 0; i < n; i++) {
        collector_ctx ctx = {r->chg, rp, root, &r->findings, syn, states && i < 64 ? &states[i] : NULL,
                             touched, side, nside, {0}};
        sb_init(&ctx.status);
        double c0 = now_ms();
        collectors_all[i]->run(&ctx);
        if (timing)
            fprintf(stderr, "review-lsp: collector %s %.2f ms\n", collectors_all[i]->name, now_ms() - c0);
        r->collector_status[r->ncollectors++] =
            xasprintf("%s: %s", collectors_all[i]->name, ctx.status.len ? ctx.status.buf : "ran");
        sb_free(&ctx.status);
    }
    syntax_cache_trim(syn);
    filter_findings(r, disabled, ndisabled);
    precision_policy_apply(policy, &r->findings);
    findings_sort(&r->findings);
}

static bool is_dirty(const engine *e, const char *path)
{
    for (size_t i = 0; i < e->ndirty; i++)
        if (strcmp(e->dirty[i], path) == 0)
            return true;
    return false;
}

/* True when a note is about a dirty path ("PATH: ..."), so a re-diff replaces it. */
static bool note_about_dirty(const engine *e, const char *note)
{
    for (size_t i = 0; i < e->ndirty; i++) {
        size_t n = strlen(e->dirty[i]);
        if (strncmp(note, e->dirty[i], n) == 0 && note[n] == ':')
            return true;
    }
    return false;
}

static const overlay_entry *overlay_of(const engine *e, const char *path)
{
    for (size_t i = 0; i < e->novl; i++)
        if (strcmp(e->ovl[i].path, path) == 0)
            return &e->ovl[i];
    return NULL;
}

/* True when an unsaved buffer is not part of the change: git's own files (the commit buffer
 * among them) and files git ignores, which an editor may well have open. */
static bool outside_change(engine *e, const char *path)
{
    return str_starts(path, ".git/") || repo_path_ignored(e->rp, path);
}

/* The change for this review: rebuilt from the whole work tree, or (incremental mode, same
 * base, nothing marked all-dirty) the cached change with only the dirty paths re-diffed. */
static change *build_change(engine *e, char **cause)
{
    const char *base = repo_base_id(e->rp);
    bool full = !e->incremental || e->all_dirty || !e->cache || !e->cache_base ||
                strcmp(base, e->cache_base) != 0;
    change *c;
    if (full) {
        overlay *ov = xcalloc(e->novl + 1, sizeof *ov);
        size_t nov = 0;
        for (size_t i = 0; i < e->novl; i++) {
            if (outside_change(e, e->ovl[i].path))
                continue;
            ov[nov].path = e->ovl[i].path;
            ov[nov].text = e->ovl[i].text;
            ov[nov].len = e->ovl[i].len;
            nov++;
        }
        c = repo_build_change(e->rp, ov, nov, e->max_file_bytes, cause);
        free(ov);
        if (!c)
            return NULL;
    } else {
        c = change_new();
        c->head_root = xstrdup(repo_workdir(e->rp));
        for (size_t i = 0; i < e->cache->nnotes; i++)
            if (!note_about_dirty(e, e->cache->notes[i]))
                change_note(c, "%s", e->cache->notes[i]);
        for (size_t i = 0; i < e->cache->nfiles; i++)
            if (!is_dirty(e, e->cache->files[i].path))
                change_copy_file(c, &e->cache->files[i]);
        for (size_t i = 0; i < e->ndirty; i++) {
            if (outside_change(e, e->dirty[i]))
                continue;
            const overlay_entry *o = overlay_of(e, e->dirty[i]);
            change_file *f = NULL;
            char *why = NULL;
            repo_diff_path(e->rp, e->dirty[i], o ? o->text : NULL, o ? o->len : 0,
                           e->max_file_bytes, &f, &why);
            free(why);
            if (f) {
                if (f->is_skipped)
                    change_note(c, "%s: %s, not reviewed", f->path, f->skip_reason);
                change_copy_file(c, f);
                change_file_clear(f);
                free(f);
            }
        }
    }
    change_free(e->cache);
    e->cache = change_new();
    for (size_t i = 0; i < c->nfiles; i++)
        change_copy_file(e->cache, &c->files[i]);
    for (size_t i = 0; i < c->nnotes; i++)
        change_note(e->cache, "%s", c->notes[i]);
    free(e->cache_base);
    e->cache_base = xstrdup(base);
    /* What the collectors may treat as changed on disk: the dirty paths of an incremental
       review; unknown (NULL) after a full rebuild. */
    free_touched(e);
    if (!full) {
        e->touched = xcalloc(e->ndirty + 1, sizeof *e->touched);
        for (size_t i = 0; i < e->ndirty; i++)
            e->touched[i] = xstrdup(e->dirty[i]);
    }
    for (size_t i = 0; i < e->ndirty; i++)
        free(e->dirty[i]);
    e->ndirty = 0;
    e->all_dirty = false;
    return c;
}

int engine_review(engine *e, review **out, char **cause)
{
    char *desc = NULL, *notes = NULL;
    repo_resolve_base(e->rp, e->base, &desc, &notes);
    change *c = build_change(e, cause);
    if (!c) {
        free(desc);
        free(notes);
        return -1;
    }
    if (notes && *notes) {
        char *save = NULL;
        for (char *l = strtok_r(notes, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
            change_note(c, "%s", l);
    }
    free(notes);
    free(c->title);
    c->title = e->title ? xstrdup(e->title) : repo_default_title(e->rp);
    review *r = xcalloc(1, sizeof *r);
    r->chg = c;
    r->base_desc = desc;
    /* buffers the editor has open that are not part of the change (e.g. git's commit message) */
    collector_buffer *side = xcalloc(e->novl + 1, sizeof *side);
    size_t nside = 0;
    for (size_t i = 0; i < e->novl; i++)
        if (outside_change(e, e->ovl[i].path))
            side[nside++] = (collector_buffer){e->ovl[i].path, e->ovl[i].text, e->ovl[i].len};
    run_all(r, e->rp, e->syn, e->states, (const char *const *)e->touched, side, nside,
            repo_workdir(e->rp), c->title, (const char *const *)e->disabled, e->ndisabled,
            &e->policy);
    free(side);
    *out = r;
    return 0;
}

review *engine_review_change(change *chg, const char *root, const rule_catalog *cat,
                             const char *const *disabled_rules, const char *policy_path)
{
    (void)cat;
    review *r = xcalloc(1, sizeof *r);
    r->chg = chg;
    if (root && !chg->head_root)
        chg->head_root = xstrdup(root);
    change_note_refusals(chg);
    r->base_desc = xstrdup("(diff file)");
    size_t nd = 0;
    while (disabled_rules && disabled_rules[nd])
        nd++;
    syntax_cache *syn = syntax_cache_new();
    precision_policy policy;
    load_policy(&policy, policy_path);
    run_all(r, NULL, syn, NULL, NULL, NULL, 0, root, chg->title, disabled_rules, nd, &policy);
    precision_policy_free(&policy);
    syntax_cache_free(syn);
    return r;
}

void review_free(review *r)
{
    if (!r)
        return;
    change_free(r->chg);
    derive_result_clear(&r->derived);
    findings_clear(&r->findings);
    for (size_t i = 0; i < r->ncollectors; i++)
        free(r->collector_status[i]);
    free(r->collector_status);
    free(r->base_desc);
    free(r);
}
