/* build-signature.cc - see build-signature.h. */
#include "gcc-headers.h"
#include "build-signature.h"

/* Options left out: those naming files of this compilation's own
   outputs or of the plugin's install (-o is a temporary .s, the dump and
   dependency files follow the object's name), and those that change what
   GCC says, not the code it makes.  Everything else stays, so the line is
   the same for two builds of one compilation and differs for two ways of
   compiling one file.  */
static bool
left_out (const struct cl_decoded_option *o)
{
  switch (o->opt_index)
    {
    case OPT_SPECIAL_input_file:
    case OPT_o:
    case OPT_dumpbase:
    case OPT_dumpbase_ext:
    case OPT_dumpdir:
    case OPT_quiet:
    case OPT_iplugindir_:
    case OPT_fplugin_:
    case OPT_fdiagnostics_color_:
    case OPT_M:
    case OPT_MM:
    case OPT_MD:
    case OPT_MMD:
    case OPT_MF:
    case OPT_MP:
    case OPT_MQ:
    case OPT_MT:
      return true;
    default:
      break;
    }
  if (o->opt_index >= cl_options_count)
    return false;
  return (cl_options[o->opt_index].flags & CL_WARNING) != 0;
}

/* O as one word for a one-letter option that takes its argument joined:
   the driver hands cc1 "-D VARIANT" for the user's -DVARIANT, and the
   label a report gives a variant ("with -DVARIANT") reads as people
   write it.  Longer ones (-include FILE) keep the space.  */
static std::string
option_text (const struct cl_decoded_option *o)
{
  if (o->canonical_option_num_elements == 2
      && strlen (o->canonical_option[0]) == 2
      && o->opt_index < cl_options_count
      && (cl_options[o->opt_index].flags & CL_JOINED))
    return std::string (o->canonical_option[0]) + o->canonical_option[1];
  return o->orig_option_with_args_text;
}

std::string
pp_build_signature (void)
{
  std::string s = lang_hooks.name ? lang_hooks.name : "?";
  s += '\n';
  s += main_input_filename ? main_input_filename : "?";
  /* Option 0 is the compiler's own name (cc1 or cc1plus: the language
     already says it).  */
  for (unsigned i = 1; i < save_decoded_options_count; i++)
    {
      const struct cl_decoded_option *o = &save_decoded_options[i];
      if (left_out (o) || !o->orig_option_with_args_text)
        continue;
      s += '\n';
      s += option_text (o);
    }
  return s;
}
