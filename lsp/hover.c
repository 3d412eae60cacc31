/* textDocument/hover: on a line that carries findings or derived-family hints, the full text
 * of each rule involved (Markdown, read from the rules file); on a rule id inside a
 * `review: ignore[ID, ...]` comment, that rule's text. Nothing (null) elsewhere. */
#include <ctype.h>
#include <string.h>

#include "lsp/server.h"

/* Append one rule's text (or a note that the rules file lacks it) to the Markdown. */
static void add_rule(server *s, strbuf *md, const char *id)
{
    const rule_catalog *cat = engine_catalog(s->eng);
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
    const char *file = diagnostics_rules_file(s);
    sb_addf(md, "\n\n*%s — %s:%d*", e->category ? e->category : "rule",
            file ? file : cat->path, e->line);
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
    char *rel = documents_relpath(s, uri, &why);
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
    char *text = documents_text(s, rel, &len);
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
                add_rule(s, &md, rid);
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

    if (!md.len) {
        /* Findings and hints on this line, each rule once, in diagnostic order. */
        const char *seen[64];
        size_t nseen = 0;
        for (size_t i = 0; i < s->ndiags; i++) {
            stored_diag *sd = &s->diags[i];
            if (strcmp(sd->relpath, rel) != 0)
                continue;
            long l0 = (long)json_integer_value(jpath(sd->diag, "range.start.line"));
            long l1 = (long)json_integer_value(jpath(sd->diag, "range.end.line"));
            if (line < l0 || line > l1)
                continue;
            for (size_t k = 0; sd->rule_ids[k] && nseen < 64; k++) {
                bool dup = false;
                for (size_t q = 0; q < nseen && !dup; q++)
                    dup = strcmp(seen[q], sd->rule_ids[k]) == 0;
                if (dup)
                    continue;
                seen[nseen++] = sd->rule_ids[k];
                add_rule(s, &md, sd->rule_ids[k]);
                const char *note = json_string_value(jpath(sd->diag, "data.severityNote"));
                if (note)
                    sb_addf(&md, "\n\n*%s*", note);
            }
        }
    }
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
