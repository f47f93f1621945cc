#!/usr/bin/perl
# runtime-dlclose.t - an instrumented shared library's counts survive
# dlclose (the runtime copies blob and counters before the library's memory
# goes away), cycles of dlopen/dlclose of the same library add up in one TU
# section, a library still open at exit is written live, and a program that
# only dlopens an instrumented library gets its profile when libpathprof
# itself is unloaded.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/runtime-support";
use RuntimeTest;
use Test::More;

require_runtime();
my $dir = tmpdir();
my $drv = "$dir/driver";
build_driver($drv, 'shared') or BAIL_OUT('cannot build the driver');
build_dso("$dir/libdso.so", 0) or BAIL_OUT('cannot build the library');

# What N cycles of dso_bump(c), c = 0..N-1, count (see dso-tu.c).
sub dso_expect {
    my (@cycles) = @_;
    my (%arr, %hash);
    for my $c (@cycles) {
        $arr{1}++;
        $arr{ $c % 4 }++;
        $hash{5}++;
        $hash{ 1000 + $c } += 2;
    }
    return { dso_array => { records => \%arr, verify => [] },
             dso_hash => { records => \%hash, verify => [] } };
}

my $N = 6;
my $r = run_prog(argv => [$drv, 'dlopen', "$dir/libdso.so", $N, 0], cwd => $dir,
                 env => { PATHPROF_OUT => "$dir/cycles.out" });
is($r->{status}, 0, 'dlopen cycles: exit status') or diag($r->{err});
my $p = eval { read_profile("$dir/cycles.out") };
ok($p, 'dlopen cycles: profile readable') or diag($@);
SKIP: {
    skip 'no profile', 1 unless $p;
    is(scalar @{ $p->{tus} }, 2, 'main TU + one section for all cycles of the library');
    check_tu($p, 0, standard_expect(), 'main TU');
    check_tu($p, 1, dso_expect(0 .. $N - 1), 'unloaded library');
}

# The last cycle left open: written live, then its destructor runs after
# the write (and must neither crash nor write again).
$r = run_prog(argv => [$drv, 'dlopen', "$dir/libdso.so", $N, 1], cwd => $dir,
              env => { PATHPROF_OUT => "$dir/keep.out", PATHPROF_VERBOSE => 1 });
is($r->{status}, 0, 'last open: exit status') or diag($r->{err});
is(scalar(() = $r->{err} =~ /profile written/g), 1, 'last open: written once');
$p = eval { read_profile("$dir/keep.out") };
ok($p, 'last open: profile readable') or diag($@);
SKIP: {
    skip 'no profile', 1 unless $p;
    is(scalar @{ $p->{tus} }, 3, 'main TU, snapshot of closed cycles, live library');
    check_tu($p, 1, dso_expect(0 .. $N - 2), 'closed cycles');
    check_tu($p, 2, dso_expect($N - 1), 'library open at exit');
}

# An uninstrumented program loading an instrumented library linked with
# libpathprof.so: unloading the library unloads the runtime, which writes.
build_dso("$dir/libdso-rt.so", 1) or BAIL_OUT('cannot build the library');
build_program("$dir/dlopen-only", 'plain', 'dlopen-only.c')
    or BAIL_OUT('cannot build dlopen-only');
# Known (issue 11, ASan suite): the runtime frees nothing when it is
# unloaded (its configuration, registry and stream state), so LeakSanitizer
# reports them lost once dlclose unmaps the globals that held them: leak
# checking is off for this run only, with a TODO, until the runtime frees
# its state on unload.
my %noleak = $SUITE_SANITIZE =~ /address/
    ? (ASAN_OPTIONS => ($ENV{ASAN_OPTIONS} // '') . ':detect_leaks=0') : ();
if (%noleak) {
    TODO: { local $TODO = 'libpathprof leaks its state when dlclose unloads it';
            fail('dlopen only: no leak at unload'); }
}
$r = run_prog(argv => ["$dir/dlopen-only", "$dir/libdso-rt.so"], cwd => $dir,
              env => { PATHPROF_OUT => "$dir/only.out", %noleak });
is($r->{status}, 0, 'dlopen only: exit status') or diag($r->{err});
is($r->{out}, "after dlclose\n", 'dlopen only: stdout untouched');
$p = eval { read_profile("$dir/only.out") };
ok($p, 'dlopen only: profile written at unload') or diag($@);
check_tu($p, 0, dso_expect(0, 1), 'dlopen only') if $p;

done_testing();
