/* section_status.c - per-section status of a profile: marking what is broken,
 * telling a command whether it can answer, saying so on stderr and in JSON
 * (see sections.h). */
#include "section_status.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out/json_out.h"
#include "kipf.h"
#include "kprune.h"
#include "wpp.h"
#include "pathprof-abi.h"
#include "profile.h"
#include "out/text_out.h"

const char *section_kind(uint32_t tag)
{
    switch (tag) {
    case PATHPROF_SECTION_PROGRAM: return "PROGRAM";
    case PATHPROF_SECTION_TU: return "TU";
    case PATHPROF_SECTION_STREAM: return "STREAM";
    case PATHPROF_SECTION_KIPF: return "KIPF";
    case PATHPROF_SECTION_KPRUNE: return "KPRUNE";
    case PATHPROF_SECTION_WPP: return "WPP";
    case PATHPROF_SECTION_VPP: return "VPP";
    case PATHPROF_SECTION_SAMPLING: return "SAMPLING";
    default: return "unknown";
    }
}

bool section_mark(struct pp_profile *p, size_t s, enum pp_part part,
                  enum pp_section_state state, const char *why)
{
    struct pp_section *sec = &p->sections[s];

    if (p->broken[part] == PP_NO_SECTION)
        p->broken[part] = s;
    if (sec->state == PP_SECTION_DAMAGED || sec->state == PP_SECTION_UNCHECKED)
        return true;
    sec->state = state;
    sec->part = part;
    sec->why = strdup(why);
    return sec->why != NULL;
}

/* What is lost without each part, as a command that goes on says it. */
static const char *const lost[PP_NPARTS] = {
    [PP_PART_PROGRAM] = "the program, its command line and update totals are not shown",
    [PP_PART_STREAM] = "whether the stream lost events is not known",
    [PP_PART_TU_META] = "its functions are not known",
    [PP_PART_TU_COUNTS] = "the Ball-Larus path counts are not shown",
    [PP_PART_KIPF] = "the k-iteration paths are left out",
    [PP_PART_KPRUNE] = "the pruned k-iteration paths are left out",
    [PP_PART_SAMPLING] = "the counts of sampled functions are not scaled (the sampling "
                         "figures are not known)",
};

/* What a command that needs each part cannot show. */
static const char *const needed[PP_NPARTS] = {
    [PP_PART_PROGRAM] = "the program details",
    [PP_PART_STREAM] = "the stream figures",
    [PP_PART_TU_META] = "the functions",
    [PP_PART_TU_COUNTS] = "the Ball-Larus paths",
    [PP_PART_KIPF] = "the k-iteration paths",
    [PP_PART_KPRUNE] = "the pruned k-iteration paths",
    [PP_PART_SAMPLING] = "the sampling figures",
};

static bool part_sound(const struct pp_profile *p, enum pp_part part)
{
    return p->broken[part] == PP_NO_SECTION;
}

/* What the reader can still do with this file when PART is broken. */
static const char *still_works(const struct pp_profile *p, enum pp_part part)
{
    bool meta = part_sound(p, PP_PART_TU_META);
    bool bl = meta && part_sound(p, PP_PART_TU_COUNTS);
    bool kipf = meta && p->has_kipf && part_sound(p, PP_PART_KIPF);
    bool kprune = meta && p->has_kprune && part_sound(p, PP_PART_KPRUNE);

    if (part == PP_PART_KIPF && kprune)
        return "report --k --pruned reads the KPRUNE section";
    if (part == PP_PART_KPRUNE && kipf)
        return "report --k reads the KIPF section";
    if (part != PP_PART_TU_COUNTS && bl)
        return "pathprof report still reads the Ball-Larus paths";
    if (part == PP_PART_TU_COUNTS && kipf)
        return "report --k still reads the k-iteration paths";
    if (part == PP_PART_TU_COUNTS && kprune)
        return "report --k --pruned still reads the pruned k-iteration paths";
    return "the file is damaged: profile the program again";
}

static void out_where(FILE *out, const struct pp_section *s)
{
    fprintf(out, "section %" PRIu32 " (%s, at byte %zu)", s->index, section_kind(s->tag), s->at);
}

bool sections_usable(const char *file, const struct pp_profile *p, unsigned needs)
{
    size_t i;
    int part;

    for (part = 0; part < PP_NPARTS; part++) {
        const struct pp_section *s;
        if (!(needs & PP_NEED(part)) || part_sound(p, (enum pp_part)part))
            continue;
        s = &p->sections[p->broken[part]];
        fputs("pathprof: ", stderr);
        out_safe(stderr, file);
        fprintf(stderr, ": %s are unreadable (%s): ", needed[part],
                still_works(p, (enum pp_part)part));
        out_where(stderr, s);
        fputs(": ", stderr);
        out_safe(stderr, s->why);
        fputc('\n', stderr);
        return false;
    }
    for (i = 0; i < p->nsections; i++) {
        const struct pp_section *s = &p->sections[i];
        if (s->state != PP_SECTION_DAMAGED && s->state != PP_SECTION_UNCHECKED)
            continue;
        fputs("pathprof: ", stderr);
        out_safe(stderr, file);
        fputs(": warning: ", stderr);
        out_where(stderr, s);
        fprintf(stderr, " %s, %s: ", s->state == PP_SECTION_DAMAGED ? "is damaged" : "is set aside",
                lost[s->part]);
        out_safe(stderr, s->why);
        fputc('\n', stderr);
    }
    return true;
}

void sections_json(FILE *out, const struct pp_profile *p)
{
    static const char *const state[] = { "ok", "damaged", "unchecked", "skipped" };
    size_t i;

    fputs(",\n \"sections\":[", out);
    for (i = 0; i < p->nsections; i++) {
        const struct pp_section *s = &p->sections[i];
        fprintf(out, "%s{\"index\":%" PRIu32 ",\"kind\":\"%s\",\"tag\":%" PRIu32
                     ",\"at\":%zu,\"length\":%" PRIu64 ",\"status\":\"%s\"",
                i ? ",\n  " : "\n  ", s->index, section_kind(s->tag), s->tag, s->at, s->length,
                state[s->state]);
        if (s->why) {
            fputs(",\"error\":", out);
            json_string(out, s->why);
        }
        fputc('}', out);
    }
    fputs(i ? "\n ]" : "]", out);
}
