/* The review checklist (command review.showChecklist): findings first — each finding of the
 * change with its message as a `- [ ]` box and its evidence in full (exhibits: tables, diffs,
 * lines side by side; then the related locations they do not show) — then the change's
 * derived rules, grouped by family in the derivation's order, each family with the lines
 * that triggered it (path:line, the first per file) and each rule as a `- [ ]` item with its
 * full text, so the author can tick them off. The derived half is the original pipeline's
 * rules_expanded.txt, live. Also the rule list of review.listRules. Rules switched off in the
 * settings are left out of both the checklist and its counts. */
#include <stdlib.h>
#include <string.h>

#include "lsp/exhibit_render.h"
#include "lsp/server.h"
#include "lsp/uri.h"

/* Split a Markdown table row into trimmed cells (new strings, NULL-terminated). */
static char **table_cells(const char *row, size_t len)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    const char *p = row, *end = row + len;
    if (p < end && *p == '|')
        p++;
    while (p < end) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        const char *stop = bar ? bar : end;
        char *cell = xstrndup(p, (size_t)(stop - p));
        char *t = str_strip(cell);
        free(cell);
        if (*t || bar)
            *ARRAY_PUSH(v, n, cap) = t;
        else
            free(t);
        p = bar ? bar + 1 : end;
    }
    if (n && !*v[n - 1]) /* after the closing bar */
        free(v[--n]);
    *ARRAY_PUSH(v, n, cap) = NULL;
    return v;
}

/* Free a NULL-terminated string array. */
static void free_strv(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* A housekeeping rule (a table row under its header row): "**ID — Title** — Header: cell; …". */
static void add_table_rule(strbuf *md, const char *text)
{
    const char *nl1 = strchr(text, '\n');
    const char *nl2 = nl1 ? strchr(nl1 + 1, '\n') : NULL;
    const char *row = nl2 ? nl2 + 1 : text;
    size_t rlen = strcspn(row, "\n");
    char **head = table_cells(text, nl1 ? (size_t)(nl1 - text) : strlen(text));
    char **cells = table_cells(row, rlen);
    sb_addf(md, "**%s**", cells[0] ? cells[0] : "?");
    for (size_t i = 1; cells[0] && cells[i]; i++) {
        bool have_head = true;
        for (size_t k = 0; k <= i && have_head; k++)
            have_head = head[k] != NULL;
        sb_addf(md, "%s%s%s%s", i == 1 ? " — " : "; ", have_head ? head[i] : "",
                have_head ? ": " : "", cells[i]);
    }
    free_strv(head);
    free_strv(cells);
}

/* One rule as a checklist item: its first line after the box, the rest of its text indented
 * under it (one paragraph per line of the rules file). */
static void add_rule_item(strbuf *md, const rule_catalog *cat, const char *id)
{
    const rule_entry *e = catalog_find(cat, id);
    sb_adds(md, "- [ ] ");
    if (!e) {
        sb_addf(md, "**%s** — not in the rules file (%s)\n", id, cat && cat->path ? cat->path : "none");
        return;
    }
    if (e->text[0] == '|') {
        add_table_rule(md, e->text);
        sb_addc(md, '\n');
        return;
    }
    bool first = true;
    for (const char *p = e->text; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > 0) {
            if (!first)
                sb_adds(md, "\n  ");
            sb_add(md, p, n);
            sb_addc(md, '\n');
            first = false;
        }
        p += n;
        if (*p == '\n')
            p++;
    }
    /* A blank line after a rule of several paragraphs keeps the items apart in plain text. */
    if (strchr(e->text, '\n') && strchr(e->text, '\n')[1])
        sb_addc(md, '\n');
}

/* True when id appears in a space-separated list of ids before position `upto`. */
static bool listed_before(const char *rules, const char *id, size_t upto)
{
    size_t idlen = strlen(id);
    for (const char *p = rules; p < rules + upto;) {
        size_t n = strcspn(p, " \t,");
        if (n == idlen && strncmp(p, id, n) == 0)
            return true;
        p += n;
        p += strspn(p, " \t,");
    }
    return false;
}

/* The rules of a family that are not switched off (new string array, NULL-terminated). */
static char **family_rules(workspace *ws, const char *rules)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    for (const char *p = rules ? rules : ""; *p;) {
        p += strspn(p, " \t,");
        size_t len = strcspn(p, " \t,");
        if (!len)
            break;
        char *id = xstrndup(p, len);
        if (strcmp(id, "NONE") != 0 && !diagnostics_rule_disabled(ws, id) &&
            !listed_before(rules, id, (size_t)(p - rules)))
            *ARRAY_PUSH(v, n, cap) = id;
        else
            free(id);
        p += len;
    }
    *ARRAY_PUSH(v, n, cap) = NULL;
    return v;
}

/* One family: its heading, the lines that triggered it, and its rules as items. Returns the
 * number of rules listed. */
static size_t add_family(workspace *ws, strbuf *md, const rule_catalog *cat, const derived_family *f,
                         const char *hashes)
{
    char **ids = family_rules(ws, f->rules);
    size_t n = 0;
    while (ids[n])
        n++;
    if (n == 0) {
        free_strv(ids);
        return 0;
    }
    sb_addf(md, "\n%s %s\n\n", hashes, f->name);
    if (f->nsites) {
        sb_adds(md, "Triggered at ");
        for (size_t i = 0; i < f->nsites; i++)
            sb_addf(md, "%s%s:%d", i ? ", " : "", f->sites[i].path ? f->sites[i].path : "?",
                    f->sites[i].line > 0 ? f->sites[i].line : 1);
        sb_adds(md, "\n\n");
    } else {
        sb_adds(md, "Triggered by the change as a whole (its title or its set of files)\n\n");
    }
    for (size_t i = 0; ids[i]; i++)
        add_rule_item(md, cat, ids[i]);
    free_strv(ids);
    return n;
}

void checklist_finding(server *s, workspace *ws, strbuf *md, const finding *f, const char *hashes)
{
    place_ctx pc = {s, ws};
    char *link = documents_place_link(&pc, f->path, f->range.line);
    sb_addf(md, "\n%s %s — [%s:%d](%s)\n\n- [ ] %s", hashes, f->rule_id, f->path, f->range.line,
            link, f->message);
    free(link);
    exhibit_markdown(md, f->exhibits, f->nexhibits, EXHIBIT_FULL, documents_place_link, &pc);
    bool first = true;
    for (size_t i = 0; i < f->nrelated; i++) {
        const related_location *r = &f->related[i];
        if (exhibit_shows_place(f->exhibits, f->nexhibits, r->path, r->range.line))
            continue;
        link = documents_place_link(&pc, r->path, r->range.line);
        sb_addf(md, "%s- [%s:%d](%s) — %s", first ? "\n\n" : "\n", r->path, r->range.line, link,
                r->message);
        free(link);
        first = false;
    }
    sb_addc(md, '\n');
}

char *checklist_evidence(server *s, workspace *ws, const char *relpath, long line)
{
    strbuf md;
    sb_init(&md);
    sb_addf(&md, "# Evidence at %s:%ld\n", relpath, line + 1);
    size_t n = 0;
    for (size_t i = 0; i < s->ndiags; i++) {
        const stored_diag *sd = &s->diags[i];
        if (sd->ws != ws || !sd->evidence || strcmp(sd->relpath, relpath) != 0 ||
            line < (long)json_integer_value(jpath(sd->diag, "range.start.line")) ||
            line > (long)json_integer_value(jpath(sd->diag, "range.end.line")))
            continue;
        checklist_finding(s, ws, &md, sd->evidence, "##");
        n++;
    }
    if (!n)
        sb_adds(&md, "\nNo finding with evidence on this line now (the review may have moved on: "
                     "hover the line again).\n");
    return sb_detach(&md);
}

/* The findings of one repository's review, headed `hashes` deep, each one level deeper. */
static void add_findings(server *s, strbuf *md, workspace *ws, const char *hashes)
{
    const finding_list *l = &ws->last->findings;
    if (!l->n)
        return;
    char *sub = xasprintf("%s#", hashes);
    sb_addf(md, "\n%s Findings\n\nEach with its evidence; tick it once the change answers it.\n", hashes);
    for (size_t i = 0; i < l->n; i++)
        checklist_finding(s, ws, md, &l->items[i], sub);
    free(sub);
}

/* The checklist of one repository, its headings at `level` ('#' count). */
static void add_workspace(server *s, strbuf *md, workspace *ws, int level)
{
    review *r = ws->last;
    const rule_catalog *cat = engine_catalog(ws->eng);
    char hashes[8];
    memset(hashes, '#', sizeof hashes);
    hashes[level < 7 ? level : 7] = '\0';
    size_t nfiles = r->chg ? r->chg->nfiles : 0;
    sb_addf(md, "Base: %s · %zu changed file%s · rules from %s\n", r->base_desc ? r->base_desc : "?",
            nfiles, nfiles == 1 ? "" : "s", cat && cat->path ? cat->path : "?");
    if (nfiles == 0) {
        sb_adds(md, "\nNo change against the base: nothing to review.\n");
        return;
    }
    add_findings(s, md, ws, hashes);
    if (r->derived.status != DERIVE_OK) {
        derived_family all = {.name = r->derived.status == DERIVE_TOO_LARGE ? "diff-too-large"
                                      : r->derived.status == DERIVE_FAILED ? "derivation-failed"
                                                                           : "underivable",
                              .rules = derive_all_rules()};
        sb_adds(md, "\nThe derivation could not classify this change, so every rule applies.\n");
        add_family(ws, md, cat, &all, hashes);
        return;
    }
    size_t nfams = 0;
    for (size_t i = 0; i < r->derived.n; i++)
        nfams += add_family(ws, md, cat, &r->derived.fams[i], hashes) > 0;
    if (nfams == 0)
        sb_adds(md, "\nNo rule family applies to this change (infra-only, a version bump, or "
                    "every derived rule is switched off).\n");
}

/* The review checklist of a workspace (NULL: of every workspace) as Markdown. */
char *checklist_markdown(server *s, workspace *only)
{
    strbuf md;
    sb_init(&md);
    sb_adds(&md, "# Review checklist\n\n"
                 "The change's findings with their evidence, then the rules it derives, "
                 "grouped by family, with the lines that triggered each family. Tick each "
                 "once the change answers it.\n");
    size_t nws = 0;
    for (workspace *ws = s->wss; ws; ws = ws->next)
        nws += ws->last && (!only || ws == only);
    for (workspace *ws = s->wss; ws; ws = ws->next) {
        if (!ws->last || (only && ws != only))
            continue;
        if (nws > 1)
            sb_addf(&md, "\n## Repository %s\n", ws->workdir);
        sb_addc(&md, '\n');
        add_workspace(s, &md, ws, nws > 1 ? 3 : 2);
    }
    return sb_detach(&md);
}

/* review.listRules: every rule of a workspace's rules file, in file order:
 * [{id, title, category, severity, line, uri}] (uri: the rules file, when it has one). */
json_t *checklist_rules(server *s, workspace *ws)
{
    const rule_catalog *cat = engine_catalog(ws->eng);
    const char *file = workspaces_rules_file(s, ws);
    char *uri = file ? uri_from_path(file) : NULL;
    json_t *out = json_array();
    for (size_t i = 0; cat && i < cat->n; i++) {
        const rule_entry *e = &cat->rules[i];
        json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:i}", "id", e->id, "title",
                              e->title ? e->title : "", "category", e->category ? e->category : "",
                              "severity", severity_name(e->sev), "line", e->line);
        if (uri)
            json_object_set_new(r, "uri", json_string(uri));
        json_array_append_new(out, r);
    }
    free(uri);
    return out;
}
