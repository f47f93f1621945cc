/* forest-text.h - the canonical text of a k-SF or k-IPF for the ksf unit
 * tests (tests/ksf/unit.c, tests/ksf/split.c): "label:count(children)",
 * siblings sorted by label and separated by a space, so that two forests
 * are equal exactly when their texts are, whatever their node order. */
#ifndef PATHPROF_TEST_FOREST_TEXT_H
#define PATHPROF_TEST_FOREST_TEXT_H

#include "ksf/forest.h"

/* A malloc'd string; the caller frees it. */
char *forest_text(const struct ksf_forest *f);

#endif
