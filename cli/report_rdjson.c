/* `check --format rdjson`: reviewdog's diagnostic format (rdjson), so `reviewdog -f=rdjson`
 * can post the findings as inline pull-request comments: one diagnostic per finding with its
 * location (path, range with 1-based lines and 1-based UTF-8 byte columns), severity (warning
 * → WARNING, information and hints → INFO), code {value: rule id, url: the rule's text when
 * there is a file to link to} and related locations for the evidence. */
#include <jansson.h>
#include <stdlib.h>

#include "cli/report.h"

/* An rdjson range from a text_range (0-based byte columns). */
static json_t *range_json(const text_range *r)
{
    int line = r->line > 0 ? r->line : 1;
    json_t *range = json_pack("{s:{s:i, s:i}}", "start", "line", line, "column", r->col + 1);
    if (r->end_line > line && r->end_col == 0) {
        /* the whole line: leave the end open */
    } else if (r->end_line >= line) {
        json_object_set_new(range, "end", json_pack("{s:i, s:i}", "line", r->end_line, "column",
                                                     r->end_col + 1));
    }
    return range;
}

static json_t *location_json(const char *path, const text_range *r)
{
    return json_pack("{s:o, s:o}", "path", report_json_path(path, '\\'), "range", range_json(r));
}

/* The diagnostic for one finding. */
static json_t *diagnostic(const cli_review *cr, const finding *f)
{
    const rule_entry *re = catalog_find(engine_catalog(cr->eng), f->rule_id);
    json_t *code = json_pack("{s:o}", "value", report_json_text(f->rule_id));
    char *url = report_rule_url(cr, re);
    if (url)
        json_object_set_new(code, "url", report_json_text(url));
    free(url);
    json_t *d = json_pack("{s:o, s:o, s:s, s:o}", "message", report_json_text(f->message), "location",
                          location_json(f->path, &f->range), "severity",
                          f->sev == SEV_WARNING ? "WARNING" : "INFO", "code", code);
    if (f->nrelated) {
        json_t *rel = json_array();
        for (size_t k = 0; k < f->nrelated; k++)
            json_array_append_new(rel, json_pack("{s:o, s:o}", "message", report_json_text(f->related[k].message),
                                                 "location", location_json(f->related[k].path,
                                                                           &f->related[k].range)));
        json_object_set_new(d, "related_locations", rel);
    }
    return d;
}

void report_rdjson(FILE *out, const cli_review *cr)
{
    json_t *diags = json_array();
    for (size_t i = 0; i < cr->rev->findings.n; i++)
        json_array_append_new(diags, diagnostic(cr, &cr->rev->findings.items[i]));
    json_t *root = json_pack("{s:{s:s}, s:o}", "source", "name", "review-lsp", "diagnostics", diags);
    json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
}
