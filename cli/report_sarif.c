/* The SARIF 2.1.0 report of `check`, as GitHub code scanning and other SARIF readers take it:
 * the rules with findings, with their full text, in tool.driver.rules; one result per finding
 * with its related locations (and the places its evidence shows), its evidence rendered in
 * message.markdown with links to those related locations by id; and everything else the
 * review knows, so nothing is lost
 * between the text report and SARIF: every note, skipped file and collector status as an
 * invocation's toolExecutionNotifications, and the base, the title and the derived families
 * in the run's properties. Text that is not UTF-8 is carried: U+FFFD in messages and rule text,
 * %NN in artifact URIs. */
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "engine/util.h"
#include "lsp/exhibit_render.h"

/* The kinds of notification, described once in tool.driver.notifications. */
enum { NOTE_CHANGE, NOTE_SKIPPED, NOTE_COLLECTOR, NOTE_DERIVATION, NOTE_KINDS };
static const char *const NOTE_IDS[NOTE_KINDS] = {"change-note", "skipped-file", "collector-status",
                                                 "derivation"};
static const char *const NOTE_NAMES[NOTE_KINDS] = {"ChangeNote", "SkippedFile", "CollectorStatus",
                                                   "DerivationFailed"};
static const char *const NOTE_TEXT[NOTE_KINDS] = {
    "Something about the change worth knowing: a fallback taken, a repository state assumed.",
    "A changed file that was not reviewed (binary, submodule, too large, unreadable).",
    "What one evidence collector did: what it found, nothing found and why, or skipped and why.",
    "The rule families could not be derived; every rule applies."};

static const char *sarif_level(severity s)
{
    return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "note";
}

/* A SARIF artifactLocation for a path of the tree. */
static json_t *artifact(const char *path)
{
    char *uri = report_relative_uri(path);
    json_t *a = json_pack("{s:s, s:s}", "uri", uri, "uriBaseId", "SRCROOT");
    free(uri);
    return a;
}

/* A SARIF physicalLocation for a path and range. */
static json_t *location(const change *chg, const char *path, const text_range *r)
{
    json_t *region = json_pack("{s:i, s:i}", "startLine", r->line > 0 ? r->line : 1, "startColumn",
                               report_code_point_col(chg, path, r->line, r->col) + 1);
    if (r->end_line > r->line && r->end_col == 0) {
        /* whole line: leave the end open */
    } else if (r->end_line >= r->line) {
        json_object_set_new(region, "endLine", json_integer(r->end_line));
        json_object_set_new(region, "endColumn", json_integer(report_code_point_col(
                                                     chg, path, r->end_line, r->end_col) + 1));
    }
    return json_pack("{s:{s:o, s:o}}", "physicalLocation", "artifactLocation", artifact(path),
                     "region", region);
}

/* A rule's title as a Pascal-case name ("Invariant reversal without citation" →
 * "InvariantReversalWithoutCitation"), the friendly name SARIF readers show. */
static char *friendly_name(const char *title)
{
    strbuf sb;
    sb_init(&sb);
    bool start = true;
    for (const unsigned char *p = (const unsigned char *)title; *p; p++) {
        if (!isalnum(*p)) {
            start = true;
            continue;
        }
        sb_addc(&sb, start ? (char)toupper(*p) : (char)*p);
        start = false;
    }
    return sb_detach(&sb);
}

/* The tool.driver.rules entry for a rule id. */
static json_t *rule_json(const cli_review *cr, const char *id)
{
    const rule_entry *re = catalog_find(engine_catalog(cr->eng), id);
    if (!re) {
        /* a rule a collector reports that the rules file in use does not describe */
        char *t = xasprintf("%s (not described by the rules file in use)", id);
        json_t *jr = json_pack("{s:o, s:{s:o}, s:{s:o}, s:{s:o}}", "id", report_json_text(id),
                               "shortDescription", "text", report_json_text(t), "fullDescription",
                               "text", report_json_text(t), "help", "text", report_json_text(t));
        free(t);
        return jr;
    }
    json_t *jr = json_pack("{s:o}", "id", report_json_text(id));
    char *name = friendly_name(re->title);
    if (*name)
        json_object_set_new(jr, "name", json_string(name));
    free(name);
    json_object_set_new(jr, "shortDescription", json_pack("{s:o}", "text", report_json_text(re->title)));
    json_object_set_new(jr, "fullDescription", json_pack("{s:o}", "text", report_json_text(re->text)));
    json_object_set_new(jr, "help", json_pack("{s:o, s:o}", "text", report_json_text(re->text),
                                                      "markdown", report_json_text(re->text)));
    char *url = report_rule_url(cr, re);
    if (url)
        json_object_set_new(jr, "helpUri", report_json_text(url));
    free(url);
    json_object_set_new(jr, "defaultConfiguration", json_pack("{s:s}", "level", sarif_level(re->sev)));
    json_object_set_new(jr, "properties", json_pack("{s:o}", "category", report_json_text(re->category)));
    return jr;
}

/* The related locations of a result, by id: a finding's own, then each other place its
 * exhibits show (so the Markdown can link to every place it names). */
typedef struct place_ids {
    struct place {
        const char *path;
        int line;
    } *v;
    size_t n, cap;
} place_ids;

/* The id of a place, or -1. */
static int place_id(const place_ids *p, const char *path, int line)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].line == line && strcmp(p->v[i].path, path) == 0)
            return (int)i;
    return -1;
}

/* Give a place the next id and append its related location (whole line when range is NULL)
 * to rel. A place only the evidence shows (range NULL) is marked so in its properties
 * ("exhibit": true), so a reader can tell it from the finding's own related locations. */
static void place_add(place_ids *p, json_t *rel, const change *chg, const char *path, int line,
                      const text_range *range, const char *message)
{
    struct place *pl = ARRAY_PUSH(p->v, p->n, p->cap);
    pl->path = path;
    pl->line = line;
    text_range whole = {line, 0, line + 1, 0};
    json_t *loc = location(chg, path, range ? range : &whole);
    json_object_set_new(loc, "id", json_integer((json_int_t)p->n - 1));
    json_object_set_new(loc, "message", json_pack("{s:o}", "text", report_json_text(message)));
    if (!range)
        json_object_set_new(loc, "properties", json_pack("{s:b}", "exhibit", 1));
    json_array_append_new(rel, loc);
}

/* A Markdown link to a place: its related location's id (SARIF's embedded link). */
static char *sarif_link(void *ctx, const char *path, int line)
{
    int id = place_id(ctx, path, line);
    return id >= 0 ? xasprintf("%d", id) : NULL;
}

/* Related locations and the evidence Markdown of a finding, into res. */
static void result_evidence(json_t *res, const change *chg, const finding *f)
{
    place_ids ids = {0};
    json_t *rel = json_array();
    for (size_t k = 0; k < f->nrelated; k++)
        place_add(&ids, rel, chg, f->related[k].path, f->related[k].range.line,
                  &f->related[k].range, f->related[k].message);
    for (size_t i = 0; i < f->nexhibits; i++)
        for (size_t k = 0; k < f->exhibits[i].nrows; k++) {
            const exhibit_row *r = &f->exhibits[i].rows[k];
            /* a chain's or a pair's place is named by its row's role, others by the title */
            bool own = (f->exhibits[i].kind == EXHIBIT_CHAIN || f->exhibits[i].kind == EXHIBIT_PAIR)
                       && r->label && *r->label;
            if (r->path && place_id(&ids, r->path, r->line) < 0)
                place_add(&ids, rel, chg, r->path, r->line, NULL,
                          own ? r->label : f->exhibits[i].title);
        }
    if (json_array_size(rel))
        json_object_set_new(res, "relatedLocations", rel);
    else
        json_decref(rel);
    if (f->nexhibits) {
        strbuf md;
        sb_init(&md);
        sb_adds(&md, f->message);
        exhibit_markdown(&md, f->exhibits, f->nexhibits, EXHIBIT_FULL, sarif_link, &ids);
        json_object_set_new(json_object_get(res, "message"), "markdown", report_json_text(md.buf));
        sb_free(&md);
    }
    free(ids.v);
}

/* One result for a finding; rule_index is its rule's place in tool.driver.rules. */
static json_t *result_json(const change *chg, const finding *f, size_t rule_index)
{
    json_t *res = json_pack("{s:o, s:i, s:s, s:{s:o}, s:[o]}", "ruleId", report_json_text(f->rule_id),
                            "ruleIndex", (int)rule_index, "level", sarif_level(f->sev), "message",
                            "text", report_json_text(f->message), "locations", location(chg, f->path, &f->range));
    result_evidence(res, chg, f);
    json_t *props = json_pack("{s:s}", "collector", f->collector);
    if (f->severity_note) {
        json_object_set_new(props, "candidate", json_true());
        json_object_set_new(props, "severityNote", report_json_text(f->severity_note));
    }
    json_object_set_new(res, "properties", props);
    return res;
}

/* The rules with findings (first-seen order, so ruleIndex is stable) and the results. */
static void rules_and_results(const cli_review *cr, json_t *rules, json_t *results)
{
    const review *r = cr->rev;
    const char **ids = NULL;
    size_t nids = 0, cap = 0;
    for (size_t i = 0; i < r->findings.n; i++) {
        const finding *f = &r->findings.items[i];
        size_t idx = 0;
        while (idx < nids && strcmp(ids[idx], f->rule_id) != 0)
            idx++;
        if (idx == nids) {
            *ARRAY_PUSH(ids, nids, cap) = f->rule_id;
            json_array_append_new(rules, rule_json(cr, f->rule_id));
        }
        json_array_append_new(results, result_json(r->chg, f, idx));
    }
    free(ids);
}

/* A notification of a kind, with its text (and a location, stolen, or NULL). */
static json_t *notification(int kind, const char *level, const char *text, json_t *loc)
{
    json_t *n = json_pack("{s:s, s:{s:o}, s:{s:s, s:i}}", "level", level, "message", "text", report_json_text(text),
                          "descriptor", "id", NOTE_IDS[kind], "index", kind);
    if (loc)
        json_object_set_new(n, "locations", json_pack("[o]", loc));
    return n;
}

/* Whether a change note only repeats that a skipped file was skipped ("path: reason ..."). */
static bool note_of_skipped_file(const change *c, const char *note)
{
    for (size_t i = 0; i < c->nfiles; i++) {
        size_t n = strlen(c->files[i].path);
        if (c->files[i].is_skipped && strncmp(note, c->files[i].path, n) == 0 && note[n] == ':')
            return true;
    }
    return false;
}

/* Every note, skipped file and collector status of the review, as notifications. */
static json_t *notifications(const review *r)
{
    json_t *out = json_array();
    const change *c = r->chg;
    if (r->derived.status != DERIVE_OK) {
        char *t = xasprintf("rule families %s (%s): every rule applies",
                            report_derivation_name(r->derived.status),
                            r->derived.failure ? r->derived.failure : "nothing could be derived");
        json_array_append_new(out, notification(NOTE_DERIVATION, "warning", t, NULL));
        free(t);
    }
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        if (!f->is_skipped)
            continue;
        char *t = xasprintf("%s: %s, not reviewed", f->path, f->skip_reason ? f->skip_reason : "skipped");
        json_t *loc = json_pack("{s:{s:o}}", "physicalLocation", "artifactLocation", artifact(f->path));
        json_array_append_new(out, notification(NOTE_SKIPPED, "note", t, loc));
        free(t);
    }
    for (size_t i = 0; i < c->nnotes; i++)
        if (!note_of_skipped_file(c, c->notes[i]))
            json_array_append_new(out, notification(NOTE_CHANGE, "note", c->notes[i], NULL));
    for (size_t i = 0; i < r->ncollectors; i++) {
        const char *status;
        char *name = report_collector_name(r->collector_status[i], &status);
        json_t *n = notification(NOTE_COLLECTOR, "note", r->collector_status[i], NULL);
        json_object_set_new(n, "properties", json_pack("{s:o, s:o}", "collector", report_json_text(name), "status",
                                                         report_json_text(status)));
        json_array_append_new(out, n);
        free(name);
    }
    return out;
}

/* The run's properties: what the review was of, and the rule families it derived. */
static json_t *run_properties(const review *r)
{
    const derive_result *d = &r->derived;
    json_t *fams = json_array();
    for (size_t i = 0; i < d->n; i++) {
        json_t *sites = json_array();
        for (size_t k = 0; k < d->fams[i].nsites; k++)
            json_array_append_new(sites, json_pack("{s:o, s:i}", "path", report_json_path(d->fams[i].sites[k].path, '\\'),
                                                   "line", d->fams[i].sites[k].line));
        json_t *ids = json_array();
        char *rules = xstrdup(d->fams[i].rules), *save = NULL;
        for (char *t = strtok_r(rules, " ", &save); t; t = strtok_r(NULL, " ", &save))
            json_array_append_new(ids, report_json_text(t));
        free(rules);
        json_array_append_new(fams, json_pack("{s:o, s:o, s:o}", "family", report_json_text(d->fams[i].name),
                                              "rules", ids, "sites", sites));
    }
    return json_pack("{s:o, s:o, s:s, s:o}", "base", report_json_text(r->base_desc), "title",
                     report_json_text(r->chg->title),
                     "derivation", report_derivation_name(d->status), "derivedFamilies", fams);
}

/* tool.driver: the tool, its rules, and the kinds of notification it gives. */
static json_t *driver_json(json_t *rules)
{
    json_t *kinds = json_array();
    for (int k = 0; k < NOTE_KINDS; k++)
        json_array_append_new(kinds, json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}}", "id",
                                               NOTE_IDS[k], "name", NOTE_NAMES[k],
                                               "shortDescription", "text", NOTE_TEXT[k],
                                               "fullDescription", "text", NOTE_TEXT[k], "help",
                                               "text", NOTE_TEXT[k]));
    return json_pack("{s:s, s:s, s:s, s:o, s:o}", "name", "review-lsp", "version",
                     REVIEW_LSP_VERSION, "informationUri", "https://github.com/ROCm/aiter",
                     "rules", rules, "notifications", kinds);
}

void report_sarif(FILE *out, const cli_review *cr)
{
    const review *r = cr->rev;
    json_t *rules = json_array(), *results = json_array();
    rules_and_results(cr, rules, results);
    json_t *invocation = json_pack("{s:b, s:o}", "executionSuccessful", 1,
                                   "toolExecutionNotifications", notifications(r));
    json_t *run = json_pack("{s:{s:o}, s:[o], s:o, s:s, s:o}", "tool", "driver", driver_json(rules),
                            "invocations", invocation, "results", results, "columnKind",
                            "unicodeCodePoints", "properties", run_properties(r));
    json_t *root = json_pack("{s:s, s:s, s:[o]}", "$schema",
                             "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
                             "runs", run);
    json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
}
