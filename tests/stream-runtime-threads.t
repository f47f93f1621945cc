#!/usr/bin/perl
# stream-runtime-threads.t - thousands of short-lived producer threads,
# created and joined in loops: each registers lazily, publishes its last
# partial chunk at exit, and its channel is recycled; counts stay exact
# and the channel pool stays small.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/runtime-support", "$FindBin::Bin/stream-runtime-support";
use RuntimeTest;
use StreamTest;
use Test::More;

require_runtime();
my $dir = tmpdir();
my $drv = "$dir/stream-driver";
build_stream_driver($drv, 'shared') or BAIL_OUT('cannot build the stream driver');

for my $cfg (['1 analyzer', 8, 300, 150, {}],
             ['2 analyzers, small chunks', 6, 500, 200,
              { PATHPROF_ANALYZERS => 2, PATHPROF_CHUNK => 64 }]) {
    my ($label, $threads, $n, $rounds, $env) = @$cfg;
    my $out = "$dir/threads.out";
    my ($r, $expect) = stream_run(name => 'threads',
                                  argv => [$drv, 'run', $threads, $n, $rounds],
                                  env => { PATHPROF_OUT => $out, %$env });
    is($r->{status}, 0, "$label: exit status") or diag($r->{err});
    my $p = eval { read_profile($out) };
    ok($p, "$label: profile readable") or diag($@);
    next unless $p;
    my $e = read_expect($expect)->[0];
    check_expect($p, 0, $e, $label);
    my $s = stream_section($out);
    is($s->{producers}, $threads * $rounds + 1, "$label: every thread was a producer");
    is($s->{events}, $e->{words}, "$label: every word consumed");
    is_deeply([@$s{qw(dropped late resync unknown)}], [0, 0, 0, 0], "$label: nothing lost");
}

done_testing();
