#!/usr/bin/perl
# stream-runtime-drop.t - PATHPROF_POLICY=drop with a deliberately slow
# analyzer (PATHPROF_TEST_ANALYZER_DELAY_NS): producers never wait, events
# are lost, and the loss is counted exactly: dropped + consumed = emitted,
# no path counted more often than it was emitted, and the run says the
# profile is not exact.  The same run under block loses nothing.
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

my %slow = (PATHPROF_TEST_ANALYZER_DELAY_NS => 2000000, PATHPROF_CHUNK => 256,
            PATHPROF_CHUNKS => 2, ST_MARKERS => 0);
my $out = "$dir/drop.out";
my ($r, $expect) = stream_run(name => 'drop', argv => [$drv, qw(run 2 100000 1)],
                              env => { PATHPROF_OUT => $out, PATHPROF_POLICY => 'drop', %slow });
is($r->{status}, 0, 'drop: exit status') or diag($r->{err});
my $p = eval { read_profile($out) };
ok($p, 'drop: profile readable') or diag($@);
my $s = eval { stream_section($out) };
ok($s, 'drop: STREAM section') or diag($@);
my $e = read_expect($expect)->[0];
if ($p && $s) {
    is($s->{policy}, 2, 'drop: policy recorded');
    ok($s->{dropped} > 0, "drop: events were dropped ($s->{dropped})");
    is($s->{dropped} % 256, 0, 'drop: whole chunks are dropped');
    is($s->{dropped} + $s->{events}, $e->{events}, 'drop: dropped + consumed = emitted');
    is($p->{program}{array_updates}, $s->{events}, 'drop: every consumed event is counted');
    my ($over, $sum) = (0, 0);
    for my $f (@{ $p->{tus}[0]{funcs} }) {
        for (@{ $f->{records} }) {
            $over++ if $_->[1] > ($e->{funcs}{ $f->{name} }{ $_->[0] } // 0);
        }
    }
    is($over, 0, 'drop: no path counted more often than emitted');
    is_deeply([@$s{qw(late resync unknown)}], [0, 0, 0], 'drop: no other loss');
    is($s->{blocked_ns}, 0, 'drop: producers never waited');
    like($r->{err}, qr/^pathprof: warning: the profile is not exact: $s->{dropped} events dropped \(PATHPROF_POLICY=drop\)/m,
         'drop: said at exit');
}

# block, same slow analyzer, fewer events: exact, and the waiting shows.
$out = "$dir/block.out";
($r, $expect) = stream_run(name => 'block', argv => [$drv, qw(run 1 5000 1)],
                           env => { PATHPROF_OUT => $out, %slow });
is($r->{status}, 0, 'block: exit status') or diag($r->{err});
$p = eval { read_profile($out) };
$s = eval { stream_section($out) };
ok($p && $s, 'block: profile') or diag($@);
if ($p && $s) {
    check_expect($p, 0, read_expect($expect)->[0], 'block');
    is($s->{dropped}, 0, 'block: nothing dropped');
    ok($s->{blocked_ns} > 0, 'block: producers waited for the slow analyzer');
}

done_testing();
