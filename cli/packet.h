/* The review packet (`review-lsp packet --out DIR`): the work directory of aiter's review-pr
 * triage step, one file per question, written from one review. cmd_packet.c runs the review and
 * writes the files; each other packet_*.c builds one kind of file:
 *
 *   packet_rules.c     rules.txt (what `rules` prints) and rules_expanded.txt (the derived
 *                      rules' full text from the rules file in use)
 *   packet_git.c       applies.txt and merge_target.txt (libgit2, through engine/repo.h)
 *   packet_axes.c      one file per evidence collector (guards.txt, siblings.txt, ...)
 *   packet_evidence.c  evidence.txt (engine/evidence.h)
 *
 * Every file but rules.txt and rules_expanded.txt (whose formats are the original's) starts
 * with a line saying what it answers, or with "SKIPPED: why" when its question could not be
 * checked, and ends with a line of counts.
 *
 * Ownership: the builders borrow their inputs and append to the caller's strbuf. */
#ifndef RL_PACKET_H
#define RL_PACKET_H

#include "cli/cli.h"
#include "engine/evidence.h"
#include "engine/util.h"

/* One line of the command's summary on stdout: a file and what it says. */
typedef struct packet_summary {
    char **lines;
    size_t n, cap;
} packet_summary;
void packet_summary_add(packet_summary *s, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Write text to DIR/name. Returns 0, or -1 with *cause (caller frees). */
int packet_write(const char *dir, const char *name, const strbuf *text, char **cause);

/* rules.txt: byte for byte what `review-lsp rules` prints for the same review. */
void packet_rules_txt(const cli_review *cr, strbuf *out);
/* rules_expanded.txt from rules.txt's text and the rules file's text: the blocks of exactly
 * the rules it names, under their category headings, housekeeping rows last (the original
 * triage's `expand`). The derived ids it found no text for go to *missing (space separated,
 * caller frees; NULL when none); returns how many rule bodies it wrote. */
size_t packet_rules_expanded(const char *rules_txt, size_t rlen, const char *md, size_t mlen,
                             strbuf *out, char **missing);

/* applies.txt and merge_target.txt. */
void packet_git(const cli_options *o, const cli_review *cr, strbuf *applies, strbuf *target,
                packet_summary *sum);

/* Every collector's file (guards.txt, symbols.txt, ...): written into dir, summarised in sum.
 * Returns 0, or -1 with *cause when a file cannot be written. */
int packet_axes(const char *dir, const cli_review *cr, packet_summary *sum, char **cause);

/* evidence.txt, from the evidence of the review's change: gathered beside the review
 * (packet_evidence_gather, handed to cli_review_open_strict with the job), or here when the
 * job never ran. The job owns its report (free it with evidence_report_free once gathered). */
typedef struct packet_evidence_job {
    bool timing;
    bool gathered;
    evidence_report report;
} packet_evidence_job;
void packet_evidence_gather(const change *c, void *job);
void packet_evidence(const cli_review *cr, packet_evidence_job *job, strbuf *out,
                     packet_summary *sum);

#endif
