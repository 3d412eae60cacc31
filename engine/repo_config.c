/* The repository configuration file (repo_config.h): finding it by walking up from the reviewed
 * path, reading its table through toml_read, and checking each key. A value of the wrong kind
 * rejects the whole file (the caller keeps what it had), so a typo never half-applies; a key
 * this version does not know is reported and skipped, so a newer file still works. */
#include "engine/repo_config.h"

#include <git2.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/toml_read.h"
#include "engine/util.h"

#define CONFIG_MAX_BYTES (1u << 20)
#define MAX_FILE_BYTES_LIMIT ((size_t)1 << 30)

struct rc_globs {
    git_pathspec *spec;
};

/* What the checks of one file share: its name for messages, the key lines, the verdict. */
typedef struct rc_ctx {
    const char *name;
    const char *dir;
    const char *realdir;
    json_t *lines;
    repo_config *out;
    char **cause;
} rc_ctx;

/* The line a key path was written on (0 when unknown). */
static int key_line(const rc_ctx *x, const char *path)
{
    return (int)json_integer_value(json_object_get(x->lines, path));
}

/* Set *cause to "name:line: path: what" and return -1. */
static int fail(rc_ctx *x, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(rc_ctx *x, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = xvasprintf(fmt, ap);
    va_end(ap);
    int line = key_line(x, path);
    *x->cause = line ? xasprintf("%s:%d: %s: %s", x->name, line, path, what)
                     : xasprintf("%s: %s: %s", x->name, path, what);
    free(what);
    return -1;
}

/* Note a key that is skipped. */
static void warn(rc_ctx *x, const char *path, const char *what)
{
    repo_config *c = x->out;
    c->warnings = xrealloc(c->warnings, (c->nwarnings + 1) * sizeof *c->warnings);
    int line = key_line(x, path);
    c->warnings[c->nwarnings++] = line ? xasprintf("%s:%d: %s: %s", x->name, line, path, what)
                                       : xasprintf("%s: %s: %s", x->name, path, what);
}

static void list_add(rc_list *l, const char *text, int line)
{
    rc_entry *e = ARRAY_PUSH(l->items, l->n, l->cap);
    e->text = xstrdup(text);
    e->line = line;
}

static void list_clear(rc_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i].text);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static void levels_clear(rc_levels *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i].id);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static void globs_free(rc_globs *g)
{
    if (!g)
        return;
    git_pathspec_free(g->spec);
    free(g);
    git_libgit2_shutdown();
}

/* Compile globs written relative to dir into pathspecs relative to the work tree (NULL for
 * an empty list). A leading '/' anchors nothing more (patterns are already relative to dir);
 * '!' keeps its meaning in front of the prefixed pattern. */
static rc_globs *globs_compile(const rc_list *l, const char *dir)
{
    if (l->n == 0)
        return NULL;
    git_libgit2_init();
    char **pats = xcalloc(l->n, sizeof *pats);
    for (size_t i = 0; i < l->n; i++) {
        const char *p = l->items[i].text;
        bool neg = p[0] == '!';
        p += neg;
        while (*p == '/')
            p++;
        pats[i] = xasprintf("%s%s%s", neg ? "!" : "", dir, p);
    }
    git_strarray arr = {pats, l->n};
    rc_globs *g = xcalloc(1, sizeof *g);
    if (git_pathspec_new(&g->spec, &arr) < 0)
        g->spec = NULL;
    for (size_t i = 0; i < l->n; i++)
        free(pats[i]);
    free(pats);
    return g;
}

bool rc_globs_match(const rc_globs *g, const char *relpath)
{
    return g && g->spec && git_pathspec_matches_path(g->spec, 0, relpath) == 1;
}

bool repo_config_path_excluded(const repo_config *c, const char *relpath)
{
    if (!c)
        return false;
    if (rc_globs_match(c->exclude_match, relpath))
        return true;
    return c->include_match && !rc_globs_match(c->include_match, relpath);
}

/* A list of non-empty strings (rule ids, globs). */
static int take_list(rc_ctx *x, json_t *v, const char *path, const char *what, rc_list *out)
{
    size_t i;
    json_t *e;
    if (!json_is_array(v))
        return fail(x, path, "expected an array of %s", what);
    json_array_foreach(v, i, e) {
        if (!json_is_string(e) || !*json_string_value(e))
            return fail(x, path, "expected an array of %s; item %zu is not a non-empty string",
                        what, i + 1);
        list_add(out, json_string_value(e), key_line(x, path));
    }
    return 0;
}

static int level_cmp(const void *a, const void *b)
{
    return strcmp(((const rc_level *)a)->id, ((const rc_level *)b)->id);
}

/* A table of rule id or family → level (kept sorted by id, so that it reads the same
 * whichever order the table came in). */
static int take_levels(rc_ctx *x, json_t *v, const char *path, rc_levels *out)
{
    const char *id;
    json_t *e;
    if (!json_is_object(v))
        return fail(x, path, "expected a table of rule id or family = level");
    json_object_foreach(v, id, e) {
        char *sub = xasprintf("%s.%s", path, id);
        severity sev;
        if (!json_is_string(e) || severity_parse(json_string_value(e), &sev) < 0) {
            int r = fail(x, sub, "expected \"error\", \"warning\", \"information\" or \"hint\"");
            free(sub);
            return r;
        }
        rc_level *l = ARRAY_PUSH(out->items, out->n, out->cap);
        l->id = xstrdup(id);
        l->sev = sev;
        l->line = key_line(x, sub) ? key_line(x, sub) : key_line(x, path);
        free(sub);
    }
    if (out->n > 1)
        qsort(out->items, out->n, sizeof *out->items, level_cmp);
    return 0;
}

/* rules: a path relative to the file's directory, which must stay inside the work tree. */
static int take_rules(rc_ctx *x, json_t *v)
{
    if (!json_is_string(v) || !*json_string_value(v))
        return fail(x, "rules", "expected the path of a rules file");
    const char *p = json_string_value(v);
    char *abs = p[0] == '/' ? xstrdup(p) : xasprintf("%s%s%s", x->realdir, x->dir, p);
    char *real = realpath(abs, NULL);
    /* A file that does not exist yet is the catalogue's to report; one that resolves outside
       the work tree is never read. */
    bool outside = real ? !str_starts(real, x->realdir) : !str_starts(abs, x->realdir) ||
                                                               strstr(abs, "/../") != NULL;
    free(real);
    if (outside) {
        free(abs);
        return fail(x, "rules", "%s is outside the work tree", p);
    }
    x->out->rules.value = abs;
    x->out->rules.line = key_line(x, "rules");
    return 0;
}

static int take_max_bytes(rc_ctx *x, json_t *v)
{
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        (size_t)json_integer_value(v) > MAX_FILE_BYTES_LIMIT)
        return fail(x, "max-file-bytes", "expected a positive integer up to 1 GiB (1073741824)");
    x->out->max_file_bytes = (size_t)json_integer_value(v);
    x->out->max_file_bytes_line = key_line(x, "max-file-bytes");
    return 0;
}

static int take_hints(rc_ctx *x, json_t *v)
{
    static const char *const names[] = {"off", "file", "line"};
    for (int i = 0; i < 3 && json_is_string(v); i++)
        if (strcmp(json_string_value(v), names[i]) == 0) {
            x->out->derived_hints = i;
            x->out->derived_hints_line = key_line(x, "derived-hints");
            return 0;
        }
    return fail(x, "derived-hints", "expected \"file\", \"line\" or \"off\"");
}

/* One [[overrides]] table. */
static int take_override(rc_ctx *x, json_t *t, size_t idx)
{
    char *path = xasprintf("overrides[%zu]", idx);
    repo_config *c = x->out;
    rc_override *o = &c->overrides[c->noverrides++];
    memset(o, 0, sizeof *o);
    o->line = key_line(x, path);
    int r = 0;
    if (!json_is_object(t)) {
        r = fail(x, "overrides", "expected [[overrides]] tables");
        free(path);
        return r;
    }
    const char *key;
    json_t *v;
    json_object_foreach(t, key, v) {
        char *sub = xasprintf("%s.%s", path, key);
        if (!strcmp(key, "paths"))
            r = take_list(x, v, sub, "globs", &o->paths);
        else if (!strcmp(key, "disable"))
            r = take_list(x, v, sub, "rule ids", &o->disable);
        else if (!strcmp(key, "severity"))
            r = take_levels(x, v, sub, &o->severity);
        else
            warn(x, sub, "unknown key in [[overrides]] (known: paths, disable, severity); ignored");
        free(sub);
        if (r < 0)
            break;
    }
    if (r == 0 && o->paths.n == 0)
        r = fail(x, path, "an [[overrides]] table needs paths = [\"glob\", ...]");
    if (r == 0)
        o->match = globs_compile(&o->paths, x->dir);
    free(path);
    return r;
}

static int take_overrides(rc_ctx *x, json_t *v)
{
    if (!json_is_array(v))
        return fail(x, "overrides", "expected [[overrides]] tables");
    x->out->overrides = xcalloc(json_array_size(v) + 1, sizeof *x->out->overrides);
    size_t i;
    json_t *t;
    json_array_foreach(v, i, t) if (take_override(x, t, i) < 0) return -1;
    return 0;
}

/* Check and take one top-level key. */
static int take_key(rc_ctx *x, const char *key, json_t *v)
{
    repo_config *c = x->out;
    if (!strcmp(key, "base")) {
        if (!json_is_string(v) || !*json_string_value(v))
            return fail(x, key, "expected a ref name (\"origin/main\")");
        c->base.value = xstrdup(json_string_value(v));
        c->base.line = key_line(x, key);
        return 0;
    }
    if (!strcmp(key, "rules"))
        return take_rules(x, v);
    if (!strcmp(key, "disable"))
        return take_list(x, v, key, "rule ids", &c->disable);
    if (!strcmp(key, "severity"))
        return take_levels(x, v, key, &c->severity);
    if (!strcmp(key, "exclude"))
        return take_list(x, v, key, "globs", &c->exclude);
    if (!strcmp(key, "include"))
        return take_list(x, v, key, "globs", &c->include);
    if (!strcmp(key, "overrides"))
        return take_overrides(x, v);
    if (!strcmp(key, "max-file-bytes"))
        return take_max_bytes(x, v);
    if (!strcmp(key, "derived-hints"))
        return take_hints(x, v);
    warn(x, key, "unknown key (known: base, rules, disable, severity, exclude, include, "
                 "overrides, max-file-bytes, derived-hints); ignored");
    return 0;
}

int repo_config_parse(const char *text, size_t len, bool pyproject, const char *name,
                      const char *dir, const char *realdir, repo_config *out, char **cause)
{
    memset(out, 0, sizeof *out);
    out->derived_hints = HINTS_UNSET;
    out->name = xstrdup(name);
    out->dir = xstrdup(dir);
    json_t *table = NULL, *lines = NULL;
    int line = 0;
    char *why = NULL;
    if (toml_read(text, len, pyproject ? "tool.review-lsp" : NULL, &table, &lines, &line, &why) < 0) {
        *cause = line ? xasprintf("%s:%d: %s", name, line, why) : xasprintf("%s: %s", name, why);
        free(why);
        repo_config_clear(out);
        return -1;
    }
    if (!table) { /* a pyproject.toml without [tool.review-lsp] */
        json_decref(lines);
        repo_config_clear(out);
        return 1;
    }
    rc_ctx x = {name, dir, realdir, lines, out, cause};
    const char *key;
    json_t *v;
    int r = 0;
    json_object_foreach(table, key, v) if ((r = take_key(&x, key, v)) < 0) break;
    if (r == 0) {
        out->exclude_match = globs_compile(&out->exclude, dir);
        out->include_match = globs_compile(&out->include, dir);
    }
    json_decref(table);
    json_decref(lines);
    if (r < 0)
        repo_config_clear(out);
    return r;
}

void repo_config_clear(repo_config *c)
{
    free(c->path);
    free(c->name);
    free(c->dir);
    free(c->base.value);
    free(c->rules.value);
    list_clear(&c->disable);
    levels_clear(&c->severity);
    list_clear(&c->exclude);
    list_clear(&c->include);
    globs_free(c->exclude_match);
    globs_free(c->include_match);
    for (size_t i = 0; i < c->noverrides; i++) {
        list_clear(&c->overrides[i].paths);
        list_clear(&c->overrides[i].disable);
        levels_clear(&c->overrides[i].severity);
        globs_free(c->overrides[i].match);
    }
    free(c->overrides);
    for (size_t i = 0; i < c->nwarnings; i++)
        free(c->warnings[i]);
    free(c->warnings);
    memset(c, 0, sizeof *c);
    c->derived_hints = HINTS_UNSET;
}

/* The directory a walk starts in, relative to the work tree: "" or "a/b/". */
static char *start_dir(const char *workdir, const char *start)
{
    char *full = xasprintf("%s%s", workdir, start);
    struct stat st;
    bool isdir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
    free(full);
    char *d = xstrdup(start);
    size_t n = strlen(d);
    while (n > 0 && d[n - 1] == '/')
        d[--n] = '\0';
    if (!isdir) {
        char *slash = strrchr(d, '/');
        n = slash ? (size_t)(slash - d) : 0;
        d[n] = '\0';
    }
    /* Only plain downward paths: anything climbing starts at the root. */
    if (n == 0 || d[0] == '/' || strcmp(d, "..") == 0 || str_starts(d, "../") ||
        strstr(d, "/../") || str_ends(d, "/..")) {
        free(d);
        return xstrdup("");
    }
    char *out = xasprintf("%s/", d);
    free(d);
    return out;
}

/* Step a relative directory up one level in place ("a/b/" → "a/"); false at the root. */
static bool dir_up(char *d)
{
    size_t n = strlen(d);
    if (n == 0)
        return false;
    d[n - 1] = '\0';
    char *slash = strrchr(d, '/');
    if (slash)
        slash[1] = '\0';
    else
        d[0] = '\0';
    return true;
}

static const char *const CANDIDATES[] = {".review-lsp.toml", "pyproject.toml"};

/* Read one candidate: 0 read (out filled), 1 nothing there for us, -1 malformed. */
static int try_candidate(const char *workdir, const char *realdir, const char *dir, int which,
                         repo_config *out, char **cause)
{
    char *full = xasprintf("%s%s%s", workdir, dir, CANDIDATES[which]);
    char *name = xasprintf("%s%s", dir, CANDIDATES[which]);
    struct stat st;
    char *real = stat(full, &st) == 0 && S_ISREG(st.st_mode) ? realpath(full, NULL) : NULL;
    int r = 1;
    if (real && str_starts(real, realdir)) {
        size_t len = 0;
        char *why = NULL;
        char *text = read_file(real, CONFIG_MAX_BYTES, &len, &why);
        if (!text) {
            *cause = xasprintf("%s: %s", name, why);
            r = -1;
        } else if (which == 1 && !memmem(text, len, "review-lsp", 10)) {
            r = 1; /* a pyproject.toml that never mentions us */
        } else {
            r = repo_config_parse(text, len, which == 1, name, dir, realdir, out, cause);
            if (r == 0)
                out->path = xstrdup(full);
        }
        free(text);
        free(why);
    }
    free(real);
    free(name);
    free(full);
    return r;
}

/* The work tree's real path with a trailing '/' (new string). */
static char *real_workdir(const char *workdir)
{
    char *real = realpath(workdir, NULL);
    char *out = xasprintf("%s/", real ? real : workdir);
    free(real);
    size_t n = strlen(out);
    if (n > 1 && out[n - 2] == '/')
        out[n - 1] = '\0';
    return out;
}

int repo_config_load(const char *workdir, const char *start, repo_config *out, char **cause)
{
    memset(out, 0, sizeof *out);
    out->derived_hints = HINTS_UNSET;
    char *realdir = real_workdir(workdir);
    char *dir = start_dir(workdir, start ? start : "");
    int r = 1;
    do {
        for (int i = 0; i < 2 && r == 1; i++)
            r = try_candidate(workdir, realdir, dir, i, out, cause);
    } while (r == 1 && dir_up(dir));
    free(dir);
    free(realdir);
    if (r == 1) {
        memset(out, 0, sizeof *out);
        out->derived_hints = HINTS_UNSET;
        return 0;
    }
    return r;
}

char *repo_config_stamp(const char *workdir, const char *start)
{
    strbuf sb;
    sb_init(&sb);
    char *dir = start_dir(workdir, start ? start : "");
    do {
        for (int i = 0; i < 2; i++) {
            char *full = xasprintf("%s%s%s", workdir, dir, CANDIDATES[i]);
            /* The content's hash too: file times move in clock ticks, and two saves of the
               same size within one tick would otherwise look alike. */
            size_t len = 0;
            struct stat st;
            char *text = stat(full, &st) == 0 && S_ISREG(st.st_mode)
                             ? read_file(full, CONFIG_MAX_BYTES, &len, NULL)
                             : NULL;
            if (text)
                sb_addf(&sb, "%s:%lu:%016llx;", full, (unsigned long)st.st_ino,
                        (unsigned long long)hash_bytes(text, len));
            else
                sb_addf(&sb, "%s:-;", full);
            free(text);
            free(full);
        }
    } while (dir_up(dir));
    free(dir);
    return sb_detach(&sb);
}
