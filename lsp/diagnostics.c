/* Reviews and diagnostics. A change (didOpen/didChange/didSave/didClose, watched files,
 * settings) marks its repository and schedules a review after debounceMs on one uv_timer; a
 * request that wants a fresh answer cuts the wait short. The first review runs after
 * `initialized`, wrapped in $/progress when the client supports it. Each review's findings
 * become LSP diagnostics for EVERY file that differs from the base, open or not; a file that
 * no longer has any gets an empty publish, so nothing goes stale. The derived rule families
 * are summarised, not expanded: one Hint per file on its first triggering line naming the
 * families (derivedHints "file"), one per triggering line ("line"), or none ("off"); their
 * rules are listed in the review checklist (checklist.c). Open documents carry their version.
 * Clients with pull diagnostics pull open documents (and get pushes only for the rest, so
 * nothing shows twice); a client that pulls workspace/diagnostic gets no pushes at all.
 * Publishing waits while the write queue is backed up and resumes from the newest state when
 * it drains. */
#include <stdlib.h>
#include <string.h>

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

/* True when some workspace has a review due. */
static bool any_pending(const server *s)
{
    for (const workspace *ws = s->wss; ws; ws = ws->next)
        if (ws->review_pending)
            return true;
    return false;
}

/* True when an answer computed now would not reflect the latest edits. */
bool diagnostics_stale(const server *s)
{
    return s->wss && (!s->first_scan_done || any_pending(s));
}

/* Schedule a review of ws (NULL: of every workspace) after the debounce. */
void diagnostics_schedule(server *s, workspace *ws)
{
    if (!s->wss || s->state != STATE_RUNNING)
        return;
    for (workspace *w = s->wss; w; w = w->next)
        if (!ws || w == ws)
            w->review_pending = true;
    if (!s->first_scan_done)
        return; /* the first scan will see it */
    uv_timer_start(&s->debounce, on_debounce, (uint64_t)s->cfg.debounce_ms, 0);
}

/* A request waits for a pending review: run it at the next loop turn rather than after the
 * rest of the debounce (requests already read in this turn are answered by the same review). */
void diagnostics_hurry(server *s)
{
    if (s->first_scan_done && any_pending(s) && !s->exit_requested)
        uv_timer_start(&s->debounce, on_debounce, 0, 0);
}

/* Free what one stored diagnostic owns. */
static void stored_diag_free(stored_diag *sd)
{
    free(sd->relpath);
    json_decref(sd->diag);
    free(sd->rule_id);
    if (sd->evidence)
        finding_clear(sd->evidence);
    free(sd->evidence);
}

/* Free the stored diagnostics of the last publish pass. */
static void clear_stored(server *s)
{
    for (size_t i = 0; i < s->ndiags; i++)
        stored_diag_free(&s->diags[i]);
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

/* A per-file text cache for one publish pass over one workspace (related locations point at
 * other files). */
typedef struct text_cache {
    char *rel;
    char *text;
    size_t len;
} text_cache;

typedef struct pass {
    server *s;
    workspace *ws;
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
    t->text = documents_text(ps->s, ps->ws, rel, &t->len);
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
    const rule_entry *e = catalog_find(engine_catalog(ps->ws->eng), rule_id);
    if (!e)
        return NULL;
    char *u = uri_from_path(ps->rules_file);
    char *href = xasprintf("%s#L%d", u, e->line);
    free(u);
    return href;
}

/* The severity to show for a family's hint: its configured level, else dflt (LSP numbers). */
static int family_severity(workspace *ws, const char *family, int dflt)
{
    severity sev;
    return effective_severity(engine_config(ws->eng), family, NULL, &sev) ? (int)sev + 1 : dflt;
}

/* Remember a diagnostic for hover and code actions (diag borrowed; the finding's rule and
 * exhibits copied; f NULL for a derived-family hint). */
static void store(pass *ps, const char *rel, json_t *diag, const finding *f)
{
    const char *rule = f ? f->rule_id : NULL;
    server *s = ps->s;
    stored_diag *sd = ARRAY_PUSH(s->diags, s->ndiags, s->diags_cap);
    sd->ws = ps->ws;
    sd->relpath = xstrdup(rel);
    sd->line0 = (int)json_integer_value(jpath(diag, "range.start.line"));
    sd->diag = json_incref(diag);
    sd->rule_id = rule ? xstrdup(rule) : NULL;
    sd->evidence = NULL;
    if (f && f->nexhibits) {
        sd->evidence = xmalloc(sizeof *sd->evidence);
        finding_copy(sd->evidence, f);
    }
}

/* Build the diagnostic for one finding. */
static json_t *finding_diag(pass *ps, const finding *f, const char *text, size_t len)
{
    server *s = ps->s;
    json_t *range = diagnostics_range(s, text, len, &f->range);
    json_t *d = json_pack("{s:o, s:i, s:s, s:s}", "range", range, "severity",
                          (int)f->sev + 1, "code", f->rule_id, /* configured levels are in */
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
        char *ruri = documents_uri(s, ps->ws, r->path);
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

bool diagnostics_rule_disabled(workspace *ws, const char *id)
{
    return ws && effective_disabled(engine_config(ws->eng), id, NULL);
}

int diagnostics_hints_mode(workspace *ws)
{
    return ws ? engine_config(ws->eng)->derived_hints : HINTS_FILE;
}

/* True when a family has a rule that is not switched off. */
static bool family_enabled(workspace *ws, const derived_family *fam)
{
    char *copy = xstrdup(fam->rules ? fam->rules : "");
    bool any = false;
    for (char *save = NULL, *tok = strtok_r(copy, " \t,", &save); tok && !any;
         tok = strtok_r(NULL, " \t,", &save))
        any = strcmp(tok, "NONE") != 0 && !diagnostics_rule_disabled(ws, tok);
    free(copy);
    return any;
}

/* The first triggering line of a family in a file, or -1 when it has no site there. */
static int family_line(const derived_family *fam, const char *rel)
{
    for (size_t j = 0; j < fam->nsites; j++)
        if (fam->sites[j].path && strcmp(fam->sites[j].path, rel) == 0)
            return fam->sites[j].line > 0 ? fam->sites[j].line : 1;
    return -1;
}

/* The derived families with a site in a file and a rule not switched off, in family order. */
const derived_family **diagnostics_file_families(server *s, workspace *ws, const char *relpath,
                                                 size_t *n)
{
    const derived_family **out = NULL;
    size_t cap = 0;
    *n = 0;
    if (!ws || !ws->last)
        return NULL;
    for (size_t k = 0; k < ws->last->derived.n; k++) {
        const derived_family *fam = &ws->last->derived.fams[k];
        if (family_line(fam, relpath) > 0 && family_enabled(ws, fam))
            *ARRAY_PUSH(out, *n, cap) = fam;
    }
    return out;
}

/* The Hint summarising the derived families fams[0..n) at a line: their names, no rule text
 * (that is the checklist's job). Severity: the strongest override set for any of them. */
static json_t *families_diag(pass *ps, const derived_family *const *fams, size_t n, int line,
                             const char *text, size_t len)
{
    server *s = ps->s;
    strbuf msg;
    sb_init(&msg);
    sb_adds(&msg, "this change derives ");
    json_t *names = json_array();
    int sev = 4;
    for (size_t i = 0; i < n; i++) {
        sb_addf(&msg, "%s%s", i ? ", " : "", fams[i]->name);
        json_array_append_new(names, json_string(fams[i]->name));
        int o = family_severity(ps->ws, fams[i]->name, 4);
        if (o < sev)
            sev = o;
    }
    sb_adds(&msg, " — their rules are in the review checklist");
    text_range r = {line, 0, line + 1, 0};
    json_t *d = json_pack("{s:o, s:i, s:s, s:s, s:s, s:{s:s, s:o}}", "range",
                          diagnostics_range(s, text, len, &r), "severity", sev, "code", "derived",
                          "source", "review", "message", msg.buf, "data", "kind", "derived",
                          "families", names);
    sb_free(&msg);
    return d;
}

/* A diagnostic with its position in the build order, for a stable sort. */
typedef struct ordered {
    json_t *d;
    size_t seq;
} ordered;

typedef struct diag_list {
    ordered *v;
    size_t n, cap;
} diag_list;

/* Add a built diagnostic to a file's list and store it for hover and code actions. */
static void add_diag(pass *ps, diag_list *l, const char *rel, json_t *d, const finding *f)
{
    store(ps, rel, d, f);
    size_t seq = l->n;
    *ARRAY_PUSH(l->v, l->n, l->cap) = (ordered){d, seq};
}

/* Add the derived-family hints of a file: one on the first triggering line naming every
 * family ("file"), or one per triggering line naming the families that start there ("line"). */
static void add_family_hints(pass *ps, diag_list *l, const char *rel, const char *text, size_t len)
{
    server *s = ps->s;
    int mode = diagnostics_hints_mode(ps->ws);
    if (mode == HINTS_OFF)
        return;
    size_t n = 0;
    const derived_family **fams = diagnostics_file_families(s, ps->ws, rel, &n);
    if (mode == HINTS_FILE && n > 0) {
        int first = family_line(fams[0], rel);
        for (size_t i = 1; i < n; i++)
            if (family_line(fams[i], rel) < first)
                first = family_line(fams[i], rel);
        add_diag(ps, l, rel, families_diag(ps, fams, n, first, text, len), NULL);
    }
    for (size_t i = 0; mode == HINTS_LINE && i < n; i++) {
        int line = family_line(fams[i], rel);
        bool done = false;
        for (size_t k = 0; k < i && !done; k++)
            done = family_line(fams[k], rel) == line;
        if (done)
            continue;
        const derived_family **at = xcalloc(n, sizeof *at);
        size_t m = 0;
        for (size_t k = i; k < n; k++)
            if (family_line(fams[k], rel) == line)
                at[m++] = fams[k];
        add_diag(ps, l, rel, families_diag(ps, at, m, line, text, len), NULL);
        free(at);
    }
    free(fams);
}

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

/* The published-state entry for a file of a workspace (created when missing). */
static published *pub_entry(server *s, workspace *ws, const char *rel)
{
    published **pp = &s->pubs;
    while (*pp && ((*pp)->ws != ws || strcmp((*pp)->relpath, rel) < 0))
        pp = &(*pp)->next;
    if (*pp && (*pp)->ws == ws && strcmp((*pp)->relpath, rel) == 0)
        return *pp;
    published *p = xcalloc(1, sizeof *p);
    p->ws = ws;
    p->relpath = xstrdup(rel);
    p->version = -1;
    p->next = *pp;
    *pp = p;
    return p;
}

/* Push one file's diagnostics (stolen) unless identical to what the client already has. */
static void push(server *s, workspace *ws, const char *rel, json_t *diags, bool force)
{
    document *doc = documents_find(s, ws, rel);
    published *p = pub_entry(s, ws, rel);
    p->seen = true;
    int version = doc ? doc->version : -1;
    char *digest = json_dumps(diags, JSON_COMPACT);
    bool empty = json_array_size(diags) == 0;
    if (!force && p->digest && strcmp(p->digest, digest) == 0 && p->version == version) {
        free(digest);
        json_decref(diags);
        return;
    }
    if (!p->digest && empty && !doc) {
        /* Never published and nothing to say: an empty publish would be noise. Open documents
         * still get one so the client knows the file was looked at. */
        free(digest);
        json_decref(diags);
        return;
    }
    char *uri = documents_uri(s, ws, rel);
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

/* The files of a review to publish: every file of the change and every finding's file. */
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

/* True when the client pulls this file's diagnostics instead of receiving pushes. */
static bool pulled(server *s, workspace *ws, const char *rel)
{
    return s->workspace_pull || (s->caps.pull_diagnostics && documents_find(s, ws, rel));
}

/* Build one file's diagnostics (stored for hover and actions) and push them unless pulled. */
static size_t publish_file(pass *ps, const char *rel, bool force)
{
    server *s = ps->s;
    review *r = ps->ws->last;
    size_t len = 0, nfindings = 0;
    const char *text = pass_text(ps, rel, &len);
    diag_list l = {0};
    for (size_t i = 0; i < r->findings.n; i++) {
        const finding *f = &r->findings.items[i];
        if (strcmp(f->path, rel) != 0)
            continue;
        add_diag(ps, &l, rel, finding_diag(ps, f, text, len), f);
        nfindings++;
    }
    add_family_hints(ps, &l, rel, text, len);
    if (l.n > 1)
        qsort(l.v, l.n, sizeof *l.v, diag_cmp);
    json_t *jarr = json_array();
    for (size_t i = 0; i < l.n; i++)
        json_array_append_new(jarr, l.v[i].d);
    free(l.v);
    if (pulled(s, ps->ws, rel)) {
        /* The client pulls: clear any pushed copy instead. */
        json_decref(jarr);
        published *p = pub_entry(s, ps->ws, rel);
        p->seen = true;
        if (p->digest && strcmp(p->digest, "[]") != 0)
            push(s, ps->ws, rel, json_array(), true);
    } else {
        push(s, ps->ws, rel, jarr, force);
    }
    return nfindings;
}

/* Compute one workspace's diagnostics from its last review, store them, and push them. */
static void publish_workspace(server *s, workspace *ws, bool force)
{
    review *r = ws->last;
    pass ps = {.s = s, .ws = ws};
    ps.rules_file = workspaces_rules_file(s, ws);
    file_set files = {0};
    for (size_t i = 0; r->chg && i < r->chg->nfiles; i++)
        set_add(&files, r->chg->files[i].path);
    for (size_t i = 0; i < r->findings.n; i++)
        set_add(&files, r->findings.items[i].path);
    if (files.n)
        qsort(files.v, files.n, sizeof *files.v, str_cmp);
    size_t nfindings = 0;
    for (size_t fi = 0; fi < files.n; fi++)
        nfindings += publish_file(&ps, files.v[fi], force);
    /* Open documents that are identical to the base and were never published get one empty
     * publish with their version, so the client can tell "looked at, nothing found". */
    for (document *d = s->docs; d; d = d->next) {
        bool listed = d->ws != ws;
        for (size_t i = 0; i < files.n && !listed; i++)
            listed = strcmp(files.v[i], d->relpath) == 0;
        if (!listed && !s->caps.pull_diagnostics && !s->workspace_pull)
            push(s, ws, d->relpath, json_array(), false);
    }
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    pass_free(&ps);
    log_msg(s, LOG_LOG, "published %s: %zu files in the change, %zu findings, %zu derived families",
            ws->workdir, r->chg ? r->chg->nfiles : 0, nfindings, r->derived.n);
}

/* Compute every workspace's diagnostics from its last review, store them, and push them. */
static void publish_all(server *s, bool force)
{
    if (transport_backed_up(s)) {
        s->publish_pending = true;
        return;
    }
    s->publish_pending = false;
    clear_stored(s);
    /* Entries of workspaces without a review (failed) stay as they are. */
    for (published *p = s->pubs; p; p = p->next)
        p->seen = !p->ws || !p->ws->last;
    bool any = false;
    for (workspace *ws = s->wss; ws; ws = ws->next)
        if (ws->last) {
            publish_workspace(s, ws, force);
            any = true;
        }
    /* Files published before that no longer differ: clear them. */
    for (published *p = s->pubs; p; p = p->next) {
        if (p->seen)
            continue;
        /* Also a document closed while identical to the base: its last publish carried a
         * version; an unversioned empty one tells the client the file is settled. */
        if (p->digest && (strcmp(p->digest, "[]") != 0 ||
                          (p->version != -1 && !documents_find(s, p->ws, p->relpath))))
            push(s, p->ws, p->relpath, json_array(), false);
        p->seen = true;
    }
    if (any && s->caps.pull_diagnostics && s->caps.diagnostic_refresh)
        rpc_request(s, "workspace/diagnostic/refresh", NULL, NULL, NULL);
}

/* True when two possibly-NULL strings differ. */
static bool changed_text(const char *a, const char *b)
{
    return (a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0);
}

/* Tell the user about the repository configuration file once per change of what there is to
 * say: malformed (the previous configuration stays), mended, or keys skipped. */
static void config_messages(server *s, workspace *ws, const review *out)
{
    const review *prev = ws->last;
    const char *was = prev ? prev->config_problem : NULL;
    if (out->config_problem && changed_text(was, out->config_problem))
        show_message(s, LOG_ERROR, "review-lsp: %s", out->config_problem);
    else if (!out->config_problem && was)
        show_message(s, LOG_INFO, "review-lsp: the repository configuration reads cleanly again and is in force");
    if (out->config_warnings && changed_text(prev ? prev->config_warnings : NULL, out->config_warnings))
        show_message(s, LOG_WARNING, "review-lsp: %s", out->config_warnings);
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

/* Review one workspace now. */
static void review_workspace(server *s, workspace *ws)
{
    ws->review_pending = false;
    review *out = NULL;
    char *cause = NULL;
    uint64_t t0 = uv_hrtime();
    if (engine_review(ws->eng, &out, &cause) < 0) {
        log_msg(s, LOG_ERROR, "review of %s failed: %s", ws->workdir, cause ? cause : "unknown error");
        free(cause);
        return;
    }
    config_messages(s, ws, out);
    /* a base setting that names no commit: an error shown once (until it changes); the
       review above used the default meanwhile */
    if (out->base_error && (!ws->last || !ws->last->base_error ||
                            strcmp(ws->last->base_error, out->base_error) != 0))
        show_message(s, LOG_ERROR, "%s: %s; reviewing against %s meanwhile",
                     engine_config(ws->eng)->base_from_file ? engine_config(ws->eng)->base_source
                                                            : "review.base",
                     out->base_error, out->base_desc);
    log_new_notes(s, out, ws->last);
    if (ws->last)
        review_free(ws->last);
    ws->last = out;
    s->reviews_run++;
    log_msg(s, LOG_LOG, "review %lu: %.1f ms in the engine; %s, base %s", s->reviews_run,
            (double)(uv_hrtime() - t0) / 1e6, ws->workdir, out->base_desc ? out->base_desc : "?");
}

/* Review every workspace with something pending now (cancelling a pending debounce),
 * publish, and answer waiting requests. */
void diagnostics_review_now(server *s)
{
    uv_timer_stop(&s->debounce);
    if (!s->wss || s->exit_requested)
        return;
    bool any = false;
    for (workspace *ws = s->wss; ws; ws = ws->next)
        if (ws->review_pending || !ws->last) {
            review_workspace(s, ws);
            any = true;
        }
    if (any) {
        uint64_t t1 = uv_hrtime();
        publish_all(s, false);
        log_msg(s, LOG_LOG, "published in %.1f ms", (double)(uv_hrtime() - t1) / 1e6);
    }
    rpc_run_deferred(s);
}

/* Republish from the last reviews (presentation settings changed). */
void diagnostics_republish(server *s)
{
    publish_all(s, false);
}

/* Forget a workspace that goes away: clear what the client was sent for it. */
void diagnostics_forget(server *s, workspace *ws)
{
    size_t k = 0;
    for (size_t i = 0; i < s->ndiags; i++) {
        if (s->diags[i].ws == ws) {
            stored_diag_free(&s->diags[i]);
        } else {
            s->diags[k++] = s->diags[i];
        }
    }
    s->ndiags = k;
    for (published **pp = &s->pubs; *pp;) {
        published *p = *pp;
        if (p->ws != ws) {
            pp = &p->next;
            continue;
        }
        if (p->digest && strcmp(p->digest, "[]") != 0 && p->uri)
            rpc_notify(s, "textDocument/publishDiagnostics",
                       json_pack("{s:s, s:[]}", "uri", p->uri, "diagnostics"));
        *pp = p->next;
        free(p->uri);
        free(p->relpath);
        free(p->digest);
        free(p);
    }
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
    if (!s->wss) {
        rpc_run_deferred(s);
        return;
    }
    if (progress)
        rpc_notify(s, "$/progress",
                   json_pack("{s:s, s:{s:s, s:s, s:b, s:s}}", "token", "review-lsp/scan", "value",
                             "kind", "begin", "title", "review: scanning the change",
                             "cancellable", 0, "message", s->wss->workdir));
    for (workspace *ws = s->wss; ws; ws = ws->next)
        ws->review_pending = true;
    diagnostics_review_now(s);
    if (progress) {
        size_t files = 0, findings = 0;
        for (workspace *ws = s->wss; ws; ws = ws->next) {
            files += ws->last && ws->last->chg ? ws->last->chg->nfiles : 0;
            findings += ws->last ? ws->last->findings.n : 0;
        }
        char *m = xasprintf("%zu files, %zu findings", files, findings);
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
    for (workspace *ws = s->wss; ws; ws = ws->next)
        workspaces_configure(s, ws);
    if (s->wss && s->caps.work_done_progress) {
        rpc_request(s, "window/workDoneProgress/create", json_pack("{s:s}", "token", "review-lsp/scan"),
                    on_progress_created, NULL);
        uv_timer_start(&s->progress_timeout, on_progress_timeout, 5000, 0);
    } else {
        run_first_scan(s, false);
    }
}
