#!/bin/sh
# fuzz.sh runs every fuzz target of every package for FUZZTIME each
# (default 10s), one at a time: go test -fuzz takes one target per run. The
# targets are found with go test -list, so new ones are picked up. It stops
# at the first target that finds a failure (the input is kept under the
# package's testdata/fuzz/).
set -eu
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-10s}
for pkg in $($GO list ./...); do
	for target in $($GO test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "== $pkg $target ($FUZZTIME)"
		$GO test -run '^$' -fuzz "^$target\$" -fuzztime "$FUZZTIME" "$pkg"
	done
done
