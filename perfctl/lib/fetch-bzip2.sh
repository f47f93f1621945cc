#!/bin/bash
# Fetches and unpacks Debian's bzip2 SOURCE package under DIR (see
# perfctl/lib/fetch-src.sh: the machine's apt configuration is left alone).
# Usage: perfctl/lib/fetch-bzip2.sh DIR      prints the unpacked source directory
exec "$(dirname "$0")/fetch-src.sh" "$1" bzip2 bzlib.c
