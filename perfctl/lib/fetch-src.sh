#!/bin/bash
# Fetches and unpacks the Debian SOURCE package PKG into DIR/src/PKG without
# touching the machine's apt configuration or state: a private sources list,
# lists directory and cache under DIR/apt. The archive host is taken from the
# machine's own apt sources (the first one serving this release's main suite).
# Usage: perfctl/lib/fetch-src.sh DIR PKG MARKER [SUITE]   prints the unpacked
# source directory (the first directory under DIR/src/PKG holding a file named
# MARKER). SUITE (default: this release's codename) is the suite whose source
# index is read, on the same archive host: a package whose tarballs the host
# no longer serves for this release (pigz 2.6's) is taken from the next one.
# perfctl/lib/fetch-bzip2.sh calls it for bzip2.
set -euo pipefail
dir=$(mkdir -p "$1" && cd "$1" && pwd)
pkg=$2 marker=$3 suite=${4:-}
[ -z "$suite" ] || [[ $suite =~ ^[a-z][a-z0-9-]*$ ]] || { echo "perfctl/lib/fetch-src.sh: SUITE '$suite' is not a suite name" >&2; exit 1; }

existing=$(find "$dir/src/$pkg" -maxdepth 3 -name "$marker" -printf '%h\n' 2>/dev/null | head -n 1 || true)
if [ -n "$existing" ]; then echo "$existing"; exit 0; fi

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || { echo "perfctl/lib/fetch-src.sh: no VERSION_CODENAME in /etc/os-release" >&2; exit 1; }

# Prints "URI SIGNED-BY" for every enabled deb source whose suites include
# $codename exactly (not -updates or -security), one-line and deb822 styles.
find_archives() {
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk -v c="$codename" '
            /^[ \t]*deb[ \t]/ {
                i = 2; signed = "-"
                if ($2 ~ /^\[/) {
                    for (; i <= NF; i++) {
                        if ($i ~ /signed-by=/) { s = $i; sub(/.*signed-by=/, "", s); sub(/\]$/, "", s); signed = s }
                        if ($i ~ /\]$/) { i++; break }
                    }
                }
                if ($(i + 1) == c) print $i, signed
            }' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk -v c="$codename" '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && enabled != "no" && (" " suites " ") ~ (" " c " "))
                    { n = split(uris, u, " "); for (k = 1; k <= n; k++) print u[k], (signed == "" ? "-" : signed) }
                types = uris = suites = signed = enabled = ""
            }
            /^[ \t]*$/ { flush(); next }
            /^#/ { next }
            /^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
            /^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
            /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
            /^Signed-By:/ { sub(/^Signed-By:[ \t]*/, ""); signed = $0 }
            /^Enabled:/ { sub(/^Enabled:[ \t]*/, ""); enabled = tolower($0) }
            END { flush() }' "$f"
    done
}

archive=$(find_archives | head -n 1)
if [ -z "$archive" ]; then
    echo "perfctl/lib/fetch-src.sh: no apt source for '$codename' main in /etc/apt/sources.list{,.d}; cannot fetch the $pkg source package" >&2
    exit 1
fi
uri=${archive% *} signed=${archive#* }
opt=
[ "$signed" != - ] && [ -f "$signed" ] && opt="[signed-by=$signed] "

# a list directory per suite: apt-get update drops the lists of the others
apt=$dir/apt-src${suite:+-$suite}
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts.d" "$dir/src/$pkg"
echo "deb-src ${opt}$uri ${suite:-$codename} main" >"$apt/sources.list"
APT=(apt-get -q
     -o "Dir::Etc::SourceList=$apt/sources.list"
     -o "Dir::Etc::SourceParts=$apt/parts.d"
     -o "Dir::State::Lists=$apt/lists"
     -o "Dir::Cache=$apt/cache"
     -o "Dir::Cache::pkgcache="
     -o "Dir::Cache::srcpkgcache="
     -o "APT::Sandbox::User=root")
echo "bench: fetching the $pkg source package from $uri (${suite:-$codename}) with a private apt list in $apt" >&2
"${APT[@]}" update >&2
(cd "$dir/src/$pkg" && "${APT[@]}" source "$pkg" >&2)
src=$(find "$dir/src/$pkg" -maxdepth 3 -name "$marker" -printf '%h\n' | head -n 1)
[ -n "$src" ] || { echo "perfctl/lib/fetch-src.sh: unpacked $pkg has no $marker in $dir/src" >&2; exit 1; }
echo "$src"
