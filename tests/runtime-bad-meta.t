#!/usr/bin/perl
# runtime-bad-meta.t - a TU built for another ABI version or with malformed
# metadata is refused with one clear line each, never crashes the program,
# and does not disturb the good TUs.
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

my $r = run_prog(argv => [$drv, 'bad'], cwd => $dir,
                 env => { PATHPROF_OUT => "$dir/bad.out", PATHPROF_QUIET => 1 });
is($r->{status}, 0, 'the program runs to its end');
my @err = split /\n/, $r->{err};
my @expect = (
    qr{^pathprof: error: a translation unit was built for run-time ABI version 99 but this libpathprof implements version 5; it is not profiled},
    qr{^pathprof: error: ignoring translation unit \(unnamed\): invalid metadata: no metadata},
    qr{^pathprof: error: ignoring translation unit \(unnamed\): invalid metadata: metadata is 20 bytes, shorter than its 32-byte header},
    qr{^pathprof: error: ignoring translation unit bad\.c: invalid metadata: metadata says 21 counters, the TU registered 20},
    qr{^pathprof: error: ignoring translation unit \(unnamed\): invalid metadata: metadata does not start with "PPTM"},
    qr{^pathprof: error: ignoring translation unit bad\.c: invalid metadata: metadata version 9, this libpathprof reads versions 1 to 3},
    qr{^pathprof: error: ignoring translation unit bad\.c: invalid metadata: function directory of 200 entries does not fit},
    qr{^pathprof: error: ignoring translation unit bad\.c: invalid metadata: function 0: counters \[0, \+30\) exceed ncounters 21},
    qr{^pathprof: error: ignoring translation unit bad\.c: invalid metadata: function 1: hash slot 3 overlaps other counters},
    qr{^pathprof: error: ignoring translation unit bad\.c: invalid metadata: function 1: counters \[8, \+12\) overlap other counters},
    qr{^pathprof: error: ignoring translation unit bad\.c: invalid metadata: function 0: verify counters \[19, \+5\) exceed ncounters 21},
);
is(scalar @err, scalar @expect, 'one line per refused TU') or diag($r->{err});
like($err[$_] // '', $expect[$_], "refusal " . ($_ + 1)) for 0 .. $#expect;

my $p = eval { read_profile("$dir/bad.out") };
ok($p, 'profile written') or diag($@);
is($p && scalar @{ $p->{tus} }, 1, 'only the good TU is in it');
check_tu($p, 0, standard_expect(), 'good TU') if $p;

done_testing();
