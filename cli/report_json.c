/* The JSON report of `check`: the change's files, derived families with their sites,
 * findings with related locations and their evidence (each exhibit's structure as the engine
 * built it: kind, title, columns, rows with cells / label / text / mark / place / highlight),
 * collector states and notes, as one object. */
#include <jansson.h>

#include "cli/report.h"

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
            json_array_append_new(cells, json_string(r->cells[c]));
        json_object_set_new(jr, "cells", cells);
    }
    if (r->label)
        json_object_set_new(jr, "label", json_string(r->label));
    if (r->text)
        json_object_set_new(jr, "text", json_string(r->text));
    if (r->mark)
        json_object_set_new(jr, "mark", json_string(r->mark));
    if (r->path) {
        json_object_set_new(jr, "path", json_string(r->path));
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
        json_t *je = json_pack("{s:s, s:s}", "kind", exhibit_kind_name(e->kind), "title", e->title);
        if (e->kind == EXHIBIT_TABLE) {
            json_t *cols = json_array();
            for (size_t c = 0; c < e->ncolumns; c++)
                json_array_append_new(cols, json_string(e->columns[c]));
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
    json_object_set_new(root, "base", json_string(r->base_desc));
    json_object_set_new(root, "title", json_string(r->chg->title));
    json_t *files = json_array();
    for (size_t i = 0; i < r->chg->nfiles; i++) {
        const change_file *f = &r->chg->files[i];
        json_t *jf = json_pack("{s:s, s:b, s:b, s:b, s:i, s:i}", "path", f->path, "new", f->is_new,
                               "deleted", f->is_deleted, "renamed", f->is_renamed, "added", f->nadd,
                               "deleted_lines", f->ndel);
        if (f->is_renamed)
            json_object_set_new(jf, "oldPath", json_string(f->old_path));
        if (f->is_skipped)
            json_object_set_new(jf, "skipped", json_string(f->skip_reason ? f->skip_reason : "skipped"));
        json_array_append_new(files, jf);
    }
    json_object_set_new(root, "files", files);
    json_t *derived = json_array();
    const derive_result *d = &r->derived;
    json_object_set_new(root, "derivation", json_string(report_derivation_name(d->status)));
    for (size_t i = 0; i < d->n; i++) {
        json_t *sites = json_array();
        for (size_t k = 0; k < d->fams[i].nsites; k++)
            json_array_append_new(sites, json_pack("{s:s, s:i}", "path", d->fams[i].sites[k].path,
                                                   "line", d->fams[i].sites[k].line));
        json_array_append_new(derived, json_pack("{s:s, s:s, s:o}", "family", d->fams[i].name,
                                                 "rules", d->fams[i].rules, "sites", sites));
    }
    json_object_set_new(root, "derived", derived);
    json_t *fs = json_array();
    for (size_t i = 0; i < r->findings.n; i++) {
        const finding *f = &r->findings.items[i];
        json_t *rel = json_array();
        for (size_t k = 0; k < f->nrelated; k++)
            json_array_append_new(rel, json_pack("{s:s, s:o, s:s}", "path", f->related[k].path,
                                                 "range", range_json(&f->related[k].range),
                                                 "message", f->related[k].message));
        json_t *jf = json_pack("{s:s, s:s, s:s, s:o, s:s, s:s, s:o, s:o}", "rule", f->rule_id,
                               "severity", severity_name(f->sev), "path", f->path,
                               "range", range_json(&f->range), "message", f->message,
                               "collector", f->collector, "related", rel, "evidence",
                               evidence_json(f));
        if (f->severity_note)
            json_object_set_new(jf, "severityNote", json_string(f->severity_note));
        json_array_append_new(fs, jf);
    }
    json_object_set_new(root, "findings", fs);
    json_t *cols = json_array();
    for (size_t i = 0; i < r->ncollectors; i++)
        json_array_append_new(cols, json_string(r->collector_status[i]));
    json_object_set_new(root, "collectors", cols);
    json_t *notes = json_array();
    for (size_t i = 0; i < r->chg->nnotes; i++)
        json_array_append_new(notes, json_string(r->chg->notes[i]));
    json_object_set_new(root, "notes", notes);
    json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
}
