/* A finding: one piece of review advice at a place in a head file, with the rule it belongs
 * to, evidence elsewhere (related locations), evidence to look at (exhibits: a table, a small
 * diff, lines set side by side, a highlighted call, a chain of places) and the collector that
 * produced it. Plain data that crosses from the engine to its callers (the server and the
 * batch CLI): no markup of any face is in here; each face renders exhibits in its own idiom.
 *
 * Ownership: a finding owns its strings, related array and exhibits; finding_list owns its
 * findings. A finding is deep-copied with finding_copy / findings_copy (exhibits included), so
 * a copy kept by a cache or the server never shares memory with the review it came from. */
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

/* Evidence a reviewer can see. An exhibit is one of a few kinds; its rows are plain text as
 * found in the code (never markup), capped in number (EXHIBIT_MAX_ROWS, the rest counted in
 * nomitted) and in length (EXHIBIT_TEXT_MAX bytes, cut with "…"), with invalid UTF-8 replaced
 * and control characters turned into spaces, so every face can show any of it safely. */
typedef enum exhibit_kind {
    EXHIBIT_TABLE, /* named columns, rows of cells; a row may be marked (a struct's fields in
                      the base and the head, the shifted ones marked) */
    EXHIBIT_DIFF,  /* lines labelled "-" (deleted) or "+" (added) or " " (context): a deleted
                      guard and what replaced it */
    EXHIBIT_PAIR,  /* labelled lines set one under the other to compare (a function's line
                      before and after, beside a variant's line that kept the old text) */
    EXHIBIT_CODE,  /* a line of code with a span highlighted (a call's offending argument); a
                      row without a place is an example (what a bounded call looks like) */
    EXHIBIT_CHAIN, /* places in order, each with its role (a product, the run-time parameter
                      it comes from, the pointer arithmetic it feeds) */
} exhibit_kind;

#define EXHIBIT_MAX_ROWS 64
#define EXHIBIT_TEXT_MAX 200

typedef struct exhibit_row {
    char **cells;      /* TABLE: one per column (never NULL entries); other kinds: NULL */
    char *label;       /* DIFF: "-", "+" or " "; PAIR, CHAIN: the line's role; else NULL */
    char *text;        /* DIFF, PAIR, CHAIN, CODE: the line of code (trimmed); TABLE: NULL */
    char *mark;        /* TABLE: why the row stands out ("shifted +8"), else NULL */
    char *path;        /* where the line is (relative to the repository root; a head line,
                          or for a deleted line the head line where it was), or NULL */
    int line;          /* 1-based, 0 when path is NULL */
    int hl_start, hl_end; /* CODE: the highlighted byte span of text; hl_end <= hl_start: none */
} exhibit_row;

typedef struct exhibit {
    exhibit_kind kind;
    char *title;        /* what it shows, one line ("`paged_kargs` in the base and the head") */
    char **columns;     /* TABLE: the column names */
    size_t ncolumns;
    exhibit_row *rows;
    size_t nrows, rows_cap;
    size_t nomitted;    /* rows left out over EXHIBIT_MAX_ROWS */
} exhibit;

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
    exhibit *exhibits;   /* in the order they read best */
    size_t nexhibits, exhibits_cap;
} finding;

typedef struct finding_list {
    finding *items;
    size_t n, cap;
} finding_list;

/* Append a finding on a whole line and return it for adding related locations. Its collector
 * is left NULL: the collector runner stamps the name of the collector that made it. */
finding *findings_add(finding_list *l, const char *rule_id, severity sev, const char *path,
                      int line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void finding_add_related(finding *f, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Deep copy of src into dst (which owns nothing yet): strings, related locations, exhibits. */
void finding_copy(finding *dst, const finding *src);
/* Append a deep copy of src to l and return it. */
finding *findings_copy(finding_list *l, const finding *src);
/* Move every finding of src to the end of dst, in order, without copying what they own; src
 * is left empty (its array freed). */
void findings_take(finding_list *dst, finding_list *src);
/* Free what one finding owns (not the finding itself). */
void finding_clear(finding *f);

/* Add an exhibit of a kind with its title (printf format) to f and return it (owned by f). */
exhibit *finding_add_exhibit(finding *f, exhibit_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Name a TABLE's columns (n strings, copied); call once, before its rows. */
void exhibit_columns(exhibit *e, size_t n, const char *const *names);
/* Add a TABLE row of e->ncolumns cells (copied; a NULL cell is empty). NULL when the row cap
 * is reached (the row is counted in nomitted); the row functions below accept that NULL. */
exhibit_row *exhibit_add_cells(exhibit *e, const char *const *cells);
/* Add a line of code with its label (see exhibit_row) and place (path NULL: none). */
exhibit_row *exhibit_add_line(exhibit *e, const char *label, const char *path, int line,
                              const char *text);
/* Add a CODE line with the byte span [hl_start, hl_end) of text highlighted. A long line is
 * cut around the span so that the span stays in view. */
exhibit_row *exhibit_add_code(exhibit *e, const char *path, int line, const char *text,
                              size_t hl_start, size_t hl_end);
/* Mark a TABLE row (printf format), or give a row a place. */
void exhibit_row_mark(exhibit_row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void exhibit_row_place(exhibit_row *r, const char *path, int line);
/* Deep copy of src into dst (which owns nothing yet), and freeing what an exhibit owns. */
void exhibit_copy(exhibit *dst, const exhibit *src);
void exhibit_clear(exhibit *e);
/* "table", "diff", "pair", "code", "chain". */
const char *exhibit_kind_name(exhibit_kind k);
void findings_clear(finding_list *l);
/* Sort by path, line, column, rule id. */
void findings_sort(finding_list *l);

const char *severity_name(severity s);          /* "error", "warning", "information", "hint" */
int severity_parse(const char *s, severity *out); /* accepts those names and "info"; -1 if not */
/* Map a rules-file marker (🔴, ⚠️, 📝) found in text to a severity; default when none. */
severity severity_from_marker(const char *text, severity dflt);

#endif
