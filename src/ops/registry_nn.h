/* Registry rows of the nn ops (ops_nn.inc): for each op, <sym>_attrs (a
 * NULL-terminated list of accepted attribute names), SPEC_<sym> (flags,
 * min_inputs, max_inputs, min_outputs, max_outputs), RUN_<sym> (its run
 * function, NULL for an alias) and, under WNN_WITH_REFERENCE, REF_<sym>.
 * Included only by registry.c, after its own rows; see there for examples. */
