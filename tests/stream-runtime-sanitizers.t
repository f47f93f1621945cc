#!/usr/bin/perl
# stream-runtime-sanitizers.t - the stream scenarios again with the
# runtime, the buffers and the analyzers compiled into the program under
# AddressSanitizer + UBSan and under ThreadSanitizer: no report, and the
# same exact counts.  A flavour the compiler or the machine cannot run is
# skipped.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/runtime-support", "$FindBin::Bin/stream-runtime-support";
use RuntimeTest;
use StreamTest;
use Test::More;

my $dir = tmpdir();
build_stream_dso("$dir/libdso-stream.so") or BAIL_OUT('cannot build the library');

my @tiny = (PATHPROF_CHUNK => 16, PATHPROF_CHUNKS => 2, PATHPROF_ANALYZERS => 2);
my @slow = (PATHPROF_TEST_ANALYZER_DELAY_NS => 1000000, PATHPROF_CHUNK => 64,
            PATHPROF_CHUNKS => 2, ST_MARKERS => 0);

for my $flavour (qw(asan tsan)) {
    SKIP: {
        skip "$flavour: the compiler or the machine cannot run it", 1
            unless flavour_available($flavour);
        my $drv = "$dir/stream-driver-$flavour";
        ok(build_stream_driver($drv, $flavour), "$flavour: driver with the runtime built in")
            or next;
        # name, argv, exit status, env, which expectation is TU section 0 / 1
        my @runs = (
            ['threads', [qw(run 3 3000 3)], 0, {@tiny}],
            ['exit-thread', [qw(exit-thread 5000)], 5, {@tiny}],
            ['pthread-exit', [qw(pthread-exit 5000)], 0, {}],
            ['late', [qw(late 3000 50)], 0, { ST_MARKERS => 0 }],
            ['dlopen', ['dlopen', "$dir/libdso-stream.so", 2, 3000], 0, {@tiny}],
            ['fork', [qw(fork 3000)], 0, { PATHPROF_CHUNK => 64 }],
            ['drop', [qw(run 1 20000 1)], 0, { @slow, PATHPROF_POLICY => 'drop' }],
            # ksf with k-SF workers (PATHPROF_KSF_WORKERS): owner, jobs, pool threads
            ['ksf-workers', [qw(run 3 3000 3)], 0,
             { @tiny, PATHPROF_ANALYZER => 'blpp,ksf', PATHPROF_KSF_WORKERS => 2 }],
        );
        for my $run (@runs) {
            my ($name, $args, $status, $env) = @$run;
            # Two things TSan itself cannot do, with or without pathprof:
            # its background thread is a pthread that never ends, so after
            # main's pthread_exit the process never ends; and a thread
            # created in the child of a multithreaded fork may reuse the id
            # of a parent thread it still tracks ("dup thread with used id").
            next if $flavour eq 'tsan' && ($name eq 'pthread-exit' || $name eq 'fork');
            mkdir "$dir/$flavour-$name";
            my $out = "$dir/$flavour-$name/p.%p.out";
            my %senv = %{ $SAN_ENV->{$flavour} };
            my ($r, $expect) = stream_run(name => "$flavour-$name", argv => [$drv, @$args],
                                          cwd => "$dir/$flavour-$name",
                                          env => { %senv, PATHPROF_OUT => $out, %$env });
            unlike($r->{err}, $SAN_REPORT, "$flavour $name: no sanitizer report")
                or diag($r->{err});
            is($r->{status}, $status, "$flavour $name: exit status");
            my @files = glob("$dir/$flavour-$name/p.*.out");
            my $e = read_expect($expect) // [];
            if ($name eq 'fork') {
                is(scalar @files, 2, "$flavour fork: two profiles");
                my ($child) = $r->{out} =~ /^child (\d+)$/m;
                my ($parent) = $r->{out} =~ /^parent (\d+)$/m;
                for ([$child, 0, 'child'], [$parent, 1, 'parent']) {
                    my $p = eval { read_profile("$dir/$flavour-$name/p.$_->[0].out") };
                    ok($p, "$flavour fork: $_->[2] profile") or next;
                    check_expect($p, 0, $e->[ $_->[1] ], "$flavour fork $_->[2]");
                }
                next;
            }
            is(scalar @files, 1, "$flavour $name: one profile") or next;
            my $p = eval { read_profile($files[0]) };
            ok($p, "$flavour $name: profile") or diag($@);
            my $s = eval { stream_section($files[0]) };
            next unless $p && $s;
            if ($name eq 'drop') {
                is($s->{dropped} + $s->{events}, $e->[0]{events},
                   "$flavour drop: dropped + consumed = emitted");
                next;
            }
            check_expect($p, 0, $e->[0], "$flavour $name");
            check_expect($p, 1, $e->[1], "$flavour $name library") if $name eq 'dlopen';
            is($s->{late}, $name eq 'late' ? 50 : 0, "$flavour $name: late events");
        }
    }
}

done_testing();
