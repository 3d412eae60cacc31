/* Unit tests of the repository configuration: reading TOML through cpptoml with the line of
 * each key (engine/toml_read.cpp), finding and checking the file by walking up a real directory
 * tree (engine/repo_config.c), and the precedence of command line / editor over the file over
 * the defaults, with sources (engine/effective_config.c). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/config_state.h"
#include "engine/effective_config.h"
#include "engine/repo_config.h"
#include "engine/toml_read.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

/* A scratch work tree under /tmp (absolute, trailing '/'); caller frees. */
static char *scratch_tree(void)
{
    char tmpl[] = "/tmp/rl-config-XXXXXX";
    char *d = mkdtemp(tmpl);
    return d ? xasprintf("%s/", d) : NULL;
}

static void remove_tree(char *root)
{
    char *cmd = xasprintf("rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", root);
    free(cmd);
    free(root);
}

static int line_of(json_t *lines, const char *key)
{
    return (int)json_integer_value(json_object_get(lines, key));
}

static const char PYPROJECT[] =
    "[build-system]\n"                       /* 1 */
    "requires = [\"setuptools\", \"wheel\"]\n" /* 2 */
    "\n"                                     /* 3 */
    "[tool.ruff]\n"                          /* 4 */
    "target-version = \"py310\"\n"           /* 5 */
    "\n"                                     /* 6 */
    "[tool.review-lsp]\n"                    /* 7 */
    "# the target branch of this repository\n" /* 8 */
    "base = \"origin/main\"\n"               /* 9 */
    "disable = [\"HK13\"]\n"                 /* 10 */
    "exclude = [\n"                          /* 11 */
    "  \"3rdparty/\",\n"                     /* 12 */
    "  \"*.gen.cpp\",\n"                     /* 13 */
    "]\n"                                    /* 14 */
    "severity = { D11 = \"error\", A1 = \"hint\" }\n" /* 15 */
    "max-file-bytes = 100000\n"              /* 16 */
    "derived-hints = \"line\"\n"             /* 17 */
    "\n"                                     /* 18 */
    "[[tool.review-lsp.overrides]]\n"        /* 19 */
    "paths = [\"op_tests/**\"]\n"            /* 20 */
    "disable = [\"P2\"]\n"                   /* 21 */
    "\n"                                     /* 22 */
    "[[tool.review-lsp.overrides]]\n"        /* 23 */
    "paths = [\"csrc/legacy/\"]\n"           /* 24 */
    "severity = { D11 = \"hint\" }\n";       /* 25 */

TEST(toml_values_and_the_line_each_key_starts_on)
{
    json_t *v = NULL, *lines = NULL;
    int line = -1;
    char *cause = NULL;
    CHECK_INT(toml_read(PYPROJECT, sizeof PYPROJECT - 1, "tool.review-lsp", &v, &lines, &line, &cause), 0);
    CHECK(cause == NULL);
    CHECK_STR(json_string_value(json_object_get(v, "base")), "origin/main");
    CHECK_INT(json_array_size(json_object_get(v, "exclude")), 2);
    CHECK_INT(json_integer_value(json_object_get(v, "max-file-bytes")), 100000);
    CHECK_STR(json_string_value(json_object_get(json_object_get(v, "severity"), "D11")), "error");
    CHECK_INT(json_array_size(json_object_get(v, "overrides")), 2);
    CHECK(json_object_get(v, "target-version") == NULL); /* another tool's table stays out */
    CHECK_INT(line_of(lines, "base"), 9);                /* not the comment above it */
    CHECK_INT(line_of(lines, "exclude"), 11);            /* a value spanning lines: its start */
    CHECK_INT(line_of(lines, "severity.D11"), 15);
    CHECK_INT(line_of(lines, "overrides[1]"), 23);
    CHECK_INT(line_of(lines, "overrides[1].severity.D11"), 25);
    json_decref(v);
    json_decref(lines);
}

TEST(toml_absent_table_is_no_value)
{
    static const char doc[] = "[tool.ruff]\nline-length = 100\n";
    json_t *v = (json_t *)1, *lines = NULL;
    int line;
    char *cause = NULL;
    CHECK_INT(toml_read(doc, sizeof doc - 1, "tool.review-lsp", &v, &lines, &line, &cause), 0);
    CHECK(v == NULL);
    json_decref(lines);
}

TEST(toml_malformed_names_its_line)
{
    static const char doc[] = "[tool.review-lsp]\nbase = \"main\"\ndisable = [\"A1\"\nx = = 2\n";
    json_t *v, *lines;
    int line = 0;
    char *cause = NULL;
    CHECK_INT(toml_read(doc, sizeof doc - 1, "tool.review-lsp", &v, &lines, &line, &cause), -1);
    CHECK(v == NULL && lines == NULL);
    CHECK(line >= 3 && line <= 4);
    CHECK(cause && *cause);
    free(cause);
}

TEST(toml_hostile_documents_are_refused_not_crashed_on)
{
    /* nesting far past any real file */
    size_t n = 100000;
    char *deep = xmalloc(2 * n + 8);
    memcpy(deep, "x = ", 4);
    memset(deep + 4, '[', n);
    memset(deep + 4 + n, ']', n);
    json_t *v, *lines;
    int line;
    char *cause = NULL;
    CHECK_INT(toml_read(deep, 4 + 2 * n, NULL, &v, &lines, &line, &cause), -1);
    CHECK(cause && strstr(cause, "brackets"));
    free(cause);
    free(deep);
    /* a string that is not UTF-8: refused with its line */
    static const char bad[] = "a = 1\nbase = \"\xff\xfe\"\n";
    cause = NULL;
    CHECK_INT(toml_read(bad, sizeof bad - 1, NULL, &v, &lines, &line, &cause), -1);
    CHECK_INT(line, 2);
    CHECK(cause && strstr(cause, "UTF-8"));
    free(cause);
    /* a NUL byte and an unterminated string */
    static const char nul[] = "base = \"a\0b\nc = \"";
    cause = NULL;
    CHECK_INT(toml_read(nul, sizeof nul - 1, NULL, &v, &lines, &line, &cause), -1);
    free(cause);
}

TEST(config_found_by_walking_up_with_lines_and_values)
{
    char *root = scratch_tree();
    unit_put_file(root, "pyproject.toml", PYPROJECT);
    unit_put_file(root, "csrc/kernels/a.cu", "x\n");
    repo_config c;
    char *cause = NULL;
    CHECK_INT(repo_config_load(root, "csrc/kernels/a.cu", &c, &cause), 0);
    CHECK_STR(c.name, "pyproject.toml");
    CHECK_STR(c.base.value, "origin/main");
    CHECK_INT(c.base.line, 9);
    CHECK_INT(c.disable.n, 1);
    CHECK_INT(c.max_file_bytes, 100000);
    CHECK_INT(c.derived_hints, HINTS_LINE);
    CHECK_INT(c.noverrides, 2);
    CHECK(repo_config_path_excluded(&c, "3rdparty/ck/include/x.hpp"));
    CHECK(repo_config_path_excluded(&c, "csrc/gen/fused.gen.cpp"));
    CHECK(!repo_config_path_excluded(&c, "csrc/kernels/a.cu"));
    CHECK(!repo_config_path_excluded(&c, "csrc/3rdparty_notes.md"));
    repo_config_clear(&c);
    remove_tree(root);
}

TEST(globs_are_git_pathspecs_first_match_deciding)
{
    char *root = scratch_tree();
    unit_put_file(root, ".review-lsp.toml",
        "exclude = [\"!csrc/vendor/keep.cu\", \"csrc/vendor\", \"*.gen.cpp\", \"docs/*.md\"]\n"
        "include = [\"csrc/\", \"docs/\"]\n");
    repo_config c;
    char *cause = NULL;
    CHECK_INT(repo_config_load(root, "", &c, &cause), 0);
    CHECK(repo_config_path_excluded(&c, "csrc/vendor/x.cu"));      /* a directory by name */
    CHECK(!repo_config_path_excluded(&c, "csrc/vendor/keep.cu"));  /* kept by the ! before it */
    CHECK(repo_config_path_excluded(&c, "csrc/a/b/fused.gen.cpp")); /* '*' crosses '/' */
    CHECK(repo_config_path_excluded(&c, "docs/a/deep.md"));
    CHECK(!repo_config_path_excluded(&c, "csrc/vendor_notes.cu"));  /* a name, not a prefix */
    CHECK(repo_config_path_excluded(&c, "aiter/ops/x.py"));         /* not included */
    CHECK(!repo_config_path_excluded(&c, "csrc/kernels/a.cu"));
    repo_config_clear(&c);
    remove_tree(root);
}

TEST(nearer_file_wins_and_its_globs_are_relative_to_it)
{
    char *root = scratch_tree();
    unit_put_file(root, "pyproject.toml", PYPROJECT);
    unit_put_file(root, "aiter/pyproject.toml",
                  "[tool.black]\nline-length = 88\n"); /* not ours: skipped */
    unit_put_file(root, "aiter/ops/.review-lsp.toml",
                  "base = \"origin/dev\"\nexclude = [\"gen/\"]\n");
    unit_put_file(root, "aiter/ops/gen/k.py", "x\n");
    repo_config c;
    char *cause = NULL;
    CHECK_INT(repo_config_load(root, "aiter/ops/gen/k.py", &c, &cause), 0);
    CHECK_STR(c.name, "aiter/ops/.review-lsp.toml");
    CHECK_STR(c.base.value, "origin/dev");
    CHECK(repo_config_path_excluded(&c, "aiter/ops/gen/k.py"));
    CHECK(!repo_config_path_excluded(&c, "gen/k.py"));
    repo_config_clear(&c);
    /* from a sibling directory the pyproject.toml without our table is passed over */
    unit_put_file(root, "aiter/jit/x.py", "x\n");
    CHECK_INT(repo_config_load(root, "aiter/jit", &c, &cause), 0);
    CHECK_STR(c.name, "pyproject.toml");
    repo_config_clear(&c);
    /* in one directory the dedicated file comes first */
    unit_put_file(root, ".review-lsp.toml", "disable = [\"D5\"]\n");
    CHECK_INT(repo_config_load(root, "", &c, &cause), 0);
    CHECK_STR(c.name, ".review-lsp.toml");
    repo_config_clear(&c);
    /* a start that climbs out of the tree starts at the root */
    CHECK_INT(repo_config_load(root, "../../etc", &c, &cause), 0);
    CHECK_STR(c.name, ".review-lsp.toml");
    repo_config_clear(&c);
    remove_tree(root);
}

TEST(no_file_means_defaults)
{
    char *root = scratch_tree();
    unit_put_file(root, "README.md", "x\n");
    repo_config c;
    char *cause = NULL;
    CHECK_INT(repo_config_load(root, "", &c, &cause), 0);
    CHECK(c.path == NULL && c.name == NULL);
    CHECK_INT(c.derived_hints, HINTS_UNSET);
    CHECK(!repo_config_path_excluded(&c, "README.md"));
    repo_config_clear(&c);
    remove_tree(root);
}

/* Load a one-file configuration and return the cause of its rejection (or NULL). */
static char *rejection(const char *text)
{
    char *root = scratch_tree();
    unit_put_file(root, "pyproject.toml", text);
    repo_config c;
    char *cause = NULL;
    int r = repo_config_load(root, "", &c, &cause);
    if (r == 0)
        repo_config_clear(&c);
    remove_tree(root);
    return cause;
}

TEST(wrong_values_reject_the_file_naming_line_and_key)
{
    char *cause = rejection("[tool.review-lsp]\nbase = \"main\"\ndisable = \"HK13\"\n");
    CHECK_STR(cause, "pyproject.toml:3: disable: expected an array of rule ids");
    free(cause);
    cause = rejection("[tool.review-lsp]\n[tool.review-lsp.severity]\nD11 = \"loud\"\n");
    CHECK(cause && str_starts(cause, "pyproject.toml:3: severity.D11: expected \"error\""));
    free(cause);
    cause = rejection("[tool.review-lsp]\nmax-file-bytes = -5\n");
    CHECK(cause && str_starts(cause, "pyproject.toml:2: max-file-bytes: "));
    free(cause);
    cause = rejection("[tool.review-lsp]\nderived-hints = true\n");
    CHECK(cause && str_starts(cause, "pyproject.toml:2: derived-hints: "));
    free(cause);
    cause = rejection("[tool.review-lsp]\n\n[[tool.review-lsp.overrides]]\ndisable = [\"P2\"]\n");
    CHECK(cause && str_starts(cause, "pyproject.toml:3: overrides[0]: an [[overrides]] table needs paths"));
    free(cause);
    cause = rejection("[tool.review-lsp]\nrules = \"../../../etc/passwd\"\n");
    CHECK(cause && strstr(cause, "pyproject.toml:2: rules: ") && strstr(cause, "outside the work tree"));
    free(cause);
    cause = rejection("[tool.review-lsp]\nbase = \"main\"\nbase = \"dev\"\n");
    CHECK(cause && str_starts(cause, "pyproject.toml:3: "));
    free(cause);
}

TEST(unknown_keys_are_reported_and_skipped)
{
    char *root = scratch_tree();
    unit_put_file(root, "pyproject.toml",
                  "[tool.review-lsp]\nbase = \"main\"\ndisabled = [\"HK13\"]\n");
    repo_config c;
    char *cause = NULL;
    CHECK_INT(repo_config_load(root, "", &c, &cause), 0);
    CHECK_STR(c.base.value, "main");
    CHECK_INT(c.nwarnings, 1);
    CHECK(c.nwarnings && str_starts(c.warnings[0], "pyproject.toml:3: disabled: unknown key"));
    repo_config_clear(&c);
    remove_tree(root);
}

TEST(a_link_leaving_the_tree_is_not_read)
{
    char *root = scratch_tree();
    char *outside = scratch_tree();
    unit_put_file(outside, "pyproject.toml", "[tool.review-lsp]\nbase = \"stolen\"\n");
    char *target = xasprintf("%spyproject.toml", outside);
    char *link = xasprintf("%spyproject.toml", root);
    CHECK_INT(symlink(target, link), 0);
    repo_config c;
    char *cause = NULL;
    CHECK_INT(repo_config_load(root, "", &c, &cause), 0);
    CHECK(c.path == NULL);
    repo_config_clear(&c);
    free(target);
    free(link);
    remove_tree(outside);
    remove_tree(root);
}

TEST(stamp_changes_when_a_candidate_appears_or_changes)
{
    char *root = scratch_tree();
    unit_put_file(root, "sub/a.py", "x\n");
    char *s1 = repo_config_stamp(root, "sub/a.py");
    unit_put_file(root, "sub/.review-lsp.toml", "base = \"x\"\n");
    char *s2 = repo_config_stamp(root, "sub/a.py");
    CHECK(strcmp(s1, s2) != 0);
    unit_put_file(root, "sub/.review-lsp.toml", "base = \"yy\"\n");
    char *s3 = repo_config_stamp(root, "sub/a.py");
    CHECK(strcmp(s2, s3) != 0);
    char *s4 = repo_config_stamp(root, "sub/a.py");
    CHECK_STR(s3, s4);
    free(s1);
    free(s2);
    free(s3);
    free(s4);
    remove_tree(root);
}

TEST(state_reloads_on_change_and_keeps_the_last_good_file)
{
    char *root = scratch_tree();
    unit_put_file(root, "pyproject.toml", "[tool.review-lsp]\nbase = \"origin/main\"\n");
    config_state *cs = config_state_new(root, "");
    CHECK(config_state_refresh(cs));
    CHECK_STR(config_state_effective(cs)->base, "origin/main");
    CHECK(!config_state_refresh(cs)); /* nothing moved */
    /* broken: reported with its line, the last good file stays in force */
    unit_put_file(root, "pyproject.toml",
                  "[tool.review-lsp]\nbase = \"origin/dev\"\ndisable = [\n");
    CHECK(!config_state_refresh(cs));
    CHECK_STR(config_state_effective(cs)->base, "origin/main");
    CHECK(config_state_problem(cs) && str_starts(config_state_problem(cs), "pyproject.toml:"));
    CHECK(config_state_problem(cs) && str_ends(config_state_problem(cs), "; the previous configuration stays in force"));
    /* mended, same size as before the break: read again */
    unit_put_file(root, "pyproject.toml", "[tool.review-lsp]\nbase = \"origin/dev\"\n");
    CHECK(config_state_refresh(cs));
    CHECK_STR(config_state_effective(cs)->base, "origin/dev");
    CHECK(config_state_problem(cs) == NULL);
    unit_put_file(root, "pyproject.toml", "[tool.review-lsp]\nbase = \"origin/rel\"\n");
    CHECK(config_state_refresh(cs));
    CHECK_STR(config_state_effective(cs)->base, "origin/rel");
    /* the face's layer wins, and changing it rebuilds */
    config_layer cli = {FACE_COMMAND_LINE, "main", NULL, 0, HINTS_UNSET, NULL, NULL};
    config_state_set_layer(cs, &cli);
    CHECK(config_state_refresh(cs));
    CHECK_STR(config_state_effective(cs)->base_source, "--base");
    /* a repository's own rules file appearing is noticed */
    unit_put_file(root, ".claude/skills/review-pr/rules.md", "### A\n");
    CHECK(config_state_refresh(cs));
    CHECK_STR(config_state_effective(cs)->rules_source, "default (the repository's own)");
    config_state_free(cs);
    /* never a good file: the defaults, and the problem */
    unit_put_file(root, "pyproject.toml", "[tool.review-lsp]\nbase = = 1\n");
    cs = config_state_new(root, "");
    CHECK(config_state_refresh(cs));
    CHECK(config_state_effective(cs)->base == NULL);
    CHECK(config_state_problem(cs) && str_starts(config_state_problem(cs), "pyproject.toml:2: "));
    CHECK(config_state_problem(cs) && str_ends(config_state_problem(cs), "; the defaults stand in"));
    config_state_free(cs);
    remove_tree(root);
}

/* The repository file of PYPROJECT, loaded from a scratch tree (kept for the caller). */
static char *load_pyproject(repo_config *c)
{
    char *root = scratch_tree();
    unit_put_file(root, "pyproject.toml", PYPROJECT);
    char *cause = NULL;
    if (repo_config_load(root, "", c, &cause) != 0)
        fprintf(stderr, "  load: %s\n", cause);
    return root;
}

static const char *source_of(const eff_rule *arr, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(arr[i].id, id))
            return arr[i].source;
    return NULL;
}

TEST(face_beats_file_beats_default_with_sources)
{
    repo_config f;
    char *root = load_pyproject(&f);
    const char *dis[] = {"D4", "HK13", NULL};
    const char *sev[] = {"A1=warning", NULL};
    config_layer cli = {FACE_COMMAND_LINE, NULL, NULL, 5000, HINTS_UNSET, dis, sev};
    effective_config e;
    effective_build(&e, &cli, &f, NULL);
    CHECK_STR(e.base, "origin/main");
    CHECK_STR(e.base_source, "pyproject.toml:9");
    CHECK_INT(e.max_file_bytes, 5000);
    CHECK_STR(e.max_file_bytes_source, "--max-file-bytes");
    CHECK_INT(e.derived_hints, HINTS_LINE);
    CHECK_STR(e.derived_hints_source, "pyproject.toml:17");
    CHECK(e.rules == NULL);
    CHECK_STR(e.rules_source, "default (bundled)");
    CHECK_INT(e.ndisable, 2); /* a union: D4 and HK13, once */
    CHECK_STR(source_of(e.disable, e.ndisable, "D4"), "--disable");
    CHECK_STR(source_of(e.disable, e.ndisable, "HK13"), "--disable");
    CHECK_STR(source_of(e.severity, e.nseverity, "A1"), "--severity");
    CHECK_STR(source_of(e.severity, e.nseverity, "D11"), "pyproject.toml:15");
    effective_clear(&e);

    config_layer editor = {FACE_EDITOR, "origin/dev", NULL, 0, HINTS_OFF, NULL, NULL};
    effective_build(&e, &editor, &f, NULL);
    CHECK_STR(e.base, "origin/dev");
    CHECK_STR(e.base_source, "editor setting review.base");
    CHECK_INT(e.max_file_bytes, 100000);
    CHECK_STR(e.max_file_bytes_source, "pyproject.toml:16");
    CHECK_STR(e.derived_hints_source, "editor setting review.derivedHints");
    CHECK_STR(source_of(e.disable, e.ndisable, "HK13"), "pyproject.toml:10");
    effective_clear(&e);

    effective_build(&e, NULL, NULL, NULL);
    CHECK(e.base == NULL);
    CHECK_STR(e.base_source, "default");
    CHECK_INT(e.max_file_bytes, 2 << 20);
    CHECK_INT(e.derived_hints, HINTS_FILE);
    effective_clear(&e);
    repo_config_clear(&f);
    remove_tree(root);
}

TEST(rules_named_by_the_file_is_the_repositorys_own)
{
    char *root = scratch_tree();
    unit_put_file(root, "pyproject.toml", "[tool.review-lsp]\nrules = \"docs/review-rules.md\"\n");
    repo_config f, none = {.derived_hints = HINTS_UNSET};
    char *cause = NULL;
    CHECK_INT(repo_config_load(root, "", &f, &cause), 0);
    config_layer editor = {FACE_EDITOR, NULL, "/home/me/rules.md", 0, HINTS_UNSET, NULL, NULL};
    effective_config e;
    effective_build(&e, &editor, &f, "/r/.claude/skills/review-pr/rules.md");
    CHECK(e.rules && str_ends(e.rules, "/docs/review-rules.md") && e.rules[0] == '/');
    CHECK_STR(e.rules_source, "pyproject.toml:2");
    effective_clear(&e);
    effective_build(&e, &editor, &none, "/r/.claude/skills/review-pr/rules.md");
    CHECK_STR(e.rules, "/r/.claude/skills/review-pr/rules.md");
    CHECK_STR(e.rules_source, "default (the repository's own)");
    effective_clear(&e);
    effective_build(&e, &editor, &none, NULL);
    CHECK_STR(e.rules, "/home/me/rules.md");
    CHECK_STR(e.rules_source, "editor setting review.rulesPath");
    effective_clear(&e);
    repo_config_clear(&f);
    remove_tree(root);
}

TEST(per_path_overrides_and_what_beats_them)
{
    repo_config f;
    char *root = load_pyproject(&f);
    effective_config e;
    effective_build(&e, NULL, &f, NULL);
    severity s;
    CHECK(effective_disabled(&e, "P2", "op_tests/test_gemm.py"));
    CHECK(!effective_disabled(&e, "P2", "csrc/a.cu"));
    CHECK(!effective_disabled(&e, "P2", NULL));
    CHECK(effective_disabled(&e, "HK13", NULL));
    CHECK(effective_severity(&e, "D11", "csrc/legacy/old.cu", &s) && s == SEV_HINT);
    CHECK(effective_severity(&e, "D11", "csrc/new.cu", &s) && s == SEV_ERROR);
    CHECK(!effective_severity(&e, "D4", "csrc/new.cu", &s));
    effective_clear(&e);
    /* the editor's own level for D11 wins over the file's override for csrc/legacy/ */
    const char *sev[] = {"D11=warning", NULL};
    config_layer editor = {FACE_EDITOR, NULL, NULL, 0, HINTS_UNSET, NULL, sev};
    effective_build(&e, &editor, &f, NULL);
    CHECK(effective_severity(&e, "D11", "csrc/legacy/old.cu", &s) && s == SEV_WARNING);
    effective_clear(&e);
    repo_config_clear(&f);
    remove_tree(root);
}

TEST(apply_drops_disabled_and_sets_levels)
{
    repo_config f;
    char *root = load_pyproject(&f);
    effective_config e;
    effective_build(&e, NULL, &f, NULL);
    finding_list l = {0};
    findings_add(&l, "P2", SEV_HINT, "op_tests/test_a.py", 3, "few asserts");
    findings_add(&l, "P2", SEV_HINT, "aiter/test_b.py", 3, "few asserts");
    finding *d11 = findings_add(&l, "D11", SEV_INFORMATION, "csrc/new.cu", 9,
                                "candidate to check: offset shifts");
    d11->severity_note = xstrdup("Reported as a candidate");
    findings_add(&l, "HK13", SEV_HINT, "x.py", 1, "todo");
    effective_apply(&e, &l);
    CHECK_INT(l.n, 2);
    CHECK_STR(l.items[0].path, "aiter/test_b.py");
    CHECK_INT(l.items[1].sev, SEV_ERROR);
    CHECK_STR(l.items[1].message, "offset shifts");
    CHECK(l.items[1].severity_note == NULL);
    findings_clear(&l);
    effective_clear(&e);
    repo_config_clear(&f);
    remove_tree(root);
}

TEST(format_names_every_source)
{
    repo_config f;
    char *root = load_pyproject(&f);
    const char *dis[] = {"D4", NULL};
    config_layer cli = {FACE_COMMAND_LINE, NULL, NULL, 0, HINTS_UNSET, dis, NULL};
    effective_config e;
    effective_build(&e, &cli, &f, NULL);
    char *text = effective_format(&e, "/repo/");
    CHECK(strstr(text, "# repository file: pyproject.toml [tool.review-lsp]\n"));
    CHECK(strstr(text, "\nbase            origin/main"));
    CHECK(strstr(text, "pyproject.toml:9\n"));
    CHECK(strstr(text, "(bundled rules/rules.md)") && strstr(text, "default (bundled)\n"));
    CHECK(strstr(text, "D4") && strstr(text, "--disable\n"));
    CHECK(strstr(text, "3rdparty/") && strstr(text, "pyproject.toml:11\n"));
    CHECK(strstr(text, "overrides[0]") && strstr(text, "paths op_tests/** ; disable P2") == NULL);
    CHECK(strstr(text, "paths op_tests/**; disable P2"));
    CHECK(strstr(text, "pyproject.toml:19\n"));
    free(text);
    effective_clear(&e);
    repo_config_clear(&f);
    remove_tree(root);
}

UNIT_MAIN("repo_config", UNIT_CASE(toml_values_and_the_line_each_key_starts_on),
          UNIT_CASE(toml_absent_table_is_no_value), UNIT_CASE(toml_malformed_names_its_line),
          UNIT_CASE(toml_hostile_documents_are_refused_not_crashed_on),
          UNIT_CASE(config_found_by_walking_up_with_lines_and_values),
          UNIT_CASE(globs_are_git_pathspecs_first_match_deciding),
          UNIT_CASE(nearer_file_wins_and_its_globs_are_relative_to_it),
          UNIT_CASE(no_file_means_defaults),
          UNIT_CASE(wrong_values_reject_the_file_naming_line_and_key),
          UNIT_CASE(unknown_keys_are_reported_and_skipped),
          UNIT_CASE(a_link_leaving_the_tree_is_not_read),
          UNIT_CASE(stamp_changes_when_a_candidate_appears_or_changes),
          UNIT_CASE(state_reloads_on_change_and_keeps_the_last_good_file),
          UNIT_CASE(face_beats_file_beats_default_with_sources),
          UNIT_CASE(rules_named_by_the_file_is_the_repositorys_own),
          UNIT_CASE(per_path_overrides_and_what_beats_them),
          UNIT_CASE(apply_drops_disabled_and_sets_levels), UNIT_CASE(format_names_every_source))
