/* main.c - `pathprof`: dispatch to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "pathprof-abi.h"
#include "version.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    { "report", cmd_report },
    { "show", cmd_show },
    { "dot", cmd_dot },
    { "config", cmd_config },
    { "dump", cmd_dump },
    { "tree", cmd_tree },
    { "merge", cmd_merge },
    { "diff", cmd_diff },
    { "html", cmd_html },
    { "wpp", cmd_wpp },
    { "select", cmd_select },
    { "residual", cmd_residual },
    { "vpp", cmd_vpp },
};

static void usage(FILE *out)
{
    fputs("Usage: pathprof COMMAND [ARGS]\n"
          "Reads the path profiles written by programs built with the pathprof GCC plugin.\n"
          "\n"
          "Commands:\n"
          "  report FILE [--top N] [--function NAME]... [--json]\n"
          "                          the hottest paths, by count and by count x length,\n"
          "                          each shown as the source lines it runs\n"
          "  report --k FILE [--min-count N] [--top N] [--function NAME]... [--json]\n"
          "                          the hottest k-iteration paths (PATHPROF_ANALYZER=ksf)\n"
          "  show FILE FUNCTION ID   one path decoded: edges, blocks, lines, count\n"
          "  tree FILE FUNCTION ID [--prune PERCENT]\n"
          "                          the k-iteration paths that start with one path\n"
          "  dot FILE FUNCTION       the numbered path graph with its counts, for Graphviz\n"
          "  diff A B [--top N] [--function NAME]... [--json]\n"
          "                          paths whose share changed most, new and gone ones\n"
          "  html -o DIR PROFILE...  a static HTML report: functions, annotated sources\n"
          "  dump TRACE [--thread N] [--raw]\n"
          "                          the event stream of a trace (PATHPROF_ANALYZER=trace),\n"
          "                          one line per event with its activation depth\n"
          "  merge -o OUT IN...      profiles of one build added into one (counts, k-iteration\n"
          "                          paths, pruned bounds); any order gives the same OUT\n"
          "  wpp FILE [--expand] [--hot [--all]] [--json]\n"
          "                          whole program paths (PATHPROF_ANALYZER=wpp): summary,\n"
          "                          hot subpaths as source lines, the streams expanded\n"
          "  select PROFILE [--cover F]\n"
          "                          the interesting paths for a PPP build (ppp=FILE)\n"
          "  residual TEST_PROFILE PROD_PROFILE [--top N] [--json]\n"
          "                          paths that ran in one profile and never in the other\n"
          "  vpp FILE [--top N | --all] [--against OTHER] [--json]\n"
          "                          timed paths (vpp=yes, PATHPROF_ANALYZER=vpp) by net\n"
          "                          variation, with histograms and source lines\n"
          "  config --cflags | --libs | --specs | --plugin | --runtime-dir\n"
          "                          what to add to a gcc command line, e.g.\n"
          "      gcc -specs=$(pathprof config --specs) -O2 prog.c\n"
          "\n"
          "FUNCTION is a name, or FILE:NAME to pick one of several static functions.\n"
          "'pathprof COMMAND --help' describes one command.\n"
          "\n"
          "Options:\n"
          "  -h, --help     this help\n"
          "  -V, --version  the version, and the file formats it reads\n"
          "\n"
          "Exit status: 0 success; 1 no such function or path, no KIPF section (config:\n"
          "plugin or runtime missing); 2 usage error, or a profile or trace that is unreadable or damaged.\n",
          out);
}

int main(int argc, char **argv)
{
    size_t i;

    if (argc < 2)
        return usage_error("which command? (report, show, tree, dot, diff, html, dump, merge, wpp, select, residual, vpp, config)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return finish_output(0);
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("pathprof %s (profile format %u, metadata %u, run-time ABI %u)\n",
               PATHPROF_VERSION, PATHPROF_FILE_VERSION, PATHPROF_META_VERSION,
               PATHPROF_ABI_VERSION);
        return finish_output(0);
    }
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    if (argv[1][0] == '-')
        return usage_error("unknown option '%s'", argv[1]);
    return usage_error("unknown command '%s' (report, show, tree, dot, diff, html, dump, merge, wpp, select, residual, vpp, config)", argv[1]);
}
