# tests/os-hazards/lib.sh - helpers for tests/os-hazards.t (source after
# lib/tap.sh, lib/programs.sh and stream/lib.sh).

HZ_DIR=$TAP_ROOT/tests/os-hazards
HZ_ORACLE=$TAP_ROOT/tests/ksf/oracle.pl
HZ_SAMPLING=-fplugin-arg-pathprof-sampling=yes
# Every run is bounded: a hang is a failure, not a stuck test suite.
HZ_TIMEOUT=${HZ_TIMEOUT:-30}

# hz_build NAME SRC [GCC FLAGS AND MORE SOURCES...]: $T/NAME-plain (no
# pathprof), -count, -stream and -samp (counting mode, sampling=yes)
hz_build() {
    local name=$1 srcs=$2; shift 2
    # shellcheck disable=SC2086
    pp_cc_plain "$T/$name-plain" "$srcs" "$@" &&
        pp_cc "$T/$name-count" "$srcs" "$@" &&
        pp_cc "$T/$name-stream" "$srcs" "$@" $STREAM &&
        pp_cc "$T/$name-samp" "$srcs" "$@" $HZ_SAMPLING
}

# hz_run NAME[:BUILD] [ENV=VALUE...] -- ARGS...: runs the four builds of
# BUILD (default NAME) in
# $T/NAME/ (srun: NAME/plain, count, blpp, ksf with k = 4 and its trace,
# samp at PATHPROF_SAMPLE=1/1), each under timeout.
hz_run() {
    local name=${1%%:*} bin=${1#*:}; shift
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    local d=$T/$name to="timeout -s KILL $HZ_TIMEOUT"
    mkdir -p "$d"
    srun "$d" plain "${envs[@]}" -- $to "$T/$bin-plain" "$@"
    srun "$d" count "${envs[@]}" -- $to "$T/$bin-count" "$@"
    srun "$d" blpp "${envs[@]}" -- $to "$T/$bin-stream" "$@"
    srun "$d" ksf "${envs[@]}" PATHPROF_ANALYZER=ksf,blpp,trace PATHPROF_K=4 \
        "PATHPROF_TRACE=$d/ksf.trace" -- $to "$T/$bin-stream" "$@"
    srun "$d" samp "${envs[@]}" PATHPROF_SAMPLE=1/1 -- $to "$T/$bin-samp" "$@"
}

# hz_fn JSON FUNCTION...: "function path count" lines of those functions
hz_fn() {
    local j=$1; shift
    perl -MJSON::PP -e '
        local $/; open my $f, "<", shift or die "$!\n";
        my $d = JSON::PP->new->allow_bignum->decode(<$f>);
        my %want = map { $_ => 1 } @ARGV;
        my @l;
        for my $fn (@{ $d->{functions} }) {
            next unless $want{$fn->{name}};
            push @l, "$fn->{name} $_->{id} $_->{count}" for @{ $fn->{paths} };
        }
        print "$_\n" for sort @l;' "$j" "$@"
}

# hz_total JSON FUNCTION: the function's paths executed (0 when absent)
hz_total() {
    perl -MJSON::PP -e '
        local $/; open my $f, "<", $ARGV[0] or die "$!\n";
        my $d = JSON::PP->new->allow_bignum->decode(<$f>);
        my ($fn) = grep { $_->{name} eq $ARGV[1] } @{ $d->{functions} };
        print $fn ? $fn->{total} : 0, "\n";' "$1" "$2"
}

# hz_same_run DIR NAME TAG: NAME ran as the plain build did (status,
# stdout; stderr once pathprof's own lines are left out)
hz_same_run() { same_but_warnings "$1" "$2" plain "$3"; }

# hz_no_warning DIR NAME TAG: NAME's stderr has no pathprof line
hz_no_warning() { unlike "$(cat "$1/$2.err")" '^pathprof: ' "$3: no warning"; }

# hz_exact_or_says DIR NAME REF TAG: NAME's profile equals REF's path for
# path and says exact with no warning, or it differs and says not exact
# with a warning: never a silent "exact" that is wrong
hz_exact_or_says() {
    local d=$1 n=$2 r=$3 tag=$4 ex
    ex=$(sfacts "$d/$n.json" exact)
    if diff -q "$d/$r.norm" "$d/$n.norm" >/dev/null 2>&1; then
        is "$ex" true "$tag: profile = $r profile, and it says exact"
    elif [ "$ex" = false ] && grep -q '^pathprof: warning: the profile is not exact' "$d/$n.err"; then
        pass "$tag: profile != $r profile, and it says not exact, with a warning"
    else
        fail "$tag: profile != $r profile, yet it says exact=$ex" "$(diff "$d/$r.norm" "$d/$n.norm" | head -n 8)"
    fi
}
