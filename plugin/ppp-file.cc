/* ppp-file.cc - reading the interesting-paths file (see ppp-file.h).
 *
 * The format is line-oriented so that a user may edit it: a version line
 * "pathprof-interesting-paths 1", then "FUNCTION FILE 0xCHECKSUM ID" lines
 * separated by blanks; '#' starts a comment, blank lines are ignored.
 * Lines of one function need not be adjacent. */
#include "gcc-headers.h"
#include "ppp-file.h"

#include <errno.h>
#include <map>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static std::vector<pp_ppp_entry> entries;
static std::map<std::string, std::vector<size_t> > by_name;

static bool
parse_u64 (const char *s, int base, uint64_t *v)
{
  char *end;
  if (!*s || *s == '-' || *s == '+')
    return false;
  errno = 0;
  unsigned long long x = strtoull (s, &end, base);
  if (errno || *end)
    return false;
  *v = x;
  return true;
}

static pp_ppp_entry *
entry_for (const std::string &name, const std::string &file, uint64_t checksum,
           unsigned line)
{
  std::vector<size_t> &same = by_name[name];
  for (size_t i = 0; i < same.size (); i++)
    if (entries[same[i]].file == file && entries[same[i]].checksum == checksum)
      return &entries[same[i]];
  pp_ppp_entry e;
  e.name = name;
  e.file = file;
  e.checksum = checksum;
  e.line = line;
  same.push_back (entries.size ());
  entries.push_back (e);
  return &entries.back ();
}

bool
pp_ppp_load (const char *path)
{
  FILE *f = fopen (path, "r");
  if (!f)
    {
      error ("pathprof: cannot read the interesting paths %qs (plugin argument "
             "%<ppp%>): %s", path, xstrerror (errno));
      return false;
    }
  char buf[8192];
  unsigned line = 0;
  bool ok = true, seen_version = false;
  while (fgets (buf, sizeof buf, f))
    {
      line++;
      size_t len = strlen (buf);
      if (len == sizeof buf - 1 && buf[len - 1] != '\n')
        {
          error ("pathprof: %s:%u: line longer than %u bytes", path, line,
                 (unsigned) sizeof buf - 2);
          ok = false;
          break;
        }
      if (char *hash = strchr (buf, '#'))
        *hash = '\0';
      char *field[5];
      int n = 0;
      for (char *tok = strtok (buf, " \t\r\n"); tok && n < 5;
           tok = strtok (NULL, " \t\r\n"))
        field[n++] = tok;
      if (n == 0)
        continue;
      if (!seen_version)
        {
          if (n != 2 || strcmp (field[0], "pathprof-interesting-paths") != 0
              || strcmp (field[1], "1") != 0)
            {
              error ("pathprof: %s:%u: not an interesting-paths file (the first "
                     "line must be %<pathprof-interesting-paths 1%>; "
                     "%<pathprof select PROFILE%> writes one)", path, line);
              ok = false;
              break;
            }
          seen_version = true;
          continue;
        }
      uint64_t checksum, id;
      if (n != 4)
        {
          error ("pathprof: %s:%u: %d fields, want 4: FUNCTION FILE CHECKSUM "
                 "PATH-ID", path, line, n);
          ok = false;
          continue;
        }
      if (strncmp (field[2], "0x", 2) != 0 || !parse_u64 (field[2] + 2, 16, &checksum))
        {
          error ("pathprof: %s:%u: checksum %qs is not 0x followed by hex digits",
                 path, line, field[2]);
          ok = false;
          continue;
        }
      if (!parse_u64 (field[3], 10, &id))
        {
          error ("pathprof: %s:%u: path ID %qs is not a decimal number", path,
                 line, field[3]);
          ok = false;
          continue;
        }
      entry_for (field[0], field[1], checksum, line)->ids.push_back (id);
    }
  if (ok && ferror (f))
    {
      error ("pathprof: cannot read the interesting paths %qs: %s", path,
             xstrerror (errno));
      ok = false;
    }
  if (ok && !seen_version)
    {
      error ("pathprof: %s: empty, not an interesting-paths file", path);
      ok = false;
    }
  fclose (f);
  return ok;
}

const pp_ppp_entry *
pp_ppp_find (const char *name, const char *file, uint64_t checksum)
{
  std::map<std::string, std::vector<size_t> >::const_iterator it = by_name.find (name);
  if (it == by_name.end ())
    return NULL;
  std::string f = file ? file : "-";
  const pp_ppp_entry *by_sum = NULL;
  int nsum = 0;
  for (size_t i = 0; i < it->second.size (); i++)
    {
      const pp_ppp_entry &e = entries[it->second[i]];
      if (e.checksum != checksum)
        continue;
      if (e.file == f)
        return &e;
      by_sum = &e;
      nsum++;
    }
  return nsum == 1 ? by_sum : NULL;
}

const pp_ppp_entry *
pp_ppp_find_changed (const char *name, const char *file)
{
  std::map<std::string, std::vector<size_t> >::const_iterator it = by_name.find (name);
  if (it == by_name.end ())
    return NULL;
  std::string f = file ? file : "-";
  for (size_t i = 0; i < it->second.size (); i++)
    if (entries[it->second[i]].file == f)
      return &entries[it->second[i]];
  return NULL;
}
