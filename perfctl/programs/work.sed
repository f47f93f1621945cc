# work.sed - perfctl's sed workload (perfctl/programs/sed.sh), run with
# LC_ALL=C sed -E -f work.sed over a perfctl/lib/gen-input.c file. Every
# kind of line the generator writes meets a different part of sed's
# matchers: intervals, classes and alternations the DFA answers alone,
# back-references it cannot (gnulib's regex, compiled in, backtracks),
# s///g with & and \N, y///, the hold space, N/P/D, branches and t loops.
# Deterministic: the output follows the input only.

# log lines: reorder the date, rename fields, keep the errors for the end
/^[0-9]{4}-[0-9]{2}-[0-9]{2} /{
  s/^([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9:.]+) \[([A-Z]+)\]/\5 \3.\2.\1 \4/
  s/id=([0-9a-f]+)/ID<\1>/
  s/n=([0-9]*)([0-9])\b/n=\2\1/
  /^ERROR/{
    H
    x
    s/^([^\n]*\n){40}//
    x
  }
  b
}

# function headers: swap each parameter's type and name
/^(static |extern )?(int|void|char|long|unsigned)[ *]+[a-z_]+\(/{
  s/\(([a-z]+) ([a-z_]+)\)/(\2: \1)/g
  s/^static /s /
  b
}

# code lines: spaces around operators, keywords marked, a block joined
/^[ \t]+[a-z]/{
  s/^([ \t]+)(if|while|for|return|switch)\b/\1<\2>/
  s/ *([<>=!]=?|[-+*\/]) */ \1 /g
  s/  +/ /g
  /\{$/{
    N
    s/\{\n[ \t]*/{ /
    P
    D
  }
  b
}

# prose: repeated words, syllable swaps, a capital loop, long lines cut
s/\b([a-z]+) \1\b/[dup \1]/g
s/(ion|ar|ste)(th|ka|li)/\2\1/g
s/\b([A-Za-z])([a-z]*)([a-z])\b/\3\2\1/
:caps
s/(^|[.,] )([a-z])([a-z]*)(, | )([a-z])/\1\2\3\4\u\5/
t caps
/^.{100}/{
  s/^(.{90})[^ ]* (.*)$/\1~\n\2/
  P
  D
}
y/aeiou/AEIOU/
$!b
# the last line: the errors kept in the hold space
G
s/\n/ | /g
