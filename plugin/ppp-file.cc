/* ppp-file.cc - reading the interesting-paths file (see ppp-file.h).
 *
 * The format is line-oriented so that a user may edit it: a version line
 * "pathprof-interesting-paths 1" (or 2, 3), then "FUNCTION FILE 0xCHECKSUM ID"
 * lines separated by blanks (version 3: "FUNCTION FILE LINE 0xCHECKSUM ID"
 * too, LINE telling C++ overloads of one name in one file apart); '#' starts a comment, blank lines are ignored.
 * A field may be in double quotes, with \" \\ \t \n \r \xHH escapes
 * inside: C++ names hold blanks ("f<int, char>").  Lines of one function
 * need not be adjacent. */
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
entry_for (const std::string &name, const std::string &file, unsigned decl_line,
           uint64_t checksum, unsigned line)
{
  std::vector<size_t> &same = by_name[name];
  for (size_t i = 0; i < same.size (); i++)
    if (entries[same[i]].file == file && entries[same[i]].decl_line == decl_line
        && entries[same[i]].checksum == checksum)
      return &entries[same[i]];
  pp_ppp_entry e;
  e.name = name;
  e.file = file;
  e.decl_line = decl_line;
  e.checksum = checksum;
  e.line = line;
  same.push_back (entries.size ());
  entries.push_back (e);
  return &entries.back ();
}

/* Splits LINE into at most 5 fields (a 5th means too many), unquoting
   quoted ones; '#' outside quotes ends the line.  On malformed quoting,
   returns -1 with *WHY and *COL (1-based) set.  */
static int
split_fields (const std::string &line, std::string field[5], const char **why,
              size_t *col)
{
  int n = 0;
  size_t i = 0, len = line.size ();
  while (n < 5)
    {
      while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'
                         || line[i] == '\n'))
        i++;
      if (i == len || line[i] == '#')
        break;
      std::string &f = field[n++];
      f.clear ();
      if (line[i] != '"')
        {
          while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r'
                 && line[i] != '\n' && line[i] != '#')
            f += line[i++];
          continue;
        }
      size_t open = i++;
      for (;;)
        {
          if (i >= len || line[i] == '\n')
            {
              *why = "a quoted field has no closing '\"'";
              *col = open + 1;
              return -1;
            }
          char c = line[i++];
          if (c == '"')
            break;
          if (c != '\\')
            {
              f += c;
              continue;
            }
          char e = i < len ? line[i] : '\0';
          i++;
          if (e == '"' || e == '\\')
            f += e;
          else if (e == 't')
            f += '\t';
          else if (e == 'n')
            f += '\n';
          else if (e == 'r')
            f += '\r';
          else if (e == 'x' && i + 1 < len && ISXDIGIT (line[i])
                   && ISXDIGIT (line[i + 1]))
            {
              f += (char) strtoul (line.substr (i, 2).c_str (), NULL, 16);
              i += 2;
            }
          else
            {
              *why = "unknown escape in a quoted field (use \\\", \\\\, \\t, "
                     "\\n, \\r or \\xHH)";
              *col = i - 1;
              return -1;
            }
        }
      if (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r'
          && line[i] != '\n' && line[i] != '#')
        {
          *why = "a closing '\"' must be followed by a blank";
          *col = i + 1;
          return -1;
        }
    }
  return n;
}

/* Reads one line of any length into LINE; false at end of file.  */
static bool
read_line (FILE *f, std::string &line)
{
  int c;
  line.clear ();
  while ((c = getc (f)) != EOF)
    {
      line += (char) c;
      if (c == '\n')
        break;
    }
  return c != EOF || !line.empty ();
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
  std::string buf, field[5];
  unsigned line = 0;
  bool ok = true, seen_version = false;
  int version = 0;
  while (read_line (f, buf))
    {
      line++;
      const char *why = NULL;
      size_t col = 0;
      int n = split_fields (buf, field, &why, &col);
      if (n < 0)
        {
          error ("pathprof: %s:%u:%u: %s", path, line, (unsigned) col, why);
          ok = false;
          continue;
        }
      if (n == 0)
        continue;
      if (!seen_version)
        {
          /* Version 2 adds quoted fields; a version 1 file is read the
             same way (its fields never start with '"').  Version 3 adds
             the optional LINE field, so that a plugin older than it
             refuses such a file instead of misreading its lines.  */
          if (n != 2 || field[0] != "pathprof-interesting-paths"
              || (field[1] != "1" && field[1] != "2" && field[1] != "3"))
            {
              error ("pathprof: %s:%u: not an interesting-paths file (the first "
                     "line must be %<pathprof-interesting-paths 1%>, %<2%> or "
                     "%<3%>; %<pathprof select PROFILE%> writes one)", path, line);
              ok = false;
              break;
            }
          version = field[1][0] - '0';
          seen_version = true;
          continue;
        }
      uint64_t checksum, id, decl_line = 0;
      if (version < 3 && n != 4)
        {
          error ("pathprof: %s:%u: %d fields, want 4: FUNCTION FILE CHECKSUM "
                 "PATH-ID (a name with blanks goes in double quotes); a LINE "
                 "field after FILE needs version 3", path, line, n);
          ok = false;
          continue;
        }
      if (n != 4 && n != 5)
        {
          error ("pathprof: %s:%u: %d fields, want 4 or 5: FUNCTION FILE [LINE] "
                 "CHECKSUM PATH-ID (a name with blanks goes in double quotes)",
                 path, line, n);
          ok = false;
          continue;
        }
      if (n == 5)
        {
          /* FUNCTION FILE LINE CHECKSUM PATH-ID: shift to the 4-field
             layout once LINE is read.  */
          if (!parse_u64 (field[2].c_str (), 10, &decl_line) || decl_line == 0
              || decl_line > 0xffffffffu)
            {
              error ("pathprof: %s:%u: LINE %qs (the 3rd of 5 fields: FUNCTION "
                     "FILE LINE CHECKSUM PATH-ID) is not a line number (a name "
                     "with blanks goes in double quotes)", path, line,
                     field[2].c_str ());
              ok = false;
              continue;
            }
          field[2] = field[3];
          field[3] = field[4];
        }
      if (field[0].empty ())
        {
          error ("pathprof: %s:%u: empty function name", path, line);
          ok = false;
          continue;
        }
      if (field[2].compare (0, 2, "0x") != 0
          || !parse_u64 (field[2].c_str () + 2, 16, &checksum))
        {
          error ("pathprof: %s:%u: checksum %qs is not 0x followed by hex digits",
                 path, line, field[2].c_str ());
          ok = false;
          continue;
        }
      if (!parse_u64 (field[3].c_str (), 10, &id))
        {
          error ("pathprof: %s:%u: path ID %qs is not a decimal number", path,
                 line, field[3].c_str ());
          ok = false;
          continue;
        }
      entry_for (field[0], field[1], (unsigned) decl_line, checksum, line)
        ->ids.push_back (id);
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
pp_ppp_find (const char *name, const char *file, unsigned decl_line,
             uint64_t checksum)
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
      /* An entry with a LINE is this function only at that line; one
         without stands for every function of that name in the file.  */
      if (e.file == f && (e.decl_line == 0 || e.decl_line == decl_line))
        return &e;
      by_sum = &e;
      nsum++;
    }
  /* Not found by file (and line): the only entry of that name with this
     checksum, as when the file was named otherwise or lines above the
     function were added or removed since the selection.  */
  return nsum == 1 ? by_sum : NULL;
}

const pp_ppp_entry *
pp_ppp_find_changed (const char *name, const char *file, unsigned decl_line)
{
  std::map<std::string, std::vector<size_t> >::const_iterator it = by_name.find (name);
  if (it == by_name.end ())
    return NULL;
  std::string f = file ? file : "-";
  for (size_t i = 0; i < it->second.size (); i++)
    {
      const pp_ppp_entry &e = entries[it->second[i]];
      if (e.file == f && (e.decl_line == 0 || e.decl_line == decl_line))
        return &e;
    }
  return NULL;
}
