# RuntimeTest.pm - helpers for the runtime tests (tests/runtime-*.t):
# building the synthetic-TU programs against libpathprof (shared, or with
# the runtime sources compiled in under a sanitizer), running them, and an
# independent reader of the profile format (docs/format.md, section 3)
# that dies on any deviation from the layout.
package RuntimeTest;

use strict;
use warnings;
no warnings 'portable'; # 64-bit hex constants: this reader needs a 64-bit perl
use Exporter 'import';
use File::Temp ();
use File::Basename ();
use Cwd ();
use POSIX ();
use Test::More;
use lib File::Basename::dirname(__FILE__) . "/../cli";    # PPWrite: the trailer hash of file version 2
use PPWrite ();

our @EXPORT = qw(require_runtime tmpdir build_driver build_dso build_program
                 run_prog read_profile slurp fn_counts flavour_available
                 standard_expect basic_expect check_tu leftovers
                 $ROOT $BUILD $LIBDIR @SAN_CFLAGS $SUITE_SANITIZE);

our $ROOT = Cwd::abs_path(File::Basename::dirname(__FILE__) . '/../..');
our $BUILD = $ENV{PATHPROF_BUILD} // "$ROOT/build";
our $LIBDIR = "$BUILD/lib";
my $SUPPORT = "$ROOT/tests/runtime-support";
my $CC = $ENV{PP_GCC} // 'gcc';
my @CFLAGS = qw(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 -pthread);

# A sanitizer suite's tree (make check SANITIZE=..., mk/sanitize.mk) names
# its sanitizer and flags in sanitize.env: whatever links its libpathprof.so
# must be built with them (the ASan runtime has to come first).
our ($SUITE_SANITIZE, @SAN_CFLAGS) = ('');
if (open my $fh, '<', "$BUILD/sanitize.env") {
    while (<$fh>) {
        $SUITE_SANITIZE = $1 if /^PP_SANITIZE='(.*)'$/;
        @SAN_CFLAGS = split ' ', $1 if /^PP_SAN_CFLAGS='(.*)'$/;
    }
}

$ENV{LC_ALL} = 'C';
delete $ENV{$_} for grep { /^PATHPROF_/ } keys %ENV; # tests set their own

sub require_runtime {
    plan skip_all => "libpathprof not built (run make): need $LIBDIR/libpathprof.so"
        unless -f "$LIBDIR/libpathprof.so";
}

my $tmp;
sub tmpdir {
    $tmp //= File::Temp->newdir('pathprof-rt-XXXXXX', TMPDIR => 1,
                                CLEANUP => !($ENV{PP_KEEP_TMP} // 0));
    diag("keeping $tmp") if $ENV{PP_KEEP_TMP};
    return "$tmp";
}

# Runs a compiler command; on failure shows its output and returns 0.
sub compile {
    my ($log, @cmd) = @_;
    my $out = qx{@{[join ' ', map { quotemeta } @cmd]} 2>&1};
    return 1 if $? == 0;
    diag("failed: @cmd\n$out");
    return 0;
}

my %SANITIZE = (
    asan => ['-fsanitize=address,undefined', '-fno-omit-frame-pointer',
             '-fno-sanitize-recover=undefined'],
    tsan => [qw(-fsanitize=thread)],
);

# Whether FLAVOUR (shared, asan, tsan) can build and run a program here.
sub flavour_available {
    my ($flavour) = @_;
    return -f "$LIBDIR/libpathprof.so" if $flavour eq 'shared';
    my $dir = tmpdir();
    open my $fh, '>', "$dir/probe.c" or die;
    print $fh "int main(void){return 0;}\n";
    close $fh;
    my $out = qx{$CC @{$SANITIZE{$flavour}} $dir/probe.c -o $dir/probe-$flavour 2>&1};
    return 0 if $?;
    system("$dir/probe-$flavour >/dev/null 2>&1");
    return $? == 0;
}

# Builds OUT from SOURCES (in tests/runtime-support) with the runtime:
# 'shared' links build/lib/libpathprof.so; 'asan'/'tsan' compile the runtime
# sources into the program with the sanitizer (-rdynamic so a dlopen'd
# library finds the ABI functions in the executable); 'plain' is without
# the runtime.
sub build_program {
    my ($out, $flavour, @sources) = @_;
    my @src = map { "$SUPPORT/$_" } @sources;
    my @cmd = ($CC, @CFLAGS, "-I$ROOT/runtime", "-I$SUPPORT");
    if ($flavour eq 'plain') {
        # It may dlopen what links the suite's libpathprof: ASan first.
        push @cmd, @SAN_CFLAGS, @src, '-o', $out, '-ldl';
    } elsif ($flavour eq 'shared') {
        push @cmd, @SAN_CFLAGS, @src, '-o', $out, "-L$LIBDIR", "-Wl,-rpath,$LIBDIR", '-lpathprof', '-ldl';
    } else {
        # libpathprof is the runtime, the stream buffers and the analyzers.
        push @cmd, @{$SANITIZE{$flavour}}, '-rdynamic', "-I$ROOT/ringbuf",
            "-I$ROOT/analyzers", @src,
            map({ glob("$ROOT/$_/*.c") } qw(runtime ringbuf analyzers analyzers/*)),
            '-o', $out, '-ldl', '-lurcu-memb', '-lck';
    }
    return compile("$out.log", @cmd);
}

sub build_driver {
    my ($out, $flavour) = @_;
    return build_program($out, $flavour, 'driver.c', 'synthetic-tu.c');
}

# The instrumented shared library; LINK_RUNTIME=1 links it with libpathprof.so
# (a library used by an uninstrumented program), else it takes the ABI
# functions from whatever the program provides.
sub build_dso {
    my ($out, $link_runtime) = @_;
    my @cmd = ($CC, @CFLAGS, '-fPIC', '-shared', "-I$ROOT/runtime", "-I$SUPPORT",
               "$SUPPORT/dso-tu.c", "$SUPPORT/synthetic-tu.c", '-o', $out);
    push @cmd, @SAN_CFLAGS, "-L$LIBDIR", "-Wl,-rpath,$LIBDIR", '-lpathprof' if $link_runtime;
    return compile("$out.log", @cmd);
}

sub slurp {
    my ($file) = @_;
    open my $fh, '<:raw', $file or return undef;
    local $/;
    return scalar <$fh>;
}

# run_prog(env => {...}, cwd => DIR, argv => [...]):
# returns { status => exit status or -signal, out => stdout, err => stderr }.
sub run_prog {
    my (%a) = @_;
    my $dir = tmpdir();
    my ($o, $e) = ("$dir/run.stdout", "$dir/run.stderr");
    my $pid = fork() // die "fork: $!";
    if ($pid == 0) {
        chdir $a{cwd} or POSIX::_exit(127) if $a{cwd};
        $ENV{$_} = $a{env}{$_} for keys %{ $a{env} // {} };
        open STDOUT, '>', $o or POSIX::_exit(127);
        open STDERR, '>', $e or POSIX::_exit(127);
        exec { $a{argv}[0] } @{ $a{argv} } or POSIX::_exit(127);
    }
    waitpid($pid, 0);
    my $st = $? & 127 ? -($? & 127) : $? >> 8;
    return { status => $st, out => slurp($o) // '', err => slurp($e) // '' };
}

# ---------------------------------------------------------------- reader

my $FNV_BASIS = 0xcbf29ce484222325;
my $FNV_PRIME = 0x100000001b3;

sub fnv1a64 {
    my ($data) = @_;
    use integer; # 64-bit wrap-around multiplication
    my $h = $FNV_BASIS;
    $h = ($h ^ $_) * $FNV_PRIME for unpack('C*', $data);
    no integer;
    return $h & 0xffffffffffffffff;
}

# A cursor over a byte string that dies when reading past its end.
sub take {
    my ($buf, $pos, $n, $what) = @_;
    die "truncated reading $what at offset $$pos\n" if $$pos + $n > length $$buf;
    my $s = substr($$buf, $$pos, $n);
    $$pos += $n;
    return $s;
}
sub u32 { unpack 'L<', take(@_[0, 1], 4, $_[2]) }
sub u64 { unpack 'Q<', take(@_[0, 1], 8, $_[2]) }

# Decodes the directory and strings of a metadata blob (format.md, 2).
sub parse_meta {
    my ($blob) = @_;
    my $p = 0;
    die "blob magic\n" unless take(\$blob, \$p, 4, 'magic') eq 'PPTM';
    my %m;
    $m{version} = u32(\$blob, \$p, 'meta_version');
    $m{nfuncs} = u32(\$blob, \$p, 'nfuncs');
    $m{nstrings} = u32(\$blob, \$p, 'nstrings');
    $m{strtab} = u64(\$blob, \$p, 'strtab_offset');
    $m{ncounters} = u64(\$blob, \$p, 'ncounters');
    if ($m{version} >= 2) {    # version 2: the TU's build line, then a reserved word
        $m{build} = u32(\$blob, \$p, 'build');
        u32(\$blob, \$p, 'reserved');
    }
    my @strings;
    my $s = $m{strtab};
    for (1 .. $m{nstrings}) {
        my $len = u32(\$blob, \$s, 'string length');
        push @strings, take(\$blob, \$s, $len, 'string');
    }
    for my $i (0 .. $m{nfuncs} - 1) {
        my %f;
        @f{qw(name file checksum flags line npaths counter_offset verify_offset
              nverify reserved detail_offset)} =
            unpack 'L< L< Q< L< L< Q< Q< Q< L< L< Q<', take(\$blob, \$p, 64, 'dirent');
        $f{name} = $strings[$f{name}];
        $f{file} = $f{file} == 0xffffffff ? undef : $strings[$f{file}];
        push @{ $m{funcs} }, \%f;
    }
    return \%m;
}

# Reads and checks a whole profile; returns
# { header fields..., program => {...}, tus => [ { meta, meta_len, funcs =>
#   [ { name, flags, npaths, records => [[id, count]...], verify => [...] } ] } ] }
sub read_profile {
    my ($file) = @_;
    my $buf = slurp($file) // die "cannot read $file: $!\n";
    die "$file: too short\n" if length $buf < 72;
    my $trailer = unpack 'Q<', substr($buf, -8);
    my $body = substr($buf, 0, -8);
    my $version = unpack 'L<', substr($body, 8, 4);
    my $computed = $version == 1 ? fnv1a64($body) : unpack('Q<', PPWrite::hash64($body));
    die sprintf("%s: trailer %016x, computed %016x (file version %u)\n", $file, $trailer,
                $computed, $version)
        if $computed != $trailer;

    my $p = 0;
    my %h;
    die "$file: magic\n" unless take(\$body, \$p, 8, 'magic') eq 'PATHPROF';
    @h{qw(version header_size mode flags pid time nsections reserved0 payload_size
          reserved1)} = unpack 'L< L< L< L< Q< Q< L< L< Q< Q<', take(\$body, \$p, 56, 'header');
    die "$file: header_size $h{header_size}\n" unless $h{header_size} == 64;
    die "$file: reserved header fields\n" if $h{reserved0} || $h{reserved1} || $h{flags};
    die "$file: payload_size $h{payload_size} but " . (length($body) - 64) . " bytes follow\n"
        unless $h{payload_size} == length($body) - 64;

    my (@tus, $program, $nsec);
    while ($p < length $body) {
        my $tag = u32(\$body, \$p, 'tag');
        die "$file: section reserved field\n" if u32(\$body, \$p, 'reserved');
        my $len = u64(\$body, \$p, 'section length');
        my $sec = take(\$body, \$p, $len, 'section');
        $nsec++;
        my $q = 0;
        if ($tag == 1) {
            die "$file: two PROGRAM sections\n" if $program;
            my %pr;
            $pr{exe} = take(\$sec, \$q, u32(\$sec, \$q, 'exe len'), 'exe');
            $pr{cmdline} = take(\$sec, \$q, u32(\$sec, \$q, 'cmd len'), 'cmdline');
            $pr{array_updates} = u64(\$sec, \$q, 'array_updates');
            $pr{hash_updates} = u64(\$sec, \$q, 'hash_updates');
            $pr{lost_after_write} = u64(\$sec, \$q, 'lost');
            $program = \%pr;
        } elsif ($tag == 2) {
            my $meta_len = u64(\$sec, \$q, 'meta_len');
            my $meta = take(\$sec, \$q, $meta_len, 'meta');
            my $pad = (8 - $meta_len % 8) % 8;
            die "$file: non-zero padding\n" if take(\$sec, \$q, $pad, 'pad') =~ /[^\0]/;
            my $m = parse_meta($meta);
            my @funcs;
            for my $f (@{ $m->{funcs} }) {
                my $n = u64(\$sec, \$q, 'nrecords');
                my @rec;
                for (1 .. $n) {
                    my ($id, $count) = (u64(\$sec, \$q, 'path_id'), u64(\$sec, \$q, 'count'));
                    die "$file: $f->{name}: zero count for path $id\n" unless $count;
                    die "$file: $f->{name}: path $id not below npaths\n"
                        unless $id < $f->{npaths};
                    die "$file: $f->{name}: path IDs not ascending at $id\n"
                        if @rec && $rec[-1][0] >= $id;
                    push @rec, [$id, $count];
                }
                my @verify;
                if ($f->{flags} & 8) {
                    push @verify, u64(\$sec, \$q, 'verify') for 1 .. $f->{nverify};
                }
                push @funcs, { %$f, records => \@rec, verify => \@verify };
            }
            die "$file: TU section has " . (length($sec) - $q) . " bytes left over\n"
                if $q != length $sec;
            push @tus, { meta => $meta, meta_len => $meta_len, parsed => $m,
                         funcs => \@funcs };
        }
        # Unknown tags are skipped, as every reader must.
    }
    die "$file: nsections $h{nsections}, found $nsec\n" unless $h{nsections} == $nsec;
    die "$file: no PROGRAM section\n" unless $program;

    # The PROGRAM totals must be the sums of what the TU sections hold.
    my ($arr, $hash) = (0, 0);
    for my $tu (@tus) {
        for my $f (@{ $tu->{funcs} }) {
            my $sum = 0;
            $sum += $_->[1] for @{ $f->{records} };
            if ($f->{flags} & 1) { $hash += $sum } else { $arr += $sum }
        }
    }
    die "$file: array_updates $program->{array_updates}, sections sum to $arr\n"
        unless $program->{array_updates} == $arr;
    die "$file: hash_updates $program->{hash_updates}, sections sum to $hash\n"
        unless $program->{hash_updates} == $hash;
    return { %h, program => $program, tus => \@tus };
}

# { path_id => count } of function NAME in TU section TU of profile PROF.
sub fn_counts {
    my ($prof, $tu, $name) = @_;
    my ($f) = grep { $_->{name} eq $name } @{ $prof->{tus}[$tu]{funcs} };
    return undef unless $f;
    return { map { $_->[0] => $_->[1] } @{ $f->{records} } };
}

# ------------------------------------------- what driver.c's scenarios count

# The counts of standard_bumps() in driver.c, per function of the standard
# TU: { name => { records => { id => count }, verify => [...] } }.
sub standard_expect {
    return {
        alpha => { records => { 0 => 1, 5 => 10 }, verify => [] },
        beta => { records => {}, verify => [] },
        gamma => { records => { 1 => 2 }, verify => [2, 0, 0, 1] },
        delta => { records => { 0 => 4, 42 => 1, '18446744073709551614' => 2 },
                   verify => [0, 7] },
        epsilon => { records => {}, verify => [] },
    };
}

# The scenario "basic K": standard bumps, counts before registration, and 4
# threads x 3 rounds over K hash IDs (i * 0x10001) plus K atomic bumps each.
sub basic_expect {
    my ($k) = @_;
    my $e = standard_expect();
    $e->{alpha}{records}{2} = 5;
    $e->{beta}{records} = { 7 => 3, map { ($_ * 0x10001) => 12 } 0 .. $k - 1 };
    $e->{gamma}{records}{0} = 4 * $k;
    return $e;
}

# One is_deeply per function of TU section I: counts and verify counters.
sub check_tu {
    my ($prof, $i, $expect, $label) = @_;
    my $tu = $prof->{tus}[$i];
    unless ($tu) {
        fail("$label: TU section $i exists");
        return;
    }
    for my $name (sort keys %$expect) {
        my ($f) = grep { $_->{name} eq $name } @{ $tu->{funcs} };
        my %got = map { $_->[0] => $_->[1] } @{ $f ? $f->{records} : [] };
        is_deeply(\%got, $expect->{$name}{records}, "$label: $name path counts");
        is_deeply($f ? $f->{verify} : undef, $expect->{$name}{verify},
                  "$label: $name verify counters") if @{ $expect->{$name}{verify} };
    }
}

# Files left in DIR other than the expected ones (temporary files must go).
sub leftovers {
    my ($dir, @expected) = @_;
    my %ok = map { $_ => 1 } @expected;
    opendir my $dh, $dir or return ();
    return grep { !/^\.\.?$/ && !$ok{$_} } readdir $dh;
}

1;
