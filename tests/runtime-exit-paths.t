#!/usr/bin/perl
# runtime-exit-paths.t - the profile is written exactly once however the
# process ends (return from main, exit() from another thread, the last
# thread after main's pthread_exit), whichever of the TU destructor and the
# exit handler runs first; a TU registered twice counts once; a forked
# child writes its own %p profile.
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

sub scenario {
    my ($name, $status, $expect, %env) = @_;
    mkdir "$dir/$name";
    my $out = "$dir/$name/p.out";
    my $r = run_prog(argv => [$drv, $name], cwd => "$dir/$name",
                     env => { PATHPROF_OUT => $out, PATHPROF_VERBOSE => 1, %env });
    is($r->{status}, $status, "$name: exit status $status");
    my @lines = grep { /^pathprof: profile written/ } split /\n/, $r->{err};
    is(scalar @lines, 1, "$name: written once") or diag($r->{err});
    my $p = eval { read_profile($out) };
    ok($p, "$name: profile readable") or diag($@);
    is($p && scalar @{ $p->{tus} }, 1, "$name: one TU section") if $p;
    check_tu($p, 0, $expect, $name) if $p;
    return $r;
}

scenario('exit-thread', 4, standard_expect());

my $e = standard_expect();
$e->{alpha}{records}{4} = 1; # counted by the thread that outlives main
SKIP: {
    # TSan's background thread is a pthread that never ends, so a TSan
    # program whose main calls pthread_exit never ends, with or without
    # pathprof (docs/install.md, "Sanitizer suites").
    skip "pthread_exit under TSan: TSan's own thread keeps the process alive", 4
        if $SUITE_SANITIZE =~ /thread/;
    scenario('pthread-exit', 0, $e);
}

# The TU's destructor before the exit handler: its counts are snapshot,
# and its second unregistration (the real destructor) is harmless.
scenario('unregister-first', 0, standard_expect());

my $r = scenario('twice', 0, standard_expect());
like($r->{err}, qr{^pathprof: warning: translation unit registered twice .*second registration is ignored$}m,
     'twice: warned about');

# fork: both processes write, each its own %p file with its own counts;
# the child inherits what the parent counted before fork().
mkdir "$dir/fork";
$r = run_prog(argv => [$drv, 'fork'], cwd => "$dir/fork",
              env => { PATHPROF_OUT => "$dir/fork/p.%p.out" });
is($r->{status}, 0, 'fork: exit status');
my ($child) = $r->{out} =~ /^child (\d+)$/m;
my ($parent) = $r->{out} =~ /^parent (\d+)$/m;
ok($child && $parent, 'fork: both pids reported') or diag($r->{out});
my $pc = eval { read_profile("$dir/fork/p.$child.out") };
my $pp = eval { read_profile("$dir/fork/p.$parent.out") };
ok($pc, 'fork: child profile') or diag($@);
ok($pp, 'fork: parent profile') or diag($@);
is($pc && $pc->{pid}, $child, 'fork: child header pid');
is($pp && $pp->{pid}, $parent, 'fork: parent header pid');
is_deeply($pc && fn_counts($pc, 0, 'alpha'), { 1 => 1, 2 => 1 },
          'fork: child has the inherited and its own counts');
is_deeply($pp && fn_counts($pp, 0, 'alpha'), { 1 => 1, 3 => 1 },
          'fork: parent has its own counts only');

done_testing();
