/* Open documents and text synchronisation: didOpen / didChange (incremental ranges in the
 * negotiated encoding, or whole text) / didSave / didClose. Each open buffer is laid over the
 * work tree of its repository in that repository's engine (engine_set_overlay), so findings
 * reflect what the user sees, not the disk; every change schedules a debounced re-review of
 * that repository. Documents outside every work tree are refused politely, with a log line. */
#include <stdlib.h>
#include <string.h>

#include "engine/path_gate.h"
#include "lsp/server.h"
#include "lsp/uri.h"

/* The open document for a relative path, or NULL. */
document *documents_find(server *s, const workspace *ws, const char *relpath)
{
    for (document *d = s->docs; d; d = d->next)
        if (d->ws == ws && strcmp(d->relpath, relpath) == 0)
            return d;
    return NULL;
}

/* The open document for a URI, or NULL. */
static document *find_by_uri(server *s, const char *uri)
{
    for (document *d = s->docs; d; d = d->next)
        if (strcmp(d->uri, uri) == 0)
            return d;
    return NULL;
}

/* Free one document. */
static void doc_free(document *d)
{
    free(d->uri);
    free(d->relpath);
    free(d->lang);
    free(d->text);
    free(d);
}

/* Remove a document from the list and free it. */
static void doc_remove(server *s, document *d)
{
    for (document **pp = &s->docs; *pp; pp = &(*pp)->next)
        if (*pp == d) {
            *pp = d->next;
            break;
        }
    doc_free(d);
}

/* Drop the documents of a workspace that goes away. */
void documents_forget(server *s, const workspace *ws)
{
    for (document **pp = &s->docs; *pp;) {
        document *d = *pp;
        if (d->ws != ws) {
            pp = &d->next;
            continue;
        }
        *pp = d->next;
        doc_free(d);
    }
}

/* Free every document at exit. */
void documents_free_all(server *s)
{
    while (s->docs) {
        document *d = s->docs;
        s->docs = d->next;
        doc_free(d);
    }
}

/* textDocument/didOpen. */
void documents_did_open(server *s, json_t *params)
{
    json_t *td = json_object_get(params, "textDocument");
    const char *uri = jstr(td, "uri");
    json_t *text = json_object_get(td, "text");
    if (!uri || !json_is_string(text)) {
        log_msg(s, LOG_WARNING, "didOpen without textDocument.uri and text; dropped");
        return;
    }
    const char *why;
    workspace *ws = NULL;
    char *rel = workspaces_relpath(s, uri, &ws, &why);
    if (!rel) {
        log_msg(s, LOG_INFO, "not reviewing %s: %s", uri, why);
        return;
    }
    document *d = find_by_uri(s, uri);
    if (!d)
        d = documents_find(s, ws, rel);
    if (d) {
        log_msg(s, LOG_LOG, "%s opened again; replacing its text", uri);
        doc_remove(s, d);
    }
    d = xcalloc(1, sizeof *d);
    d->uri = xstrdup(uri);
    d->ws = ws;
    d->relpath = rel;
    d->lang = xstrdup(jstr(td, "languageId") ? jstr(td, "languageId") : "");
    json_t *ver = json_object_get(td, "version");
    d->version = json_is_integer(ver) ? (int)json_integer_value(ver) : 0;
    d->len = json_string_length(text);
    d->text = xstrndup(json_string_value(text), d->len);
    d->next = s->docs;
    s->docs = d;
    engine_set_overlay(ws->eng, d->relpath, d->text, d->len);
    diagnostics_schedule(s, ws);
}

/* Apply one incremental change (range in the negotiated encoding) to a document. Returns 0,
 * or -1 when the change is malformed. */
static int apply_range_change(server *s, document *d, json_t *range, const char *text, size_t tlen)
{
    json_t *st = json_object_get(range, "start"), *en = json_object_get(range, "end");
    json_t *sl = json_object_get(st, "line"), *sc = json_object_get(st, "character");
    json_t *el = json_object_get(en, "line"), *ec = json_object_get(en, "character");
    if (!json_is_integer(sl) || !json_is_integer(sc) || !json_is_integer(el) || !json_is_integer(ec))
        return -1;
    line_index li;
    lines_build(&li, d->text, d->len);
    size_t a = pos_to_offset(&li, (long)json_integer_value(sl), (long)json_integer_value(sc), s->caps.utf8);
    size_t b = pos_to_offset(&li, (long)json_integer_value(el), (long)json_integer_value(ec), s->caps.utf8);
    lines_free(&li);
    if (b < a) {
        size_t t = a;
        a = b;
        b = t;
    }
    size_t nlen = d->len - (b - a) + tlen;
    char *nt = xmalloc(nlen + 1);
    memcpy(nt, d->text, a);
    memcpy(nt + a, text, tlen);
    memcpy(nt + a + tlen, d->text + b, d->len - b);
    nt[nlen] = '\0';
    free(d->text);
    d->text = nt;
    d->len = nlen;
    return 0;
}

/* textDocument/didChange. */
void documents_did_change(server *s, json_t *params)
{
    const char *uri = jstr(json_object_get(params, "textDocument"), "uri");
    json_t *changes = json_object_get(params, "contentChanges");
    if (!uri || !json_is_array(changes)) {
        log_msg(s, LOG_WARNING, "didChange without textDocument.uri and contentChanges; dropped");
        return;
    }
    document *d = find_by_uri(s, uri);
    if (!d) {
        log_msg(s, LOG_WARNING, "didChange for %s, which is not open; dropped", uri);
        return;
    }
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c) {
        json_t *text = json_object_get(c, "text");
        json_t *range = json_object_get(c, "range");
        if (!json_is_string(text)) {
            log_msg(s, LOG_WARNING, "didChange for %s: change %zu has no text; skipped", uri, i);
            continue;
        }
        if (range && !json_is_null(range)) {
            if (apply_range_change(s, d, range, json_string_value(text), json_string_length(text)) < 0)
                log_msg(s, LOG_WARNING, "didChange for %s: change %zu has a malformed range; skipped",
                        uri, i);
        } else {
            free(d->text);
            d->len = json_string_length(text);
            d->text = xstrndup(json_string_value(text), d->len);
        }
    }
    json_t *ver = json_object_get(json_object_get(params, "textDocument"), "version");
    if (json_is_integer(ver))
        d->version = (int)json_integer_value(ver);
    engine_set_overlay(d->ws->eng, d->relpath, d->text, d->len);
    diagnostics_schedule(s, d->ws);
}

/* textDocument/didSave: the disk changed (the overlay already holds the text). */
void documents_did_save(server *s, json_t *params)
{
    const char *uri = jstr(json_object_get(params, "textDocument"), "uri");
    if (!uri) {
        log_msg(s, LOG_WARNING, "didSave without textDocument.uri; dropped");
        return;
    }
    /* The disk changed under the overlay; the watcher may report it later, or never. */
    const char *why;
    workspace *ws = NULL;
    char *rel = workspaces_relpath(s, uri, &ws, &why);
    if (rel) {
        engine_mark_dirty(ws->eng, rel);
        diagnostics_schedule(s, ws);
    }
    free(rel);
}

/* textDocument/didClose: drop the overlay; the disk is the truth again. */
void documents_did_close(server *s, json_t *params)
{
    const char *uri = jstr(json_object_get(params, "textDocument"), "uri");
    if (!uri) {
        log_msg(s, LOG_WARNING, "didClose without textDocument.uri; dropped");
        return;
    }
    document *d = find_by_uri(s, uri);
    if (!d) {
        log_msg(s, LOG_LOG, "didClose for %s, which is not open; ignored", uri);
        return;
    }
    workspace *ws = d->ws;
    engine_drop_overlay(ws->eng, d->relpath);
    doc_remove(s, d);
    diagnostics_schedule(s, ws);
}

/* The current text of a file: open buffer, else the review's head text, else the disk. */
char *documents_text(server *s, workspace *ws, const char *relpath, size_t *len)
{
    document *d = documents_find(s, ws, relpath);
    if (d) {
        *len = d->len;
        return xstrndup(d->text, d->len);
    }
    if (ws && ws->last && ws->last->chg) {
        const change_file *f = change_find(ws->last->chg, relpath);
        if (f && f->head_text) {
            *len = f->head_len;
            return xstrndup(f->head_text, f->head_len);
        }
        if (f && f->is_deleted)
            return NULL;
    }
    if (!ws && relpath[0] != '/')
        return NULL;
    /* an absolute path is the rules file the settings chose; everything else is read through
     * the path gate, so a link in the tree is never followed */
    char *cause = NULL;
    char *text = relpath[0] == '/' ? read_file(relpath, s->cfg.max_file_bytes, len, &cause)
                                   : gate_read(ws->workdir, relpath, s->cfg.max_file_bytes, len, &cause);
    free(cause);
    return text;
}

/* The URI for a relative path (an open document keeps the client's own URI). */
char *documents_uri(server *s, workspace *ws, const char *relpath)
{
    document *d = documents_find(s, ws, relpath);
    if (d)
        return xstrdup(d->uri);
    if (relpath[0] == '/')
        return uri_from_path(relpath);
    char *path = xasprintf("%s%s", ws ? ws->root : "/", relpath);
    char *u = uri_from_path(path);
    free(path);
    if (!*relpath && strlen(u) > 8 && u[strlen(u) - 1] == '/')
        u[strlen(u) - 1] = '\0';
    return u;
}

char *documents_place_link(void *ctx, const char *relpath, int line)
{
    const place_ctx *pc = ctx;
    char *uri = documents_uri(pc->s, pc->ws, relpath);
    char *link = xasprintf("%s#L%d", uri, line);
    free(uri);
    return link;
}
