/* The list of collectors, in the order they run. Each collector lives in its own file in this
 * folder and adds one line here. */
#include <stddef.h>

#include "engine/collector.h"

extern const collector collector_struct_abi;
extern const collector collector_flydsl_bounds;
extern const collector collector_guards;
extern const collector collector_siblings;
extern const collector collector_aot_pairing;
extern const collector collector_imports;

const collector *const collectors_all[] = {
    &collector_struct_abi,
    &collector_flydsl_bounds,
    &collector_guards,
    &collector_siblings,
    &collector_aot_pairing,
    &collector_imports,
    NULL,
};
