#!/bin/sh
# Installs the Debian packages pathprof needs, only those missing (Debian 12
# bookworm; only Debian's archive needs to be reachable). The GNUmakefile's
# entries call it with the extra packages each needs (CHECK_DEPS, ...).
# Usage: scripts/install-deps.sh [extra-package ...]
set -eu
need="gcc g++ make gcc-12-plugin-dev liburcu-dev libck-dev perl $*"
missing=""
for p in $need; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
echo "pathprof: installing missing packages:$missing" >&2
if [ "$(id -u)" = 0 ]; then
    SUDO=
elif command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
else
    echo "pathprof: cannot install$missing: not root and no sudo; as root run: apt-get install$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
