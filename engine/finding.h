/* A finding: one piece of review advice at a place in a head file, with the rule it belongs
 * to, evidence elsewhere (related locations) and the collector that produced it. Plain data
 * that crosses from the engine to its callers (the server and the batch CLI).
 *
 * Ownership: a finding owns its strings and related array; finding_list owns its findings. */
#ifndef RL_FINDING_H
#define RL_FINDING_H

#include <stddef.h>

typedef enum severity {
    SEV_ERROR = 0,       /* only by a user's severity override (no rule marker means it) */
    SEV_WARNING = 1,     /* 🔴 high risk */
    SEV_INFORMATION = 2, /* ⚠️ should fix */
    SEV_HINT = 3,        /* 📝 note */
} severity;

/* A place in a head file. Lines are 1-based; columns are 0-based byte offsets into the line;
 * end_line/end_col are exclusive (end_col 0 with end_line == line + 1 means the whole line). */
typedef struct text_range {
    int line, col, end_line, end_col;
} text_range;

typedef struct related_location {
    char *path;     /* relative to the repository root (or the rules file's absolute path) */
    text_range range;
    char *message;
} related_location;

typedef struct finding {
    char *rule_id;
    severity sev;
    char *path;     /* relative to the repository root */
    text_range range;
    char *message;
    char *collector; /* "guards", "siblings", ... (set by the collector runner) */
    char *severity_note; /* why the severity was lowered (precision_policy.h), or NULL */
    related_location *related;
    size_t nrelated, related_cap;
} finding;

typedef struct finding_list {
    finding *items;
    size_t n, cap;
} finding_list;

/* Append a finding on a whole line and return it for adding related locations. Its collector
 * is left NULL: the collector runner stamps the name of the collector that made it. */
finding *findings_add(finding_list *l, const char *rule_id, severity sev, const char *path,
                      int line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Append a deep copy of f. */
finding *findings_copy(finding_list *l, const finding *f);
void finding_add_related(finding *f, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Free what one finding owns (not the finding itself). */
void finding_clear(finding *f);
void findings_clear(finding_list *l);
/* Sort by path, line, column, rule id. */
void findings_sort(finding_list *l);

const char *severity_name(severity s);          /* "error", "warning", "information", "hint" */
int severity_parse(const char *s, severity *out); /* accepts those names and "info"; -1 if not */
/* Map a rules-file marker (🔴, ⚠️, 📝) found in text to a severity; default when none. */
severity severity_from_marker(const char *text, severity dflt);

#endif
