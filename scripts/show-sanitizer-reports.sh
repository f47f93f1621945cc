#!/bin/sh
# show-sanitizer-reports.sh DIR: prints the first lines of every sanitizer
# report under DIR (a sanitizer suite's logs, one folder per test:
# scripts/run-test.sh), after a failed `make check SANITIZE=...`, so that
# the end of the output names the test and the report even where only the
# end of a CI log is kept. Prints nothing for a plain suite (no DIR).
[ -n "${1:-}" ] && [ -d "$1" ] || exit 0
find "$1" -type f | sort | while read -r f; do
    echo "== sanitizer report ${f#"$1"/}:"
    sed -n '1,25p' "$f"
done
