/* The list of collectors, in the order they run. Each collector lives in its own file in this
 * folder and adds one line here. */
#include <stddef.h>

#include "engine/collector.h"

const collector *const collectors_all[] = {
    NULL,
};
