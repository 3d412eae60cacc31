/* Performance claims in prose (rules P1 and P3): the numbers with units in a commit message or
 * a pull-request description that name no baseline. The collector runs this over a commit
 * message or PR-description Markdown file in the change, and over the side buffers that are a
 * commit message or a pull-request description (`check --pr-body FILE`).
 *
 * Ownership: path and text are borrowed; findings appended to out belong to the list. */
#ifndef RL_PERF_CLAIMS_H
#define RL_PERF_CLAIMS_H

#include <stddef.h>

#include "engine/finding.h"

/* Scan text (a PR body or commit message; path names it in the findings) and append a P1 Hint
 * on every claim line whose numbers name no baseline, and one P3 Hint when the claims give no
 * GPU model or no command to rerun them. In a commit message (a path ending in COMMIT_EDITMSG
 * or MERGE_MSG) lines starting with '#' are git's comments and are skipped, and nothing after
 * git's scissors line is read. */
void perf_claims_scan_text(const char *path, const char *text, size_t len, finding_list *out);

#endif
