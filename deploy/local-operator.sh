#!/bin/sh
# local-operator.sh: runs a test on N local processes exactly as k6-operator
# runs a TestRun of parallelism N, then merges their results into one summary.
#
#   deploy/local-operator.sh [-n N] [-b BINARY] [-d DIR] [-p PORT] [-t NAME] script.js [run args...]
#
#   -n N       runners (spec.parallelism), default 3
#   -b BINARY  the usefullatency binary, default `usefullatency` on PATH; it is
#              linked as `k6` on the PATH of every command, as in the image
#   -d DIR     working directory (archive, result files, logs), default a new
#              temporary one; DIR/summary.json is the merged summary export
#   -p PORT    first REST API port tried, default one derived from the pid;
#              a port that is taken is skipped
#   -t NAME    the TestRun's name (the testrun_name tag), default local
#   run args   spec.arguments: given to `k6 archive` (minus -o/--out) and to
#              every `k6 run`
#
# The flow is the operator's:
#   1. initializer: k6 archive script -O archive.tar, then
#      k6 inspect --execution-requirements archive.tar (fails on level=error)
#   2. runners: k6 run --quiet --execution-segment=i/N:(i+1)/N
#      --execution-segment-sequence=0,1/N,...,1 archive.tar [args]
#      --address=127.0.0.1:PORT_i --paused --tag instance_id=i
#      --tag testrun_name=NAME (plus -o result=DIR/i.res, what the operator
#      lacks); each waits paused after initialising its VUs
#   3. readiness: every runner's GET /v1/status answers
#   4. starter: curl -X PATCH .../v1/status with paused:false to each runner
#   5. finish: wait for every runner to exit
#   6. usefullatency merge of the result files (what the operator lacks):
#      one summary of the whole test, its thresholds judged on the whole
#      test; the script exits with merge's code (0, 99 when a threshold
#      failed, 104 when a file cannot be merged), or with the first failing
#      step's code.
set -u

n=3 bin= dir= port= name=local
while getopts n:b:d:p:t: opt; do
	case $opt in
	n) n=$OPTARG ;;
	b) bin=$OPTARG ;;
	d) dir=$OPTARG ;;
	p) port=$OPTARG ;;
	t) name=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
	echo "usage: $0 [-n N] [-b BINARY] [-d DIR] [-p PORT] [-t NAME] script.js [run args...]" >&2
	exit 2
fi
script=$1
shift
case $n in '' | *[!0-9]* | 0)
	echo "local-operator: -n $n: want a number of runners >= 1" >&2
	exit 2
	;;
esac

log() { echo "local-operator: $*" >&2; }

# The binary, linked as k6 on PATH.
[ -n "$bin" ] || bin=$(command -v usefullatency) || { log "no usefullatency on PATH: give -b BINARY"; exit 2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
[ -x "$bin" ] || { log "-b $bin: not an executable"; exit 2; }
[ -n "$dir" ] || dir=$(mktemp -d "${TMPDIR:-/tmp}/local-operator.XXXXXX") || exit 2
mkdir -p "$dir/bin" || exit 2
ln -sf "$bin" "$dir/bin/k6"
PATH=$dir/bin:$PATH
export PATH
# A block of 16 ports per pid, so that harnesses run side by side rarely
# try the same ones.
[ -n "$port" ] || port=$((20000 + $$ % 1250 * 16))

# 1. The initializer. Archive args are the run args minus the outputs, as
# the operator filters them (the list is rotated in place: POSIX sh has no
# arrays).
log "initializer: k6 archive $script, k6 inspect --execution-requirements"
(
	count=$# skip=
	while [ "$count" -gt 0 ]; do
		a=$1
		shift
		count=$((count - 1))
		if [ -n "$skip" ]; then skip=; continue; fi
		case $a in
		-o | --out) skip=1 ;;
		-o* | --out=*) ;;
		*) set -- "$@" "$a" ;;
		esac
	done
	k6 archive "$script" -O "$dir/archive.tar" "$@"
) || { log "k6 archive failed"; exit 1; }
k6 inspect --execution-requirements "$dir/archive.tar" >"$dir/requirements.json" 2>"$dir/inspect.log"
if grep 'level.*error' "$dir/inspect.log" >&2; then
	log "k6 inspect --execution-requirements failed"
	exit 1
fi

# The segments: 0,1/N,...,1.
seq=0
i=1
while [ $i -lt "$n" ]; do seq=$seq,$i/$n; i=$((i + 1)); done
seq=$seq,1
segment() { # segment i: i/N:(i+1)/N
	from=$1/$n to=$(($1 + 1))/$n
	[ "$1" -eq 0 ] && from=0
	[ $(($1 + 1)) -eq "$n" ] && to=1
	echo "$from:$to"
}

# free PORT: true when nothing answers on 127.0.0.1:PORT.
free() {
	curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$1/" 2>/dev/null
	[ $? -eq 7 ]
}

# alive PID: true while the process runs.
alive() { kill -0 "$1" 2>/dev/null; }

# 2. The runners, each on the next free port; a runner that cannot listen
# (106: the port was taken meanwhile) is started again on the next one.
start_runner() { # start_runner i [run args...]
	i=$1
	shift
	while :; do
		while ! free "$port"; do port=$((port + 1)); done
		k6 run --quiet --execution-segment="$(segment "$i")" --execution-segment-sequence="$seq" \
			"$dir/archive.tar" "$@" --address="127.0.0.1:$port" --paused \
			--tag instance_id="$i" --tag testrun_name="$name" -o result="$dir/$i.res" \
			>"$dir/$i.log" 2>&1 &
		pid=$!
		addr=127.0.0.1:$port
		port=$((port + 1))
		# 3. Readiness: GET /v1/status answers while the process lives.
		while alive $pid; do
			if curl -sf -o /dev/null --max-time 1 "http://$addr/v1/status"; then
				eval "pid_$i=$pid addr_$i=$addr"
				log "runner $i ($(segment "$i")) paused, REST API on $addr"
				return 0
			fi
			sleep 0.1
		done
		wait $pid
		code=$?
		if [ $code -ne 106 ]; then
			log "runner $i exited $code before it was ready:"
			cat "$dir/$i.log" >&2
			return $code
		fi
	done
}

stop_all() {
	i=0
	while [ $i -lt "$n" ]; do
		eval "p=\${pid_$i:-}"
		[ -n "$p" ] && kill "$p" 2>/dev/null
		i=$((i + 1))
	done
}
trap 'stop_all; exit 130' INT TERM

r=0
while [ $r -lt "$n" ]; do
	start_runner $r "$@" || { code=$?; stop_all; exit $code; }
	r=$((r + 1))
done

# 4. The starter: the operator's PATCH to every runner.
i=0
while [ $i -lt "$n" ]; do
	eval "addr=\$addr_$i"
	curl -s --retry 3 -o /dev/null -X PATCH -H 'Content-Type: application/json' "http://$addr/v1/status" \
		-d '{"data":{"attributes":{"paused":false,"stopped":false},"id":"default","type":"status"}}'
	i=$((i + 1))
done
log "started $n runners"

# 5. Every runner finishes.
files=
i=0
while [ $i -lt "$n" ]; do
	eval "pid=\$pid_$i"
	wait "$pid"
	log "runner $i exited $? (log: $dir/$i.log)"
	files="$files $dir/$i.res"
	i=$((i + 1))
done
trap - INT TERM

# 6. One summary of the whole test.
# shellcheck disable=SC2086 # the file names are ours, without blanks
k6 merge --summary-export "$dir/summary.json" $files
code=$?
log "merged $n results: exit $code; summary export $dir/summary.json"
exit $code
