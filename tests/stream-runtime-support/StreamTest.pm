# StreamTest.pm - helpers for tests/stream-runtime-*.t: building the
# synthetic stream programs (stream-driver.c, dso-stream.c) against
# libpathprof (shared, or the runtime sources compiled in under a
# sanitizer), reading the STREAM section (docs/format.md, section 3), and
# comparing a profile with what the program says it emitted ($EXPECT).
package StreamTest;

use strict;
use warnings;
use Exporter 'import';
use File::Basename ();
use Test::More;
use POSIX ();
use lib File::Basename::dirname(__FILE__) . '/../runtime-support';
use RuntimeTest;

our @EXPORT = qw(build_stream_driver build_stream_dso build_plain stream_section
                 read_expect check_expect stream_run $SAN_ENV $SAN_REPORT);

my $SUPPORT = "$ROOT/tests/stream-runtime-support";
my $RT_SUPPORT = "$ROOT/tests/runtime-support";
my $CC = $ENV{PP_GCC} // 'gcc';
my @CFLAGS = qw(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 -pthread);
my %SANITIZE = (
    asan => ['-fsanitize=address,undefined', '-fno-omit-frame-pointer',
             '-fno-sanitize-recover=undefined'],
    tsan => [qw(-fsanitize=thread)],
);
our $SAN_ENV = {
    asan => { ASAN_OPTIONS => 'detect_leaks=1:halt_on_error=1',
              UBSAN_OPTIONS => 'print_stacktrace=1:halt_on_error=1' },
    tsan => { TSAN_OPTIONS => 'halt_on_error=1:exitcode=66' },
    shared => {},
};
our $SAN_REPORT = qr/ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|WARNING: ThreadSanitizer/;

sub compile {
    my (@cmd) = @_;
    my $out = qx{@{[join ' ', map { quotemeta } @cmd]} 2>&1};
    return 1 if $? == 0;
    diag("failed: @cmd\n$out");
    return 0;
}

# The driver, FLAVOUR shared (build/lib/libpathprof.so) or asan/tsan (the
# runtime, buffers and analyzers compiled in, -rdynamic for the library).
sub build_stream_driver {
    my ($out, $flavour) = @_;
    my @cmd = ($CC, @CFLAGS, "-I$ROOT/runtime", "-I$RT_SUPPORT",
               "$SUPPORT/stream-driver.c", "$SUPPORT/stream-tu.c",
               "$RT_SUPPORT/synthetic-tu.c", '-o', $out);
    if ($flavour eq 'shared') {
        push @cmd, @SAN_CFLAGS, "-L$LIBDIR", "-Wl,-rpath,$LIBDIR", '-lpathprof', '-ldl';
    } else {
        push @cmd, @{ $SANITIZE{$flavour} }, '-rdynamic', "-I$ROOT/ringbuf",
            "-I$ROOT/analyzers",
            map({ glob("$ROOT/$_/*.c") } qw(runtime ringbuf analyzers analyzers/*)),
            '-ldl', '-lurcu-memb', '-lck';
    }
    return compile(@cmd);
}

# The instrumented library: it takes the ABI from whatever loads it, or,
# with LINK_RUNTIME, from libpathprof.so, which it then pulls in.
sub build_stream_dso {
    my ($out, $link_runtime) = @_;
    my @cmd = ($CC, @CFLAGS, '-fPIC', '-shared', "-I$ROOT/runtime",
               "-I$RT_SUPPORT", "$SUPPORT/dso-stream.c", "$SUPPORT/stream-tu.c",
               "$RT_SUPPORT/synthetic-tu.c", '-o', $out);
    push @cmd, @SAN_CFLAGS, "-L$LIBDIR", "-Wl,-rpath,$LIBDIR", '-lpathprof' if $link_runtime;
    return compile(@cmd);
}

# A plain program (no runtime) from tests/stream-runtime-support/SRC.
sub build_plain {
    my ($out, $src) = @_;
    # It may dlopen what links the suite's libpathprof: ASan first.
    return compile($CC, @CFLAGS, @SAN_CFLAGS, "$SUPPORT/$src", '-o', $out, '-ldl');
}

# Runs a program with a fresh $EXPECT file, like RuntimeTest::run_prog,
# but a program still running after TIMEOUT seconds (60) is killed: a hang
# is a failure, not a stuck test run.  Returns ($result, $expect_path);
# $result->{status} is 'timeout' then.
sub stream_run {
    my (%a) = @_;
    my $dir = tmpdir();
    my $name = $a{name} // 'run';
    my $expect = "$dir/$name.expect";
    my ($o, $e) = ("$dir/$name.stdout", "$dir/$name.stderr");
    unlink $expect;
    my %env = (EXPECT => $expect, PATHPROF_QUIET => 1, %{ $a{env} // {} });
    my $pid = fork() // die "fork: $!";
    if ($pid == 0) {
        setpgrp(0, 0); # the kill below takes any child process with it
        chdir($a{cwd} // $dir) or POSIX::_exit(127);
        $ENV{$_} = $env{$_} for keys %env;
        open STDOUT, '>', $o or POSIX::_exit(127);
        open STDERR, '>', $e or POSIX::_exit(127);
        exec { $a{argv}[0] } @{ $a{argv} } or POSIX::_exit(127);
    }
    my $deadline = time + ($a{timeout} // 60);
    my $status;
    while (1) {
        my $w = waitpid($pid, POSIX::WNOHANG());
        if ($w == $pid) {
            $status = $? & 127 ? -($? & 127) : $? >> 8;
            last;
        }
        if (time > $deadline) {
            kill 'KILL', -$pid;
            waitpid($pid, 0);
            $status = 'timeout';
            last;
        }
        select(undef, undef, undef, 0.02);
    }
    return ({ status => $status, out => RuntimeTest::slurp($o) // '',
              err => RuntimeTest::slurp($e) // '' }, $expect);
}

# The STREAM section of profile FILE, decoded; dies if absent or malformed.
sub stream_section {
    my ($file) = @_;
    my $buf = RuntimeTest::slurp($file) // die "cannot read $file\n";
    my $p = 64;
    my $end = length($buf) - 8;
    my $found;
    while ($p + 16 <= $end) {
        my ($tag, $res, $len) = unpack 'L< L< Q<', substr($buf, $p, 16);
        my $sec = substr($buf, $p + 16, $len);
        $p += 16 + $len;
        next unless $tag == 3;
        die "$file: two STREAM sections\n" if $found;
        my %s;
        my $q = 0;
        my $take = sub {
            my ($n) = @_;
            die "$file: STREAM section truncated\n" if $q + $n > length $sec;
            my $v = substr($sec, $q, $n);
            $q += $n;
            return $v;
        };
        @s{qw(policy chunk chunks_per_thread nthreads)} = unpack 'L<4', $take->(16);
        @s{qw(producers events dropped late resync unknown blocked_ns)} =
            unpack 'Q<7', $take->(56);
        my $nan = unpack 'L<', $take->(4);
        for (1 .. $nan) {
            my $l = unpack 'L<', $take->(4);
            push @{ $s{analyzers} }, $take->($l);
        }
        for (1 .. $s{nthreads}) {
            my ($ev, $busy) = unpack 'Q<2', $take->(16);
            push @{ $s{threads} }, { events => $ev, busy_ns => $busy };
        }
        die "$file: STREAM section has " . (length($sec) - $q) . " bytes left over\n"
            if $q != length $sec;
        $found = \%s;
    }
    die "$file: no STREAM section\n" unless $found;
    my $mode = unpack 'L<', substr($buf, 16, 4);
    die "$file: mode $mode, not 2 (stream)\n" unless $mode == 2;
    return $found;
}

# $EXPECT: [ { file => F, funcs => { name => { id => count } }, events => N } ]
sub read_expect {
    my ($path) = @_;
    open my $fh, '<', $path or return undef;
    my (@tus, $cur);
    while (<$fh>) {
        chomp;
        if (/^tu (\S+)$/) {
            $cur = { file => $1, funcs => {}, events => 0 };
            push @tus, $cur;
        } elsif (/^(events|words) (\d+)$/) {
            $cur->{$1} = $2;
        } elsif (/^(\S+) (\d+) (\d+)$/) {
            $cur->{funcs}{$1}{$2} = $3;
        } else {
            die "$path: bad line '$_'\n";
        }
    }
    return \@tus;
}

# Compares TU section I of profile P (read_profile) with expectation E:
# every function's records exactly.
sub check_expect {
    my ($p, $i, $e, $label) = @_;
    my $tu = $p->{tus}[$i];
    return fail("$label: TU section $i exists") unless $tu;
    my (%got, %want);
    for my $f (@{ $tu->{funcs} }) {
        $got{ $f->{name} } = { map { $_->[0] => $_->[1] } @{ $f->{records} } };
        $want{ $f->{name} } = $e->{funcs}{ $f->{name} } // {};
    }
    my @extra = grep { !exists $got{$_} } keys %{ $e->{funcs} };
    is_deeply(\@extra, [], "$label: no expected function missing from the section");
    is_deeply(\%got, \%want, "$label: every path count") or do {
        for my $name (sort keys %want) {
            my ($g, $w) = ($got{$name}, $want{$name});
            my @diff = grep { ($g->{$_} // 0) != ($w->{$_} // 0) }
                       keys %{ { %$g, %$w } };
            diag("$name: " . scalar(@diff) . " paths differ, e.g. "
                 . join(', ', map { "$_: got " . ($g->{$_} // 0) . " want " . ($w->{$_} // 0) }
                                  (sort { $a <=> $b } @diff)[0 .. ($#diff < 4 ? $#diff : 4)]))
                if @diff;
        }
    };
}

1;
