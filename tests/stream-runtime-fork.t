#!/usr/bin/perl
# stream-runtime-fork.t - fork in stream mode: the child keeps profiling
# into its own %p profile, which holds the parent's events up to fork
# (including those still in the chunk of a thread that does not exist in
# the child) and its own; the parent's profile has only its own.  Forked
# in a loop too, so parking and restarting the analyzers is exercised.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/runtime-support", "$FindBin::Bin/stream-runtime-support";
use RuntimeTest;
use StreamTest;
use Test::More;

require_runtime();
plan skip_all => "meaningless under SANITIZE=$SUITE_SANITIZE: TSan cannot start threads in the child "
    . "of a multithreaded fork, and the runtime restarts its analyzers there"
    if $SUITE_SANITIZE =~ /\bthread\b/;
my $dir = tmpdir();
my $drv = "$dir/stream-driver";
build_stream_driver($drv, 'shared') or BAIL_OUT('cannot build the stream driver');

for my $cfg (['default', {}], ['tiny chunks, 2 analyzers',
                               { PATHPROF_CHUNK => 16, PATHPROF_ANALYZERS => 2 }]) {
    my ($label, $env) = @$cfg;
    mkdir "$dir/$label";
    my ($r, $expect) = stream_run(name => "fork-$label", cwd => "$dir/$label",
                                  argv => [$drv, 'fork', 20000],
                                  env => { PATHPROF_OUT => "$dir/$label/p.%p.out", %$env });
    is($r->{status}, 0, "$label: exit status") or diag($r->{err});
    my ($child) = $r->{out} =~ /^child (\d+)$/m;
    my ($parent) = $r->{out} =~ /^parent (\d+)$/m;
    ok($child && $parent, "$label: both pids reported") or next;
    my $e = read_expect($expect);
    is(scalar @$e, 2, "$label: child and parent said what they emitted");
    my $pc = eval { read_profile("$dir/$label/p.$child.out") };
    ok($pc, "$label: child profile") or diag($@);
    my $pp = eval { read_profile("$dir/$label/p.$parent.out") };
    ok($pp, "$label: parent profile") or diag($@);
    is($pc && $pc->{pid}, $child, "$label: child header pid");
    is($pp && $pp->{pid}, $parent, "$label: parent header pid");
    check_expect($pc, 0, $e->[0], "$label: child") if $pc;
    check_expect($pp, 0, $e->[1], "$label: parent") if $pp;
    for my $who ([child => $child], [parent => $parent]) {
        my $s = eval { stream_section("$dir/$label/p.$who->[1].out") };
        is_deeply($s && [@$s{qw(dropped late resync unknown)}], [0, 0, 0, 0],
                  "$label: $who->[0] lost nothing");
    }
}

done_testing();
