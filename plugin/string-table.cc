/* string-table.cc - the TU's interned strings, in the order first used
 * (that order is the blob's: an index never changes once handed out). */
#include "string-table.h"

#include <map>
#include <vector>

static std::vector<std::string> strings;
static std::map<std::string, uint32_t> string_index;

uint32_t
pp_string_index (const char *s)
{
  std::map<std::string, uint32_t>::iterator it = string_index.find (s);
  if (it != string_index.end ())
    return it->second;
  uint32_t i = (uint32_t) strings.size ();
  strings.push_back (s);
  string_index[s] = i;
  return i;
}

uint32_t
pp_string_count (void)
{
  return (uint32_t) strings.size ();
}

const std::string &
pp_string_at (uint32_t i)
{
  return strings[i];
}
