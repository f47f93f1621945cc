#!/usr/bin/env bash
# The preferential path numbering (plugin/ppp-number.cc) on its own: the
# PPP paper's worked example (Fig. 3 / Table 3), its Lemma 3 graph (Fig. 6)
# and 3000 random DAGs with random interesting sets, checked against
# brute-force enumeration of every path (tests/ppp/number-test.cc).
. "$(dirname "$0")/lib/tap.sh"
command -v g++ >/dev/null || plan skip_all "no g++"
if ! g++ -O1 -g -Wall -Wextra -Werror -I"$TAP_ROOT/plugin" "$TAP_ROOT/plugin/ppp-number.cc" \
    "$TAP_ROOT/tests/ppp/number-test.cc" -o "$T/number-test" 2>"$T/cc.err"; then
    plan skip_all "cannot build number-test.cc: $(head -n 3 "$T/cc.err")"
fi
exec "$T/number-test"
