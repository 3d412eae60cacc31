/* Reviews and diagnostics. A change (didOpen/didChange/didSave/didClose, watched files,
 * settings) schedules a review after debounceMs on a uv_timer; the first review runs after
 * `initialized`, wrapped in $/progress when the client supports it. Each review's findings and
 * derived families become LSP diagnostics for EVERY file that differs from the base, open or
 * not; a file that no longer has any gets an empty publish, so nothing goes stale. Open
 * documents carry their version. Clients with pull diagnostics pull open documents (and get
 * pushes only for the rest, so nothing shows twice). Publishing waits while the write queue is
 * backed up and resumes from the newest state when it drains. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/utf8.h"
#include "lsp/server.h"
#include "lsp/uri.h"

/* Timer callback: the debounce expired. */
static void on_debounce(uv_timer_t *t)
{
    diagnostics_review_now(t->data);
}

/* Set up the timers. */
void diagnostics_init(server *s)
{
    uv_timer_init(&s->loop, &s->debounce);
    s->debounce.data = s;
    uv_timer_init(&s->loop, &s->progress_timeout);
    s->progress_timeout.data = s;
}

/* True when an answer computed now would not reflect the latest edits. */
bool diagnostics_stale(const server *s)
{
    return s->eng && (!s->first_scan_done || s->review_pending);
}

/* Schedule a review after the debounce. */
void diagnostics_schedule(server *s)
{
    if (!s->eng || s->state != STATE_RUNNING)
        return;
    s->review_pending = true;
    if (!s->first_scan_done)
        return; /* the first scan will see it */
    uv_timer_start(&s->debounce, on_debounce, (uint64_t)s->cfg.debounce_ms, 0);
}

/* Free the stored diagnostics of the last publish pass. */
static void clear_stored(server *s)
{
    for (size_t i = 0; i < s->ndiags; i++) {
        free(s->diags[i].relpath);
        json_decref(s->diags[i].diag);
        for (size_t k = 0; s->diags[i].rule_ids && s->diags[i].rule_ids[k]; k++)
            free(s->diags[i].rule_ids[k]);
        free(s->diags[i].rule_ids);
    }
    s->ndiags = 0;
}

/* Free everything at exit. */
void diagnostics_free_all(server *s)
{
    clear_stored(s);
    free(s->diags);
    s->diags = NULL;
    s->diags_cap = 0;
    while (s->pubs) {
        published *p = s->pubs;
        s->pubs = p->next;
        free(p->uri);
        free(p->relpath);
        free(p->digest);
        free(p);
    }
    if (s->last)
        review_free(s->last);
    s->last = NULL;
}

/* A directory we own: created 0700 when missing, then trusted only when lstat shows a real
 * directory (not a link) owned by this user that nobody else can write. Returns 0, or -1 with
 * *why (caller frees). */
static int own_private_dir(const char *dir, char **why)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        *why = xasprintf("%s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) != 0) {
        *why = xasprintf("%s: %s", dir, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode))
        *why = xasprintf("%s is a symbolic link", dir);
    else if (!S_ISDIR(st.st_mode))
        *why = xasprintf("%s is not a directory", dir);
    else if (st.st_uid != getuid())
        *why = xasprintf("%s belongs to user %u", dir, (unsigned)st.st_uid);
    else if (st.st_mode & 077)
        *why = xasprintf("%s can be written or read by others (mode %03o)", dir,
                         (unsigned)(st.st_mode & 0777));
    else
        return 0;
    return -1;
}

/* The directory for the copy of the bundled rules: $XDG_CACHE_HOME/review-lsp, else
 * ~/.cache/review-lsp, else (neither set: a service account, a bare CI shell) a per-user
 * directory under $XDG_RUNTIME_DIR, $TMPDIR or /tmp. A shared temporary directory is a place
 * where others can plant a link or a directory of their own under a predictable name, so
 * there every directory is checked with own_private_dir. Returns the versioned directory
 * (caller frees), or NULL with *why. */
static char *rules_cache_dir(char **why)
{
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    const char *runtime = getenv("XDG_RUNTIME_DIR"), *tmp = getenv("TMPDIR");
    bool shared = !(cache && *cache) && !(home && *home);
    char *dir = cache && *cache ? xasprintf("%s/review-lsp", cache)
                : home && *home ? xasprintf("%s/.cache/review-lsp", home)
                : runtime && *runtime ? xasprintf("%s/review-lsp", runtime)
                : xasprintf("%s/review-lsp-%u", tmp && *tmp ? tmp : "/tmp", (unsigned)getuid());
    char *vdir = xasprintf("%s/%s", dir, REVIEW_LSP_VERSION);
    int rc = 0;
    if (shared) {
        rc = own_private_dir(dir, why);
        if (rc == 0)
            rc = own_private_dir(vdir, why);
    } else {
        char *parent = xstrdup(dir);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = '\0';
            mkdir(parent, 0700);
        }
        free(parent);
        mkdir(dir, 0700);
        mkdir(vdir, 0700);
    }
    free(dir);
    if (rc != 0) {
        free(vdir);
        return NULL;
    }
    return vdir;
}

/* Write the bundled rules to path unless it already holds them. Returns 0, or -1 with *why. */
static int write_rules_copy(const rule_catalog *cat, const char *path, char **why)
{
    size_t len = 0;
    char *old = read_file(path, 0, &len, NULL);
    bool same = old && len == cat->source_len && memcmp(old, cat->source, len) == 0;
    free(old);
    if (same)
        return 0;
    char *tmp = xasprintf("%s.%d.tmp", path, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    bool ok = f && fwrite(cat->source, 1, cat->source_len, f) == cat->source_len;
    if (f && fclose(f) != 0)
        ok = false;
    else if (!f && fd >= 0)
        close(fd);
    if (!ok || rename(tmp, path) != 0) {
        *why = xasprintf("%s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

/* The absolute path of the rules file, writing the bundled catalogue to a cache file so that
 * links and showDocument have something to open. NULL when there is none (or the cache cannot
 * be used safely: then links are left out and the log says why, once). */
const char *diagnostics_rules_file(server *s)
{
    if (!s->eng)
        return NULL;
    const rule_catalog *cat = engine_catalog(s->eng);
    if (!cat || !cat->path)
        return NULL;
    if (cat->path[0] != '(') { /* "(bundled ...)" names the compiled-in catalogue */
        if (cat->path[0] == '/')
            return cat->path;
        if (!s->bundled_rules_file)
            s->bundled_rules_file = xasprintf("%s%s", s->workdir, cat->path);
        return s->bundled_rules_file;
    }
    if (s->bundled_rules_file) /* "" records an earlier failure */
        return *s->bundled_rules_file ? s->bundled_rules_file : NULL;
    char *why = NULL;
    char *vdir = rules_cache_dir(&why);
    char *path = vdir ? xasprintf("%s/rules.md", vdir) : NULL;
    free(vdir);
    if (path && write_rules_copy(cat, path, &why) != 0) {
        free(path);
        path = NULL;
    }
    if (!path) {
        log_msg(s, LOG_WARNING, "not writing the bundled rules to a cache directory (%s); rule "
                "links are left out", why ? why : "unknown error");
        free(why);
        s->bundled_rules_file = xstrdup("");
        return NULL;
    }
    s->bundled_rules_file = path;
    return path;
}

/* An LSP position object. */
static json_t *position(long line, size_t ch)
{
    return json_pack("{s:I, s:I}", "line", (json_int_t)line, "character", (json_int_t)ch);
}

/* Convert an engine range (1-based lines, byte columns, exclusive end; "whole line" when it
 * ends at column 0 of the next line) to an LSP range in the negotiated encoding. text may be
 * NULL (a deleted file): columns then pass through. */
json_t *diagnostics_range(server *s, const char *text, size_t len, const text_range *r)
{
    long l0 = r->line > 0 ? r->line - 1 : 0;
    long l1 = r->end_line > 0 ? r->end_line - 1 : l0;
    size_t c0 = r->col > 0 ? (size_t)r->col : 0, c1 = r->end_col > 0 ? (size_t)r->end_col : 0;
    bool whole = r->end_line == r->line + 1 && r->end_col == 0;
    if (l1 < l0 || (l1 == l0 && c1 < c0))
        l1 = l0, c1 = c0, whole = false;
    if (!text)
        return json_pack("{s:o, s:o}", "start", position(l0, whole ? 0 : c0), "end",
                         position(whole ? l0 + 1 : l1, whole ? 0 : c1));
    line_index li;
    lines_build(&li, text, len);
    if ((size_t)l0 >= li.nlines)
        l0 = (long)li.nlines - 1;
    if ((size_t)l1 >= li.nlines)
        l1 = (long)li.nlines - 1, whole = true;
    size_t ll;
    const char *p = lines_get(&li, (size_t)l0, &ll);
    size_t u0 = pos_units_from_bytes(p, ll, c0, s->caps.utf8);
    size_t u1;
    if (whole) {
        l1 = l0;
        u1 = pos_units_from_bytes(p, ll, ll, s->caps.utf8);
        u0 = 0;
    } else {
        p = lines_get(&li, (size_t)l1, &ll);
        u1 = pos_units_from_bytes(p, ll, c1, s->caps.utf8);
    }
    lines_free(&li);
    return json_pack("{s:o, s:o}", "start", position(l0, u0), "end", position(l1, u1));
}

/* A per-file text cache for one publish pass (related locations point at other files). */
typedef struct text_cache {
    char *rel;
    char *text;
    size_t len;
    bool have;
} text_cache;

typedef struct pass {
    server *s;
    text_cache *texts;
    size_t ntexts, texts_cap;
    const char *rules_file;
} pass;

/* The text of a file for this pass (may be NULL: deleted or unreadable). */
static const char *pass_text(pass *ps, const char *rel, size_t *len)
{
    for (size_t i = 0; i < ps->ntexts; i++)
        if (strcmp(ps->texts[i].rel, rel) == 0) {
            *len = ps->texts[i].len;
            return ps->texts[i].text;
        }
    text_cache *t = ARRAY_PUSH(ps->texts, ps->ntexts, ps->texts_cap);
    t->rel = xstrdup(rel);
    t->len = 0;
    t->text = documents_text(ps->s, rel, &t->len);
    *len = t->len;
    return t->text;
}

/* Free the pass caches. */
static void pass_free(pass *ps)
{
    for (size_t i = 0; i < ps->ntexts; i++) {
        free(ps->texts[i].rel);
        free(ps->texts[i].text);
    }
    free(ps->texts);
}

/* The codeDescription href of a rule: the rules file at the rule's line. */
static char *rule_href(pass *ps, const char *rule_id)
{
    if (!ps->rules_file)
        return NULL;
    const rule_entry *e = catalog_find(engine_catalog(ps->s->eng), rule_id);
    if (!e)
        return NULL;
    char *u = uri_from_path(ps->rules_file);
    char *href = xasprintf("%s#L%d", u, e->line);
    free(u);
    return href;
}

/* The severity to show for a rule or family: the override, else dflt (LSP numbers). */
static int shown_severity(server *s, const char *id, int dflt)
{
    json_t *v = json_object_get(s->cfg.severity, id);
    return json_is_integer(v) ? (int)json_integer_value(v) : dflt;
}

/* Remember a diagnostic for hover and code actions (diag borrowed; ids copied). */
static void store(server *s, const char *rel, json_t *diag, const char *const *ids, size_t nids)
{
    stored_diag *sd = ARRAY_PUSH(s->diags, s->ndiags, s->diags_cap);
    sd->relpath = xstrdup(rel);
    sd->line0 = (int)json_integer_value(jpath(diag, "range.start.line"));
    sd->diag = json_incref(diag);
    sd->rule_ids = xcalloc(nids + 1, sizeof *sd->rule_ids);
    for (size_t i = 0; i < nids; i++)
        sd->rule_ids[i] = xstrdup(ids[i]);
}

/* Build the diagnostic for one finding. */
static json_t *finding_diag(pass *ps, const finding *f, const char *text, size_t len)
{
    server *s = ps->s;
    json_t *range = diagnostics_range(s, text, len, &f->range);
    json_t *d = json_pack("{s:o, s:i, s:s, s:s}", "range", range, "severity",
                          shown_severity(s, f->rule_id, (int)f->sev + 1), "code", f->rule_id,
                          "source", "review");
    char *href = rule_href(ps, f->rule_id);
    if (href)
        json_object_set_new(d, "codeDescription", json_pack("{s:s}", "href", href));
    free(href);
    strbuf msg;
    sb_init(&msg);
    sb_adds(&msg, f->message);
    json_t *related = json_array();
    for (size_t i = 0; i < f->nrelated; i++) {
        const related_location *r = &f->related[i];
        size_t rlen = 0;
        const char *rtext = pass_text(ps, r->path, &rlen);
        char *ruri = documents_uri(s, r->path);
        char *rmsg = utf8_sanitize(r->message);
        json_array_append_new(related,
                              json_pack("{s:{s:s, s:o}, s:s}", "location", "uri", ruri, "range",
                                        diagnostics_range(s, rtext, rlen, &r->range), "message",
                                        rmsg));
        free(rmsg);
        free(ruri);
        if (!s->caps.related_information)
            sb_addf(&msg, "\n%s:%d: %s", r->path, r->range.line, r->message);
    }
    /* a diagnostic without its message is invalid: text that is not UTF-8 is replaced */
    char *message = utf8_sanitize(msg.buf);
    json_object_set_new(d, "message", json_string(message));
    free(message);
    sb_free(&msg);
    if (s->caps.related_information && json_array_size(related) > 0)
        json_object_set(d, "relatedInformation", related);
    json_t *data = json_pack("{s:s, s:s, s:s, s:o}", "kind", "finding", "rule", f->rule_id,
                             "collector", f->collector ? f->collector : "", "related", related);
    if (f->severity_note)
        json_object_set_new(data, "severityNote", json_string(f->severity_note));
    json_object_set_new(d, "data", data);
    return d;
}

/* True when the rule is switched off in the settings. */
static bool rule_disabled(server *s, const char *id)
{
    for (size_t i = 0; s->cfg.disabled_rules && s->cfg.disabled_rules[i]; i++)
        if (strcmp(s->cfg.disabled_rules[i], id) == 0)
            return true;
    return false;
}

/* Build the Hint diagnostic for a derived family at its first triggering line in a file.
 * Fills ids with the family's enabled rule ids (owned by the caller). Returns NULL when every
 * rule of the family is disabled. */
static json_t *family_diag(pass *ps, const derived_family *fam, int line, const char *text,
                           size_t len, char ***ids_out, size_t *nids)
{
    server *s = ps->s;
    const rule_catalog *cat = engine_catalog(s->eng);
    char **ids = NULL;
    size_t n = 0, cap = 0;
    char *copy = xstrdup(fam->rules ? fam->rules : "");
    for (char *save = NULL, *tok = strtok_r(copy, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save))
        if (!rule_disabled(s, tok))
            *ARRAY_PUSH(ids, n, cap) = xstrdup(tok);
    free(copy);
    *ids_out = ids;
    *nids = n;
    if (n == 0)
        return NULL;
    strbuf msg;
    sb_init(&msg);
    sb_addf(&msg, "this change derives %s:", fam->name);
    for (size_t i = 0; i < n; i++) {
        const rule_entry *e = catalog_find(cat, ids[i]);
        sb_addf(&msg, "%s %s%s%s", i ? ";" : "", ids[i], e && e->title ? " — " : "",
                e && e->title ? e->title : "");
    }
    text_range r = {line > 0 ? line : 1, 0, (line > 0 ? line : 1) + 1, 0};
    json_t *jids = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(jids, json_string(ids[i]));
    char *message = utf8_sanitize(msg.buf); /* rule titles come from a file */
    json_t *d = json_pack("{s:o, s:i, s:s, s:s, s:s, s:{s:s, s:s, s:o}}", "range",
                          diagnostics_range(s, text, len, &r), "severity",
                          shown_severity(s, fam->name, 4), "code", fam->name, "source", "review",
                          "message", message, "data", "kind", "derived", "family", fam->name,
                          "rules", jids);
    free(message);
    sb_free(&msg);
    char *href = rule_href(ps, ids[0]);
    if (href)
        json_object_set_new(d, "codeDescription", json_pack("{s:s}", "href", href));
    free(href);
    return d;
}

/* A diagnostic with its position in the build order, for a stable sort. */
typedef struct ordered {
    json_t *d;
    size_t seq;
} ordered;

/* Order diagnostics by start line, then character, then build order (findings before hints). */
static int diag_cmp(const void *a, const void *b)
{
    const ordered *x = a, *y = b;
    json_int_t lx = json_integer_value(jpath(x->d, "range.start.line"));
    json_int_t ly = json_integer_value(jpath(y->d, "range.start.line"));
    if (lx != ly)
        return lx < ly ? -1 : 1;
    json_int_t cx = json_integer_value(jpath(x->d, "range.start.character"));
    json_int_t cy = json_integer_value(jpath(y->d, "range.start.character"));
    if (cx != cy)
        return cx < cy ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The published-state entry for a relative path (created when missing). */
static published *pub_entry(server *s, const char *rel)
{
    published **pp = &s->pubs;
    while (*pp && strcmp((*pp)->relpath, rel) < 0)
        pp = &(*pp)->next;
    if (*pp && strcmp((*pp)->relpath, rel) == 0)
        return *pp;
    published *p = xcalloc(1, sizeof *p);
    p->relpath = xstrdup(rel);
    p->version = -1;
    p->next = *pp;
    *pp = p;
    return p;
}

/* Push one file's diagnostics (stolen) unless identical to what the client already has. */
static void push(server *s, const char *rel, json_t *diags, bool force)
{
    document *doc = documents_find(s, rel);
    published *p = pub_entry(s, rel);
    p->seen = true;
    int version = doc ? doc->version : -1;
    char *digest = json_dumps(diags, JSON_COMPACT);
    bool empty = json_array_size(diags) == 0;
    if (!force && p->digest && strcmp(p->digest, digest) == 0 && p->version == version) {
        free(digest);
        json_decref(diags);
        return;
    }
    if (!p->digest && empty) {
        /* Never published and nothing to say: an empty publish would be noise. Open documents
         * still get one so the client knows the file was looked at. */
        if (!doc) {
            free(digest);
            json_decref(diags);
            return;
        }
    }
    char *uri = documents_uri(s, rel);
    free(p->uri);
    p->uri = uri;
    free(p->digest);
    p->digest = digest;
    p->version = version;
    json_t *params = json_pack("{s:s, s:o}", "uri", uri, "diagnostics", diags);
    if (doc)
        json_object_set_new(params, "version", json_integer(version));
    rpc_notify(s, "textDocument/publishDiagnostics", params);
}

/* Does any finding or derived family site mention rel? Used to collect the files to publish. */
typedef struct file_set {
    char **v;
    size_t n, cap;
} file_set;

/* Add a path to a set (no duplicates). */
static void set_add(file_set *fs, const char *rel)
{
    for (size_t i = 0; i < fs->n; i++)
        if (strcmp(fs->v[i], rel) == 0)
            return;
    *ARRAY_PUSH(fs->v, fs->n, fs->cap) = xstrdup(rel);
}

/* qsort comparator for strings. */
static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Compute every file's diagnostics from the last review, store them, and push them. */
static void publish_all(server *s, bool force)
{
    if (!s->last || !s->eng)
        return;
    if (transport_backed_up(s)) {
        s->publish_pending = true;
        return;
    }
    s->publish_pending = false;
    review *r = s->last;
    clear_stored(s);
    pass ps = {.s = s};
    ps.rules_file = diagnostics_rules_file(s);

    file_set files = {0};
    for (size_t i = 0; r->chg && i < r->chg->nfiles; i++)
        set_add(&files, r->chg->files[i].path);
    for (size_t i = 0; i < r->findings.n; i++)
        set_add(&files, r->findings.items[i].path);
    if (files.n)
        qsort(files.v, files.n, sizeof *files.v, str_cmp);

    for (published *p = s->pubs; p; p = p->next)
        p->seen = false;
    size_t nfindings = 0;
    for (size_t fi = 0; fi < files.n; fi++) {
        const char *rel = files.v[fi];
        size_t len = 0;
        const char *text = pass_text(&ps, rel, &len);
        ordered *arr = NULL;
        size_t n = 0, cap = 0;
        for (size_t i = 0; i < r->findings.n; i++) {
            const finding *f = &r->findings.items[i];
            if (strcmp(f->path, rel) != 0)
                continue;
            json_t *d = finding_diag(&ps, f, text, len);
            const char *id = f->rule_id;
            store(s, rel, d, &id, 1);
            size_t seq = n;
            *ARRAY_PUSH(arr, n, cap) = (ordered){d, seq};
            nfindings++;
        }
        for (size_t k = 0; s->cfg.derived_hints && k < r->derived.n; k++) {
            const derived_family *fam = &r->derived.fams[k];
            for (size_t j = 0; j < fam->nsites; j++) {
                if (!fam->sites[j].path || strcmp(fam->sites[j].path, rel) != 0)
                    continue;
                char **ids;
                size_t nids;
                json_t *d = family_diag(&ps, fam, fam->sites[j].line, text, len, &ids, &nids);
                if (d) {
                    store(s, rel, d, (const char *const *)ids, nids);
                    size_t seq = n;
            *ARRAY_PUSH(arr, n, cap) = (ordered){d, seq};
                }
                for (size_t q = 0; q < nids; q++)
                    free(ids[q]);
                free(ids);
                break;
            }
        }
        if (n > 1)
            qsort(arr, n, sizeof *arr, diag_cmp);
        json_t *jarr = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append_new(jarr, arr[i].d);
        free(arr);
        if (s->caps.pull_diagnostics && documents_find(s, rel)) {
            /* The client pulls open documents: clear any pushed copy instead. */
            json_decref(jarr);
            published *p = pub_entry(s, rel);
            p->seen = true;
            if (p->digest && strcmp(p->digest, "[]") != 0)
                push(s, rel, json_array(), true);
            continue;
        }
        push(s, rel, jarr, force);
    }
    /* Files published before that no longer differ: clear them. */
    for (published *p = s->pubs; p; p = p->next) {
        if (p->seen)
            continue;
        /* Also a document closed while identical to the base: its last publish carried a
         * version; an unversioned empty one tells the client the file is settled. */
        if (p->digest && (strcmp(p->digest, "[]") != 0 ||
                          (p->version != -1 && !documents_find(s, p->relpath))))
            push(s, p->relpath, json_array(), false);
        p->seen = true;
    }
    /* Open documents that are identical to the base and were never published get one empty
     * publish with their version, so the client can tell "looked at, nothing found". */
    for (document *d = s->docs; d; d = d->next) {
        bool listed = false;
        for (size_t i = 0; i < files.n && !listed; i++)
            listed = strcmp(files.v[i], d->relpath) == 0;
        if (!listed && !s->caps.pull_diagnostics)
            push(s, d->relpath, json_array(), false);
    }
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    pass_free(&ps);
    if (s->caps.pull_diagnostics && s->caps.diagnostic_refresh)
        rpc_request(s, "workspace/diagnostic/refresh", NULL, NULL, NULL);
    log_msg(s, LOG_LOG, "published: %zu files in the change, %zu findings, %zu derived families",
            r->chg ? r->chg->nfiles : 0, nfindings, r->derived.n);
}

/* Log the notes of a review (skipped files, refused paths, fallbacks) that the previous
 * review did not have, so each is said once and not on every keystroke. */
static void log_new_notes(server *s, const review *now, const review *before)
{
    for (size_t i = 0; now->chg && i < now->chg->nnotes; i++) {
        bool seen = false;
        for (size_t k = 0; before && before->chg && k < before->chg->nnotes && !seen; k++)
            seen = strcmp(before->chg->notes[k], now->chg->notes[i]) == 0;
        if (!seen) {
            char *note = utf8_sanitize(now->chg->notes[i]); /* notes name paths */
            log_msg(s, LOG_INFO, "%s", note);
            free(note);
        }
    }
}

/* Review now (cancelling a pending debounce), publish, and answer waiting requests. */
void diagnostics_review_now(server *s)
{
    uv_timer_stop(&s->debounce);
    s->review_pending = false;
    if (!s->eng || s->exit_requested)
        return;
    review *out = NULL;
    char *cause = NULL;
    uint64_t t0 = uv_hrtime();
    if (engine_review(s->eng, &out, &cause) < 0) {
        log_msg(s, LOG_ERROR, "review failed: %s", cause ? cause : "unknown error");
        free(cause);
    } else {
        log_new_notes(s, out, s->last);
        if (s->last)
            review_free(s->last);
        s->last = out;
        s->reviews_run++;
        uint64_t t1 = uv_hrtime();
        publish_all(s, false);
        log_msg(s, LOG_LOG, "review %lu: %.1f ms in the engine, %.1f ms to publish; base %s",
                s->reviews_run, (double)(t1 - t0) / 1e6, (double)(uv_hrtime() - t1) / 1e6,
                out->base_desc ? out->base_desc : "?");
    }
    rpc_run_deferred(s);
}

/* Republish from the last review (presentation settings changed). */
void diagnostics_republish(server *s)
{
    publish_all(s, false);
}

/* The write queue drained: send what was held back. */
void diagnostics_output_drained(server *s)
{
    if (s->publish_pending)
        publish_all(s, false);
}

/* Run the first scan, with work-done progress when a token was created. */
static void run_first_scan(server *s, bool progress)
{
    uv_timer_stop(&s->progress_timeout);
    if (s->first_scan_done || s->exit_requested)
        return;
    s->first_scan_done = true;
    if (!s->eng) {
        rpc_run_deferred(s);
        return;
    }
    if (progress)
        rpc_notify(s, "$/progress",
                   json_pack("{s:s, s:{s:s, s:s, s:b, s:s}}", "token", "review-lsp/scan", "value",
                             "kind", "begin", "title", "review: scanning the change",
                             "cancellable", 0, "message", s->workdir));
    diagnostics_review_now(s);
    if (progress) {
        char *m = xasprintf("%zu files, %zu findings",
                            s->last && s->last->chg ? s->last->chg->nfiles : 0,
                            s->last ? s->last->findings.n : 0);
        rpc_notify(s, "$/progress", json_pack("{s:s, s:{s:s, s:s}}", "token", "review-lsp/scan",
                                              "value", "kind", "end", "message", m));
        free(m);
    }
}

/* The client answered window/workDoneProgress/create. */
static void on_progress_created(server *s, json_t *result, json_t *error, void *ctx)
{
    (void)result;
    (void)ctx;
    if (s->exit_requested)
        return;
    run_first_scan(s, error == NULL);
}

/* The client did not answer window/workDoneProgress/create in time: scan anyway. */
static void on_progress_timeout(uv_timer_t *t)
{
    run_first_scan(t->data, false);
}

/* Start the first scan (after `initialized` and the settings). */
void diagnostics_first_scan(server *s)
{
    if (s->scan_started || s->exit_requested)
        return;
    s->scan_started = true;
    if (s->eng) {
        engine_settings es;
        settings_to_engine(&s->cfg, &es);
        engine_configure(s->eng, &es);
    }
    if (s->eng && s->caps.work_done_progress) {
        rpc_request(s, "window/workDoneProgress/create", json_pack("{s:s}", "token", "review-lsp/scan"),
                    on_progress_created, NULL);
        uv_timer_start(&s->progress_timeout, on_progress_timeout, 5000, 0);
    } else {
        run_first_scan(s, false);
    }
}

/* textDocument/diagnostic: the stored diagnostics of one document. */
void diagnostics_pull(server *s, json_t *id, json_t *params)
{
    const char *uri = jstr(json_object_get(params, "textDocument"), "uri");
    if (!uri) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "textDocument/diagnostic: textDocument.uri missing");
        return;
    }
    json_t *items = json_array();
    const char *why;
    char *rel = documents_relpath(s, uri, &why);
    if (!rel)
        log_msg(s, LOG_LOG, "diagnostics for %s: none (%s)", uri, why);
    for (size_t i = 0; rel && i < s->ndiags; i++)
        if (strcmp(s->diags[i].relpath, rel) == 0)
            json_array_append(items, s->diags[i].diag);
    free(rel);
    /* The result id is a hash of the items, so an unchanged document costs one short answer. */
    char *dump = json_dumps(items, JSON_COMPACT);
    char rid[32];
    snprintf(rid, sizeof rid, "%016llx", (unsigned long long)hash_bytes(dump, strlen(dump)));
    free(dump);
    const char *prev = jstr(params, "previousResultId");
    if (prev && strcmp(prev, rid) == 0) {
        json_decref(items);
        rpc_respond(s, id, json_pack("{s:s, s:s}", "kind", "unchanged", "resultId", rid));
        return;
    }
    rpc_respond(s, id, json_pack("{s:s, s:s, s:o}", "kind", "full", "resultId", rid, "items", items));
}
