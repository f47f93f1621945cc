#!/usr/bin/perl
# stream-runtime-dlopen.t - an instrumented library in stream mode, loaded
# and unloaded in cycles: its events are attributed even when they reach
# the analyzer after dlclose (a thread still had them in its chunk), and
# all cycles add up in one TU section, as in counting mode.  And a program
# that only dlopens a stream library linked with libpathprof: unloading it
# unloads the runtime, which drains, stops its threads and writes first.
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
build_stream_dso("$dir/libdso-stream.so") or BAIL_OUT('cannot build the library');

for my $cfg (['default', {}], ['tiny chunks', { PATHPROF_CHUNK => 16, PATHPROF_ANALYZERS => 2 }]) {
    my ($label, $env) = @$cfg;
    my $out = "$dir/$label.out";
    my ($r, $expect) = stream_run(name => $label,
                                  argv => [$drv, 'dlopen', "$dir/libdso-stream.so", 4, 5000],
                                  env => { PATHPROF_OUT => $out, %$env });
    is($r->{status}, 0, "$label: exit status") or diag($r->{err});
    my $e = read_expect($expect);
    is(scalar @$e, 2, "$label: expectations for the program and the library");
    my $p = eval { read_profile($out) };
    ok($p, "$label: profile readable") or diag($@);
    next unless $p;
    is(scalar @{ $p->{tus} }, 2, "$label: one section for the program, one for all cycles");
    check_expect($p, 0, $e->[0], "$label: program TU");
    check_expect($p, 1, $e->[1], "$label: library TU");
    my $s = stream_section($out);
    is_deeply([@$s{qw(dropped late resync unknown)}], [0, 0, 0, 0], "$label: nothing lost");
}

build_stream_dso("$dir/libdso-stream-rt.so", 1) or BAIL_OUT('cannot build the library');
build_plain("$dir/dlopen-only-stream", 'dlopen-only-stream.c')
    or BAIL_OUT('cannot build dlopen-only-stream');
my $out = "$dir/only.out";
# Known (issue 11, ASan suite): the runtime frees nothing when dlclose
# unloads it, so LeakSanitizer reports its state lost: leak checking is
# off for this run only, with a TODO (see runtime-dlclose.t).
my %noleak = $SUITE_SANITIZE =~ /address/
    ? (ASAN_OPTIONS => ($ENV{ASAN_OPTIONS} // '') . ':detect_leaks=0') : ();
if (%noleak) {
    TODO: { local $TODO = 'libpathprof leaks its state when dlclose unloads it';
            fail('dlopen only: no leak at unload'); }
}
my ($r, $expect) = stream_run(name => 'only', argv => ["$dir/dlopen-only-stream",
                              "$dir/libdso-stream-rt.so", 20000],
                              env => { PATHPROF_OUT => $out, PATHPROF_QUIET => 0, %noleak });
is($r->{status}, 0, 'dlopen only: exit status') or diag($r->{err});
is($r->{out}, "after dlclose\n", 'dlopen only: the program goes on after the unload');
like($r->{err}, qr/^pathprof: profile written to \Q$out\E$/m, 'dlopen only: written at unload');
my $p = eval { read_profile($out) };
ok($p, 'dlopen only: profile readable') or diag($@);
if ($p) {
    check_expect($p, 0, read_expect($expect)->[0], 'dlopen only');
    my $s = stream_section($out);
    is($s->{producers}, 2, 'dlopen only: two producer threads');
    is_deeply([@$s{qw(dropped late resync unknown)}], [0, 0, 0, 0], 'dlopen only: nothing lost');
}

done_testing();
