#!/usr/bin/env bash
# pprt_hash64 (runtime/hash64.h), the trailer of profile file version 2:
# the C code and tests/cli/PPWrite.pm's hash64, written from
# docs/format.md alone, agree on every length from 0 to 100 bytes (each
# tail of a word and of a 32-byte block) and on 1 MB of random bytes;
# every one-bit change of 100 random and of 40 zero bytes changes the
# hash, and so do trailing zero bytes (the length goes in); hashing in
# pieces (pprt_hash64_add) gives what one call gives.
. "$(dirname "$0")/lib/tap.sh"

"$PP_GCC" -std=c11 -Wall -Wextra -Werror -O2 -I"$TAP_ROOT/runtime" \
    "$TAP_ROOT/tests/hash64/hash-files.c" -o "$T/hash-files" 2>"$T/cc.err" ||
    BAIL_OUT "cannot compile tests/hash64/hash-files.c: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"

# The inputs: random bytes of every length 0..100, 1 MB, and 40 zero bytes.
perl -e 'srand(1234); for my $n (0 .. 100) {
    open my $f, ">:raw", sprintf("'"$T"'/in-%03d", $n) or die;
    print $f join("", map { chr int rand 256 } 1 .. $n); close $f }
    open my $f, ">:raw", "'"$T"'/in-big" or die; print $f pack("C*", map { int rand 256 } 1 .. 1048576); close $f;
    open $f, ">:raw", "'"$T"'/in-zero40" or die; print $f "\0" x 40; close $f'
ins=("$T"/in-[0-9]* "$T/in-big")
"$T/hash-files" "${ins[@]}" >"$T/c.out"
perl -I"$TAP_ROOT/tests/cli" -MPPWrite=hash64 -e 'for my $f (@ARGV) {
    open my $h, "<:raw", $f or die "$f: $!"; local $/; my $d = <$h> // "";
    printf "%d %016x\n", length $d, unpack("Q<", hash64($d)) }' "${ins[@]}" >"$T/perl.out"
is "$(wc -l <"$T/c.out")" 102 "C: a hash for each of the 102 inputs"
ok "C and Perl (from docs/format.md) agree on lengths 0..100 and 1 MB" diff "$T/c.out" "$T/perl.out"
is "$(cut -d' ' -f2 "$T/c.out" | sort -u | wc -l)" 102 "102 inputs, 102 different hashes"
"$T/hash-files" --pieces "${ins[@]}" >"$T/pieces.out"
ok "the same hashes added in pieces of 1..40 bytes (pprt_hash64_add, the trace's trailer)" \
    diff "$T/c.out" "$T/pieces.out"

"$T/hash-files" --flips "$T/in-100" "$T/in-zero40" >"$T/flips.out"
is "$(sed -n 2p "$T/flips.out")" "flips 800 same 0" "every one-bit change of 100 random bytes changes the hash"
is "$(sed -n 4p "$T/flips.out")" "flips 320 same 0" "every one-bit change of 40 zero bytes changes the hash"
head -c 32 "$T/in-zero40" >"$T/in-zero32"
is "$("$T/hash-files" "$T/in-zero32" "$T/in-zero40" | cut -d' ' -f2 | sort -u | wc -l)" 2 \
    "32 and 40 zero bytes hash differently (the length goes in)"
done_testing
