/* Severity follows precision: a rule may report at Warning only when its judged precision on
 * real aiter history (the ledger in bench/precision/, summarised into rules/precision.txt and
 * embedded in the binary) is at least 80%. Every other Warning is lowered to Information, its
 * message phrased as a candidate, and the finding carries a note saying why, for hover and
 * reports. A user's explicit per-rule severity setting is applied after this, by the face.
 *
 * Ownership: the policy is parsed from borrowed text and owns its table. */
#ifndef RL_PRECISION_POLICY_H
#define RL_PRECISION_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/finding.h"

typedef struct precision_entry {
    char *rule;
    int judged, truths, falses, percent; /* percent -1 when nothing decisive was judged */
    bool warning_allowed;
} precision_entry;

typedef struct precision_policy {
    precision_entry *items;
    size_t n, cap;
} precision_policy;

/* Parse the policy file's text (rules/precision.txt format: '#' comments, then TAB-separated
 * rule, judged, true, false, percent, warning|information). Malformed lines are skipped. */
void precision_policy_parse(precision_policy *p, const char *text, size_t len);
/* The policy bundled with the binary. */
void precision_policy_bundled(precision_policy *p);
void precision_policy_free(precision_policy *p);
/* The entry of a rule (else the "*" entry, which a policy for tests may hold), or NULL. */
const precision_entry *precision_policy_find(const precision_policy *p, const char *rule);
/* Lower every Warning whose rule the policy does not allow at Warning (see above). */
void precision_policy_apply(const precision_policy *p, finding_list *l);

#endif
