#!/usr/bin/perl
# stream-runtime-exit.t - however a stream-mode process ends, every event
# emitted before the end is in the profile, exactly once, and what comes
# later is counted late: exit() from a thread while main waits with a
# partial chunk, main's pthread_exit (the runtime ends the process when the
# last thread is gone, as glibc would), events from a thread-key
# destructor after the runtime's, exec (the profile is written first, in
# counting mode too), a failed exec.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/runtime-support", "$FindBin::Bin/stream-runtime-support";
use RuntimeTest;
use StreamTest;
use Test::More;
use Time::HiRes ();

require_runtime();
my $dir = tmpdir();
my $drv = "$dir/stream-driver";
build_stream_driver($drv, 'shared') or BAIL_OUT('cannot build the stream driver');

sub scenario {
    my ($label, $status, $argv, %env) = @_;
    my $out = "$dir/$label.out";
    my $t0 = Time::HiRes::time();
    my ($r, $expect) = stream_run(name => $label, argv => [$drv, @$argv],
                                  env => { PATHPROF_OUT => $out, PATHPROF_QUIET => 0, %env });
    my $took = Time::HiRes::time() - $t0;
    is($r->{status}, $status, "$label: exit status $status") or diag($r->{err});
    is(scalar(() = $r->{err} =~ /^pathprof: profile written/mg), 1, "$label: written once")
        or diag($r->{err});
    my $p = eval { read_profile($out) };
    ok($p, "$label: profile readable") or return diag($@);
    my $s = eval { stream_section($out) };
    ok($s, "$label: STREAM section") or return diag($@);
    my $e = read_expect($expect);
    ok($e && @$e, "$label: the program said what it emitted") or return;
    check_expect($p, 0, $e->[-1], $label);
    return ($p, $s, $e->[-1], $r, $took);
}

my ($p, $s, $e) = scenario('exit-thread', 5, [qw(exit-thread 30000)]);
is($s && $s->{late}, 0, 'exit-thread: nothing late') if $s;

# pthread_exit in main: the analyzer notices the last thread is gone and
# calls exit(0) within a fraction of a second.
my ($r, $took);
SKIP: {
    # TSan's background thread is a pthread that never ends, so a TSan
    # program whose main calls pthread_exit never ends, with or without
    # pathprof (docs/install.md, "Sanitizer suites").
    skip "pthread_exit under TSan: TSan's own thread keeps the process alive", 6
        if $SUITE_SANITIZE =~ /thread/;
    ($p, $s, $e, $r, $took) = scenario('pthread-exit', 0, [qw(pthread-exit 30000)]);
    ok(defined $took && $took < 5, 'pthread-exit: the process ended promptly')
        or diag("took $took s");
}

($p, $s, $e, $r) = scenario('late', 0, [qw(late 20000 777)], ST_MARKERS => 0);
is($s && $s->{late}, 777, 'late: the destructor\'s 777 events are late') if $s;
like($r->{err}, qr/^pathprof: warning: the profile is not exact: 0 events dropped .*, 777 late/m,
     'late: said at exit');

# exec: the profile is written before the image goes, with the events so
# far; the new program (/bin/true) ends the process.
my $true = -x '/bin/true' ? '/bin/true' : '/usr/bin/true';
($p, $s, $e, $r) = scenario('exec', 0, ['exec', 20000, $true]);
is($e && $e->{events}, 20000, 'exec: the events before exec are all there');

# A failed exec (no such file): nothing is written then, the run goes on
# and the exit-time profile has everything.
($p, $s, $e, $r) = scenario('exec-fail', 0, ['exec', 20000, "$dir/no-such-program"]);
ok($e && $e->{events} == 40000, 'exec-fail: both halves were emitted');
unlike($r->{err} // '', qr/exec of .* failed/, 'exec-fail: no warning (nothing was written early)');

# Counting mode too: a counting TU's profile is written before exec.
my $out = "$dir/count-exec.out";
$r = run_prog(argv => [$drv, 'count-exec', $true], cwd => $dir,
              env => { PATHPROF_OUT => $out, PATHPROF_VERBOSE => 1 });
is($r->{status}, 0, 'count-exec: exit status of the exec\'d program');
like($r->{err}, qr/^pathprof: profile written to \Q$out\E$/m, 'count-exec: written before exec');
$p = eval { read_profile($out) };
ok($p, 'count-exec: profile readable') or diag($@);
is($p && $p->{mode}, 1, 'count-exec: counting mode');
is_deeply($p && fn_counts($p, 0, 'alpha'), { 5 => 10 }, 'count-exec: the counts');

done_testing();
