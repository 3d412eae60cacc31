/* evidence.txt of the review packet (packet.h): engine/evidence.h's report as text — one
 * block per removed guard's subject and per changed signature, each place in the head on its
 * own line with its role, and for a call what it passes. */
#include <stdlib.h>
#include <string.h>

#include "cli/packet.h"
#include "engine/evidence.h"

static const char HEADER[] =
    "EVIDENCE: how the head handles each guard the change removes and each function signature "
    "it changes, so the reviewer need not grep. One block per subject: what was removed or "
    "changed, then each place in the head (path:line, its role -- checks, checked unwrap, "
    "declares optional, unwraps, uses, call -- and the line; under a call, what it passes).\n";

static void add_item(strbuf *out, const evidence_item *it)
{
    if (it->is_signature)
        sb_addf(out, "=== %s: parameters changed (%s) ===\n", it->subject, it->lang);
    else
        sb_addf(out, "=== %s: guard removed ===\n", it->subject);
    for (size_t k = 0; k < it->nwhat; k++)
        sb_addf(out, "  %s%s\n", it->is_signature ? "" : "removed at ", it->what[k]);
    size_t ncalls = 0;
    for (size_t k = 0; k < it->nlines; k++)
        ncalls += !strcmp(it->lines[k].role, "call");
    if (it->nlines)
        sb_addf(out, "  in the head (%zu place%s%s):\n", it->nlines, it->nlines == 1 ? "" : "s",
                ncalls ? (ncalls == it->nlines ? ", all call sites" : ", with the call sites")
                       : "");
    else if (it->is_signature)
        sb_addf(out, "  in the head: no call of it in the %s files searched\n", it->lang);
    for (size_t k = 0; k < it->nlines; k++) {
        const evidence_line *l = &it->lines[k];
        sb_addf(out, "    %s:%d  %s  %s\n", l->path, l->line, l->role, l->text);
        if (l->detail)
            sb_addf(out, "        %s %s\n", strcmp(l->role, "call") ? "in" : "passes:", l->detail);
    }
    if (it->nmore)
        sb_addf(out, "    ... and %zu more\n", it->nmore);
    if (it->note)
        sb_addf(out, "  note: %s\n", it->note);
    sb_addc(out, '\n');
}

/* The removed guards first (what the reviewer is asked to judge), then the signatures. */
static void add_items(strbuf *out, const evidence_report *r)
{
    for (int sig = 0; sig < 2; sig++)
        for (size_t i = 0; i < r->n; i++)
            if (r->items[i].is_signature == (sig == 1))
                add_item(out, &r->items[i]);
}

void packet_evidence_gather(const change *c, void *job)
{
    packet_evidence_job *j = job;
    evidence_collect(c, c->head_root, j->timing, &j->report);
    j->gathered = true;
}

void packet_evidence(const cli_review *cr, packet_evidence_job *job, strbuf *out,
                     packet_summary *sum)
{
    if (!job->gathered)
        packet_evidence_gather(cr->rev->chg, job);
    const evidence_report *r = &job->report;
    size_t ng = 0, ns = 0;
    for (size_t i = 0; i < r->n; i++)
        r->items[i].is_signature ? ns++ : ng++;
    if (!r->nheads && r->nno_head) {
        sb_addf(out, "SKIPPED: %s\n", r->limits);
        sb_addf(out, "(evidence.txt answers: %s", HEADER + strlen("EVIDENCE: "));
        out->len--; /* the header's newline */
        sb_adds(out, ")\n");
        add_items(out, r);
        packet_summary_add(sum, "evidence.txt", "SKIPPED: no head text");
        return;
    }
    sb_adds(out, HEADER);
    if (!r->n)
        sb_adds(out, "nothing to trace: the change removes no guard (assert, TORCH_CHECK, "
                     "AITER_CHECK, static_assert, zero-init, .contiguous()) outside tests and "
                     "changes no function's parameters\n");
    else
        sb_addc(out, '\n');
    add_items(out, r);
    if (r->nleft)
        sb_addf(out, "... and %zu more subject%s not traced\n", r->nleft, r->nleft == 1 ? "" : "s");
    if (r->limits)
        sb_addf(out, "limits: %s\n", r->limits);
    sb_addf(out, "END evidence.txt: %zu item%s (%zu removed guard line%s on %zu subject%s, %zu "
                 "changed signature%s of %zu function%s); %zu file%s searched for call sites\n",
            r->n, r->n == 1 ? "" : "s", r->nguards, r->nguards == 1 ? "" : "s", ng,
            ng == 1 ? "" : "s", r->nsignatures, r->nsignatures == 1 ? "" : "s", ns,
            ns == 1 ? "" : "s", r->nfiles, r->nfiles == 1 ? "" : "s");
    if (r->n)
        packet_summary_add(sum, "evidence.txt", "found %zu guard subject%s, %zu changed "
                                                "function%s", ng, ng == 1 ? "" : "s", ns,
                           ns == 1 ? "" : "s");
    else
        packet_summary_add(sum, "evidence.txt", "nothing to trace");
}
