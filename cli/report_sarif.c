/* The SARIF 2.1.0 report of `check`, as GitHub code scanning reads it: the rules in use with
 * their full text in tool.driver.rules, and one result per finding with related locations.
 * Text that is not UTF-8 is carried: U+FFFD in messages and rule text, %NN in artifact URIs. */
#include <jansson.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/suppress.h"

/* A byte column of a head line as Unicode code points (SARIF's unicodeCodePoints), when the
 * head text is known; else the byte column. */
static int code_point_col(const change *chg, const char *path, int line, int col)
{
    const change_file *f = change_find(chg, path);
    const char *l;
    size_t len;
    if (!f || !f->head_text || !text_line_at(f->head_text, f->head_len, line, &l, &len))
        return col;
    int cp = 0;
    for (int i = 0; i < col && (size_t)i < len; i++)
        if (((unsigned char)l[i] & 0xC0) != 0x80)
            cp++;
    return cp;
}

static const char *sarif_level(severity s)
{
    return s == SEV_WARNING ? "warning" : "note";
}

/* A SARIF physicalLocation for a path and range. */
static json_t *location(const change *chg, const char *path, const text_range *r)
{
    json_t *region = json_pack("{s:i, s:i}", "startLine", r->line > 0 ? r->line : 1,
                               "startColumn", code_point_col(chg, path, r->line, r->col) + 1);
    if (r->end_line > r->line && r->end_col == 0) {
        /* whole line: leave the end open */
    } else if (r->end_line >= r->line) {
        json_object_set_new(region, "endLine", json_integer(r->end_line));
        json_object_set_new(region, "endColumn",
                            json_integer(code_point_col(chg, path, r->end_line, r->end_col) + 1));
    }
    return json_pack("{s:{s:{s:o, s:s}, s:o}}", "physicalLocation", "artifactLocation", "uri",
                     report_json_path(path, '%'), "uriBaseId", "SRCROOT", "region", region);
}

void report_sarif(FILE *out, const cli_review *cr)
{
    const review *r = cr->rev;
    const rule_catalog *cat = cr->cat;
    json_t *rules = json_array();
    /* Every rule that has a finding, in first-seen order, so ruleIndex is stable. */
    const char *ids[256];
    size_t nids = 0;
    json_t *results = json_array();
    for (size_t i = 0; i < r->findings.n; i++) {
        const finding *f = &r->findings.items[i];
        size_t idx = 0;
        while (idx < nids && strcmp(ids[idx], f->rule_id) != 0)
            idx++;
        if (idx == nids && nids < 256) {
            ids[nids++] = f->rule_id;
            const rule_entry *re = catalog_find(cat, f->rule_id);
            json_t *jr = json_pack("{s:o}", "id", report_json_text(f->rule_id));
            if (re) {
                json_object_set_new(jr, "shortDescription", json_pack("{s:o}", "text", report_json_text(re->title)));
                json_object_set_new(jr, "fullDescription", json_pack("{s:o}", "text", report_json_text(re->text)));
                json_object_set_new(jr, "help", json_pack("{s:o, s:o}", "text", report_json_text(re->text),
                                                          "markdown", report_json_text(re->text)));
                json_object_set_new(jr, "defaultConfiguration",
                                    json_pack("{s:s}", "level", sarif_level(re->sev)));
                json_object_set_new(jr, "properties",
                                    json_pack("{s:o}", "category", report_json_text(re->category)));
            }
            json_array_append_new(rules, jr);
        }
        json_t *res = json_pack("{s:o, s:i, s:s, s:{s:o}, s:[o]}", "ruleId", report_json_text(f->rule_id),
                                "ruleIndex", (int)idx, "level", sarif_level(f->sev), "message", "text",
                                report_json_text(f->message), "locations",
                                location(r->chg, f->path, &f->range));
        if (f->nrelated) {
            json_t *rel = json_array();
            for (size_t k = 0; k < f->nrelated; k++) {
                json_t *loc = location(r->chg, f->related[k].path, &f->related[k].range);
                json_object_set_new(loc, "id", json_integer((json_int_t)k));
                json_object_set_new(loc, "message",
                                    json_pack("{s:o}", "text", report_json_text(f->related[k].message)));
                json_array_append_new(rel, loc);
            }
            json_object_set_new(res, "relatedLocations", rel);
        }
        if (f->severity_note)
            json_object_set_new(res, "properties",
                                json_pack("{s:b, s:o}", "candidate", 1, "severityNote",
                                          report_json_text(f->severity_note)));
        json_array_append_new(results, res);
    }
    json_t *driver = json_pack("{s:s, s:s, s:s, s:o}", "name", "review-lsp", "version",
                               REVIEW_LSP_VERSION, "informationUri",
                               "https://github.com/ROCm/aiter", "rules", rules);
    json_t *run = json_pack("{s:{s:o}, s:o, s:s}", "tool", "driver", driver, "results", results,
                            "columnKind", "unicodeCodePoints");
    json_t *root = json_pack("{s:s, s:s, s:[o]}", "$schema",
                             "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
                             "runs", run);
    json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
}
