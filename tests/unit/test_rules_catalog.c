/* Unit tests of the rule catalogue reader (engine/rules_catalog.c) on the bundled file and on
 * text in the original's block syntax, plus suppression comment matching. */
#include "engine/rules_catalog.h"
#include "engine/suppress.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

static const char *const EVERY_ID[] = {
    "A1", "A2", "A3", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "C1", "C2", "C3", "C4",
    "D1", "D1b", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "D10b", "D11", "D12",
    "E1", "E2", "E3", "E4", "E5", "F1", "G1", "G1b", "P1", "P2", "P3", "P4", "P5", "P6", "T1",
    "T2", "T3", "T4", "T5", "T6", "T8", "STEP4", "HK1", "HK2", "HK3", "HK4", "HK5", "HK6", "HK7",
    "HK8", "HK9", "HK10", "HK11", "HK12", "HK12b", "HK13", "HK14", "HK15", "HK16", "HK17",
    "HK18", "HK19", "UNRESOLVED-IMPORT", "COMMENT-ONLY"};

TEST(bundled_has_every_rule)
{
    rule_catalog *c = catalog_bundled();
    for (size_t i = 0; i < sizeof EVERY_ID / sizeof *EVERY_ID; i++) {
        const rule_entry *r = catalog_find(c, EVERY_ID[i]);
        if (!r)
            fprintf(stderr, "  missing rule %s\n", EVERY_ID[i]);
        CHECK(r != NULL);
        if (r) {
            CHECK(r->title[0] != '\0');
            CHECK(r->line > 0);
            CHECK(strstr(r->text, EVERY_ID[i]) != NULL);
        }
    }
    const rule_entry *d4 = catalog_find(c, "D4");
    CHECK_INT(d4->sev, SEV_WARNING);
    CHECK_STR(d4->title, "Invariant reversal without citation");
    const rule_entry *e2 = catalog_find(c, "E2");
    CHECK_INT(e2->sev, SEV_HINT);
    const rule_entry *hk12 = catalog_find(c, "HK12");
    CHECK(strncmp(hk12->text, "| Check | Trigger | Flag |", 26) == 0);
    CHECK(strstr(hk12->text, "HK12b") == NULL); /* HK12's row, not HK12b's */
    catalog_free(c);
}

TEST(original_syntax)
{
    const char *md = "# Rules\n\n"
                     "### A — Cross-kernel\n\n"
                     "**A1 — Sibling kernel not fixed** ⚠️ (🔴 if Tier-1/2)\n"
                     "Trigger: a fix in one variant.\n\n"
                     "**A2 — Shared path** ⚠️\n"
                     "text\n"
                     "## Tiering\n"
                     "not part of A2\n"
                     "### Housekeeping\n\n"
                     "| Check | Trigger | Flag |\n"
                     "|---|---|---|\n"
                     "| HK1 Temp script | a .sh file | ⚠️ |\n"
                     "| HK12b — Uncollectable test | no test_ | 📝 |\n";
    char *cause = NULL;
    rule_catalog *c = catalog_parse(md, strlen(md), "orig.md", &cause);
    CHECK(c != NULL);
    CHECK_INT(c->n, 4);
    const rule_entry *a1 = catalog_find(c, "A1");
    CHECK_STR(a1->title, "Sibling kernel not fixed");
    CHECK_INT(a1->sev, SEV_INFORMATION);
    CHECK_INT(a1->line, 5);
    CHECK_STR(a1->category, "A — Cross-kernel");
    const rule_entry *a2 = catalog_find(c, "A2");
    CHECK(strstr(a2->text, "not part of A2") == NULL);
    const rule_entry *hk = catalog_find(c, "HK12b");
    CHECK_STR(hk->title, "Uncollectable test");
    CHECK_INT(hk->sev, SEV_HINT);
    CHECK_STR(catalog_find(c, "HK1")->title, "Temp script");
    catalog_free(c);
}

TEST(malformed_reports_path_and_line)
{
    char *cause = NULL;
    const char *bad = "### A\n\n**A1 — ** 🔴\n";
    rule_catalog *c = catalog_parse(bad, strlen(bad), "bad.md", &cause);
    CHECK(c == NULL);
    CHECK_STR(cause, "bad.md:3: rule A1 has no title");
    free(cause);
    c = catalog_parse("hello\n", 6, "empty.md", &cause);
    CHECK(c == NULL);
    CHECK(cause && strncmp(cause, "empty.md:1: no rule blocks", 26) == 0);
    free(cause);
    c = catalog_load("/nonexistent/rules.md", &cause);
    CHECK(c != NULL && catalog_find(c, "D4") != NULL); /* fell back to the bundled file */
    CHECK(cause && strstr(cause, "using the bundled rules"));
    free(cause);
    catalog_free(c);
}

TEST(near_matches)
{
    rule_catalog *c = catalog_bundled();
    const char *near[3];
    size_t n = catalog_near(c, "d4", near, 3);
    CHECK(n >= 1);
    CHECK_STR(near[0], "D4");
    catalog_free(c);
}

TEST(suppressions)
{
    const char *l = "x = torch.empty(n)  # review: ignore[D4, B7]";
    CHECK(suppress_line_ignores(l, strlen(l), "D4"));
    CHECK(suppress_line_ignores(l, strlen(l), "B7"));
    CHECK(!suppress_line_ignores(l, strlen(l), "A1"));
    const char *all = "int x; // review: ignore[*]";
    CHECK(suppress_line_ignores(all, strlen(all), "D11"));
    const char *text = "a\nb\nc";
    const char *line;
    size_t len;
    CHECK(text_line_at(text, strlen(text), 3, &line, &len) && len == 1 && line[0] == 'c');
    CHECK(!text_line_at(text, strlen(text), 4, &line, &len));
}

UNIT_MAIN("rules_catalog", UNIT_CASE(bundled_has_every_rule), UNIT_CASE(original_syntax),
          UNIT_CASE(malformed_reports_path_and_line), UNIT_CASE(near_matches), UNIT_CASE(suppressions))
