/* Entry point of review-lsp: the language server (no arguments, or --stdio) or one of the
 * batch commands (check, rules, explain, config). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lsp/lsp.h"

static const char USAGE[] =
    "usage: review-lsp [--stdio] [--log FILE]      run the language server on stdin/stdout\n"
    "       review-lsp check [PATH] [options]      review the change and print findings\n"
    "       review-lsp rules [PATH] [options]      print the derived rule families (rules.txt)\n"
    "       review-lsp explain ID [PATH]           print one rule's text (from PATH's rules file)\n"
    "       review-lsp config [PATH] [options]     print the configuration in force and where\n"
    "                                              each value comes from\n"
    "       review-lsp packet --out DIR [options]  write the review packet (the triage work\n"
    "                                              directory of aiter's review-pr) into DIR\n"
    "       review-lsp --help | --version\n"
    "\n"
    "options:\n"
    "  --base REF            compare with the merge base of HEAD and REF; a REF that names\n"
    "                        no commit is an error (default: upstream, origin/main,\n"
    "                        origin/master, main, master, HEAD)\n"
    "  --title T             the change's title (default: newest commit subject since the base)\n"
    "  --diff FILE           review a unified diff file instead of a repository\n"
    "  --root DIR            with --diff: the directory holding the post-change files\n"
    "  --format F            check output: text (default), json, sarif, github (workflow\n"
    "                        annotations), rdjson (reviewdog)\n"
    "  --only PATH...        check: report only these files (or directories); the change is\n"
    "                        still reviewed whole. Every later non-option argument is a PATH\n"
    "  --fail-on SEV         check exits 1 when a finding is at least SEV (warning, information)\n"
    "  --rules FILE          rules file when the repository has no .claude/skills/review-pr/\n"
    "                        rules.md of its own (default: the bundled one)\n"
    "  --disable ID          do not report rule ID (repeatable; unknown ids are warned about)\n"
    "  --severity ID=LEVEL   report rule ID (or family) at LEVEL: error, warning,\n"
    "                        information, hint (repeatable)\n"
    "  --pr-body FILE        check a pull-request description for perf claims with no baseline\n"
    "  --max-file-bytes N    skip files larger than N bytes (default %zu)\n"
    "\n"
    "The repository's own settings ([tool.review-lsp] in pyproject.toml, or .review-lsp.toml)\n"
    "apply under these options; `review-lsp config` shows the result.\n"
    "\n"
    "exit codes: 0 done (findings are advisory), 1 findings at --fail-on level,\n"
    "            2 usage error (a --base naming no commit among them),\n"
    "            3 PATH does not exist or is not in a git repository\n";

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--stdio") == 0 || strcmp(argv[1], "--log") == 0)
        return lsp_main(argc, argv);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        printf(USAGE, REVIEW_MAX_FILE_BYTES); /* the one default, engine/change.h */
        return EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("review-lsp %s\n", REVIEW_LSP_VERSION);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "check"))
        return cmd_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "rules"))
        return cmd_rules(argc - 2, argv + 2);
    if (!strcmp(cmd, "explain"))
        return cmd_explain(argc - 2, argv + 2);
    if (!strcmp(cmd, "config"))
        return cmd_config(argc - 2, argv + 2);
    if (!strcmp(cmd, "packet"))
        return cmd_packet(argc - 2, argv + 2);
    if (!strcmp(cmd, "syntax-coverage")) /* a debugging command, see bench/syntax_coverage.sh */
        return cmd_syntax_coverage(argc - 2, argv + 2);
    fprintf(stderr, "review-lsp: unknown command '%s' (try --help)\n", cmd);
    return EXIT_USAGE;
}
