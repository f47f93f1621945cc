/* interesting_write.c - writing the interesting-paths file (see
 * interesting_write.h; the format is in docs/format.md). */
#include "interesting_write.h"

#include <inttypes.h>

/* Fields are separated by blanks and '#' starts a comment, so a field may
 * hold neither; nor control bytes, which an editor would mangle. */
static bool fits_field(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == '#' || *s == 0x7f)
            return false;
    return true;
}

bool interesting_write(FILE *out, const struct pp_profile *p, const struct ranked_path *paths,
                       size_t n, const struct interesting_source *src, struct pp_error *err)
{
    uint64_t total = profile_total(p), executed = 0;
    size_t i, nfuncs = 0;

    for (i = 0; i < p->nfuncs; i++)
        executed += p->funcs[i].nrecords;
    for (i = 0; i < n; i++) {
        const struct pp_func_meta *m = p->funcs[paths[i].func].meta;
        if (!fits_field(m->name) || (m->file && !fits_field(m->file)))
            return pp_fail(err, "function %s (file %s): a name with a blank, a control "
                                "character or '#' cannot be written as an interesting path",
                           m->name, m->file ? m->file : "-");
        if (i == 0 || paths[i].func != paths[i - 1].func)
            nfuncs++;
    }
    fputs("pathprof-interesting-paths 1\n"
          "# Interesting paths for -fplugin-arg-pathprof-ppp=FILE (docs/format.md,\n"
          "# \"Interesting paths\"). One path a line: FUNCTION FILE CHECKSUM PATH-ID,\n"
          "# the Ball-Larus ID in the build whose CFG checksum is given; FILE is -\n"
          "# when unknown; '#' starts a comment. Delete or add lines freely.\n",
          out);
    fprintf(out, "# selected from %s: %zu of %" PRIu64 " executed paths in %zu functions,\n"
                 "# %" PRIu64 " of %" PRIu64 " path executions (%.2f%%; --cover %g)\n",
            src->profile, n, executed, nfuncs, src->covered, total,
            total ? 100.0 * (double)src->covered / (double)total : 100.0, src->cover);
    for (i = 0; i < n; i++) {
        const struct pp_func_meta *m = p->funcs[paths[i].func].meta;
        fprintf(out, "%s %s 0x%016" PRIx64 " %" PRIu64 "  # count %" PRIu64 "\n", m->name,
                m->file ? m->file : "-", m->checksum, paths[i].id, paths[i].count);
    }
    return true;
}
