/* The "review" settings: defaults, validation and application. Settings arrive as
 * initializationOptions (either the review object itself or {"review": {...}}), with
 * workspace/didChangeConfiguration, and from workspace/configuration when the client supports
 * it. Each value is checked on its own; an invalid one is named in a window/showMessage
 * warning and the previous value stays. A change re-runs only what it affects: engine
 * settings re-review, presentation settings re-publish. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp/server.h"

#define DEFAULT_DEBOUNCE_MS 150

static const char *const HINT_NAMES[] = {"off", "file", "line"};

/* Fill in the defaults. */
void settings_init(settings *c)
{
    memset(c, 0, sizeof *c);
    c->severity = json_object();
    c->severity_levels = xcalloc(1, sizeof *c->severity_levels);
    c->derived_hints = HINTS_UNSET;
    c->debounce_ms = DEFAULT_DEBOUNCE_MS;
    c->log_level = LOG_INFO;
    /* Another precision policy file (README "Precision"); the test suites pin one. */
    c->precision_policy = getenv("REVIEW_LSP_PRECISION_POLICY");
    c->timing = getenv("REVIEW_LSP_TIMING") != NULL;
    const char *ahead = getenv("REVIEW_LSP_PARSE_AHEAD");
    c->one_thread = ahead && strcmp(ahead, "0") == 0;
}

/* Free a NULL-terminated string array. */
static void free_strv(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* Release everything the settings own. */
void settings_free(settings *c)
{
    free(c->base);
    free(c->title);
    free(c->rules_path);
    free_strv(c->disabled_rules);
    json_decref(c->severity);
    free_strv(c->severity_levels);
    memset(c, 0, sizeof *c);
}

/* A rulesPath as used for a workspace folder: absolute as written, else relative to the
 * folder (new string; NULL when unset). */
static char *resolve_rules_path(const char *p, const char *root)
{
    if (!p || !*p)
        return NULL;
    if (p[0] == '/' || !root)
        return xstrdup(p);
    size_t n = strlen(root);
    return xasprintf("%s%s%s", root, n && root[n - 1] == '/' ? "" : "/", p);
}

/* Fill engine settings with pointers borrowed from c (the resolved rulesPath is *tmp). */
void settings_to_engine(const settings *c, const char *root, engine_settings *out, char **tmp)
{
    memset(out, 0, sizeof *out);
    out->base = c->base;
    out->title = c->title;
    *tmp = resolve_rules_path(c->rules_path, root);
    out->rules_path = *tmp;
    out->max_file_bytes = c->max_file_bytes;
    out->disabled_rules = (const char *const *)c->disabled_rules;
    out->precision_policy = c->precision_policy;
    out->timing = c->timing;
    out->one_thread = c->one_thread;
    out->face = FACE_EDITOR;
    out->severity = (const char *const *)c->severity_levels;
    out->derived_hints = c->derived_hints == HINTS_UNSET ? NULL : HINT_NAMES[c->derived_hints];
}

/* The severity object (rule id -> LSP number) as "ID=level" strings for the engine. */
static char **severity_levels(json_t *sev)
{
    static const char *const names[] = {"error", "warning", "information", "hint"};
    char **v = xcalloc(json_object_size(sev) + 1, sizeof *v);
    size_t n = 0;
    const char *key;
    json_t *val;
    json_object_foreach(sev, key, val) {
        json_int_t lv = json_integer_value(val);
        if (lv >= 1 && lv <= 4)
            v[n++] = xasprintf("%s=%s", key, names[lv - 1]);
    }
    return v;
}

/* Compare two possibly-NULL strings. */
static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Apply an optional string setting (string or null). Returns true when it changed. */
static bool apply_string(server *s, json_t *v, const char *name, char **slot)
{
    if (!v)
        return false;
    if (!json_is_string(v) && !json_is_null(v)) {
        show_message(&s->log, LOG_WARNING, "review.%s: expected a string; keeping %s%s%s", name,
                     *slot ? "\"" : "", *slot ? *slot : "the default", *slot ? "\"" : "");
        return false;
    }
    const char *nv = json_string_value(v);
    if (nv && !*nv)
        nv = NULL; /* "" means "use the default" */
    if (same_str(nv, *slot))
        return false;
    free(*slot);
    *slot = nv ? xstrdup(nv) : NULL;
    return true;
}

/* Map a severity name to the LSP DiagnosticSeverity number, or -1. */
static int severity_number(const char *name)
{
    static const char *const names[] = {"error", "warning", "information", "hint"};
    if (!name)
        return -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0)
            return i + 1;
    if (strcmp(name, "info") == 0)
        return 3;
    return -1;
}

/* The first folder where a rulesPath cannot be read (new string), or NULL when every
 * workspace (or, while initialize runs, the folder it names) can read it. */
static char *unreadable_rules(server *s, const char *p)
{
    if (!s->wss || s->root_hint) {
        char *abs = resolve_rules_path(p, s->root_hint);
        if (access(abs, R_OK) == 0) {
            free(abs);
            return NULL;
        }
        return abs;
    }
    for (workspace *ws = s->wss; ws; ws = ws->next) {
        char *abs = resolve_rules_path(p, ws->root);
        if (access(abs, R_OK) != 0)
            return abs;
        free(abs);
    }
    return NULL;
}

/* Apply rulesPath (a string, "" or null for the default). Returns the change mask. */
static int apply_rules_path(server *s, json_t *v)
{
    settings *c = &s->cfg;
    const char *keep = c->rules_path ? c->rules_path : "the default rules file";
    if (!json_is_string(v) && !json_is_null(v)) {
        show_message(&s->log, LOG_WARNING, "review.rulesPath: expected a string; keeping %s", keep);
        return 0;
    }
    const char *p = json_string_value(v);
    if (p && !*p)
        p = NULL;
    char *bad = p ? unreadable_rules(s, p) : NULL;
    if (bad) {
        show_message(&s->log, LOG_WARNING, "review.rulesPath: cannot read %s; keeping %s", bad, keep);
        free(bad);
        return 0;
    }
    if (same_str(p, c->rules_path))
        return 0;
    free(c->rules_path);
    c->rules_path = p ? xstrdup(p) : NULL;
    return SET_ENGINE | SET_PUBLISH;
}

/* Apply derivedHints: "file", "line" or "off" (true and false, the old boolean, mean file and
 * off). null and the default, "file", leave the key unset, so that the repository file (or the
 * default) applies: the editor plugins send every setting with its default when the user set
 * nothing. Returns the change mask: the engine holds the value in force. */
static int apply_derived_hints(server *s, json_t *v)
{
    settings *c = &s->cfg;
    int mode = json_is_null(v) ? HINTS_UNSET : -2;
    if (json_is_boolean(v))
        mode = json_is_true(v) ? HINTS_FILE : HINTS_OFF;
    for (int i = 0; i < 3 && json_is_string(v); i++)
        if (strcmp(json_string_value(v), HINT_NAMES[i]) == 0)
            mode = i;
    if (mode == -2) {
        show_message(&s->log, LOG_WARNING, "review.derivedHints: expected \"file\", \"line\" or \"off\"; keeping %s",
                     c->derived_hints == HINTS_UNSET ? "file" : HINT_NAMES[c->derived_hints]);
        return 0;
    }
    if (mode == HINTS_FILE)
        mode = HINTS_UNSET;
    if (mode == c->derived_hints)
        return 0;
    c->derived_hints = mode;
    return SET_ENGINE | SET_PUBLISH;
}

/* Apply severity (an object of rule id to severity; null clears it). Returns the change mask. */
static int apply_severity(server *s, json_t *v)
{
    settings *c = &s->cfg;
    int mask = 0;
    if (v && !json_is_null(v)) {
        json_t *nsev = json_object();
        const char *key;
        json_t *val;
        const char *bad = NULL;
        if (!json_is_object(v))
            bad = "expected an object of rule id to severity";
        json_object_foreach(json_is_object(v) ? v : NULL, key, val) {
            int n = severity_number(json_string_value(val));
            if (n < 0) {
                bad = "severities are error, warning, information or hint";
                break;
            }
            json_object_set_new(nsev, key, json_integer(n));
        }
        if (bad) {
            show_message(&s->log, LOG_WARNING, "review.severity: %s; keeping the previous overrides", bad);
            json_decref(nsev);
        } else if (!json_equal(nsev, c->severity)) {
            json_decref(c->severity);
            c->severity = nsev;
            mask |= SET_ENGINE | SET_PUBLISH;
        } else {
            json_decref(nsev);
        }
    } else if (v && json_object_size(c->severity) > 0) {
        json_object_clear(c->severity);
        mask |= SET_ENGINE | SET_PUBLISH;
    }
    if (mask & SET_ENGINE) {
        free_strv(c->severity_levels);
        c->severity_levels = severity_levels(c->severity);
    }
    return mask;
}

/* Apply disabledRules (an array of rule ids, or null). Returns the change mask. */
static int apply_disabled_rules(server *s, json_t *v)
{
    settings *c = &s->cfg;
    int mask = 0;
    if (v) {
        size_t i;
        json_t *e;
        bool ok = json_is_array(v) || json_is_null(v);
        json_array_foreach(v, i, e) ok = ok && json_is_string(e);
        if (!ok) {
            show_message(&s->log, LOG_WARNING,
                         "review.disabledRules: expected an array of rule ids; keeping the previous list");
        } else {
            size_t n = json_is_array(v) ? json_array_size(v) : 0;
            char **nv = xcalloc(n + 1, sizeof *nv);
            json_array_foreach(v, i, e) nv[i] = xstrdup(json_string_value(e));
            bool same = true;
            size_t old = 0;
            while (c->disabled_rules && c->disabled_rules[old])
                old++;
            same = old == n;
            for (i = 0; same && i < n; i++)
                same = strcmp(nv[i], c->disabled_rules[i]) == 0;
            if (same) {
                free_strv(nv);
            } else {
                free_strv(c->disabled_rules);
                c->disabled_rules = nv;
                mask |= SET_ENGINE | SET_PUBLISH;
            }
        }
    }
    return mask;
}

/* Apply debounceMs (0 to 60000). */
static void apply_debounce(server *s, json_t *v)
{
    settings *c = &s->cfg;
    if (v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 60000)
            show_message(&s->log, LOG_WARNING,
                         "review.debounceMs: expected an integer from 0 to 60000; keeping %ld",
                         c->debounce_ms);
        else
            c->debounce_ms = (long)json_integer_value(v);
    }
}

/* Apply maxFileBytes (null or the default: the repository file decides). Returns the change mask. */
static int apply_max_file_bytes(server *s, json_t *v)
{
    settings *c = &s->cfg;
    int mask = 0;
    if (json_is_null(v) && c->max_file_bytes) { /* back to the repository file or the default */
        c->max_file_bytes = 0;
        mask |= SET_ENGINE;
    } else if (v && !json_is_null(v)) {
        if (!json_is_integer(v) || json_integer_value(v) < 1 ||
            json_integer_value(v) > ((json_int_t)1 << 30))
            show_message(&s->log, LOG_WARNING,
                         "review.maxFileBytes: expected a positive integer up to 1 GiB; keeping %zu",
                         c->max_file_bytes ? c->max_file_bytes : REVIEW_MAX_FILE_BYTES);
        else if ((size_t)json_integer_value(v) != (c->max_file_bytes ? c->max_file_bytes
                                                                        : REVIEW_MAX_FILE_BYTES)) {
            /* the default, as plugins send it, leaves the key to the repository file */
            c->max_file_bytes = (size_t)json_integer_value(v) == REVIEW_MAX_FILE_BYTES
                                    ? 0
                                    : (size_t)json_integer_value(v);
            mask |= SET_ENGINE;
        }
    }
    return mask;
}

/* Apply logLevel. */
static void apply_log_level(server *s, json_t *v)
{
    settings *c = &s->cfg;
    if (v) {
        int lv = log_level_parse(json_string_value(v));
        if (lv < 0)
            show_message(&s->log, LOG_WARNING,
                         "review.logLevel: expected off, error, warning, info or log; keeping %s",
                         c->log_level == LOG_OFF       ? "off"
                         : c->log_level == LOG_ERROR   ? "error"
                         : c->log_level == LOG_WARNING ? "warning"
                         : c->log_level == LOG_INFO    ? "info"
                                                       : "log");
        else
            c->log_level = lv;
    }
}

/* Apply a "review" settings object. */
int settings_apply(server *s, json_t *obj)
{
    settings *c = &s->cfg;
    int mask = 0;
    if (!json_is_object(obj)) {
        if (obj && !json_is_null(obj))
            show_message(&s->log, LOG_WARNING, "review: settings must be an object; ignored");
        return 0;
    }
    if (apply_string(s, json_object_get(obj, "base"), "base", &c->base))
        mask |= SET_ENGINE;
    if (apply_string(s, json_object_get(obj, "title"), "title", &c->title))
        mask |= SET_ENGINE;

    json_t *v = json_object_get(obj, "rulesPath");
    if (v)
        mask |= apply_rules_path(s, v);

    mask |= apply_severity(s, json_object_get(obj, "severity"));

    mask |= apply_disabled_rules(s, json_object_get(obj, "disabledRules"));

    v = json_object_get(obj, "derivedHints");
    if (v)
        mask |= apply_derived_hints(s, v);

    apply_debounce(s, json_object_get(obj, "debounceMs"));
    mask |= apply_max_file_bytes(s, json_object_get(obj, "maxFileBytes"));
    apply_log_level(s, json_object_get(obj, "logLevel"));
    return mask;
}

/* Act on changed settings: re-review for engine settings, re-publish for presentation. */
void settings_changed(server *s, int mask)
{
    if (!diagnostics_scan_begun(s))
        return; /* the first scan picks everything up */
    if (mask & SET_ENGINE) {
        for (workspace *ws = s->wss; ws; ws = ws->next)
            workspaces_configure(s, ws);
        diagnostics_schedule(s, NULL, NULL);
    } else if (mask & SET_PUBLISH) {
        diagnostics_republish(s);
    }
}

typedef struct config_ctx {
    void (*then)(server *s);
} config_ctx;

/* workspace/configuration answered: apply the first item, then continue. */
static void on_configuration(server *s, json_t *result, json_t *error, void *ctx)
{
    config_ctx *cc = ctx;
    void (*then)(server *) = cc->then;
    free(cc);
    if (s->exit_requested)
        return;
    int mask = 0;
    if (json_is_array(result) && json_array_size(result) > 0) {
        json_t *item = json_array_get(result, 0);
        if (json_is_object(item))
            mask = settings_apply(s, item);
        else if (!json_is_null(item))
            show_message(&s->log, LOG_WARNING, "review: settings must be an object; ignored");
    } else if (!error) {
        log_msg(&s->log, LOG_LOG, "workspace/configuration answered with no items");
    }
    if (then)
        then(s);
    else
        settings_changed(s, mask);
}

/* Ask the client for the "review" section; call then (or apply changes) when it answers. */
void settings_request_configuration(server *s, void (*then)(server *s))
{
    config_ctx *cc = xcalloc(1, sizeof *cc);
    cc->then = then;
    json_t *item = json_pack("{s:s}", "section", "review");
    if (s->wss) {
        char *u = documents_uri(s, s->wss, "");
        json_object_set_new(item, "scopeUri", json_string(u));
        free(u);
    }
    rpc_request(s, "workspace/configuration", json_pack("{s:[o]}", "items", item),
                on_configuration, cc);
}

/* workspace/didChangeConfiguration: settings pushed by the client, or a hint to pull them. */
void settings_did_change_configuration(server *s, json_t *params)
{
    json_t *st = json_object_get(params, "settings");
    json_t *review = json_is_object(st) ? json_object_get(st, "review") : NULL;
    if (review) {
        settings_changed(s, settings_apply(s, review));
    } else if (s->caps.configuration) {
        settings_request_configuration(s, NULL);
    } else if (st && !json_is_null(st) && !json_is_object(st)) {
        show_message(&s->log, LOG_WARNING, "review: settings must be an object; ignored");
    }
}
