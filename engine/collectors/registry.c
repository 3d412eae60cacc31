/* The list of collectors, in the order they run. Each collector lives in its own file in this
 * folder and adds one line here. */
#include <stddef.h>

#include "engine/collector.h"

extern const collector collector_struct_abi;
extern const collector collector_flydsl_bounds;
extern const collector collector_guards;
extern const collector collector_siblings;
extern const collector collector_twins;
extern const collector collector_test_quality;
extern const collector collector_kernel_tests;
extern const collector collector_ci_coverage;
extern const collector collector_comment_only;
extern const collector collector_core_tiers;
extern const collector collector_perf_claims;
extern const collector collector_pattern_rules;
extern const collector collector_aot_pairing;
extern const collector collector_imports;
extern const collector collector_index_width;
extern const collector collector_triton_masks;

const collector *const collectors_all[] = {
    &collector_struct_abi,
    &collector_flydsl_bounds,
    &collector_guards,
    &collector_siblings,
    &collector_twins,
    &collector_test_quality,
    &collector_kernel_tests,
    &collector_ci_coverage,
    &collector_comment_only,
    &collector_core_tiers,
    &collector_perf_claims,
    &collector_pattern_rules,
    &collector_aot_pairing,
    &collector_imports,
    &collector_index_width,
    &collector_triton_masks,
    NULL,
};
