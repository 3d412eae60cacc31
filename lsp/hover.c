/* textDocument/hover, findings first: on a line that carries findings, the full text of each
 * finding's rule (Markdown, read from the rules file) and its evidence (its exhibits — a
 * layout table, a small diff, lines side by side — then the related locations they do not
 * already show), then ONE line naming the rule families this file derives, with a link to the
 * review checklist — never the families' rule text, which is the checklist's job. On a line
 * that carries only a derived-family hint, that line alone. On a rule id inside a
 * `review: ignore[ID, ...]` comment, that rule's text. Nothing (null) elsewhere.
 *
 * A hover holds at most HOVER_BUDGET bytes: when the whole does not fit, the exhibits are shown
 * compact (a table's marked rows), then by their titles, then not at all, and a "Show
 * evidence" link (command review.showEvidence) opens them in full. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/exhibit_render.h"
#include "lsp/server.h"
#include "lsp/uri.h"

#define HOVER_BUDGET 3072

/* How a hover is being composed: the level of detail its exhibits get, and what that left out. */
typedef struct hover_pass {
    server *s;
    workspace *ws;
    place_ctx places;   /* links to places of ws */
    int level;          /* 0 full, 1 compact, 2 titles, 3 no exhibits */
    size_t left_out;    /* rows or exhibits not shown */
} hover_pass;

/* Append one rule's text (or a note that the rules file lacks it) to the Markdown. */
static void add_rule(server *s, workspace *ws, strbuf *md, const char *id)
{
    const rule_catalog *cat = engine_catalog(ws->eng);
    const rule_entry *e = catalog_find(cat, id);
    if (md->len)
        sb_adds(md, "\n\n---\n\n");
    if (!e) {
        sb_addf(md, "**%s** — not in the rules file (%s)", id, cat ? cat->path : "none");
        return;
    }
    /* The rules file breaks lines inside a block; Markdown would join them into one
     * paragraph, so each line becomes its own paragraph (table rows stay together). */
    for (const char *p = e->text; *p; p++) {
        sb_addc(md, *p);
        if (*p == '\n' && p[1] && p[1] != '\n' && p[1] != '|' && p > e->text && p[-1] != '\n')
            sb_addc(md, '\n');
    }
    while (md->len && (md->buf[md->len - 1] == '\n' || md->buf[md->len - 1] == ' '))
        md->buf[--md->len] = '\0';
    const char *file = workspaces_rules_file(s, ws);
    const char *base = file && strrchr(file, '/') ? strrchr(file, '/') + 1 : cat->path;
    sb_addf(md, "\n\n*%s — %s:%d*", e->category ? e->category : "rule", base, e->line);
}

/* Append a finding's exhibits at the pass's level of detail (plain text for a client without
 * Markdown hovers, where nothing is cut). Returns whether their places are shown. */
static bool add_exhibits(hover_pass *hp, strbuf *md, const finding *f)
{
    if (!f || !f->nexhibits)
        return false;
    if (!hp->s->caps.markdown_hover) {
        sb_addc(md, '\n');
        exhibit_text(md, f->exhibits, f->nexhibits, 2);
        while (md->len && md->buf[md->len - 1] == '\n')
            md->buf[--md->len] = '\0';
        return true;
    }
    if (hp->level >= 3) {
        hp->left_out += f->nexhibits;
        return false;
    }
    static const exhibit_detail details[] = {EXHIBIT_FULL, EXHIBIT_COMPACT, EXHIBIT_TITLES};
    hp->left_out += exhibit_markdown(md, f->exhibits, f->nexhibits, details[hp->level],
                                     documents_place_link, &hp->places);
    return hp->level < 2;
}

/* Append a finding's evidence: its exhibits, then one line per related location they do not
 * show, "path:line — message", linked to the place in Markdown. */
static void add_evidence(hover_pass *hp, strbuf *md, const stored_diag *sd)
{
    server *s = hp->s;
    workspace *ws = hp->ws;
    json_t *related = jpath(sd->diag, "data.related");
    const finding *f = sd->evidence;
    if (!json_array_size(related) && !(f && f->nexhibits))
        return;
    sb_adds(md, s->caps.markdown_hover ? "\n\n**This finding's evidence**"
                                       : "\n\nThis finding's evidence:");
    bool places_shown = add_exhibits(hp, md, f);
    bool listed = false;
    size_t i;
    json_t *r;
    json_array_foreach(related, i, r) {
        const char *uri = jstr(json_object_get(r, "location"), "uri");
        json_int_t line = json_integer_value(jpath(r, "location.range.start.line")) + 1;
        const char *why = NULL;
        char *path = uri ? uri_to_path(uri, &why) : NULL;
        const char *shown = path && str_starts(path, ws->root) ? path + strlen(ws->root)
                            : path && str_starts(path, ws->workdir) ? path + strlen(ws->workdir)
                            : path ? path : "?";
        if (places_shown && exhibit_shows_place(f->exhibits, f->nexhibits, shown, (int)line)) {
            free(path);
            continue;
        }
        sb_adds(md, listed ? "" : "\n");
        listed = true;
        if (s->caps.markdown_hover && uri)
            sb_addf(md, "\n- [%s:%lld](%s#L%lld) — %s", shown, (long long)line, uri, (long long)line,
                    jstr(r, "message") ? jstr(r, "message") : "");
        else
            sb_addf(md, "\n- %s:%lld — %s", shown, (long long)line,
                    jstr(r, "message") ? jstr(r, "message") : "");
        free(path);
    }
}

/* Append a command link: [title](command:NAME?ARGS "tooltip"), the arguments percent-encoded
 * JSON (VS Code runs it when the hover is trusted for that command). args is stolen. */
static void add_command_link(strbuf *md, const char *title, const char *command, json_t *args,
                             const char *tooltip)
{
    char *j = json_dumps(args, JSON_COMPACT);
    json_decref(args);
    sb_addf(md, "[%s](command:%s?", title, command);
    for (const unsigned char *p = (const unsigned char *)j; *p; p++) {
        if (isalnum(*p) || strchr("-_.~", *p))
            sb_addc(md, (char)*p);
        else
            sb_addf(md, "%%%02X", *p);
    }
    sb_addf(md, " \"%s\")", tooltip);
    free(j);
}

/* Append the one-line summary of the families this file derives, with the checklist link. */
static void add_family_summary(server *s, workspace *ws, strbuf *md, const char *rel, const char *uri)
{
    size_t n = 0;
    const derived_family **fams = diagnostics_file_families(s, ws, rel, &n);
    if (n == 0 || diagnostics_hints_mode(ws) == HINTS_OFF) {
        free(fams);
        return;
    }
    if (md->len)
        sb_adds(md, "\n\n---\n\n");
    sb_adds(md, s->caps.markdown_hover ? "**Derived for this file:** " : "Derived for this file: ");
    for (size_t i = 0; i < n; i++)
        sb_addf(md, "%s%s", i ? ", " : "", fams[i]->name);
    free(fams);
    if (!s->caps.markdown_hover) {
        sb_adds(md, " (their rules: the review checklist, command review.showChecklist)");
        return;
    }
    /* its argument names the file, so the checklist is that of its repository */
    sb_adds(md, " — ");
    add_command_link(md, "open the review checklist", "review.showChecklist",
                     json_pack("[{s:s}]", "uri", uri),
                     "the derived rules of this change, with the lines that triggered them");
}

/* True for a character that may be part of a rule id. */
static bool id_char(unsigned char c)
{
    return isalnum(c) || c == '-' || c == '_' || c == '.';
}

/* If the byte column sits on a rule id inside a review: ignore[...] comment on this line,
 * return the id (owned) and its byte span. */
static char *ignore_id_at(const char *line, size_t len, size_t col, size_t *a, size_t *b)
{
    static const char tag[] = "review: ignore[";
    size_t tl = sizeof tag - 1;
    for (size_t i = 0; i + tl <= len; i++) {
        if (memcmp(line + i, tag, tl) != 0)
            continue;
        size_t j = i + tl;
        size_t close = j;
        while (close < len && line[close] != ']')
            close++;
        if (col < j || col >= close)
            continue;
        size_t x = col;
        while (x > j && id_char((unsigned char)line[x - 1]))
            x--;
        size_t y = col;
        while (y < close && id_char((unsigned char)line[y]))
            y++;
        if (y == x)
            return NULL;
        *a = x;
        *b = y;
        return xstrndup(line + x, y - x);
    }
    return NULL;
}

/* The findings on a line, grouped by rule: each rule's text once, then the evidence of every
 * finding of that rule there. Returns true when the line has any review diagnostic. */
static bool add_findings(hover_pass *hp, strbuf *md, const char *rel, long line)
{
    server *s = hp->s;
    workspace *ws = hp->ws;
    const char *seen[64];
    size_t nseen = 0;
    bool any = false;
    for (size_t i = 0; i < s->ndiags; i++) {
        stored_diag *sd = &s->diags[i];
        if (sd->ws != ws || strcmp(sd->relpath, rel) != 0)
            continue;
        long l0 = (long)json_integer_value(jpath(sd->diag, "range.start.line"));
        long l1 = (long)json_integer_value(jpath(sd->diag, "range.end.line"));
        if (line < l0 || line > l1)
            continue;
        any = true;
        const char *rule = sd->rule_id;
        bool dup = false;
        for (size_t q = 0; rule && q < nseen && !dup; q++)
            dup = strcmp(seen[q], rule) == 0;
        if (!rule || dup || nseen == 64)
            continue;
        seen[nseen++] = rule;
        add_rule(s, ws, md, rule);
        /* A rule whose judged precision is too low for its severity is reported as a candidate:
         * say so where the rule is read. */
        const char *note = json_string_value(jpath(sd->diag, "data.severityNote"));
        if (note)
            sb_addf(md, "\n\n*%s*", note);
        for (size_t k = i; k < s->ndiags; k++) {
            stored_diag *o = &s->diags[k];
            if (o->ws == ws && o->rule_id && strcmp(o->rule_id, rule) == 0 &&
                strcmp(o->relpath, rel) == 0 &&
                line >= (long)json_integer_value(jpath(o->diag, "range.start.line")) &&
                line <= (long)json_integer_value(jpath(o->diag, "range.end.line")))
                add_evidence(hp, md, o);
        }
    }
    return any;
}

/* True when a finding on the line has exhibits. */
static bool line_has_exhibits(server *s, workspace *ws, const char *rel, long line)
{
    for (size_t i = 0; i < s->ndiags; i++) {
        stored_diag *sd = &s->diags[i];
        if (sd->ws == ws && sd->evidence && strcmp(sd->relpath, rel) == 0 &&
            line >= (long)json_integer_value(jpath(sd->diag, "range.start.line")) &&
            line <= (long)json_integer_value(jpath(sd->diag, "range.end.line")))
            return true;
    }
    return false;
}

/* The findings of a line with their evidence, the "Show evidence" link when some of it was
 * left out, and the family summary: at the most detail that fits in HOVER_BUDGET. */
static void compose_findings(server *s, workspace *ws, strbuf *md, const char *rel,
                             const char *uri, long line)
{
    bool exhibits = s->caps.markdown_hover && line_has_exhibits(s, ws, rel, line);
    for (int level = 0; level <= 3; level++) {
        hover_pass hp = {.s = s, .ws = ws, .places = {s, ws}, .level = level};
        sb_reset(md);
        if (!add_findings(&hp, md, rel, line))
            return;
        if (exhibits && (hp.left_out || level > 0)) {
            sb_adds(md, "\n\n");
            add_command_link(md, "Show evidence", "review.showEvidence",
                             json_pack("[{s:s, s:i}]", "uri", uri, "line", (int)line),
                             "every exhibit of this line's findings, in full");
        }
        add_family_summary(s, ws, md, rel, uri);
        if (md->len <= HOVER_BUDGET || !exhibits)
            return;
    }
}

/* Answer a hover request. */
void hover_request(server *s, json_t *id, json_t *params)
{
    const char *uri = jstr(json_object_get(params, "textDocument"), "uri");
    json_t *pos = json_object_get(params, "position");
    json_t *jl = json_object_get(pos, "line"), *jc = json_object_get(pos, "character");
    if (!uri || !json_is_integer(jl) || !json_is_integer(jc)) {
        rpc_error(s, id, RPC_INVALID_PARAMS, "textDocument/hover: textDocument.uri and position required");
        return;
    }
    const char *why;
    workspace *ws = NULL;
    char *rel = workspaces_relpath(s, uri, &ws, &why);
    if (!rel) {
        log_msg(s, LOG_LOG, "hover on %s: %s", uri, why);
        rpc_respond(s, id, json_null());
        return;
    }
    long line = (long)json_integer_value(jl), character = (long)json_integer_value(jc);
    strbuf md;
    sb_init(&md);
    json_t *range = NULL;

    size_t len = 0;
    char *text = documents_text(s, ws, rel, &len);
    if (text && line >= 0) {
        line_index li;
        lines_build(&li, text, len);
        if ((size_t)line < li.nlines) {
            size_t ll;
            const char *lp = lines_get(&li, (size_t)line, &ll);
            size_t col = pos_bytes_from_units(lp, ll, character < 0 ? 0 : (size_t)character, s->caps.utf8);
            size_t a, b;
            char *rid = ignore_id_at(lp, ll, col, &a, &b);
            if (rid) {
                add_rule(s, ws, &md, rid);
                range = json_pack("{s:{s:I, s:I}, s:{s:I, s:I}}", "start", "line", (json_int_t)line,
                                  "character", (json_int_t)pos_units_from_bytes(lp, ll, a, s->caps.utf8),
                                  "end", "line", (json_int_t)line, "character",
                                  (json_int_t)pos_units_from_bytes(lp, ll, b, s->caps.utf8));
                free(rid);
            }
        }
        lines_free(&li);
    }
    free(text);

    if (!md.len)
        compose_findings(s, ws, &md, rel, uri, line);
    free(rel);
    if (!md.len) {
        sb_free(&md);
        json_decref(range);
        rpc_respond(s, id, json_null());
        return;
    }
    json_t *res = json_pack("{s:{s:s, s:s}}", "contents", "kind",
                            s->caps.markdown_hover ? "markdown" : "plaintext", "value", md.buf);
    if (range)
        json_object_set_new(res, "range", range);
    sb_free(&md);
    rpc_respond(s, id, res);
}
