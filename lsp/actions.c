/* Code actions and commands. For each finding under the cursor: "Open rule ID in rules.md"
 * (command review.openRule), "Go to evidence" (command review.openLocation with every related
 * location; one action, however many there are) and "Ignore ID on this line" (a WorkspaceEdit
 * adding or extending a `// review: ignore[ID]` / `# review: ignore[ID]` comment). A
 * derived-family hint gets one action, "Open review checklist" (review.showChecklist), offered
 * once per request. workspace/executeCommand runs review.openRule and review.openLocation
 * (window/showDocument when the client supports it; the result always carries the location so
 * an editor plugin can open it itself), review.rescan, review.showDerivedRules (the derived
 * families in the original rules.txt format, returned and logged), review.showChecklist (the
 * review checklist as Markdown, for the editor to show), review.showEvidence (the exhibits of
 * the findings on a line, in full, as Markdown: the hover's "Show evidence"), review.listRules (every rule of
 * the rules file in use) and review.showConfig (the configuration in force and where each value
 * came from, as `review-lsp config` prints it). Commands that concern one repository take an optional {uri} of a
 * file or folder in it. */
#include <string.h>

#include "lsp/server.h"
#include "lsp/uri.h"

const char *const actions_commands[] = {
    "review.openRule",     "review.openLocation", "review.rescan",   "review.showDerivedRules",
    "review.showChecklist", "review.listRules",    "review.showConfig",  "review.showEvidence",
    NULL,
};

/* The line comment syntax for a file, from its name, or NULL when it has none we may use. */
static const char *comment_style(const char *rel)
{
    static const char *const slashes[] = {".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp",
                                          ".hxx", ".cu", ".cuh", ".hip", ".inl", ".ipp",
                                          ".cl", ".js", ".ts", ".rs", ".go", ".java", NULL};
    static const char *const hashes[] = {".py", ".pyi", ".pyx", ".sh", ".bash", ".yaml", ".yml",
                                         ".toml", ".cmake", ".cfg", ".ini", ".mk", ".txt", NULL};
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    if (strcmp(base, "Makefile") == 0 || strcmp(base, "CMakeLists.txt") == 0)
        return "#";
    for (size_t i = 0; slashes[i]; i++)
        if (str_ends(base, slashes[i]))
            return "//";
    for (size_t i = 0; hashes[i]; i++)
        if (str_ends(base, hashes[i]))
            return "#";
    return NULL;
}

/* The location of a rule in the rules file: {uri, range} with the rule's first line
 * selected, or NULL when the rule or the file is unknown. */
static json_t *rule_location(server *s, workspace *ws, const char *rule, int *line_out)
{
    if (!ws)
        return NULL;
    const rule_entry *e = catalog_find(engine_catalog(ws->eng), rule);
    const char *file = workspaces_rules_file(s, ws);
    if (!e || !file)
        return NULL;
    char *u = uri_from_path(file);
    json_t *loc = json_pack("{s:s, s:{s:{s:i, s:i}, s:{s:i, s:i}}}", "uri", u, "range", "start",
                            "line", e->line - 1, "character", 0, "end", "line", e->line,
                            "character", 0);
    free(u);
    if (line_out)
        *line_out = e->line;
    return loc;
}

/* A code action (or a bare Command for clients without literal support) that runs a command. */
static json_t *command_action(server *s, const char *title, const char *command, json_t *arg,
                              json_t *diag)
{
    json_t *cmd = json_pack("{s:s, s:s, s:[o]}", "title", title, "command", command, "arguments", arg);
    if (!s->caps.code_action_literals)
        return cmd;
    json_t *a = json_pack("{s:s, s:s, s:o}", "title", title, "kind", "quickfix", "command", cmd);
    if (diag)
        json_object_set_new(a, "diagnostics", json_pack("[O]", diag));
    return a;
}

/* The "Ignore ID on this line" action for a finding, or NULL when the file has no comment
 * syntax or the rule is already ignored there. */
static json_t *ignore_action(server *s, workspace *ws, const char *rel, const char *uri,
                             int line0, const char *rule, json_t *diag)
{
    const char *cs = comment_style(rel);
    if (!cs || !s->caps.code_action_literals)
        return NULL;
    size_t len = 0;
    char *text = documents_text(s, ws, rel, &len);
    if (!text)
        return NULL;
    line_index li;
    lines_build(&li, text, len);
    json_t *action = NULL;
    if ((size_t)line0 < li.nlines) {
        size_t ll;
        const char *lp = lines_get(&li, (size_t)line0, &ll);
        char *line = xstrndup(lp, ll);
        char *tag = strstr(line, "review: ignore[");
        char *close = tag ? strchr(tag, ']') : NULL;
        size_t at;
        char *insert = NULL;
        if (tag && close) {
            char *inside = xstrndup(tag + 15, (size_t)(close - tag - 15));
            bool has = false;
            for (char *save = NULL, *t = strtok_r(inside, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
                has = has || strcmp(t, rule) == 0;
            free(inside);
            if (!has) {
                at = (size_t)(close - line);
                insert = xasprintf(", %s", rule);
            }
        } else {
            at = ll;
            insert = xasprintf("%s%s review: ignore[%s]", strcmp(cs, "#") == 0 ? "  " : " ", cs, rule);
        }
        if (insert) {
            size_t u = pos_units_from_bytes(lp, ll, at, s->caps.utf8);
            json_t *edit = json_pack("{s:{s:{s:i, s:I}, s:{s:i, s:I}}, s:s}", "range", "start",
                                     "line", line0, "character", (json_int_t)u, "end", "line",
                                     line0, "character", (json_int_t)u, "newText", insert);
            json_t *changes = json_object();
            json_object_set_new(changes, uri, json_pack("[o]", edit));
            char *title = xasprintf("Ignore %s on this line", rule);
            action = json_pack("{s:s, s:s, s:{s:o}}", "title", title, "kind", "quickfix", "edit",
                               "changes", changes);
            if (diag)
                json_object_set_new(action, "diagnostics", json_pack("[O]", diag));
            free(title);
            free(insert);
        }
        free(line);
    }
    lines_free(&li);
    free(text);
    return action;
}

/* True when the client's diagnostic list names this stored diagnostic's code (or is empty). */
static json_t *matching_client_diag(json_t *ctx_diags, stored_diag *sd)
{
    size_t i;
    json_t *d;
    const char *code = jstr(sd->diag, "code");
    json_int_t line = json_integer_value(jpath(sd->diag, "range.start.line"));
    json_array_foreach(ctx_diags, i, d) {
        const char *src = jstr(d, "source");
        if (src && strcmp(src, "review") != 0)
            continue;
        if (jstr(d, "code") && code && strcmp(jstr(d, "code"), code) == 0 &&
            json_integer_value(jpath(d, "range.start.line")) == line)
            return d;
    }
    return NULL;
}

/* The "Go to evidence" action of a finding: one action carrying every related location
 * (the first as {uri, range}, all of them as locations), or NULL when there is none. */
static json_t *evidence_action(server *s, json_t *sd_diag, json_t *diag)
{
    json_t *related = jpath(sd_diag, "data.related");
    size_t n = json_array_size(related);
    if (n == 0)
        return NULL;
    json_t *first = json_array_get(related, 0);
    json_t *loc = json_object_get(first, "location");
    const char *msg = jstr(first, "message");
    char *title = n == 1 ? xasprintf("Go to evidence: %s", msg ? msg : "related location")
                         : xasprintf("Go to evidence (%zu places): %s", n, msg ? msg : "related location");
    json_t *locs = json_array();
    size_t i;
    json_t *r;
    json_array_foreach(related, i, r) {
        json_t *l = json_object_get(r, "location");
        json_array_append_new(locs, json_pack("{s:O, s:O, s:s}", "uri", json_object_get(l, "uri"),
                                              "range", json_object_get(l, "range"), "message",
                                              jstr(r, "message") ? jstr(r, "message") : ""));
    }
    json_t *arg = json_pack("{s:O, s:O, s:o}", "uri", json_object_get(loc, "uri"), "range",
                            json_object_get(loc, "range"), "locations", locs);
    json_t *a = command_action(s, title, "review.openLocation", arg, diag);
    free(title);
    return a;
}

/* The actions of one finding: open its rule, go to its evidence, ignore it on this line. */
static void finding_actions(server *s, json_t *out, stored_diag *sd, const char *uri, json_t *diag)
{
    int line = 0;
    json_t *loc = rule_location(s, sd->ws, sd->rule_id, &line);
    if (loc) {
        json_t *arg = json_pack("{s:s, s:O, s:i, s:O, s:s}", "rule", sd->rule_id, "uri",
                                json_object_get(loc, "uri"), "line", line, "range",
                                json_object_get(loc, "range"), "file", uri);
        json_decref(loc);
        const char *file = workspaces_rules_file(s, sd->ws);
        const char *base = file && strrchr(file, '/') ? strrchr(file, '/') + 1 : "rules.md";
        char *title = xasprintf("Open rule %s in %s", sd->rule_id, base);
        json_array_append_new(out, command_action(s, title, "review.openRule", arg, diag));
        free(title);
    }
    json_t *ev = evidence_action(s, sd->diag, diag);
    if (ev)
        json_array_append_new(out, ev);
    json_t *ign = ignore_action(s, sd->ws, sd->relpath, uri, sd->line0, sd->rule_id, diag);
    if (ign)
        json_array_append_new(out, ign);
}

/* textDocument/codeAction. */
void actions_code_action(server *s, json_t *id, json_t *params)
{
    const char *uri = jstr(json_object_get(params, "textDocument"), "uri");
    json_t *range = json_object_get(params, "range");
    json_t *l0 = jpath(range, "start.line"), *l1 = jpath(range, "end.line");
    if (!uri || !json_is_integer(l0) || !json_is_integer(l1)) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "textDocument/codeAction: textDocument.uri and range required");
        return;
    }
    json_t *ctx_diags = jpath(params, "context.diagnostics");
    bool filter = json_is_array(ctx_diags) && json_array_size(ctx_diags) > 0;
    json_t *out = json_array();
    const char *why;
    workspace *ws = NULL;
    char *rel = workspaces_relpath(s, uri, &ws, &why);
    if (!rel) {
        log_msg(s, LOG_LOG, "code actions for %s: none (%s)", uri, why);
        rpc_respond(s, id, out);
        return;
    }
    json_int_t a = json_integer_value(l0), b = json_integer_value(l1);
    json_t *checklist = NULL;
    for (size_t i = 0; i < s->ndiags; i++) {
        stored_diag *sd = &s->diags[i];
        if (sd->ws != ws || strcmp(sd->relpath, rel) != 0 || sd->line0 < a || sd->line0 > b)
            continue;
        json_t *cd = filter ? matching_client_diag(ctx_diags, sd) : NULL;
        if (filter && !cd)
            continue;
        json_t *diag = cd ? cd : sd->diag;
        if (sd->rule_id) {
            finding_actions(s, out, sd, uri, diag);
        } else if (!checklist) {
            checklist = command_action(s, "Open review checklist", "review.showChecklist",
                                       json_pack("{s:s}", "uri", uri), diag);
        }
    }
    if (checklist)
        json_array_append_new(out, checklist);
    free(rel);
    rpc_respond(s, id, out);
}

/* Ask the client to show a location (when it can); the command's result carries it anyway. */
static void show_location(server *s, json_t *loc)
{
    if (!s->caps.show_document)
        return;
    json_t *p = json_pack("{s:O, s:b, s:O}", "uri", json_object_get(loc, "uri"), "takeFocus", 1,
                          "selection", json_object_get(loc, "range"));
    rpc_request(s, "window/showDocument", p, NULL, NULL);
}

/* The workspace a command's argument names ({uri} of a file or folder; else the first). */
static workspace *arg_workspace(server *s, json_t *arg)
{
    return workspaces_for_uri(s, json_is_object(arg) ? jstr(arg, "uri") : NULL);
}

/* review.openRule: argument "ID" or {"rule": "ID", "file": URI of a file whose repository's
 * rules file to use (default: the first repository's)}. */
static void cmd_open_rule(server *s, json_t *id, json_t *arg)
{
    const char *rule = json_is_string(arg) ? json_string_value(arg) : jstr(arg, "rule");
    if (!rule) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "review.openRule: expected a rule id argument");
        return;
    }
    workspace *ws = json_is_object(arg) && jstr(arg, "file") ? workspaces_for_uri(s, jstr(arg, "file"))
                                                              : s->wss;
    if (!ws) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "review.openRule: no rules loaded");
        return;
    }
    int line = 0;
    json_t *loc = rule_location(s, ws, rule, &line);
    if (!loc) {
        const char *near[3];
        size_t n = catalog_near(engine_catalog(ws->eng), rule, near, 3);
        rpc_error(s, id, RPC_INVALID_PARAMS, "review.openRule: unknown rule %s%s%s%s%s%s%s", rule,
                  n ? " (did you mean " : "", n ? near[0] : "", n > 1 ? ", " : "",
                  n > 1 ? near[1] : "", n > 2 ? ", " : "", n ? (n > 2 ? near[2] : "") : "");
        return;
    }
    show_location(s, loc);
    json_object_set_new(loc, "rule", json_string(rule));
    json_object_set_new(loc, "line", json_integer(line));
    json_object_set_new(loc, "shown", json_boolean(s->caps.show_document));
    rpc_respond(s, id, loc);
}

/* review.openLocation: argument {"uri", "range"} (and optionally "locations", every place of a
 * finding's evidence: the server shows the first; an editor plugin may offer the choice). */
static void cmd_open_location(server *s, json_t *id, json_t *arg)
{
    if (!jstr(arg, "uri") || !json_is_object(json_object_get(arg, "range"))) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "review.openLocation: expected {uri, range}");
        return;
    }
    show_location(s, arg);
    json_t *res = json_deep_copy(arg);
    json_object_set_new(res, "shown", json_boolean(s->caps.show_document));
    rpc_respond(s, id, res);
}

/* Bring the reviews up to date before a command that reports on them. */
static void freshen(server *s)
{
    if (s->first_scan_done && diagnostics_stale(s))
        diagnostics_review_now(s);
}

/* review.showDerivedRules: the families in the original rules.txt format (one repository: as
 * is; several: each under a "# work tree" line). */
static void cmd_show_derived(server *s, json_t *id, json_t *arg)
{
    freshen(s);
    workspace *only = json_is_object(arg) && jstr(arg, "uri") ? arg_workspace(s, arg) : NULL;
    strbuf sb;
    sb_init(&sb);
    bool any = false;
    for (workspace *ws = s->wss; ws; ws = ws->next) {
        if ((only && ws != only) || !ws->last)
            continue;
        if (!only && s->wss->next)
            sb_addf(&sb, "%s# %s\n", any ? "\n" : "", ws->workdir);
        derive_format(&ws->last->derived, &sb);
        any = true;
    }
    if (!any) {
        sb_free(&sb);
        rpc_error(s, id, RPC_INVALID_PARAMS, "review.showDerivedRules: no review yet");
        return;
    }
    log_msg(s, LOG_INFO, "derived rules:\n%s", sb.buf);
    rpc_respond(s, id, json_string(sb.buf));
    sb_free(&sb);
}

/* review.showChecklist: {markdown, title, families, rules} for the repository of the argument's
 * uri, or for every repository without one. */
static void cmd_show_checklist(server *s, json_t *id, json_t *arg)
{
    freshen(s);
    workspace *only = json_is_object(arg) && jstr(arg, "uri") ? arg_workspace(s, arg) : NULL;
    bool any = false;
    for (workspace *ws = s->wss; ws && !any; ws = ws->next)
        any = ws->last && (!only || ws == only);
    if (!any) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "review.showChecklist: no review yet");
        return;
    }
    char *md = checklist_markdown(s, only);
    rpc_respond(s, id, json_pack("{s:s, s:s}", "title", "Review checklist", "markdown", md));
    free(md);
}

/* review.showEvidence: {title, markdown} for the argument {uri, line} (0-based line), the
 * findings on that line with their exhibits in full. */
static void cmd_show_evidence(server *s, json_t *id, json_t *arg)
{
    const char *uri = json_is_object(arg) ? jstr(arg, "uri") : NULL;
    json_t *jl = json_is_object(arg) ? json_object_get(arg, "line") : NULL;
    const char *why = "expected {uri, line}";
    workspace *ws = NULL;
    char *rel = uri && json_is_integer(jl) ? workspaces_relpath(s, uri, &ws, &why) : NULL;
    if (!rel) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "review.showEvidence: %s", why);
        return;
    }
    freshen(s);
    long line = (long)json_integer_value(jl);
    char *md = checklist_evidence(s, ws, rel, line);
    char *title = xasprintf("Evidence %s:%ld", rel, line + 1);
    rpc_respond(s, id, json_pack("{s:s, s:s}", "title", title, "markdown", md));
    free(title);
    free(md);
    free(rel);
}

/* review.rescan: re-read everything (the watcher may not have reported yet) and republish. */
static void cmd_rescan(server *s, json_t *id)
{
    for (workspace *ws = s->wss; ws; ws = ws->next)
        engine_mark_all_dirty(ws->eng);
    diagnostics_schedule(s, NULL);
    if (s->first_scan_done)
        diagnostics_review_now(s);
    size_t files = 0, findings = 0, repos = 0;
    for (workspace *ws = s->wss; ws; ws = ws->next) {
        files += ws->last && ws->last->chg ? ws->last->chg->nfiles : 0;
        findings += ws->last ? ws->last->findings.n : 0;
        repos++;
    }
    rpc_respond(s, id, json_pack("{s:I, s:I, s:I}", "files", (json_int_t)files, "findings",
                                 (json_int_t)findings, "repositories", (json_int_t)repos));
}

/* review.showConfig: {text}, the configuration of the argument's repository (default: the
 * first) with the source of each value, the editor's settings among them; also logged. */
static void cmd_show_config(server *s, json_t *id, json_t *arg)
{
    freshen(s);
    workspace *ws = arg_workspace(s, arg);
    if (!ws) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "review.showConfig: no repository");
        return;
    }
    char *text = effective_format(engine_config(ws->eng), ws->workdir);
    const char *problem = engine_config_problem(ws->eng);
    char *all = problem ? xasprintf("%s# not in force: %s\n", text, problem) : xstrdup(text);
    log_msg(s, LOG_INFO, "configuration:\n%s", all);
    rpc_respond(s, id, json_pack("{s:s}", "text", all));
    free(all);
    free(text);
}

/* workspace/executeCommand. */
void actions_execute_command(server *s, json_t *id, json_t *params)
{
    const char *cmd = jstr(params, "command");
    json_t *args = json_object_get(params, "arguments");
    json_t *arg = json_is_array(args) ? json_array_get(args, 0) : NULL;
    if (!cmd) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "workspace/executeCommand: command missing");
    } else if (strcmp(cmd, "review.openRule") == 0) {
        cmd_open_rule(s, id, arg);
    } else if (strcmp(cmd, "review.openLocation") == 0) {
        cmd_open_location(s, id, arg);
    } else if (strcmp(cmd, "review.rescan") == 0) {
        cmd_rescan(s, id);
    } else if (strcmp(cmd, "review.showDerivedRules") == 0) {
        cmd_show_derived(s, id, arg);
    } else if (strcmp(cmd, "review.showChecklist") == 0) {
        cmd_show_checklist(s, id, arg);
    } else if (strcmp(cmd, "review.showConfig") == 0) {
        cmd_show_config(s, id, arg);
    } else if (strcmp(cmd, "review.showEvidence") == 0) {
        cmd_show_evidence(s, id, arg);
    } else if (strcmp(cmd, "review.listRules") == 0) {
        freshen(s);
        workspace *ws = arg_workspace(s, arg);
        if (ws)
            rpc_respond(s, id, checklist_rules(s, ws));
        else
            rpc_error(s, id, RPC_INVALID_PARAMS, "review.listRules: no rules loaded");
    } else {
        rpc_error(s, id, RPC_INVALID_PARAMS, "workspace/executeCommand: unknown command %s", cmd);
    }
}
