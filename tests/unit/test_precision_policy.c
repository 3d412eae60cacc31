/* Unit tests of the severity policy (engine/precision_policy.c): a Warning stays a Warning
 * only for a rule the ledger allows; every other Warning becomes an Information candidate
 * with a note naming the judged precision; lower severities are left alone. */
#include "engine/finding.h"
#include "engine/precision_policy.h"
#include "tests/unit/unit.h"

static const char POLICY[] =
    "# comment\n"
    "B8\t30\t27\t3\t90\twarning\n"
    "D9\t25\t2\t20\t9\tinformation\n"
    "broken line without tabs\n"
    "D4\tx\n";

TEST(parses_entries_and_skips_malformed_lines)
{
    precision_policy p;
    precision_policy_parse(&p, POLICY, sizeof POLICY - 1);
    CHECK_INT(p.n, 2);
    const precision_entry *b8 = precision_policy_find(&p, "B8");
    CHECK(b8 && b8->warning_allowed && b8->percent == 90 && b8->truths == 27);
    const precision_entry *d9 = precision_policy_find(&p, "D9");
    CHECK(d9 && !d9->warning_allowed && d9->falses == 20);
    CHECK(precision_policy_find(&p, "D4") == NULL);
    precision_policy_free(&p);
}

TEST(warning_kept_only_for_allowed_rules)
{
    precision_policy p;
    precision_policy_parse(&p, POLICY, sizeof POLICY - 1);
    finding_list l = {0};
    findings_add(&l, "B8", SEV_WARNING, "a.py", 3, "unbounded buffer");
    findings_add(&l, "D9", SEV_WARNING, "k.py", 7, "int32 product");
    findings_add(&l, "D4", SEV_WARNING, "k.cu", 9, "guard gone");
    findings_add(&l, "D4", SEV_HINT, "k.cu", 12, "guard moved");
    precision_policy_apply(&p, &l);

    CHECK_INT(l.items[0].sev, SEV_WARNING);
    CHECK(l.items[0].severity_note == NULL);
    CHECK_STR(l.items[0].message, "unbounded buffer");

    CHECK_INT(l.items[1].sev, SEV_INFORMATION);
    CHECK_STR(l.items[1].message, "candidate to check: int32 product");
    CHECK(l.items[1].severity_note && strstr(l.items[1].severity_note, "9% (2 of 22"));

    CHECK_INT(l.items[2].sev, SEV_INFORMATION);
    CHECK(l.items[2].severity_note && strstr(l.items[2].severity_note, "not yet been judged"));

    CHECK_INT(l.items[3].sev, SEV_HINT);
    CHECK(l.items[3].severity_note == NULL);
    CHECK_STR(l.items[3].message, "guard moved");
    findings_clear(&l);
    precision_policy_free(&p);
}

TEST(bundled_policy_parses_and_matches_its_file_header)
{
    /* Every entry of the bundled policy is well formed: a rule allowed at Warning has at least
     * 80% precision. */
    precision_policy p;
    precision_policy_bundled(&p);
    for (size_t i = 0; i < p.n; i++)
        if (p.items[i].warning_allowed)
            CHECK(p.items[i].percent >= 80);
    precision_policy_free(&p);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(parses_entries_and_skips_malformed_lines),
        UNIT_CASE(warning_kept_only_for_allowed_rules),
        UNIT_CASE(bundled_policy_parses_and_matches_its_file_header),
    };
    return unit_main("precision_policy", cases, sizeof cases / sizeof cases[0]);
}
