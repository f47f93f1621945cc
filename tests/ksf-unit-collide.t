#!/usr/bin/env bash
# tests/ksf/unit.c again (tests/ksf-unit.t), with the k-IPF builder's
# child table squeezed into 64 home slots (KSF_LINKED_TEST_COLLIDE,
# analyzers/ksf/suffix-links.c).  In the real, sparse table a lookup's
# probe almost never passes another pair, so a table that matched a child
# by its parent alone, or by its label alone, would still pass there;
# here every lookup probes past other parents' children and its parent's
# other children, and such a table gives other counts than Definition 2's.
# The table also starts tiny, grows four times (the rehash) and is then
# dropped, so most forests finish through the move-to-front child lists.
KSF_UNIT_CFLAGS=-DKSF_LINKED_TEST_COLLIDE exec bash "$(dirname "$0")/ksf-unit.t"
