#!/usr/bin/perl
# runtime-profile-layout.t - the profile written by libpathprof, byte by
# byte: header, PROGRAM section, TU section with the blob verbatim, counts
# from before registration, array / hash / VERIFY counters, hash counting
# from 4 threads (table growth under contention), trailer checksum; and the
# program's own stdout and exit status untouched.
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

my $K = 20000;
mkdir "$dir/prof";
my $out = "$dir/prof/basic.out";
my $t0 = time;
my $r = run_prog(argv => [$drv, 'basic', $K], cwd => $dir,
                 env => { PATHPROF_OUT => $out, DRIVER_META => "$dir/basic.meta",
                          PATHPROF_VERBOSE => 1 });
is($r->{status}, 3, 'exit status of main is kept');
is($r->{out}, "driver: hello\n", 'stdout is only the program\'s');
is($r->{err}, "pathprof: profile written to $out\n", 'PATHPROF_VERBOSE=1: one informational line on stderr');
ok(-f $out, 'profile written to PATHPROF_OUT');
is_deeply([leftovers("$dir/prof", 'basic.out')], [], 'no temporary file left');

my $p = eval { read_profile($out) };
ok($p, 'profile passes the independent reader (layout, checksum, sums)') or diag($@);
SKIP: {
    skip 'no profile to inspect', 1 unless $p;
    is($p->{version}, 2, 'file_version 2');
    is($p->{mode}, 1, 'mode count');
    ok($p->{pid} > 1, 'pid recorded');
    ok($p->{time} >= $t0 - 1 && $p->{time} <= time + 1, 'time of writing');
    is($p->{nsections}, 2, 'PROGRAM + one TU section');
    is($p->{program}{exe}, $drv, 'PROGRAM exe is /proc/self/exe');
    is($p->{program}{cmdline}, "$drv basic $K", 'PROGRAM command line joined by spaces');
    is($p->{program}{array_updates}, 1 + 5 + 10 + 2 + 4 * $K, 'array_updates');
    is($p->{program}{hash_updates}, 3 + 7 + 12 * $K, 'hash_updates');
    is($p->{program}{lost_after_write}, 0, 'lost_after_write reserved 0');
    ok($p->{tus}[0]{meta} eq slurp("$dir/basic.meta"), 'blob copied verbatim');
    ok($p->{tus}[0]{meta_len} % 8 != 0, 'blob length is odd (padding was exercised)');
    check_tu($p, 0, basic_expect($K), 'basic');
}

# The reader above decodes with unpack; check a few raw bytes literally too.
my $raw = slurp($out);
is(substr($raw, 0, 24), "PATHPROF" . pack('L<L<L<L<', 2, 64, 1, 0), 'header prefix bytes');

done_testing();
