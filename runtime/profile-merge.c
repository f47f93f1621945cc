/* profile-merge.c - adding one profile to the merge accumulator (see
 * profile-merge.h): the envelope and the order of the sections here, each
 * kind of section in profile-merge-tu.c or profile-merge-kiter.c.  The
 * input is checked as it is read: every length against the bytes left,
 * every label against the TU it names, so a damaged or hostile file ends
 * in an error, never in a bad read or a profile that would not read back. */
#include "profile-merge.h"
#include "profile-merge-input.h"
#include "profile-merge-kiter.h"
#include "profile-merge-sampling.h"
#include "profile-merge-state.h"
#include "profile-merge-tu.h"
#include "profile-merge-vpp.h"
#include "profile-merge-wpp.h"
#include "profile-checksum.h"
#include "le-bytes.h"
#include "pathprof-abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the envelope ---- */

struct pprt_merge *pprt_merge_new(void) { return calloc(1, sizeof(struct pprt_merge)); }

size_t pprt_merge_count(const struct pprt_merge *m) { return m->ninputs; }

void pprt_merge_check_only(struct pprt_merge *m) { m->shallow = 1; }

static int check_envelope(const unsigned char *d, size_t len, uint32_t *nsections,
                          struct pprt_merge_error *err)
{
    if (len < 8 || memcmp(d, PATHPROF_FILE_MAGIC, 8) != 0)
        return mg_fail(err, "not a pathprof profile (it does not start with \"%s\")",
                    PATHPROF_FILE_MAGIC);
    if (len < PATHPROF_FILE_HEADER_SIZE + 8)
        return mg_fail(err, "truncated: %zu bytes", len);
    uint32_t version = pprt_get_u32(d + 8);
    if (version < PATHPROF_FILE_VERSION_OLDEST || version > PATHPROF_FILE_VERSION)
        return mg_fail(err, "profile format version %u, this pathprof reads versions %u to %u",
                    version, PATHPROF_FILE_VERSION_OLDEST, PATHPROF_FILE_VERSION);
    if (pprt_get_u32(d + 12) != PATHPROF_FILE_HEADER_SIZE)
        return mg_fail(err, "header size %u, expected %u", pprt_get_u32(d + 12),
                    PATHPROF_FILE_HEADER_SIZE);
    uint64_t payload = pprt_get_u64(d + 48);
    if (payload != len - PATHPROF_FILE_HEADER_SIZE - 8)
        return mg_fail(err, "the header announces %llu payload bytes, the file holds %zu",
                    (unsigned long long)payload, len - PATHPROF_FILE_HEADER_SIZE - 8);
    uint64_t stored = pprt_get_u64(d + len - 8);
    uint64_t computed = pprt_profile_checksum(version, d, len - 8);
    if (stored != computed)
        return mg_fail(err, "checksum mismatch (stored %016llx, computed %016llx): the file is "
                    "damaged", (unsigned long long)stored, (unsigned long long)computed);
    uint32_t mode = pprt_get_u32(d + 16);
    if (mode != PATHPROF_MODE_COUNT && mode != PATHPROF_MODE_STREAM)
        return mg_fail(err, "profile mode %u is not known", mode);
    *nsections = pprt_get_u32(d + 40);
    /* A section is at least its 16-byte head: a count beyond that is
     * damage, not a size to allocate. */
    if (*nsections > payload / 16)
        return mg_fail(err, "the header announces %u sections, more than %llu payload bytes "
                       "can hold", *nsections, (unsigned long long)payload);
    return 0;
}

int pprt_merge_add(struct pprt_merge *m, const unsigned char *d, size_t len, const char *name,
                   struct pprt_merge_error *err)
{
    uint32_t nsections = 0;
    if (check_envelope(d, len, &nsections, err) != 0)
        return -1;
    uint32_t mode = pprt_get_u32(d + 16);
    if (m->ninputs && mode != m->mode)
        return mg_fail(err, "a %s-mode profile cannot be merged with %s-mode ones: they come "
                    "from different builds", mode == PATHPROF_MODE_STREAM ? "stream" : "count",
                    m->mode == PATHPROF_MODE_STREAM ? "stream" : "count");
    char **names = realloc(m->names, (m->ninputs + 1) * sizeof *names);
    if (!names)
        return mg_fail(err, "out of memory");
    m->names = names;
    if (!(names[m->ninputs] = strdup(name)))
        return mg_fail(err, "out of memory");
    size_t input = m->ninputs++;
    uint64_t pid = pprt_get_u64(d + 24), time = pprt_get_u64(d + 32);
    if (input == 0)
        m->pid = pid;
    else if (pid != m->pid)
        m->pid_mixed = 1;
    if (time > m->time)
        m->time = time;
    m->mode = mode;

    /* First pass: framing, PROGRAM, SAMPLING, TU and STREAM (KIPF, KPRUNE
     * and WPP name TUs by their rank among the TU sections, so they wait
     * for the second). */
    size_t *tumap = malloc(((size_t)nsections + 1) * sizeof *tumap), ntus = 0;
    if (!tumap)
        return mg_fail(err, "out of memory");
    struct mg_cur c = {d, len - 8, PATHPROF_FILE_HEADER_SIZE};
    /* The sections whose labels name TU sections, by kind: where they are. */
    enum { LATE_KIPF, LATE_KPRUNE, LATE_WPP, LATE_VPP, NLATE };
    static const char *const late_name[NLATE] = {"KIPF", "KPRUNE", "WPP", "VPP"};
    size_t late_at[NLATE] = {0};
    uint64_t late_len[NLATE] = {0};
    int seen_program = 0, seen_stream = 0, seen_sampling = 0, rc = 0;
    for (uint32_t s = 0; s < nsections && rc == 0; s++) {
        uint32_t tag, reserved;
        uint64_t slen;
        if (mg_get_u32(&c, &tag) || mg_get_u32(&c, &reserved) || mg_get_u64(&c, &slen) || slen > mg_left(&c)) {
            rc = mg_fail(err, "section %u of %u runs past the payload", s, nsections);
            break;
        }
        struct mg_cur sc = {c.p, c.pos + slen, c.pos};
        size_t at = c.pos;
        c.pos += slen;
        int *once = tag == PATHPROF_SECTION_PROGRAM ? &seen_program
                  : tag == PATHPROF_SECTION_STREAM ? &seen_stream
                  : tag == PATHPROF_SECTION_SAMPLING ? &seen_sampling : NULL;
        if (once && (*once)++) {
            rc = mg_fail(err, "two sections of tag %u: which one holds the run is unknown", tag);
            break;
        }
        switch (tag) {
        case PATHPROF_SECTION_PROGRAM:
            rc = mg_read_program(m, &sc, err);
            break;
        case PATHPROF_SECTION_TU:
            rc = mg_read_tu(m, &sc, input, &tumap[ntus], err);
            ntus++;
            break;
        case PATHPROF_SECTION_STREAM:
            rc = mg_read_stream(m, &sc, err);
            break;
        case PATHPROF_SECTION_SAMPLING:
            rc = mg_read_sampling(m, &sc, input, err);
            break;
        case MG_TAG_KIPF:
        case MG_TAG_KPRUNE:
        case PATHPROF_SECTION_WPP:
        case PATHPROF_SECTION_VPP: {
            int k = tag == MG_TAG_KIPF ? LATE_KIPF : tag == MG_TAG_KPRUNE ? LATE_KPRUNE
                  : tag == PATHPROF_SECTION_WPP ? LATE_WPP : LATE_VPP;
            if (late_at[k] != 0) {
                rc = mg_fail(err, "two %s sections: which one holds the run is unknown",
                             late_name[k]);
                break;
            }
            late_at[k] = at;
            late_len[k] = slen;
            break;
        }
        default:
            rc = mg_fail(err, "section %u has tag %u, which this pathprof cannot merge "
                      "(a newer pathprof wrote it?)", s, tag);
        }
        if (rc)
            snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
                     " (section %u, tag %u)", s, tag);
    }
    if (rc == 0 && mg_left(&c))
        rc = mg_fail(err, "%zu payload bytes after the last of the %u sections", mg_left(&c),
                  nsections);
    for (int k = 0; k < NLATE && rc == 0; k++) {
        if (!late_at[k])
            continue;
        struct mg_cur sc = {d, late_at[k] + late_len[k], late_at[k]};
        rc = k == LATE_KIPF     ? mg_read_kipf(m, &sc, tumap, ntus, err)
           : k == LATE_KPRUNE ? mg_read_kprune(m, &sc, tumap, ntus, input, err)
           : k == LATE_WPP    ? mg_read_wpp(m, &sc, tumap, ntus, err)
                              : mg_read_vpp(m, &sc, tumap, ntus, input, err);
        if (rc)
            snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
                     " (%s section)", late_name[k]);
    }
    if (rc == 0)
        rc = mg_vpp_check_all(m, input, late_at[LATE_VPP] != 0, err);
    free(tumap);
    return rc;
}

void pprt_merge_free(struct pprt_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->ntus; i++) {
        struct mg_tu *t = &m->tus[i];
        for (uint32_t j = 0; t->funcs && j < t->nfuncs; j++) {
            free(t->funcs[j].rec);
            free(t->funcs[j].verify);
        }
        free(t->funcs);
        free(t->blob);
    }
    free(m->tus);
    free(m->tu_slots);
    free(m->fn_slots);
    free(m->program.program);
    free(m->program.cmdline);
    for (size_t i = 0; i < m->stream.nnames; i++)
        free(m->stream.names[i]);
    free(m->stream.names);
    free(m->stream.threads);
    free(m->kipf.levels);
    free(m->kipf.packed);
    free(m->kipf.roots);
    for (uint32_t n = 0; m->kprune.len && n < m->kprune.k; n++) {
        free(m->kprune.len[n].seqs);
        free(m->kprune.len[n].ids);
        free(m->kprune.len[n].slots);
    }
    free(m->kprune.len);
    mg_free_wpp(&m->wpp);
    mg_free_vpp(&m->vpp);
    for (size_t i = 0; i < m->ninputs; i++)
        free(m->names[i]);
    free(m->names);
    free(m);
}
