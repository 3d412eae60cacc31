/* The severity policy of precision_policy.h: which rules have earned Warning on real history,
 * and the lowering of the others to candidates. */
#include "engine/precision_policy.h"

#include <stdlib.h>
#include <string.h>

#include "engine/util.h"

extern const unsigned char embedded_precision_txt[];
extern const size_t embedded_precision_txt_len;

/* Parse one TAB-separated policy line into e; false when it is not one. */
static bool parse_line(const char *line, size_t len, precision_entry *e)
{
    char *copy = xstrndup(line, len);
    char *fields[6];
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, "\t", &save); tok && n < 6; tok = strtok_r(NULL, "\t", &save))
        fields[n++] = tok;
    bool ok = n == 6 && fields[0][0] &&
              (!strcmp(fields[5], "warning") || !strcmp(fields[5], "information"));
    if (ok) {
        e->rule = xstrdup(fields[0]);
        e->judged = atoi(fields[1]);
        e->truths = atoi(fields[2]);
        e->falses = atoi(fields[3]);
        e->percent = atoi(fields[4]);
        e->warning_allowed = !strcmp(fields[5], "warning");
    }
    free(copy);
    return ok;
}

void precision_policy_parse(precision_policy *p, const char *text, size_t len)
{
    memset(p, 0, sizeof *p);
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        size_t end = j;
        if (end > i && text[end - 1] == '\r')
            end--;
        precision_entry e;
        if (end > i && text[i] != '#' && parse_line(text + i, end - i, &e))
            *ARRAY_PUSH(p->items, p->n, p->cap) = e;
        i = j + 1;
    }
}

void precision_policy_bundled(precision_policy *p)
{
    precision_policy_parse(p, (const char *)embedded_precision_txt, embedded_precision_txt_len);
}

void precision_policy_free(precision_policy *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->items[i].rule);
    free(p->items);
    memset(p, 0, sizeof *p);
}

const precision_entry *precision_policy_find(const precision_policy *p, const char *rule)
{
    const precision_entry *any = NULL;
    for (size_t i = 0; i < p->n; i++) {
        if (!strcmp(p->items[i].rule, rule))
            return &p->items[i];
        if (!strcmp(p->items[i].rule, "*"))
            any = &p->items[i];
    }
    return any;
}

/* Why a rule is not allowed at Warning, for the finding's note (caller frees). */
static char *lowered_note(const char *rule, const precision_entry *e)
{
    if (!e || e->truths + e->falses == 0)
        return xasprintf("Reported as a candidate (Information, not Warning): %s has not yet been "
                         "judged on real aiter history. A rule reports at Warning only when its "
                         "judged precision there is at least 80%% (bench/precision/).", rule);
    return xasprintf("Reported as a candidate (Information, not Warning): %s's judged precision "
                     "on real aiter history is %d%% (%d of %d judged findings right). A rule "
                     "reports at Warning only at 80%% or more (bench/precision/).",
                     rule, e->percent, e->truths, e->truths + e->falses);
}

void precision_policy_apply(const precision_policy *p, finding_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        finding *f = &l->items[i];
        if (f->sev != SEV_WARNING)
            continue;
        const precision_entry *e = precision_policy_find(p, f->rule_id);
        if (e && e->warning_allowed)
            continue;
        f->sev = SEV_INFORMATION;
        free(f->severity_note);
        f->severity_note = lowered_note(f->rule_id, e);
        char *msg = xasprintf("candidate to check: %s", f->message);
        free(f->message);
        f->message = msg;
    }
}
