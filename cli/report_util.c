/* Helpers the report formats share (report.h). */
#include "cli/report.h"

#include <stdlib.h>
#include <string.h>

#include "engine/suppress.h"
#include "engine/util.h"
#include "lsp/uri.h"

const char *report_derivation_name(derive_status s)
{
    static const char *const names[] = {"ok", "underivable", "diff-too-large", "derivation-failed"};
    return (size_t)s < sizeof names / sizeof *names ? names[s] : "derivation-failed";
}

int report_code_point_col(const change *chg, const char *path, int line, int col)
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

char *report_rule_url(const cli_review *cr, const rule_entry *re)
{
    const rule_catalog *cat = engine_catalog(cr->eng);
    if (!re || !cat->path || cat->path[0] == '(')
        return NULL;
    const char *tree = engine_workdir(cr->eng);
    const char *server = getenv("GITHUB_SERVER_URL"), *repo = getenv("GITHUB_REPOSITORY"),
               *sha = getenv("GITHUB_SHA");
    if (tree && str_starts(cat->path, tree) && server && *server && repo && *repo && sha && *sha)
        return xasprintf("%s/%s/blob/%s/%s#L%d", server, repo, sha, cat->path + strlen(tree),
                         re->line);
    if (cat->path[0] != '/')
        return NULL;
    char *uri = uri_from_path(cat->path);
    char *url = xasprintf("%s#L%d", uri, re->line);
    free(uri);
    return url;
}

char *report_collector_name(const char *line, const char **status)
{
    const char *colon = strstr(line, ": ");
    if (!colon) {
        *status = line;
        return xstrdup(line);
    }
    *status = colon + 2;
    return xstrndup(line, (size_t)(colon - line));
}

char *report_relative_uri(const char *path)
{
    char *uri = uri_from_path(path);
    const size_t scheme = strlen("file://");
    memmove(uri, uri + scheme, strlen(uri + scheme) + 1);
    return uri;
}
