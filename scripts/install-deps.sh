#!/bin/sh
# Installs the Debian packages pathprof needs, only those missing.
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
if [ "$(id -u)" != 0 ]; then
    SUDO=sudo
else
    SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
