#!/usr/bin/perl
# gen-wav.pl - the audio of perfctl's flac workload (perfctl/programs/flac.sh,
# run by perfctl/programs/work.flac):
#   perl gen-wav.pl DIR N
# writes two RIFF/WAVE files into DIR:
#   music16.wav  N frames, 16-bit stereo, 44100 Hz, in eight segments that
#                each lead flac's encoder to a different kind of subframe:
#                0 a chord under a slow envelope, the right channel a
#                  delayed copy of the left (LPC, left/side or mid/side)
#                1 digital silence (CONSTANT subframes)
#                2 full-scale white noise (VERBATIM: no predictor wins)
#                3 one voice in both channels (the side channel is 0)
#                4 a chirp over quiet noise (the LPC order search)
#                5 a clipped square-ish wave (FIXED predictors, runs)
#                6 decaying plucked notes, one new note per 1/8 segment
#                7 a quiet tone whose samples are multiples of 8 (wasted bits)
#   mono24.wav   N/4 frames, 24-bit mono, 96000 Hz, with a WAVE_FORMAT_
#                EXTENSIBLE header (what flac writes back for 24 bits):
#                two sines and a sweep over noise, 20 bits of dynamics
# Noise comes from a fixed linear congruential generator and every sample
# is rounded from the same floating-point formula: the same N gives the
# same bytes.
use strict;
use warnings;
use POSIX qw(floor);

my ($dir, $n) = @ARGV;
defined $n && $n =~ /^\d+$/ && $n >= 64 or die "usage: gen-wav.pl DIR N (N >= 64)\n";
-d $dir or die "gen-wav.pl: $dir is not a directory\n";
my $PI = 4 * atan2(1, 1);
my $seed = 4242;
# a uniform value in [-1, 1)
sub noise {
    $seed = ($seed * 1103515245 + 12345) % 2147483648;
    return $seed / 1073741824 - 1;
}
sub clamp {
    my ($v, $max) = @_;
    return $v > $max ? $max : $v < -$max - 1 ? -$max - 1 : $v;
}

# header BYTES-PER-SAMPLE CHANNELS RATE FRAMES EXTENSIBLE
sub header {
    my ($bps, $ch, $rate, $frames, $ext) = @_;
    my $data = $frames * $ch * $bps;
    my $align = $ch * $bps;
    my $fmt;
    if ($ext) {
        # WAVE_FORMAT_EXTENSIBLE: valid bits, channel mask (front centre),
        # the PCM sub-format GUID
        $fmt = pack('vvVVvv', 0xFFFE, $ch, $rate, $rate * $align, $align, 8 * $bps)
            . pack('vvV', 22, 8 * $bps, 4)
            . pack('H*', '0100000000001000800000aa00389b71');
    } else {
        $fmt = pack('vvVVvv', 1, $ch, $rate, $rate * $align, $align, 8 * $bps);
    }
    return 'RIFF' . pack('V', 4 + 8 + length($fmt) + 8 + $data) . 'WAVE'
        . 'fmt ' . pack('V', length($fmt)) . $fmt . 'data' . pack('V', $data);
}

sub open_out {
    my $f = "$dir/$_[0]";
    open(my $h, '>:raw', $f) or die "gen-wav.pl: $f: $!\n";
    return $h;
}

# music16.wav
{
    my $h = open_out('music16.wav');
    print $h header(2, 2, 44100, $n, 0);
    my $seg = int($n / 8) || 1;
    my @hist;    # the left channel's last 12 samples (segment 0's delay)
    my $buf = '';
    for my $i (0 .. $n - 1) {
        my $s = int($i / $seg);
        $s = 7 if $s > 7;
        my $t = $i / 44100;
        my $j = $i - $s * $seg;    # the frame within the segment
        my ($l, $r);
        if ($s == 0) {
            my $env = 0.5 + 0.45 * sin(2 * $PI * 0.7 * $t);
            $l = 9000 * $env * (sin(2 * $PI * 220 * $t) + 0.6 * sin(2 * $PI * 277.2 * $t) + 0.4 * sin(2 * $PI * 329.6 * $t));
            $l += 40 * noise();
            $r = @hist >= 12 ? 0.8 * $hist[0] + 30 * noise() : 0;
        } elsif ($s == 1) {
            $l = $r = 0;
        } elsif ($s == 2) {
            $l = 32767 * noise();
            $r = 32767 * noise();
        } elsif ($s == 3) {
            $l = $r = 12000 * sin(2 * $PI * 440 * $t) * (1 - $j / $seg) + 200 * noise();
        } elsif ($s == 4) {
            my $f = 100 + 8000 * $j / $seg;
            $l = 14000 * sin(2 * $PI * $f * $j / 44100 / 2) + 150 * noise();
            $r = 14000 * cos(2 * $PI * $f * $j / 44100 / 2) + 150 * noise();
        } elsif ($s == 5) {
            my $v = 30000 * sin(2 * $PI * 150 * $t);
            $l = clamp($v, 20000);
            $r = clamp(-$v, 12000);
        } elsif ($s == 6) {
            my $step = int($seg / 8) || 1;
            my $k = int($j / $step);
            my $u = ($j - $k * $step) / 44100;
            my $f = 196 * 2**(($k * 5 % 12) / 12);
            $l = 20000 * exp(-6 * $u) * sin(2 * $PI * $f * $u) + 20 * noise();
            $r = 16000 * exp(-5 * $u) * sin(2 * $PI * 2 * $f * $u) + 20 * noise();
        } else {
            $l = 8 * floor(300 * sin(2 * $PI * 1000 * $t));
            $r = 8 * floor(200 * sin(2 * $PI * 1500 * $t + 1));
        }
        $l = clamp(floor($l + 0.5), 32767);
        $r = clamp(floor($r + 0.5), 32767);
        push @hist, $l;
        shift @hist if @hist > 12;
        $buf .= pack('s<s<', $l, $r);
        if (length($buf) >= 65536) { print $h $buf; $buf = ''; }
    }
    print $h $buf;
    close($h) or die "gen-wav.pl: $dir/music16.wav: $!\n";
}

# mono24.wav
{
    my $m = int($n / 4) || 1;
    my $h = open_out('mono24.wav');
    print $h header(3, 1, 96000, $m, 1);
    my $buf = '';
    for my $i (0 .. $m - 1) {
        my $t = $i / 96000;
        my $v = 2000000 * sin(2 * $PI * 60 * $t) + 900000 * sin(2 * $PI * 3000 * $t)
            + 400000 * sin(2 * $PI * (200 + 20000 * $i / $m) * $t) + 4000 * noise();
        $v = clamp(floor($v + 0.5), 8388607);
        $buf .= substr(pack('l<', $v), 0, 3);
        if (length($buf) >= 65536) { print $h $buf; $buf = ''; }
    }
    print $h $buf;
    close($h) or die "gen-wav.pl: $dir/mono24.wav: $!\n";
}
