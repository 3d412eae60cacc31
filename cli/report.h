/* What the report formats of `check` share (cli/report_*.c): names for the derivation status,
 * columns in Unicode code points, where a rule's text can be linked, and the parts of a
 * collector's status line. Private to cli/.
 *
 * Ownership: arguments are borrowed; functions returning char * return a new string. */
#ifndef RL_CLI_REPORT_H
#define RL_CLI_REPORT_H

#include "cli/cli.h"

/* "ok", "underivable", "diff-too-large", "derivation-failed". */
const char *report_derivation_name(derive_status s);

/* A 0-based byte column of a head line as a 0-based count of Unicode code points, when the
 * head text is known; else the byte column. */
int report_code_point_col(const change *chg, const char *path, int line, int col);

/* A link to a rule's text in the rules file in use (new string), or NULL for the bundled
 * rules, which have no file to link to. A rules file inside the work tree links to the
 * repository's web page at the commit when $GITHUB_SERVER_URL, $GITHUB_REPOSITORY and
 * $GITHUB_SHA say where (GitHub Actions); otherwise to the file itself (file: URI). */
char *report_rule_url(const cli_review *cr, const rule_entry *re);

/* A path of the tree as a relative URI reference (new string): every byte but letters, digits,
 * "-._~" and "/" percent-encoded, as SARIF's artifactLocation.uri wants. */
char *report_relative_uri(const char *path);

/* The collector's name in a status line "name: status" (new string), and the status
 * (borrowed, into line). */
char *report_collector_name(const char *line, const char **status);

/* The `# ` lines that close the text report: derived families, collector statuses, notes and
 * the summary line. */
void report_text_trailer(FILE *out, const review *r);

#endif
