/* The effective configuration (effective_config.h): a face's layer over the repository file
 * over the defaults, each value with its source, and the per-path rules that follow from it. */
#include "engine/effective_config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/change.h"
#include "engine/util.h"


/* How each key is spelled in each face, to name a value's source. */
typedef struct key_names {
    const char *key, *flag, *setting;
} key_names;

static const key_names KEYS[] = {
    {"base", "--base", "base"},
    {"rules", "--rules", "rulesPath"},
    {"disable", "--disable", "disabledRules"},
    {"severity", "--severity", "severity"},
    {"max-file-bytes", "--max-file-bytes", "maxFileBytes"},
    {"derived-hints", NULL, "derivedHints"},
};

/* "--base" or "editor setting review.base" for a key said by a face (new string). */
static char *face_source(int face, const char *key)
{
    for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++)
        if (strcmp(KEYS[i].key, key) == 0)
            return face == FACE_EDITOR || !KEYS[i].flag
                       ? xasprintf("editor setting review.%s", KEYS[i].setting)
                       : xstrdup(KEYS[i].flag);
    return xstrdup(key);
}

/* "pyproject.toml:12" for a value of the file (new string). */
static char *file_source(const repo_config *f, int line)
{
    return line ? xasprintf("%s:%d", f->name, line) : xstrdup(f->name);
}

static void add_rule(eff_rule **arr, size_t *n, const char *id, severity sev, char *source,
                     bool from_face)
{
    *arr = xrealloc(*arr, (*n + 1) * sizeof **arr);
    (*arr)[*n] = (eff_rule){xstrdup(id), sev, source, from_face};
    (*n)++;
}

static const eff_rule *find_rule(const eff_rule *arr, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(arr[i].id, id) == 0)
            return &arr[i];
    return NULL;
}

/* The rules file: the repository's own (named by the file, else .claude/...), else the face's,
 * else the bundled one. */
static void build_rules_file(effective_config *c, const config_layer *l, const repo_config *f,
                             const char *own_rules)
{
    if (f->rules.value) {
        c->rules = xstrdup(f->rules.value);
        c->rules_source = file_source(f, f->rules.line);
    } else if (own_rules) {
        c->rules = xstrdup(own_rules);
        c->rules_source = xstrdup("default (the repository's own)");
    } else if (l->rules_path && *l->rules_path) {
        c->rules = xstrdup(l->rules_path);
        c->rules_source = face_source(l->face, "rules");
    } else {
        c->rules_source = xstrdup("default (bundled)");
    }
}

/* base, max-file-bytes and derived-hints: the face, else the file, else the default. */
static void build_scalars(effective_config *c, const config_layer *l, const repo_config *f)
{
    if (l->base && *l->base) {
        c->base = xstrdup(l->base);
        c->base_source = face_source(l->face, "base");
    } else if (f->base.value) {
        c->base = xstrdup(f->base.value);
        c->base_source = file_source(f, f->base.line);
        c->base_from_file = true;
    } else {
        c->base_source = xstrdup("default");
    }
    if (l->max_file_bytes) {
        c->max_file_bytes = l->max_file_bytes;
        c->max_file_bytes_source = face_source(l->face, "max-file-bytes");
    } else if (f->max_file_bytes) {
        c->max_file_bytes = f->max_file_bytes;
        c->max_file_bytes_source = file_source(f, f->max_file_bytes_line);
    } else {
        c->max_file_bytes = REVIEW_MAX_FILE_BYTES;
        c->max_file_bytes_source = xstrdup("default");
    }
    if (l->derived_hints != HINTS_UNSET) {
        c->derived_hints = l->derived_hints;
        c->derived_hints_source = face_source(l->face, "derived-hints");
    } else if (f->derived_hints != HINTS_UNSET) {
        c->derived_hints = f->derived_hints;
        c->derived_hints_source = file_source(f, f->derived_hints_line);
    } else {
        c->derived_hints = HINTS_FILE;
        c->derived_hints_source = xstrdup("default");
    }
}

/* disable (a union, the face's first) and severity (the face's level for an id first). */
static void build_rules(effective_config *c, const config_layer *l, const repo_config *f)
{
    for (size_t i = 0; l->disabled_rules && l->disabled_rules[i]; i++)
        if (!find_rule(c->disable, c->ndisable, l->disabled_rules[i]))
            add_rule(&c->disable, &c->ndisable, l->disabled_rules[i], SEV_HINT,
                     face_source(l->face, "disable"), true);
    for (size_t i = 0; i < f->disable.n; i++)
        if (!find_rule(c->disable, c->ndisable, f->disable.items[i].text))
            add_rule(&c->disable, &c->ndisable, f->disable.items[i].text, SEV_HINT,
                     file_source(f, f->disable.items[i].line), false);
    for (size_t i = 0; l->severity && l->severity[i]; i++) {
        const char *eq = strrchr(l->severity[i], '=');
        severity sev;
        if (!eq || eq == l->severity[i] || severity_parse(eq + 1, &sev) < 0)
            continue; /* the face checks its own values */
        char *id = xstrndup(l->severity[i], (size_t)(eq - l->severity[i]));
        if (!find_rule(c->severity, c->nseverity, id))
            add_rule(&c->severity, &c->nseverity, id, sev, face_source(l->face, "severity"), true);
        free(id);
    }
    for (size_t i = 0; i < f->severity.n; i++)
        if (!find_rule(c->severity, c->nseverity, f->severity.items[i].id))
            add_rule(&c->severity, &c->nseverity, f->severity.items[i].id,
                     f->severity.items[i].sev, file_source(f, f->severity.items[i].line), false);
}

void effective_build(effective_config *out, const config_layer *face, const repo_config *file,
                     const char *own_rules)
{
    static const repo_config none = {.derived_hints = HINTS_UNSET};
    static const config_layer nothing = {.derived_hints = HINTS_UNSET};
    memset(out, 0, sizeof *out);
    if (!file || !file->name)
        file = &none;
    if (!face)
        face = &nothing;
    out->file = file;
    build_rules_file(out, face, file, own_rules);
    build_scalars(out, face, file);
    build_rules(out, face, file);
}

static void free_rules(eff_rule *arr, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(arr[i].id);
        free(arr[i].source);
    }
    free(arr);
}

void effective_clear(effective_config *c)
{
    free(c->base);
    free(c->base_source);
    free(c->rules);
    free(c->rules_source);
    free(c->max_file_bytes_source);
    free(c->derived_hints_source);
    free_rules(c->disable, c->ndisable);
    free_rules(c->severity, c->nseverity);
    memset(c, 0, sizeof *c);
}

static bool list_has(const rc_list *l, const char *id)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].text, id) == 0)
            return true;
    return false;
}

bool effective_disabled(const effective_config *c, const char *id, const char *path)
{
    if (find_rule(c->disable, c->ndisable, id))
        return true;
    for (size_t i = 0; path && c->file && i < c->file->noverrides; i++) {
        const rc_override *o = &c->file->overrides[i];
        if (list_has(&o->disable, id) && rc_globs_match(o->match, path))
            return true;
    }
    return false;
}

bool effective_severity(const effective_config *c, const char *id, const char *path,
                        severity *out)
{
    const eff_rule *r = find_rule(c->severity, c->nseverity, id);
    /* The face's own level for the id beats any [[overrides]] of the file. */
    if (r && r->from_face) {
        *out = r->sev;
        return true;
    }
    for (size_t i = c->file ? c->file->noverrides : 0; path && i-- > 0;) {
        const rc_override *o = &c->file->overrides[i];
        for (size_t k = 0; k < o->severity.n; k++)
            if (strcmp(o->severity.items[k].id, id) == 0 && rc_globs_match(o->match, path)) {
                *out = o->severity.items[k].sev;
                return true;
            }
    }
    if (r)
        *out = r->sev;
    return r != NULL;
}

void effective_apply(const effective_config *c, finding_list *l)
{
    size_t keep = 0;
    for (size_t i = 0; i < l->n; i++) {
        finding *f = &l->items[i];
        if (effective_disabled(c, f->rule_id, f->path)) {
            finding_clear(f);
            continue;
        }
        severity sev;
        if (effective_severity(c, f->rule_id, f->path, &sev) && sev != f->sev) {
            /* A level the team chose replaces the precision policy's candidate wording. */
            if (f->severity_note && str_starts(f->message, "candidate to check: ")) {
                char *msg = xstrdup(f->message + strlen("candidate to check: "));
                free(f->message);
                f->message = msg;
            }
            free(f->severity_note);
            f->severity_note = NULL;
            f->sev = sev;
        }
        l->items[keep++] = *f;
    }
    l->n = keep;
}

static const char *hints_name(int h)
{
    return h == HINTS_OFF ? "off" : h == HINTS_LINE ? "line" : "file";
}

/* One "key  value  (source)" line, the value column aligned. */
static void line_out(strbuf *sb, const char *key, const char *value, const char *source)
{
    sb_addf(sb, "%-15s %-34s %s\n", key, value, source);
}

static void format_list(strbuf *sb, const char *key, const rc_list *l, const repo_config *f,
                        const char *none)
{
    if (l->n == 0)
        line_out(sb, key, none, "default");
    for (size_t i = 0; i < l->n; i++) {
        char *src = file_source(f, l->items[i].line);
        line_out(sb, key, l->items[i].text, src);
        free(src);
    }
}

static void format_override(strbuf *sb, const repo_config *f, size_t idx)
{
    const rc_override *o = &f->overrides[idx];
    strbuf v;
    sb_init(&v);
    for (size_t i = 0; i < o->paths.n; i++)
        sb_addf(&v, "%s%s", i ? " " : "paths ", o->paths.items[i].text);
    for (size_t i = 0; i < o->disable.n; i++)
        sb_addf(&v, "%s%s", i ? " " : "; disable ", o->disable.items[i].text);
    for (size_t i = 0; i < o->severity.n; i++)
        sb_addf(&v, "%s%s=%s", i ? " " : "; severity ", o->severity.items[i].id,
                severity_name(o->severity.items[i].sev));
    char *key = xasprintf("overrides[%zu]", idx);
    char *src = file_source(f, o->line);
    line_out(sb, key, v.buf, src);
    free(src);
    free(key);
    sb_free(&v);
}

char *effective_format(const effective_config *c, const char *workdir)
{
    strbuf sb;
    sb_init(&sb);
    const repo_config *f = c->file;
    sb_addf(&sb, "# review-lsp configuration for %s\n", workdir ? workdir : "(a diff without --root)");
    if (f && f->name)
        sb_addf(&sb, "# repository file: %s%s\n", f->name,
                str_ends(f->name, "pyproject.toml") ? " [tool.review-lsp]" : "");
    else
        sb_adds(&sb, "# repository file: none (pyproject.toml [tool.review-lsp] or .review-lsp.toml)\n");
    sb_adds(&sb, "# precedence: command line / editor setting > repository file > default\n");
    line_out(&sb, "base", c->base ? c->base : "(upstream, origin/main, origin/master, main, master, HEAD)",
             c->base_source);
    line_out(&sb, "rules", c->rules ? c->rules : "(bundled rules/rules.md)", c->rules_source);
    char *bytes = xasprintf("%zu", c->max_file_bytes);
    line_out(&sb, "max-file-bytes", bytes, c->max_file_bytes_source);
    free(bytes);
    line_out(&sb, "derived-hints", hints_name(c->derived_hints), c->derived_hints_source);
    if (c->ndisable == 0)
        line_out(&sb, "disable", "(none)", "default");
    for (size_t i = 0; i < c->ndisable; i++)
        line_out(&sb, "disable", c->disable[i].id, c->disable[i].source);
    if (c->nseverity == 0)
        line_out(&sb, "severity", "(each rule's own)", "default");
    for (size_t i = 0; i < c->nseverity; i++) {
        char *v = xasprintf("%s = %s", c->severity[i].id, severity_name(c->severity[i].sev));
        line_out(&sb, "severity", v, c->severity[i].source);
        free(v);
    }
    static const repo_config none = {.derived_hints = HINTS_UNSET};
    const repo_config *ff = f ? f : &none;
    format_list(&sb, "exclude", &ff->exclude, ff, "(nothing)");
    format_list(&sb, "include", &ff->include, ff, "(everything)");
    for (size_t i = 0; i < ff->noverrides; i++)
        format_override(&sb, ff, i);
    for (size_t i = 0; i < ff->nwarnings; i++)
        sb_addf(&sb, "# warning: %s\n", ff->warnings[i]);
    return sb_detach(&sb);
}
