/* The configuration an engine reviews with, kept current: the face's layer (copied), the
 * repository file (re-read when it changes on disk, which a review checks cheaply by stamp),
 * and the effective configuration built from both. A malformed file is reported and the last
 * good one stays in force — the defaults when there never was a good one.
 *
 * Ownership: arguments are borrowed (copied where kept); what the accessors return is borrowed
 * and valid until the next config_state_set_layer / config_state_refresh. */
#ifndef RL_CONFIG_STATE_H
#define RL_CONFIG_STATE_H

#include <stdbool.h>

#include "engine/effective_config.h"

typedef struct config_state config_state;

/* tree: the work tree (absolute, trailing '/'), or NULL for none (defaults only); start: the
 * reviewed path relative to it, where the walk up begins. */
config_state *config_state_new(const char *tree, const char *start);
void config_state_free(config_state *cs);

/* Replace the face's layer (its strings are copied). */
void config_state_set_layer(config_state *cs, const config_layer *l);

/* Re-read the repository file when it changed on disk since the last read, and rebuild the
 * effective configuration when the file or the layer changed. Returns true when the effective
 * configuration may differ from the one before. */
bool config_state_refresh(config_state *cs);

const effective_config *config_state_effective(const config_state *cs);
/* Why the file on disk is not the one in force ("pyproject.toml:12: ...; the previous
 * configuration stays in force" or "...; the defaults stand in"), or NULL. */
const char *config_state_problem(const config_state *cs);
/* Keys of the file in force that were skipped ("name:line: key: unknown key ..."). */
const char *const *config_state_warnings(const config_state *cs, size_t *n);

#endif
