#!/usr/bin/perl
# stream-runtime-basic.t - stream mode without the plugin: a synthetic
# stream TU emits events through the probe's fast path (single- and
# multithreaded, marker pairs split across chunks, tiny chunks that make
# producers wait), and the blpp sections hold exactly what the program
# says it emitted; the STREAM section records the configuration and no
# loss.  Also: several analyzers at once, and a refused TU's events
# counted as unknown.
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

sub exact_run {
    my ($label, $argv, %env) = @_;
    my $out = "$dir/$label.out";
    my ($r, $expect) = stream_run(name => $label, argv => [$drv, @$argv],
                                  env => { PATHPROF_OUT => $out, %env });
    is($r->{status}, 0, "$label: exit status") or diag($r->{err});
    my $p = eval { read_profile($out) };
    ok($p, "$label: profile readable") or return diag($@);
    my $s = eval { stream_section($out) };
    ok($s, "$label: STREAM section") or return diag($@);
    my $e = read_expect($expect)->[0];
    is(scalar @{ $p->{tus} }, 1, "$label: one TU section");
    check_expect($p, 0, $e, $label);
    is($p->{program}{array_updates}, $e->{events}, "$label: PROGRAM total");
    is($s->{events}, $e->{words}, "$label: every word consumed");
    is_deeply([@$s{qw(dropped late resync unknown)}], [0, 0, 0, 0], "$label: nothing lost");
    unlike($r->{err}, qr/warning|error/, "$label: no warning") or diag($r->{err});
    return ($p, $s, $r);
}

my ($p, $s) = exact_run('single', [qw(run 0 200000)]);
if ($s) {
    is($s->{policy}, 1, 'single: policy block');
    is($s->{chunk}, 8192, 'single: default chunk');
    is($s->{chunks_per_thread}, 4, 'single: default chunks per thread');
    is($s->{nthreads}, 1, 'single: one analyzer thread');
    is_deeply($s->{analyzers}, ['blpp'], 'single: default analyzer');
    is($s->{producers}, 1, 'single: one producer');
    is($p->{mode}, 2, 'single: header mode stream');
}

# Chunks of 16 events, 2 per thread: markers straddle chunk boundaries all
# the time, and producers keep waiting for their analyzer.
($p, $s) = exact_run('tiny-chunks', [qw(run 4 20000 3)], PATHPROF_CHUNK => 16,
                     PATHPROF_CHUNKS => 2, PATHPROF_ANALYZERS => 2);
if ($s) {
    is($s->{chunk}, 16, 'tiny-chunks: chunk recorded');
    is($s->{nthreads}, 2, 'tiny-chunks: two analyzer threads');
    is($s->{producers}, 13, 'tiny-chunks: 13 producer threads');
    my $sum = 0;
    $sum += $_->{events} for @{ $s->{threads} };
    is($sum, $s->{events}, 'tiny-chunks: per-thread events add up');
    ok($s->{threads}[0]{events} && $s->{threads}[1]{events},
       'tiny-chunks: both analyzers got work (round robin)');
}

exact_run('pinned', [qw(run 2 10000)], PATHPROF_CPUS => '0', PATHPROF_ANALYZERS => 2);
exact_run('unpinned', [qw(run 2 10000)], PATHPROF_CPUS => 'none');

# Several analyzers on one stream; a name given twice counts once.
my $trace = "$dir/multi.trace";
($p, $s) = exact_run('multi', [qw(run 1 5000)], PATHPROF_ANALYZER => 'blpp,trace,blpp',
                     PATHPROF_TRACE => $trace);
is_deeply($s && $s->{analyzers}, ['blpp', 'trace'], 'multi: both analyzers recorded');
ok(-s $trace, 'multi: the trace analyzer wrote its file');

# Bad values: a warning naming the variable, the default used.
my $out = "$dir/bad.out";
my ($r, $expect) = stream_run(name => 'bad', argv => [$drv, qw(run 0 1000)],
    env => { PATHPROF_OUT => $out, PATHPROF_ANALYZER => 'blpp,nope',
             PATHPROF_CHUNK => 1000, PATHPROF_CHUNKS => 1, PATHPROF_ANALYZERS => 0,
             PATHPROF_POLICY => 'sometimes', PATHPROF_CPUS => '0-99999',
             PATHPROF_TEST_ANALYZER_DELAY_NS => '-1', PATHPROF_STREAM => 1 });
is($r->{status}, 0, 'bad values: the run goes on');
for ([PATHPROF_ANALYZER => 'blpp,nope', qr/built-in analyzers: blpp, trace.*\); using the default blpp/],
     [PATHPROF_CHUNK => 1000, qr/power of two.*using the default 8192/],
     [PATHPROF_CHUNKS => 1, qr/using the default 4/],
     [PATHPROF_ANALYZERS => 0, qr/using the default 1/],
     [PATHPROF_POLICY => 'sometimes', qr/block or drop\); using the default block/],
     [PATHPROF_CPUS => '0-99999', qr/using the default auto/],
     [PATHPROF_TEST_ANALYZER_DELAY_NS => '-1', qr/using the default 0/]) {
    my ($var, $val, $tail) = @$_;
    like($r->{err}, qr/^pathprof: warning: \Q$var=$val\E is not valid \(accepted: .*$tail$/m,
         "bad values: $var named");
}
like($r->{err}, qr/^pathprof: warning: unknown environment variable PATHPROF_STREAM ignored/m,
     'bad values: unknown PATHPROF_STREAM named');
$s = eval { stream_section($out) };
ok($s, 'bad values: profile written') or diag($@);
is_deeply($s && [@$s{qw(policy chunk chunks_per_thread nthreads)}], [1, 8192, 4, 1],
          'bad values: defaults recorded');
check_expect(read_profile($out), 0, read_expect($expect)->[0], 'bad values') if $s;

# A TU whose blob is refused: its events (still carrying the unregistered
# base) are counted as unknown, the good TU's are exact.
$out = "$dir/refused.out";
($r, $expect) = stream_run(name => 'refused', argv => [$drv, qw(refused 3000)],
                           env => { PATHPROF_OUT => $out, ST_MARKERS => 0 });
is($r->{status}, 0, 'refused: exit status');
like($r->{err}, qr/^pathprof: error: ignoring stream translation unit refused\.c: invalid metadata: function 0 lacks the STREAM flag/m,
     'refused: error names the TU and the reason');
like($r->{err}, qr/^pathprof: warning: the profile is not exact: .* 3000 of unknown translation units$/m,
     'refused: the loss is said at exit');
$s = eval { stream_section($out) };
is($s && $s->{unknown}, 3000, 'refused: 3000 unknown events');
$p = eval { read_profile($out) };
check_expect($p, 0, read_expect($expect)->[0], 'refused') if $p;

# A function of 2^40 paths: blpp counts its TU in a hash table; the next
# function starts at index 2^40 of the TU.
$out = "$dir/huge.out";
($r, $expect) = stream_run(name => 'huge', argv => [$drv, qw(huge 5000)],
                           env => { PATHPROF_OUT => $out });
is($r->{status}, 0, 'huge: exit status') or diag($r->{err});
$p = eval { read_profile($out) };
ok($p, 'huge: profile readable') or diag($@);
if ($p) {
    my $e = read_expect($expect);
    is(scalar @{ $p->{tus} }, 2, 'huge: two TU sections');
    check_expect($p, 0, $e->[0], 'huge: small TU');
    check_expect($p, 1, $e->[1], 'huge: huge TU');
}

done_testing();
