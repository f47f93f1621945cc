#!/usr/bin/perl
# stream-runtime-bench.t - perfctl/micro/stream-throughput.c builds and runs (a
# short run: the numbers are for `make bench`, not checked here), and its
# events all arrive.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/runtime-support";
use RuntimeTest;
use Test::More;

require_runtime();
my $dir = tmpdir();
my $bin = "$dir/stream-throughput";
my $cc = $ENV{PP_GCC} // 'gcc';
my $out = qx{$cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -pthread @SAN_CFLAGS -I$ROOT/runtime $ROOT/perfctl/micro/stream-throughput.c -L$LIBDIR -Wl,-rpath,$LIBDIR -lpathprof -o $bin 2>&1};
is($?, 0, 'stream-throughput builds') or diag($out);
my $r = run_prog(argv => [$bin, 300000, 2], cwd => $dir);
is($r->{status}, 0, 'stream-throughput runs') or diag($r->{err});
like($r->{out}, qr/^producer: [\d.]+ M events\/s per thread .* blocked [\d.]+ s$/m, 'producer rate');
like($r->{out}, qr/^analyzer: [\d.]+ M events\/s per busy core \(600001 events in [\d.]+ s busy\)$/m,
     'analyzer rate, every event');
like($r->{out}, qr/^lost: dropped 0, late 0, unknown 0$/m, 'nothing lost');
done_testing();
