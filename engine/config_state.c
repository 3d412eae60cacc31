/* An engine's configuration kept current (config_state.h): the face's layer, the repository
 * file re-read when its stamp moves, the last good file kept when a new one is malformed. */
#include "engine/config_state.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/util.h"

struct config_state {
    char *tree, *start;
    char *stamp;              /* of the candidate files when last read; NULL: never read */
    repo_config file;         /* the last good file (empty: none) */
    char *problem;
    /* the layer, owned */
    config_layer layer;
    char *base, *rules_path;
    char **disabled, **severity;
    bool dirty;               /* the layer or the file changed since the last build */
    char *own_rules;          /* the tree's .claude/skills/review-pr/rules.md at the last build */
    effective_config eff;
};

static char **copy_strv(const char *const *v)
{
    size_t n = 0;
    while (v && v[n])
        n++;
    char **out = xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = xstrdup(v[i]);
    return out;
}

static void free_strv(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

static void free_layer(config_state *cs)
{
    free(cs->base);
    free(cs->rules_path);
    free_strv(cs->disabled);
    free_strv(cs->severity);
    cs->base = cs->rules_path = NULL;
    cs->disabled = cs->severity = NULL;
}

config_state *config_state_new(const char *tree, const char *start)
{
    config_state *cs = xcalloc(1, sizeof *cs);
    cs->tree = tree ? xstrdup(tree) : NULL;
    cs->start = xstrdup(start ? start : "");
    cs->file.derived_hints = HINTS_UNSET;
    cs->layer.derived_hints = HINTS_UNSET;
    cs->dirty = true;
    return cs;
}

void config_state_free(config_state *cs)
{
    if (!cs)
        return;
    effective_clear(&cs->eff);
    repo_config_clear(&cs->file);
    free_layer(cs);
    free(cs->problem);
    free(cs->stamp);
    free(cs->own_rules);
    free(cs->tree);
    free(cs->start);
    free(cs);
}

void config_state_set_layer(config_state *cs, const config_layer *l)
{
    free_layer(cs);
    static const config_layer none = {.derived_hints = HINTS_UNSET};
    if (!l)
        l = &none;
    cs->base = l->base ? xstrdup(l->base) : NULL;
    cs->rules_path = l->rules_path ? xstrdup(l->rules_path) : NULL;
    cs->disabled = copy_strv(l->disabled_rules);
    cs->severity = copy_strv(l->severity);
    cs->layer = (config_layer){l->face,           cs->base,
                               cs->rules_path,    l->max_file_bytes,
                               l->derived_hints,  (const char *const *)cs->disabled,
                               (const char *const *)cs->severity};
    cs->dirty = true;
}

/* Re-read the file when its stamp moved: true when what is in force changed. */
static bool reread(config_state *cs)
{
    if (!cs->tree)
        return false;
    char *stamp = repo_config_stamp(cs->tree, cs->start);
    if (cs->stamp && strcmp(stamp, cs->stamp) == 0) {
        free(stamp);
        return false;
    }
    free(cs->stamp);
    cs->stamp = stamp;
    repo_config fresh;
    char *cause = NULL;
    free(cs->problem);
    cs->problem = NULL;
    if (repo_config_load(cs->tree, cs->start, &fresh, &cause) < 0) {
        /* the last good file stays in force */
        cs->problem = xasprintf("%s; %s", cause,
                                cs->file.name ? "the previous configuration stays in force"
                                              : "the defaults stand in");
        free(cause);
        return false;
    }
    /* the effective configuration borrows the file: clear it before the file goes */
    effective_clear(&cs->eff);
    repo_config_clear(&cs->file);
    cs->file = fresh;
    return true;
}

/* The tree's own rules file when it exists (new string), else NULL. */
static char *own_rules(const config_state *cs)
{
    char *own = cs->tree ? xasprintf("%s.claude/skills/review-pr/rules.md", cs->tree) : NULL;
    struct stat st;
    if (own && stat(own, &st) != 0) {
        free(own);
        own = NULL;
    }
    return own;
}

bool config_state_refresh(config_state *cs)
{
    if (reread(cs))
        cs->dirty = true;
    char *own = own_rules(cs);
    if ((own == NULL) != (cs->own_rules == NULL))
        cs->dirty = true;
    free(cs->own_rules);
    cs->own_rules = own;
    if (!cs->dirty)
        return false;
    effective_clear(&cs->eff);
    effective_build(&cs->eff, &cs->layer, &cs->file, cs->own_rules);
    cs->dirty = false;
    return true;
}

const effective_config *config_state_effective(const config_state *cs)
{
    return &cs->eff;
}

const char *config_state_problem(const config_state *cs)
{
    return cs->problem;
}

const char *const *config_state_warnings(const config_state *cs, size_t *n)
{
    *n = cs->file.nwarnings;
    return (const char *const *)cs->file.warnings;
}
