# tests/stream/lib.sh - helpers for tests/stream-*.t (source after
# lib/tap.sh and lib/programs.sh).

STREAM_DIR=$TAP_ROOT/tests/stream
NORM=$STREAM_DIR/normjson.pl
STREAM=-fplugin-arg-pathprof-mode=stream

# sfacts JSON KEY...: the values of the STREAM section's KEYs (and of the
# top-level "mode" and "paths_executed" when asked), space separated;
# "exact" is printed as true/false.  "missing" for a key it lacks.
sfacts() {
    local j=$1; shift
    perl -MJSON::PP -e '
        local $/; my $p = JSON::PP->new->allow_bignum->decode(<STDIN>);
        my $s = $p->{stream} // {};
        my @v;
        for my $k (@ARGV) {
            my $v = ($k eq "mode" || $k eq "paths_executed") ? $p->{$k} : $s->{$k};
            $v = $v ? "true" : "false" if $k eq "exact" && defined $v;
            push @v, $v // "missing";
        }
        print "@v\n";' "$@" <"$j"
}

# srun DIR NAME [ENV=VALUE...] -- BIN ARGS...: runs BIN in DIR with
# PATHPROF_OUT=DIR/NAME.prof and PATHPROF_QUIET=1 (and the ENV given),
# stdin /dev/null; NAME.out, NAME.err, NAME.st (exit status); when a
# profile was written, NAME.json (report --json) and NAME.norm (normjson.pl)
srun() {
    local d=$1 name=$2; shift 2
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    { (cd "$d" && exec env PATHPROF_OUT="$d/$name.prof" PATHPROF_QUIET=1 "${envs[@]}" "$@" \
        >"$d/$name.out" 2>"$d/$name.err" </dev/null); } 2>/dev/null
    echo $? >"$d/$name.st"
    if [ -e "$d/$name.prof" ]; then
        "$PP_CLI" report --json "$d/$name.prof" >"$d/$name.json" 2>"$d/$name.json.err" &&
            perl "$NORM" "$d/$name.json" >"$d/$name.norm" 2>"$d/$name.norm.err"
    fi
    return 0
}

# same_behaviour DIR NAME REF TAG: NAME's exit status, stdout and stderr
# are REF's
same_behaviour() {
    local d=$1 n=$2 r=$3 tag=$4
    if [ "$(cat "$d/$n.st")" = "$(cat "$d/$r.st")" ] && cmp -s "$d/$n.out" "$d/$r.out" &&
        cmp -s "$d/$n.err" "$d/$r.err"; then
        pass "$tag: same exit status, stdout and stderr as the $r build"
    else
        fail "$tag: same exit status, stdout and stderr as the $r build" \
            "status $(cat "$d/$n.st") vs $(cat "$d/$r.st")" \
            "$(diff "$d/$r.out" "$d/$n.out" | head -n 5)" "$(diff "$d/$r.err" "$d/$n.err" | head -n 5)"
    fi
}

# same_profile DIR NAME REF TAG: NAME's normalized profile is REF's
same_profile() {
    local d=$1 n=$2 r=$3 tag=$4
    if [ ! -s "$d/$n.norm" ] || [ ! -s "$d/$r.norm" ]; then
        fail "$tag: profile = $r profile (functions, checksums, npaths, path IDs, counts)" \
            "missing profile: $(ls "$d" | tr '\n' ' ')" "$(cat "$d/$n.err" "$d/$n.json.err" 2>/dev/null | head -n 5)"
        return 1
    fi
    ok "$tag: profile = $r profile (functions, checksums, npaths, path IDs, counts)" \
        diff "$d/$r.norm" "$d/$n.norm"
}

# unlike GOT EXTENDED-REGEX NAME: no line of GOT matches
unlike() {
    if ! printf '%s\n' "$1" | grep -qE -- "$2"; then pass "$3"; return 0; fi
    fail "$3" "unexpected line matching '$2':" "$(printf '%s\n' "$1" | grep -E -- "$2" | head -n 5)"
}

# same_but_warnings DIR NAME REF TAG: like same_behaviour, but NAME's
# stderr may have "pathprof: " lines more (the runtime's warnings)
same_but_warnings() {
    local d=$1 n=$2 r=$3 tag=$4
    grep -v '^pathprof: ' "$d/$n.err" >"$d/$n.err.own"
    if [ "$(cat "$d/$n.st")" = "$(cat "$d/$r.st")" ] && cmp -s "$d/$n.out" "$d/$r.out" &&
        cmp -s "$d/$n.err.own" "$d/$r.err"; then
        pass "$tag: same exit status, stdout and stderr (pathprof's warnings aside) as the $r build"
    else
        fail "$tag: same exit status, stdout and stderr (pathprof's warnings aside) as the $r build" \
            "status $(cat "$d/$n.st") vs $(cat "$d/$r.st")" \
            "$(diff "$d/$r.out" "$d/$n.out" | head -n 5)" "$(diff "$d/$r.err" "$d/$n.err.own" | head -n 5)"
    fi
}

# markers_ok JSON: "ok" when the STREAM section's events are the path
# counts, plus an even number of words (two-word ENTER/RESUME markers)
# when a function has the "resume" flag; else what is wrong
markers_ok() {
    perl -MJSON::PP -e '
        local $/; my $p = JSON::PP->new->allow_bignum->decode(<STDIN>);
        my $resume = grep { grep { $_ eq "resume" } @{ $_->{flags} } } @{ $p->{functions} };
        my $extra = ($p->{stream}{events} // -1) - $p->{paths_executed};
        print $extra == 0 || ($resume && $extra > 0 && $extra % 2 == 0) ? "ok\n"
            : "events $p->{stream}{events}, paths $p->{paths_executed}, resume functions $resume\n";' <"$1"
}
