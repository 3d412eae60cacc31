/* The engine's front door (engine.h): opening a repository or a diff, settings, the rules-file
 * choice, overlays and side buffers, and the review itself — build the change, derive the
 * families, run every collector, drop suppressed findings. */
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>

#include "engine/beside.h"
#include "engine/collector_cache.h"
#include "engine/collector_run.h"
#include "engine/config_state.h"
#include "engine/diff_parse.h"
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
    repo *rp;              /* the repository; NULL for a diff */
    char *diff_text;       /* the diff under review (engine_open_diff), or NULL */
    size_t diff_len;
    char *diff_problem;    /* why the diff is not usable, or NULL */
    char *tree;            /* where the head files are, with a trailing '/', or NULL */
    char *desc_name;       /* a pull-request description (engine_set_description), or NULL */
    char *desc_text;
    size_t desc_len;
    config_state *cfgs;    /* the repository configuration and the face's layer over it */
    char *face_rules;      /* the face's rules_path, to say when the repository's own wins */
    char *base;            /* base, rules_path and max_file_bytes: from the configuration */
    char *title;
    char *rules_path;
    size_t max_file_bytes;
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
    collector_runner *runner; /* the collectors, with their states and per-file results */
    derive_table *families;   /* the derivation's family table, compiled */
    bool timing;              /* each step's cost on stderr (engine_settings.timing) */
    bool derive_only;         /* no collectors (engine_settings.derive_only) */
    bool one_thread;          /* review on this thread only (engine_settings.one_thread) */
    uint64_t header_sum;      /* the change's headers at the previous review (headers_may_differ) */
    bool have_header_sum;
    bool prepared;         /* engine_prepare_review ran since the last review */
    void (*beside_fn)(const change *c, void *arg); /* the caller's work beside the next review */
    void *beside_arg;
    char **touched;        /* paths changed on disk since the previous review (NULL: unknown) */
};

static char *dup_or_null(const char *s)
{
    return s && *s ? xstrdup(s) : NULL;
}

/* Load the rules file, chosen in one place (effective_config.h): the repository's own (named
 * by its configuration file, else .claude/skills/review-pr/rules.md), else the setting, else
 * the bundled one. */
static void load_catalog(engine *e)
{
    catalog_free(e->cat);
    free(e->cat_problem);
    e->cat = NULL;
    e->cat_problem = NULL;
    if (!e->rules_path) {
        e->cat = catalog_bundled();
        return;
    }
    /* a rules file inside the work tree is read through the path gate: a link to elsewhere
     * is refused and the bundled rules are used */
    const char *wd = e->tree;
    size_t wl = wd ? strlen(wd) : 0;
    if (wl && strncmp(e->rules_path, wd, wl) == 0 && (wd[wl - 1] == '/' || e->rules_path[wl] == '/')) {
        const char *rel = e->rules_path + wl + (wd[wl - 1] == '/' ? 0 : 1);
        size_t len = 0;
        char *why = NULL;
        char *text = gate_read(wd, rel, 8u << 20, &len, &why);
        e->cat = text ? catalog_parse(text, len, e->rules_path, &why) : NULL;
        if (!e->cat) {
            e->cat_problem = xasprintf("%s%s; using the bundled rules",
                                       text ? "" : "cannot read rules file ", why ? why : rel);
            e->cat = catalog_bundled();
        }
        free(why);
        free(text);
    } else {
        e->cat = catalog_load(e->rules_path, &e->cat_problem);
    }
    if (!e->cat_problem && e->face_rules && strcmp(e->face_rules, e->rules_path) != 0)
        e->cat_problem = xasprintf("rules file %s is not used: the repository has its own, %s",
                                   e->face_rules, e->rules_path);
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
    free(e->face_rules);
    e->base = e->title = e->rules_path = e->face_rules = NULL;
}

static int hints_from_name(const char *name)
{
    static const char *const names[] = {"off", "file", "line"};
    for (int i = 0; name && i < 3; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return HINTS_UNSET;
}

/* Bring the configuration up to date (the file may have changed on disk) and take what the
 * engine itself uses from it: base, rules file, size cap. Returns true when it changed. */
static bool refresh_config(engine *e)
{
    if (!config_state_refresh(e->cfgs) && e->cat)
        return false;
    const effective_config *c = config_state_effective(e->cfgs);
    bool rules_changed = !e->cat || (e->rules_path == NULL) != (c->rules == NULL) ||
                         (c->rules && strcmp(c->rules, e->rules_path) != 0);
    free(e->base);
    e->base = dup_or_null(c->base);
    free(e->rules_path);
    e->rules_path = dup_or_null(c->rules);
    e->max_file_bytes = c->max_file_bytes;
    if (rules_changed)
        load_catalog(e);
    e->all_dirty = true; /* the base, the size cap, exclusions or the rules may differ now */
    return true;
}

void engine_configure(engine *e, const engine_settings *s)
{
    engine_settings none = {0};
    if (!s)
        s = &none;
    free(e->title);
    e->title = dup_or_null(s->title);
    free(e->face_rules);
    e->face_rules = dup_or_null(s->rules_path);
    config_layer l = {s->face,          s->base,
                      s->rules_path,    s->max_file_bytes,
                      hints_from_name(s->derived_hints), s->disabled_rules,
                      s->severity};
    config_state_set_layer(e->cfgs, &l);
    refresh_config(e);
    precision_policy_free(&e->policy);
    load_policy(&e->policy, s->precision_policy);
    e->timing = s->timing;
    e->derive_only = s->derive_only;
    e->one_thread = s->one_thread;
    collector_runner_set_second_thread(e->runner, !s->one_thread);
}

/* The reviewed path relative to the work tree, where the configuration walk starts (new
 * string; "" for the root or anything outside it). */
static char *start_in_tree(const char *path, const char *workdir)
{
    char *real = realpath(path, NULL);
    char *realdir = realpath(workdir, NULL);
    char *out = NULL;
    size_t n = realdir ? strlen(realdir) : 0;
    if (real && realdir && strncmp(real, realdir, n) == 0 && real[n] == '/')
        out = xstrdup(real + n + 1);
    free(real);
    free(realdir);
    return out ? out : xstrdup("");
}

const effective_config *engine_config(const engine *e)
{
    return config_state_effective(e->cfgs);
}

const char *engine_config_problem(const engine *e)
{
    return config_state_problem(e->cfgs);
}

engine *engine_open_repo(const char *path, const engine_settings *s, char **cause)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        *cause = xasprintf("%s does not exist", path);
        return NULL;
    }
    repo *rp = repo_open(path, cause);
    if (!rp)
        return NULL;
    engine *e = xcalloc(1, sizeof *e);
    e->rp = rp;
    e->tree = xstrdup(repo_workdir(rp));
    e->all_dirty = true;
    e->syn = syntax_cache_new();
    char *start = start_in_tree(path, e->tree);
    e->cfgs = config_state_new(e->tree, start);
    free(start);
    e->runner = collector_runner_new(!(s && s->one_review));
    e->families = derive_table_load();
    engine_configure(e, s);
    return e;
}

engine *engine_open_diff(const char *text, size_t len, const char *root, const engine_settings *s)
{
    engine *e = xcalloc(1, sizeof *e);
    if (text) {
        e->diff_text = xstrndup(text, len);
        e->diff_len = len;
        /* parsed here once for its problem; each review parses its own copy of the change */
        change_free(diff_parse(text, len, &e->diff_problem));
    }
    if (root && *root) {
        size_t n = strlen(root);
        e->tree = root[n - 1] == '/' ? xstrdup(root) : xasprintf("%s/", root);
    }
    e->syn = syntax_cache_new();
    e->cfgs = config_state_new(e->tree, ""); /* a diff's tree is read from its top */
    /* nothing kept between reviews of a diff: there is no tree to watch */
    e->runner = collector_runner_new(false);
    e->families = derive_table_load();
    engine_configure(e, s);
    return e;
}

const char *engine_diff_problem(const engine *e)
{
    return e->diff_problem;
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
    config_state_free(e->cfgs);
    precision_policy_free(&e->policy);
    collector_runner_free(e->runner);
    derive_table_free(e->families);
    free_touched(e);
    repo_free(e->rp);
    free(e->diff_text);
    free(e->diff_problem);
    free(e->tree);
    free(e->desc_name);
    free(e->desc_text);
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
    return e->rp && repo_path_ignored(e->rp, relpath);
}

const char *engine_workdir(const engine *e)
{
    return e->tree;
}

const rule_catalog *engine_catalog(const engine *e)
{
    return e->cat;
}

const char *engine_catalog_problem(const engine *e)
{
    return e->cat_problem;
}

bool engine_knows_rule(const engine *e, const char *id)
{
    if (catalog_find(e->cat, id))
        return true;
    size_t n = strlen(id);
    for (size_t i = 0; collectors_all[i]; i++)
        for (const char *r = collectors_all[i]->rules; (r = strstr(r, id)) != NULL; r += n)
            if ((r == collectors_all[i]->rules || r[-1] == ' ') && (r[n] == ' ' || r[n] == '\0'))
                return true;
    return false;
}

void engine_set_description(engine *e, const char *name, const char *text, size_t len)
{
    free(e->desc_name);
    free(e->desc_text);
    e->desc_name = text ? xstrdup(name) : NULL;
    e->desc_text = text ? xstrndup(text, len) : NULL;
    e->desc_len = text ? len : 0;
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

/* Drop findings whose head line carries a suppression for their rule. */
static void filter_suppressed(review *r)
{
    size_t keep = 0;
    for (size_t i = 0; i < r->findings.n; i++) {
        finding *f = &r->findings.items[i];
        const change_file *cf = change_find(r->chg, f->path);
        const char *line;
        size_t len;
        if (cf && cf->head_text && text_line_at(cf->head_text, cf->head_len, f->range.line, &line, &len) &&
            suppress_line_ignores(line, len, f->rule_id)) {
            finding_clear(f);
            continue;
        }
        r->findings.items[keep++] = *f;
    }
    r->findings.n = keep;
}

/* Leave out of the change the files the repository configuration excludes (or does not
 * include), saying how many. */
static void drop_excluded(change *c, const effective_config *cfg)
{
    size_t keep = 0, dropped = 0;
    for (size_t i = 0; i < c->nfiles; i++) {
        if (repo_config_path_excluded(cfg->file, c->files[i].path)) {
            change_file_clear(&c->files[i]);
            dropped++;
            continue;
        }
        c->files[keep++] = c->files[i];
    }
    c->nfiles = keep;
    if (dropped)
        change_note(c, "%zu changed file%s left out by exclude/include in %s", dropped,
                    dropped == 1 ? "" : "s", cfg->file->name);
}

/* Hand the configuration's problems to a review, and note them in its change. */
static void note_config(engine *e, review *r)
{
    const char *problem = config_state_problem(e->cfgs);
    if (problem) {
        r->config_problem = xstrdup(problem);
        change_note(r->chg, "%s", r->config_problem);
    }
    size_t n = 0;
    const char *const *warn = config_state_warnings(e->cfgs, &n);
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < n; i++) {
        sb_addf(&sb, "%s%s", i ? "\n" : "", warn[i]);
        change_note(r->chg, "%s", warn[i]);
    }
    r->config_warnings = n ? sb_detach(&sb) : NULL;
    sb_free(&sb);
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

/* True when an unsaved buffer is not part of the change: git's own files (the commit buffer
 * among them) and files git ignores, which an editor may well have open. */
static bool outside_change(engine *e, const char *path)
{
    return str_starts(path, ".git/") || engine_path_ignored(e, path);
}

/* The texts beside the change (a new array of *n, the caller frees it; the texts are
 * borrowed): unsaved buffers outside the change, and the pull-request description. */
static collector_buffer *side_buffers(engine *e, size_t *n)
{
    collector_buffer *side = xcalloc(e->novl + 2, sizeof *side);
    *n = 0;
    for (size_t i = 0; i < e->novl; i++)
        if (outside_change(e, e->ovl[i].path))
            side[(*n)++] = (collector_buffer){e->ovl[i].path, e->ovl[i].text, e->ovl[i].len, false};
    if (e->desc_text)
        side[(*n)++] = (collector_buffer){e->desc_name, e->desc_text, e->desc_len, true};
    return side;
}

/* Change files in path order. */
static int file_cmp(const void *a, const void *b)
{
    return strcmp(((const change_file *)a)->path, ((const change_file *)b)->path);
}

/* Run derivation and every collector over r->chg. */
/* True for a C/C++ file that is included rather than compiled on its own. */
static bool is_header(const char *path)
{
    static const char *const units[] = {".cu", ".hip", ".cpp", ".cc", ".cxx", ".c", NULL};
    if (syntax_lang_of_path(path) != SYN_CPP)
        return false;
    for (size_t i = 0; units[i]; i++)
        if (str_ends(path, units[i]))
            return false;
    return true;
}

/* True when a header the parser takes decorations from may differ from the previous review's:
 * the tree changed in ways not known (no list of touched paths), a touched path is C/C++, or
 * the change's headers (whose text may be an unsaved buffer) are other paths or other texts.
 * Otherwise what the header reader learned stays good, and every file's decorations are found
 * again without re-reading its includes. */
static bool headers_may_differ(engine *e, const change *c, const char *const *touched)
{
    bool differ = !touched;
    for (size_t i = 0; touched && touched[i] && !differ; i++)
        differ = syntax_lang_of_path(touched[i]) == SYN_CPP;
    uint64_t sum = 1;
    for (size_t i = 0; i < c->nfiles; i++)
        if (is_header(c->files[i].path)) {
            uint64_t parts[2] = {hash_bytes(c->files[i].path, strlen(c->files[i].path)),
                                 collector_cache_file_hash(&c->files[i])};
            sum = sum * 1099511628211u ^ hash_bytes(parts, sizeof parts);
        }
    differ |= !e->have_header_sum || sum != e->header_sum;
    e->header_sum = sum;
    e->have_header_sum = true;
    return differ;
}

/* The derivation of a review, run beside its collectors: it reads only the change. */
typedef struct derive_job {
    const derive_table *families;
    const change *view;
    derive_result *out;
    double ms;
} derive_job;

static void derive_main(void *arg)
{
    derive_job *j = arg;
    double t0 = monotonic_ms();
    derive_run(j->families, j->view, j->view->title, j->out);
    j->ms = monotonic_ms() - t0;
}

/* The caller's work beside a review (engine_beside_next_review). */
typedef struct caller_job {
    void (*fn)(const change *c, void *arg);
    const change *c;
    void *arg;
} caller_job;

static void caller_main(void *arg)
{
    caller_job *j = arg;
    j->fn(j->c, j->arg);
}

static void run_all(engine *e, review *r, const char *const *touched, const char *root)
{
    bool timing = e->timing;
    collector_runner_set_timing(e->runner, timing ? stderr : NULL);
    double t0 = monotonic_ms();
    /* derivation and collectors read the files of a repository's change in path order, however
     * the change was built (an incremental one lists re-diffed files last), so a review reads
     * the same after any sequence of edits; a diff keeps its own order */
    change view = *r->chg;
    if (e->rp && view.nfiles > 1) {
        view.files = xmalloc(view.nfiles * sizeof *view.files);
        memcpy(view.files, r->chg->files, view.nfiles * sizeof *view.files);
        qsort(view.files, view.nfiles, sizeof *view.files, file_cmp);
    }
    if (headers_may_differ(e, &view, touched))
        syntax_cache_headers_changed(e->syn);
    /* the caller's work and the derivation read only the change: each runs on a thread of
     * its own while the collectors run on this one */
    caller_job cj = {e->beside_fn, r->chg, e->beside_arg};
    beside caller = {0};
    e->beside_fn = NULL;
    if (cj.fn)
        beside_start(&caller, !e->one_thread, caller_main, &cj);
    derive_job dj = {e->families, &view, &r->derived, 0};
    beside derivation = {0};
    bool derive_beside = beside_start(&derivation, !e->derive_only && !e->one_thread,
                                      derive_main, &dj);
    size_t nside;
    collector_buffer *side = side_buffers(e, &nside);
    const char **open = xcalloc(e->novl + 1, sizeof *open);
    for (size_t i = 0; i < e->novl; i++)
        open[i] = e->ovl[i].path;
    collector_inputs in = {&view, e->rp, root, e->syn, touched, side, nside, open};
    if (!e->derive_only)
        r->collector_status = collector_runner_run(e->runner, &in, &r->findings, &r->ncollectors);
    beside_join(&derivation);
    if (timing)
        fprintf(stderr, "review-lsp: derive %.2f ms%s\n", dj.ms,
                derive_beside ? " (beside the collectors)" : "");
    free(open);
    free(side);
    syntax_cache_trim(e->syn);
    filter_suppressed(r);
    precision_policy_apply(&e->policy, &r->findings);
    effective_apply(config_state_effective(e->cfgs), &r->findings); /* after the policy: a
                                                                       team's own level wins */
    findings_sort(&r->findings);
    beside_join(&caller);
    if (view.files != r->chg->files)
        free(view.files);
    if (timing)
        fprintf(stderr, "review-lsp: review %.2f ms\n", monotonic_ms() - t0);
}

static bool is_dirty(const engine *e, const char *path)
{
    for (size_t i = 0; i < e->ndirty; i++)
        if (strcmp(e->dirty[i], path) == 0)
            return true;
    return false;
}

static const overlay_entry *overlay_of(const engine *e, const char *path)
{
    for (size_t i = 0; i < e->novl; i++)
        if (strcmp(e->ovl[i].path, path) == 0)
            return &e->ovl[i];
    return NULL;
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

/* Review the diff of engine_open_diff: its change parsed afresh (a review owns its change). */
static review *review_diff(engine *e)
{
    char *problem = NULL;
    change *c = e->diff_text ? diff_parse(e->diff_text, e->diff_len, &problem) : change_new();
    free(problem);
    free(c->title);
    c->title = xstrdup(e->title ? e->title : "");
    if (e->tree && !c->head_root)
        c->head_root = xstrdup(e->tree);
    change_note_refusals(c);
    drop_excluded(c, config_state_effective(e->cfgs));
    review *r = xcalloc(1, sizeof *r);
    r->chg = c;
    r->base_desc = xstrdup("(diff file)");
    note_config(e, r);
    run_all(e, r, NULL, e->tree);
    return r;
}

/* The title of a repository's change: the setting, else the default (noting when that is
 * empty, which only a detached HEAD with no commit since the base gives). */
static char *repo_title(engine *e, change *c)
{
    if (e->title)
        return xstrdup(e->title);
    char *t = repo_default_title(e->rp);
    if (!*t)
        change_note(c, "the title is empty: HEAD is detached and has no commit since the base, so "
                       "title-driven families (perf, ...) cannot apply; give one with --title or "
                       "the title setting");
    return t;
}

void engine_prepare_review(engine *e)
{
    refresh_config(e);
    e->prepared = true;
}

void engine_beside_next_review(engine *e, void (*fn)(const change *c, void *arg), void *arg)
{
    e->beside_fn = fn;
    e->beside_arg = arg;
}

int engine_review(engine *e, review **out, char **cause)
{
    if (!e->prepared)
        refresh_config(e);
    e->prepared = false;
    if (!e->rp) {
        *out = review_diff(e);
        return 0;
    }
    char *desc = NULL, *notes = NULL;
    repo_resolve_base(e->rp, e->base, &desc, &notes);
    char *base_error = NULL;
    if (e->base && *repo_base_id(e->rp) && !repo_names_commit(e->rp, e->base)) {
        const effective_config *cfg = engine_config(e);
        char *where = cfg->base_from_file ? xasprintf(" (set in %s)", cfg->base_source) : xstrdup("");
        base_error = xasprintf("base '%s' does not name a commit in %s%s", e->base,
                               repo_workdir(e->rp), where);
        free(where);
    }
    change *c = build_change(e, cause);
    if (!c) {
        e->beside_fn = NULL; /* the caller's work was for this review */
        free(desc);
        free(notes);
        free(base_error);
        return -1;
    }
    if (notes && *notes) {
        char *save = NULL;
        for (char *l = strtok_r(notes, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
            change_note(c, "%s", l);
    }
    free(notes);
    free(c->title);
    c->title = repo_title(e, c);
    drop_excluded(c, config_state_effective(e->cfgs));
    review *r = xcalloc(1, sizeof *r);
    r->chg = c;
    r->base_desc = desc;
    r->base_error = base_error;
    note_config(e, r);
    run_all(e, r, (const char *const *)e->touched, repo_workdir(e->rp));
    *out = r;
    return 0;
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
    free(r->base_error);
    free(r->config_problem);
    free(r->config_warnings);
    free(r);
}
