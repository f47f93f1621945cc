#!/usr/bin/perl
# runtime-fallback.t - when the profile cannot be written where asked, the
# runtime says why in one line naming the file, removes its temporary, and
# writes the profile to $TMPDIR (or /tmp) as pathprof.PID.out, saying so.
# The program's exit status and stdout never change.
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
mkdir "$dir/$_" for qw(fb target);

sub fallback_file {
    my ($fbdir, $err) = @_;
    my ($f) = $err =~ m{profile written to (\Q$fbdir\E/pathprof\.\d+\.out) instead}
        or return undef;
    return $f;
}

# A directory that does not exist.
my $want = "$dir/missing/p.out";
my $r = run_prog(argv => [$drv, 'basic', 100], cwd => $dir,
                 env => { PATHPROF_OUT => $want, TMPDIR => "$dir/fb" });
like($r->{err}, qr{^pathprof: error: cannot write profile \Q$want\E: No such file or directory \(could not create a temporary file beside it\)$}m,
     'missing directory: one error line naming the file and the error');
my $fb = fallback_file("$dir/fb", $r->{err});
ok($fb, 'and a line saying where the profile went') or diag($r->{err});
my ($pid) = ($fb // '') =~ /pathprof\.(\d+)\.out$/;
my $p = $fb && eval { read_profile($fb) };
ok($p, 'the fallback profile is complete') or diag($@);
is($p && $p->{pid}, $pid, 'named after the writing pid');
SKIP: {
    skip 'no fallback profile', 1 unless $p;
    check_tu($p, 0, basic_expect(100), 'fallback');
}
is($r->{status}, 3, 'exit status unchanged');
is($r->{out}, "driver: hello\n", 'stdout unchanged');
unlink $fb if $fb;

# The target is a directory: refused before anything is written (a rename
# over it would fail anyway), and no temporary stays behind.
mkdir "$dir/target/isdir";
$r = run_prog(argv => [$drv, 'basic', 100], cwd => $dir,
              env => { PATHPROF_OUT => "$dir/target/isdir", TMPDIR => "$dir/fb",
                       PATHPROF_QUIET => 1 });
like($r->{err}, qr{^pathprof: error: cannot write profile \Q$dir/target/isdir\E: Is a directory \(a directory is never replaced: name a file in it\)$}m,
     'a directory is refused, saying why');
is_deeply([leftovers("$dir/target", 'isdir')], [], 'the partial temporary is removed');
$fb = fallback_file("$dir/fb", $r->{err});
ok($fb && -f $fb, 'where it went is said even with PATHPROF_QUIET=1') or diag($r->{err});
unlink $fb if $fb;

# No room at all (a file size limit: EFBIG everywhere): every attempt is
# reported, no temporary stays, the program's status is still its own.
SKIP: {
    skip 'no /bin/sh ulimit', 4 unless -x '/bin/sh';
    local $SIG{XFSZ} = 'IGNORE'; # inherited: write() fails with EFBIG instead
    $r = run_prog(argv => ['/bin/sh', '-c', 'ulimit -f 8 && exec "$0" basic 5000', $drv],
                  cwd => $dir,
                  env => { PATHPROF_OUT => "$dir/target/big.out", TMPDIR => "$dir/fb" });
    like($r->{err}, qr{^pathprof: error: cannot write profile \Q$dir/target/big.out\E: File too large \(could not write\)$}m,
         'EFBIG on the target');
    like($r->{err}, qr{^pathprof: error: no profile written: every location failed}m,
         'and a final line when the fallbacks fail too');
    is_deeply([leftovers("$dir/target", 'isdir'), leftovers("$dir/fb")], [],
              'no temporary left anywhere');
    is($r->{status}, 3, 'exit status still the program\'s');
}

done_testing();
