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
#define DEFAULT_MAX_FILE_BYTES ((size_t)2 << 20)

/* Fill in the defaults. */
void settings_init(settings *c)
{
    memset(c, 0, sizeof *c);
    c->severity = json_object();
    c->derived_hints = true;
    c->debounce_ms = DEFAULT_DEBOUNCE_MS;
    c->max_file_bytes = DEFAULT_MAX_FILE_BYTES;
    c->log_level = LOG_INFO;
    /* Another precision policy file (README "Precision"); the test suites pin one. */
    c->precision_policy = getenv("REVIEW_LSP_PRECISION_POLICY");
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
    memset(c, 0, sizeof *c);
}

/* Fill engine settings with pointers borrowed from c. */
void settings_to_engine(const settings *c, engine_settings *out)
{
    memset(out, 0, sizeof *out);
    out->base = c->base;
    out->title = c->title;
    out->rules_path = c->rules_path;
    out->max_file_bytes = c->max_file_bytes;
    out->disabled_rules = (const char *const *)c->disabled_rules;
    out->precision_policy = c->precision_policy;
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
        show_message(s, LOG_WARNING, "review.%s: expected a string; keeping %s%s%s", name,
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

/* Apply a "review" settings object. */
int settings_apply(server *s, json_t *obj)
{
    settings *c = &s->cfg;
    int mask = 0;
    if (!json_is_object(obj)) {
        if (obj && !json_is_null(obj))
            show_message(s, LOG_WARNING, "review: settings must be an object; ignored");
        return 0;
    }
    if (apply_string(s, json_object_get(obj, "base"), "base", &c->base))
        mask |= SET_ENGINE;
    if (apply_string(s, json_object_get(obj, "title"), "title", &c->title))
        mask |= SET_ENGINE;

    json_t *v = json_object_get(obj, "rulesPath");
    if (v) {
        const char *p = json_string_value(v);
        char *abs = NULL;
        if (p && *p)
            abs = p[0] == '/' || !s->root ? xstrdup(p) : xasprintf("%s%s", s->root, p);
        if (abs && access(abs, R_OK) != 0) {
            show_message(s, LOG_WARNING, "review.rulesPath: cannot read %s; keeping %s", abs,
                         c->rules_path ? c->rules_path : "the default rules file");
        } else if (v && !json_is_string(v) && !json_is_null(v)) {
            show_message(s, LOG_WARNING, "review.rulesPath: expected a string; keeping %s",
                         c->rules_path ? c->rules_path : "the default rules file");
        } else if (!same_str(abs, c->rules_path)) {
            free(c->rules_path);
            c->rules_path = abs;
            abs = NULL;
            mask |= SET_ENGINE | SET_PUBLISH;
        }
        free(abs);
    }

    v = json_object_get(obj, "severity");
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
            show_message(s, LOG_WARNING, "review.severity: %s; keeping the previous overrides", bad);
            json_decref(nsev);
        } else if (!json_equal(nsev, c->severity)) {
            json_decref(c->severity);
            c->severity = nsev;
            mask |= SET_PUBLISH;
        } else {
            json_decref(nsev);
        }
    } else if (v && json_object_size(c->severity) > 0) {
        json_object_clear(c->severity);
        mask |= SET_PUBLISH;
    }

    v = json_object_get(obj, "disabledRules");
    if (v) {
        size_t i;
        json_t *e;
        bool ok = json_is_array(v) || json_is_null(v);
        json_array_foreach(v, i, e) ok = ok && json_is_string(e);
        if (!ok) {
            show_message(s, LOG_WARNING,
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

    v = json_object_get(obj, "derivedHints");
    if (v) {
        if (!json_is_boolean(v))
            show_message(s, LOG_WARNING, "review.derivedHints: expected true or false; keeping %s",
                         c->derived_hints ? "true" : "false");
        else if (json_is_true(v) != c->derived_hints) {
            c->derived_hints = json_is_true(v);
            mask |= SET_PUBLISH;
        }
    }

    v = json_object_get(obj, "debounceMs");
    if (v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 60000)
            show_message(s, LOG_WARNING,
                         "review.debounceMs: expected an integer from 0 to 60000; keeping %ld",
                         c->debounce_ms);
        else
            c->debounce_ms = (long)json_integer_value(v);
    }

    v = json_object_get(obj, "maxFileBytes");
    if (v) {
        if (!json_is_integer(v) || json_integer_value(v) < 1 ||
            json_integer_value(v) > ((json_int_t)1 << 30))
            show_message(s, LOG_WARNING,
                         "review.maxFileBytes: expected a positive integer up to 1 GiB; keeping %zu",
                         c->max_file_bytes);
        else if ((size_t)json_integer_value(v) != c->max_file_bytes) {
            c->max_file_bytes = (size_t)json_integer_value(v);
            mask |= SET_ENGINE;
        }
    }

    v = json_object_get(obj, "logLevel");
    if (v) {
        int lv = log_level_parse(json_string_value(v));
        if (lv < 0)
            show_message(s, LOG_WARNING,
                         "review.logLevel: expected off, error, warning, info or log; keeping %s",
                         c->log_level == LOG_OFF       ? "off"
                         : c->log_level == LOG_ERROR   ? "error"
                         : c->log_level == LOG_WARNING ? "warning"
                         : c->log_level == LOG_INFO    ? "info"
                                                       : "log");
        else
            c->log_level = lv;
    }
    return mask;
}

/* Act on changed settings: re-review for engine settings, re-publish for presentation. */
void settings_changed(server *s, int mask)
{
    if (!s->first_scan_done)
        return; /* the first scan picks everything up */
    if (mask & SET_ENGINE) {
        if (s->eng) {
            engine_settings es;
            settings_to_engine(&s->cfg, &es);
            engine_configure(s->eng, &es);
        }
        diagnostics_schedule(s);
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
            show_message(s, LOG_WARNING, "review: settings must be an object; ignored");
    } else if (!error) {
        log_msg(s, LOG_LOG, "workspace/configuration answered with no items");
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
    if (s->root) {
        char *u = documents_uri(s, "");
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
        show_message(s, LOG_WARNING, "review: settings must be an object; ignored");
    }
}
