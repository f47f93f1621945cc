#!/usr/bin/perl
# runtime-sanitizers.t - the runtime scenarios again, with the runtime
# sources compiled into the program under AddressSanitizer + UBSan and under
# ThreadSanitizer: no report, same counts.  A flavour the compiler or the
# machine cannot run is skipped.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/runtime-support";
use RuntimeTest;
use Test::More;

my $dir = tmpdir();
my %env = (
    asan => { ASAN_OPTIONS => 'detect_leaks=1:halt_on_error=1',
              UBSAN_OPTIONS => 'print_stacktrace=1:halt_on_error=1' },
    tsan => { TSAN_OPTIONS => 'halt_on_error=1:exitcode=66' },
);
my $REPORT = qr/ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|WARNING: ThreadSanitizer/;

build_dso("$dir/libdso.so", 0) or BAIL_OUT('cannot build the library');

for my $flavour (qw(asan tsan)) {
    SKIP: {
        skip "$flavour: the compiler or the machine cannot run it", 1
            unless flavour_available($flavour);
        my $drv = "$dir/driver-$flavour";
        ok(build_driver($drv, $flavour), "$flavour: driver with the runtime built in")
            or next;
        my $K = $flavour eq 'tsan' ? 3000 : 20000;
        my @runs = (
            [basic => [$K], 3, basic_expect($K), 1],
            ['exit-thread' => [], 4, standard_expect(), 1],
            ['unregister-first' => [], 0, standard_expect(), 1],
            [bad => [], 0, standard_expect(), 1],
            [dlopen => ["$dir/libdso.so", 4, 1], 0, standard_expect(), 3],
        );
        for my $run (@runs) {
            my ($name, $args, $status, $expect, $ntus) = @$run;
            my $out = "$dir/$flavour-$name.out";
            my $r = run_prog(argv => [$drv, $name, @$args], cwd => $dir,
                             env => { %{ $env{$flavour} }, PATHPROF_OUT => $out,
                                      PATHPROF_QUIET => 1 });
            unlike($r->{err}, $REPORT, "$flavour $name: no sanitizer report")
                or diag($r->{err});
            is($r->{status}, $status, "$flavour $name: exit status");
            my $p = eval { read_profile($out) };
            ok($p, "$flavour $name: profile") or diag($@);
            next unless $p;
            is(scalar @{ $p->{tus} }, $ntus, "$flavour $name: TU sections");
            check_tu($p, 0, $expect, "$flavour $name");
        }
    }
}

done_testing();
