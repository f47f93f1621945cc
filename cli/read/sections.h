/* sections.h - what each section of a profile is worth once read.
 *
 * The envelope (header, sizes, the checksum of the whole file, the framing
 * of the sections) is checked first and is all or nothing: the format has
 * one checksum for the whole file, so a file that fails it has no byte
 * known to be right, not even a section length (docs/format.md, "Damaged
 * sections").  Within a sound envelope every section is read and checked
 * on its own; one that is damaged or inconsistent is marked here instead of
 * failing the whole profile, so that a command that does not need it still
 * works (and warns once), and one that needs it fails naming it.
 *
 * A section feeds one part of the profile.  The TU sections feed two: their
 * metadata (the functions, which every command and the labels of the KIPF
 * and KPRUNE sections need) and their path counts (the Ball-Larus paths). */
#ifndef PATHPROF_CLI_SECTIONS_H
#define PATHPROF_CLI_SECTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum pp_part {
    PP_PART_PROGRAM,     /* program, command line, update totals */
    PP_PART_STREAM,      /* how the event stream went (exactness) */
    PP_PART_TU_META,     /* the functions and their path graphs */
    PP_PART_TU_COUNTS,   /* the Ball-Larus path counts */
    PP_PART_KIPF,        /* the k-iteration path forest */
    PP_PART_KPRUNE,      /* the pruned k-iteration paths */
    PP_PART_SAMPLING,    /* sampling rate and bursts: how to scale the counts */
    PP_NPARTS
};

#define PP_NEED(part) (1u << (part))
/* report, show, dot: the TU sections whole. */
#define PP_NEED_BL (PP_NEED(PP_PART_TU_META) | PP_NEED(PP_PART_TU_COUNTS))
/* report --k, tree: the functions and the forest (not the path counts). */
#define PP_NEED_KIPF (PP_NEED(PP_PART_TU_META) | PP_NEED(PP_PART_KIPF))
#define PP_NEED_KPRUNE (PP_NEED(PP_PART_TU_META) | PP_NEED(PP_PART_KPRUNE))

#define PP_NO_SECTION SIZE_MAX

enum pp_section_state {
    PP_SECTION_OK,
    PP_SECTION_DAMAGED,    /* its own bytes are inconsistent */
    PP_SECTION_UNCHECKED,  /* it depends on a damaged section: not read */
    PP_SECTION_SKIPPED     /* a tag this pathprof does not know (format.md) */
};

struct pp_section {
    uint32_t index;        /* 1 = the first section of the file */
    uint32_t tag;
    size_t at;             /* byte offset of its header in the file */
    uint64_t length;       /* of its body */
    enum pp_section_state state;
    enum pp_part part;     /* what it feeds; for TU sections, which half failed */
    char *why;             /* DAMAGED, UNCHECKED: one line; else NULL */
};

#endif
