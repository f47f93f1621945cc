/* interesting_write.c - writing the interesting-paths file (see
 * interesting_write.h; the format is in docs/format.md). */
#include "interesting_write.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Fields are separated by blanks and '#' starts a comment, so a field
 * holding either (C++ template names: "std::vector<int, std::allocator
 * <int> >::push_back"), a '"' (which opens a quoted field), a control
 * byte (which an editor would mangle), or nothing at all is written
 * quoted; the file "-" too, which unquoted means "unknown". */
static bool needs_quotes(const char *s)
{
    if (!*s)
        return true;
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == '#' || *s == '"' || *s == 0x7f)
            return true;
    return false;
}

/* In quotes, '\' escapes '"', '\' and control bytes (\t, \n, \r, \xHH),
 * so every byte string round-trips and the line stays one line. */
static void write_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c < ' ' || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void write_field(FILE *out, const char *s, bool quote)
{
    if (quote)
        write_quoted(out, s);
    else
        fputs(s, out);
}

static const struct pp_profile *sort_profile;

static int by_name_file(const void *a, const void *b)
{
    const struct pp_func_meta *x = sort_profile->funcs[*(const size_t *)a].meta;
    const struct pp_func_meta *y = sort_profile->funcs[*(const size_t *)b].meta;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->file ? x->file : "-", y->file ? y->file : "-");
}

/* Marks in SHARED[i] the functions of P whose name and file another
 * function has too (C++ overloads: eight YAML::Emitter::Write in one
 * file): their lines get a LINE field, the only thing that tells them
 * apart. False when out of memory. */
static bool mark_shared(const struct pp_profile *p, bool *shared)
{
    size_t i, *order = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *order);

    if (!order)
        return false;
    for (i = 0; i < p->nfuncs; i++)
        order[i] = i;
    sort_profile = p;
    qsort(order, p->nfuncs, sizeof *order, by_name_file);
    for (i = 1; i < p->nfuncs; i++)
        if (!by_name_file(&order[i - 1], &order[i]))
            shared[order[i - 1]] = shared[order[i]] = true;
    free(order);
    return true;
}

bool interesting_write(FILE *out, const struct pp_profile *p, const struct ranked_path *paths,
                       size_t n, const struct interesting_source *src, struct pp_error *err)
{
    uint64_t total = profile_total(p), executed = 0;
    size_t i, nfuncs = 0;
    bool quoted = false, lines = false;
    bool *shared = calloc(p->nfuncs ? p->nfuncs : 1, sizeof *shared);

    if (!shared || !mark_shared(p, shared)) {
        free(shared);
        return pp_fail(err, "out of memory");
    }
    for (i = 0; i < p->nfuncs; i++)
        executed += p->funcs[i].nrecords;
    for (i = 0; i < n; i++) {
        const struct pp_func_meta *m = p->funcs[paths[i].func].meta;
        if (needs_quotes(m->name) || (m->file && (needs_quotes(m->file) || !strcmp(m->file, "-"))))
            quoted = true;
        if (shared[paths[i].func] && m->line)
            lines = true;
        if (i == 0 || paths[i].func != paths[i - 1].func)
            nfuncs++;
    }
    /* Version 1 when nothing needs quotes, so that such a file stays
     * readable by a plugin that predates quoted fields; one that does not
     * know version 2 then says so rather than misreading a name. */
    fprintf(out, "pathprof-interesting-paths %d\n", lines ? 3 : quoted ? 2 : 1);
    fputs("# Interesting paths for -fplugin-arg-pathprof-ppp=FILE (docs/format.md,\n"
          "# \"Interesting paths\"). One path a line: FUNCTION FILE CHECKSUM PATH-ID,\n"
          "# the Ball-Larus ID in the build whose CFG checksum is given; FILE is -\n"
          "# when unknown; a name with blanks, '#' or '\"' is in double quotes, with\n"
          "# \\\" and \\\\ inside; '#' starts a comment. Delete or add lines freely.\n",
          out);
    if (lines)
        fputs("# Functions that share a name and file (C++ overloads) have their\n"
              "# declaration line after FILE: FUNCTION FILE LINE CHECKSUM PATH-ID.\n",
              out);
    fprintf(out, "# selected from %s: %zu of %" PRIu64 " executed paths in %zu functions,\n"
                 "# %" PRIu64 " of %" PRIu64 " path executions (%.2f%%; --cover %g)\n",
            src->profile, n, executed, nfuncs, src->covered, total,
            total ? 100.0 * (double)src->covered / (double)total : 100.0, src->cover);
    for (i = 0; i < n; i++) {
        const struct pp_func_meta *m = p->funcs[paths[i].func].meta;
        write_field(out, m->name, needs_quotes(m->name));
        fputc(' ', out);
        if (m->file)
            write_field(out, m->file, needs_quotes(m->file) || !strcmp(m->file, "-"));
        else
            fputc('-', out);
        if (shared[paths[i].func] && m->line)
            fprintf(out, " %" PRIu32, m->line);
        fprintf(out, " 0x%016" PRIx64 " %" PRIu64 "  # count %" PRIu64 "\n", m->checksum,
                paths[i].id, paths[i].count);
    }
    free(shared);
    return true;
}
