/* The JSON report of `check`: the change's files, derived families with their sites,
 * findings with related locations and their evidence (each exhibit's structure as the engine
 * built it: kind, title, columns, rows with cells / label / text / mark / place / highlight),
 * collector states and notes, as one object. Every string goes through report_json_text /
 * report_json_path, so text that is not UTF-8 is carried (replaced or escaped), never dropped. */
#include <jansson.h>
#include <stdlib.h>

#include "cli/report.h"
#include "engine/utf8.h"

json_t *report_json_text(const char *s)
{
    char *t = utf8_sanitize(s);
    json_t *j = json_string(t);
    free(t);
    return j;
}

json_t *report_json_path(const char *s, char esc)
{
    char *t = utf8_escape_path(s ? s : "", esc);
    json_t *j = json_string(t);
    free(t);
    return j;
}

/* A text_range as a JSON object with 1-based lines and columns. */
static json_t *range_json(const text_range *r)
{
    return json_pack("{s:i, s:i, s:i, s:i}", "line", r->line, "column", r->col + 1, "endLine",
                     r->end_line, "endColumn", r->end_col + 1);
}

/* One exhibit row: only the fields its kind uses. */
static json_t *row_json(const exhibit *e, const exhibit_row *r)
{
    json_t *jr = json_object();
    if (r->cells) {
        json_t *cells = json_array();
        for (size_t c = 0; c < e->ncolumns; c++)
            json_array_append_new(cells, report_json_text(r->cells[c]));
        json_object_set_new(jr, "cells", cells);
    }
    if (r->label)
        json_object_set_new(jr, "label", report_json_text(r->label));
    if (r->text)
        json_object_set_new(jr, "text", report_json_text(r->text));
    if (r->mark)
        json_object_set_new(jr, "mark", report_json_text(r->mark));
    if (r->path) {
        json_object_set_new(jr, "path", report_json_path(r->path, '\\'));
        json_object_set_new(jr, "line", json_integer(r->line));
    }
    if (r->hl_end > r->hl_start) /* byte offsets into text */
        json_object_set_new(jr, "highlight", json_pack("{s:i, s:i}", "start", r->hl_start,
                                                       "end", r->hl_end));
    return jr;
}

/* A finding's exhibits as a JSON array. */
static json_t *evidence_json(const finding *f)
{
    json_t *out = json_array();
    for (size_t i = 0; i < f->nexhibits; i++) {
        const exhibit *e = &f->exhibits[i];
        json_t *je = json_pack("{s:s, s:o}", "kind", exhibit_kind_name(e->kind), "title",
                               report_json_text(e->title));
        if (e->kind == EXHIBIT_TABLE) {
            json_t *cols = json_array();
            for (size_t c = 0; c < e->ncolumns; c++)
                json_array_append_new(cols, report_json_text(e->columns[c]));
            json_object_set_new(je, "columns", cols);
        }
        json_t *rows = json_array();
        for (size_t k = 0; k < e->nrows; k++)
            json_array_append_new(rows, row_json(e, &e->rows[k]));
        json_object_set_new(je, "rows", rows);
        if (e->nomitted)
            json_object_set_new(je, "omittedRows", json_integer((json_int_t)e->nomitted));
        json_array_append_new(out, je);
    }
    return out;
}

void report_json(FILE *out, const cli_review *cr)
{
    const review *r = cr->rev;
    json_t *root = json_object();
    json_object_set_new(root, "tool", json_pack("{s:s, s:s}", "name", "review-lsp", "version",
                                                REVIEW_LSP_VERSION));
    json_object_set_new(root, "base", report_json_text(r->base_desc));
    json_object_set_new(root, "title", report_json_text(r->chg->title));
    json_t *files = json_array();
    for (size_t i = 0; i < r->chg->nfiles; i++) {
        const change_file *f = &r->chg->files[i];
        json_t *jf = json_pack("{s:o, s:b, s:b, s:b, s:i, s:i}", "path", report_json_path(f->path, '\\'), "new", f->is_new,
                               "deleted", f->is_deleted, "renamed", f->is_renamed, "added", f->nadd,
                               "deleted_lines", f->ndel);
        if (f->is_renamed)
            json_object_set_new(jf, "oldPath", report_json_path(f->old_path, '\\'));
        if (f->is_skipped)
            json_object_set_new(jf, "skipped", report_json_text(f->skip_reason ? f->skip_reason : "skipped"));
        json_array_append_new(files, jf);
    }
    json_object_set_new(root, "files", files);
    json_t *derived = json_array();
    const derive_result *d = &r->derived;
    json_object_set_new(root, "derivation", json_string(report_derivation_name(d->status)));
    for (size_t i = 0; i < d->n; i++) {
        json_t *sites = json_array();
        for (size_t k = 0; k < d->fams[i].nsites; k++)
            json_array_append_new(sites, json_pack("{s:o, s:i}", "path",
                                                   report_json_path(d->fams[i].sites[k].path, '\\'),
                                                   "line", d->fams[i].sites[k].line));
        json_array_append_new(derived, json_pack("{s:s, s:o, s:o}", "family", d->fams[i].name,
                                                 "rules", report_json_text(d->fams[i].rules), "sites", sites));
    }
    json_object_set_new(root, "derived", derived);
    json_t *fs = json_array();
    for (size_t i = 0; i < r->findings.n; i++) {
        const finding *f = &r->findings.items[i];
        json_t *rel = json_array();
        for (size_t k = 0; k < f->nrelated; k++)
            json_array_append_new(rel, json_pack("{s:o, s:o, s:o}", "path",
                                                 report_json_path(f->related[k].path, '\\'),
                                                 "range", range_json(&f->related[k].range),
                                                 "message", report_json_text(f->related[k].message)));
        json_t *jf = json_pack("{s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "rule", report_json_text(f->rule_id),
                               "severity", severity_name(f->sev), "path", report_json_path(f->path, '\\'),
                               "range", range_json(&f->range), "message", report_json_text(f->message),
                               "collector", report_json_text(f->collector), "related", rel,
                               "evidence", evidence_json(f));
        if (f->severity_note)
            json_object_set_new(jf, "severityNote", report_json_text(f->severity_note));
        json_array_append_new(fs, jf);
    }
    json_object_set_new(root, "findings", fs);
    json_t *cols = json_array();
    for (size_t i = 0; i < r->ncollectors; i++)
        json_array_append_new(cols, report_json_text(r->collector_status[i]));
    json_object_set_new(root, "collectors", cols);
    json_t *notes = json_array();
    for (size_t i = 0; i < r->chg->nnotes; i++)
        json_array_append_new(notes, report_json_text(r->chg->notes[i]));
    json_object_set_new(root, "notes", notes);
    json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
}
