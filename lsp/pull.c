/* Pull diagnostics: textDocument/diagnostic (one document) and workspace/diagnostic (every
 * file of every repository's change), answered from the diagnostics the last reviews stored.
 * Each report's result id is a hash of its items, so an unchanged file costs one short
 * "unchanged" answer. A client that pulls the workspace gets no pushes any more (they would
 * show twice): its pushed copies are cleared on its first workspace pull. */
#include <stdlib.h>
#include <string.h>

#include "lsp/server.h"

/* The stored diagnostics of one file (new array). */
static json_t *file_items(server *s, workspace *ws, const char *rel)
{
    json_t *items = json_array();
    for (size_t i = 0; ws && i < s->ndiags; i++)
        if (s->diags[i].ws == ws && strcmp(s->diags[i].relpath, rel) == 0)
            json_array_append(items, s->diags[i].diag);
    return items;
}

/* The result id of a list of items (written to rid). */
static void result_id(json_t *items, char rid[32])
{
    char *dump = json_dumps(items, JSON_COMPACT);
    snprintf(rid, 32, "%016llx", (unsigned long long)hash_bytes(dump, strlen(dump)));
    free(dump);
}

/* textDocument/diagnostic: the stored diagnostics of one document. */
void pull_document(server *s, json_t *id, json_t *params)
{
    const char *uri = jstr(json_object_get(params, "textDocument"), "uri");
    if (!uri) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "textDocument/diagnostic: textDocument.uri missing");
        return;
    }
    const char *why;
    workspace *ws = NULL;
    char *rel = workspaces_relpath(s, uri, &ws, &why);
    if (!rel)
        log_msg(s, LOG_LOG, "diagnostics for %s: none (%s)", uri, why);
    json_t *items = rel ? file_items(s, ws, rel) : json_array();
    free(rel);
    char rid[32];
    result_id(items, rid);
    const char *prev = jstr(params, "previousResultId");
    if (prev && strcmp(prev, rid) == 0) {
        json_decref(items);
        rpc_respond(s, id, json_pack("{s:s, s:s}", "kind", "unchanged", "resultId", rid));
        return;
    }
    rpc_respond(s, id, json_pack("{s:s, s:s, s:o}", "kind", "full", "resultId", rid, "items", items));
}

/* The previous result id the client holds for a URI, or NULL. */
static const char *previous_id(json_t *prev, const char *uri)
{
    size_t i;
    json_t *p;
    json_array_foreach(prev, i, p) if (jstr(p, "uri") && strcmp(jstr(p, "uri"), uri) == 0)
        return jstr(p, "value");
    return NULL;
}

/* One file's report for a workspace pull: full, or unchanged when the client has it. */
static json_t *file_report(server *s, published *p, json_t *prev)
{
    json_t *items = file_items(s, p->ws, p->relpath);
    char rid[32];
    result_id(items, rid);
    char *uri = documents_uri(s, p->ws, p->relpath);
    document *doc = documents_find(s, p->ws, p->relpath);
    json_t *version = doc ? json_integer(doc->version) : json_null();
    const char *old = previous_id(prev, uri);
    json_t *rep;
    if (old && strcmp(old, rid) == 0) {
        json_decref(items);
        rep = json_pack("{s:s, s:s, s:o, s:s}", "kind", "unchanged", "uri", uri, "version", version,
                        "resultId", rid);
    } else {
        rep = json_pack("{s:s, s:s, s:o, s:s, s:o}", "kind", "full", "uri", uri, "version", version,
                        "resultId", rid, "items", items);
    }
    free(uri);
    return rep;
}

/* workspace/diagnostic: a report for every file the reviews know (the change's files, and
 * those that left it, which report empty), open documents included with their version: some
 * clients re-pull only the workspace when asked to refresh (Neovim 0.12), others prefer their
 * own document pulls for open files (VS Code). */
void pull_workspace(server *s, json_t *id, json_t *params)
{
    if (!s->workspace_pull) {
        s->workspace_pull = true;
        log_msg(s, LOG_INFO, "the client pulls workspace diagnostics: no more pushes");
        diagnostics_republish(s);
    }
    json_t *prev = json_object_get(params, "previousResultIds");
    json_t *reports = json_array();
    for (published *p = s->pubs; p; p = p->next) {
        if (!p->ws)
            continue;
        json_array_append_new(reports, file_report(s, p, prev));
    }
    rpc_respond(s, id, json_pack("{s:o}", "items", reports));
}
