#!/usr/bin/perl
# runtime-env.t - the PATHPROF_* variables: %p and %% in PATHPROF_OUT,
# PATHPROF_QUIET, a relative PATHPROF_OUT, and warnings for unknown names
# and bad values (the run goes on with the default).
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
mkdir "$dir/$_" for qw(pct quiet rel unknown badq badout);

# %p is the pid of the writing process, %% a literal %.
my $r = run_prog(argv => [$drv, 'basic', 10], cwd => "$dir/pct",
                 env => { PATHPROF_OUT => "$dir/pct/prof.%p.100%%", PATHPROF_VERBOSE => 1 });
my @files = leftovers("$dir/pct");
is(scalar @files, 1, 'one profile with %p') or diag("@files");
my ($pid) = ($files[0] // '') =~ /^prof\.(\d+)\.100%$/;
ok($pid, '%p became digits and %% became %') or diag($files[0]);
my $p = eval { read_profile("$dir/pct/$files[0]") };
is($p && $p->{pid}, $pid, 'the file name has the pid of the header');
like($r->{err}, qr{^pathprof: profile written to \Q$dir/pct/prof.$pid.100%\E\n\z},
     'the message names the expanded file');

# Silent by default, like gcov; PATHPROF_QUIET=1 too (the old way).
for my $env ({}, { PATHPROF_QUIET => 1 }) {
    my $how = %$env ? 'PATHPROF_QUIET=1' : 'by default it';
    unlink "$dir/quiet/q.out";
    $r = run_prog(argv => [$drv, 'basic', 10], cwd => "$dir/quiet",
                  env => { PATHPROF_OUT => "$dir/quiet/q.out", %$env });
    is($r->{err}, '', "$how prints nothing");
    ok(-f "$dir/quiet/q.out", 'and still writes the profile');
}
# PATHPROF_VERBOSE=1 or PATHPROF_QUIET=0: the line saying where it went.
for my $env ({ PATHPROF_VERBOSE => 1 }, { PATHPROF_QUIET => 0 }) {
    my ($k) = keys %$env;
    $r = run_prog(argv => [$drv, 'basic', 10], cwd => "$dir/quiet",
                  env => { PATHPROF_OUT => "$dir/quiet/q.out", %$env });
    is($r->{err}, "pathprof: profile written to $dir/quiet/q.out\n", "$k=$env->{$k}: one informational line");
}

# A relative PATHPROF_OUT is relative to the working directory at start-up;
# the default is pathprof.out there.
$r = run_prog(argv => [$drv, 'basic', 10], cwd => "$dir/rel",
              env => { PATHPROF_OUT => 'sub.out' });
ok(-f "$dir/rel/sub.out", 'relative PATHPROF_OUT lands in the working directory');
$r = run_prog(argv => [$drv, 'basic', 10], cwd => "$dir/rel", env => { PATHPROF_VERBOSE => 1 });
ok(-f "$dir/rel/pathprof.out", 'default file pathprof.out');
like($r->{err}, qr{^pathprof: profile written to \Q$dir/rel/pathprof.out\E\n\z},
     'PATHPROF_VERBOSE=1: one informational line');

# Unknown PATHPROF_ name: a warning naming it, the run goes on.
$r = run_prog(argv => [$drv, 'basic', 10], cwd => "$dir/unknown",
              env => { PATHPROF_FOO => 'bar', PATHPROF_OUT => "$dir/unknown/u.out" });
like($r->{err}, qr{^pathprof: warning: unknown environment variable PATHPROF_FOO ignored \(known: PATHPROF_OUT, PATHPROF_QUIET, PATHPROF_VERBOSE, PATHPROF_ACCUMULATE, PATHPROF_SYNC, PATHPROF_ANALYZER, .*\)$}m,
     'unknown PATHPROF_FOO is reported with the known names');
is($r->{status}, 3, 'the run goes on');
ok(-f "$dir/unknown/u.out", 'profile written despite the unknown variable');

# Bad values: a warning naming the variable and what is accepted; default used.
$r = run_prog(argv => [$drv, 'basic', 10], cwd => "$dir/badq",
              env => { PATHPROF_QUIET => 'yes', PATHPROF_OUT => "$dir/badq/b.out" });
like($r->{err}, qr{^pathprof: warning: PATHPROF_QUIET=yes is not valid \(accepted: 0 or 1\); using the default 1$}m,
     'bad PATHPROF_QUIET is reported');
unlike($r->{err}, qr{^pathprof: profile written to }m, 'default (quiet) in force');

for my $bad ('', 'x%d.out') {
    $r = run_prog(argv => [$drv, 'basic', 10], cwd => "$dir/badout",
                  env => { PATHPROF_OUT => $bad });
    like($r->{err}, qr{^pathprof: warning: PATHPROF_OUT=\Q$bad\E is not valid \(accepted: .*%p.*\); using the default pathprof.out$}m,
         "bad PATHPROF_OUT='$bad' is reported");
    ok(-f "$dir/badout/pathprof.out", "and the default file is written");
    unlink "$dir/badout/pathprof.out";
}

done_testing();
