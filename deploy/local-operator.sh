#!/bin/sh
# local-operator.sh: runs a test on N local processes exactly as k6-operator
# runs a TestRun of parallelism N, then merges their results into one summary.
#
#   deploy/local-operator.sh [-n N] [-b BINARY] [-d DIR] [-p PORT] [-t NAME] [-g] script.js [run args...]
#
#   -n N       runners (spec.parallelism), default 3
#   -b BINARY  the usefullatency binary, default `usefullatency` on PATH; it is
#              linked as `k6` on the PATH of every command, as in the image
#   -d DIR     working directory (archive, result files, logs), default a new
#              temporary one; DIR/summary.json is the merged summary export
#   -p PORT    first REST API port tried, default one derived from the pid;
#              a port that is taken is skipped
#   -t NAME    the TestRun's name (the testrun_name tag), default local
#   -g         also a live aggregator (`k6 aggregate`, beyond the operator):
#              the runners post to it, it judges the thresholds on the whole
#              test while it runs and stops every runner on a crossed
#              abortOnFail one; its log is DIR/aggregate.log. AGGREGATE_FLAGS
#              adds flags to it (--interval 1s), K6_AGGREGATOR_PUSH_INTERVAL
#              sets the runners' posting interval (default 2s). The
#              aggregator and the runners share a random token
#              (K6_AGGREGATOR_TOKEN, or the one in the environment)
#   run args   spec.arguments: given to `k6 archive` (minus -o/--out) and to
#              every `k6 run`
#
# The flow is the operator's:
#   1. initializer: k6 archive script -O archive.tar, then
#      k6 inspect --execution-requirements archive.tar (fails on level=error,
#      or when maxVUs is below N)
#   2. runners: k6 run --quiet --execution-segment=i/N:(i+1)/N
#      --execution-segment-sequence=0,1/N,...,1 archive.tar [args]
#      --address=127.0.0.1:PORT_i --paused --tag instance_id=i
#      --tag testrun_name=NAME (plus -o result=DIR/i.res, what the operator
#      lacks); each waits paused after initialising its VUs
#      (all started at once)
#   3. readiness: every runner's GET /v1/status answers
#   4. starter: curl -X PATCH .../v1/status with paused:false to each runner
#   5. finish: wait for every runner to exit
#   6. usefullatency merge of the result files (what the operator lacks):
#      one summary of the whole test, its thresholds judged on the whole
#      test; the script exits with merge's code (0, 99 when a threshold
#      failed, 104 when a file cannot be merged), or with the first failing
#      step's code.
set -u

n=3 bin= dir= port= name=local aggregate=
while getopts n:b:d:p:t:g opt; do
	case $opt in
	g) aggregate=1 ;;
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
	echo "usage: $0 [-n N] [-b BINARY] [-d DIR] [-p PORT] [-t NAME] [-g] script.js [run args...]" >&2
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
# As the operator, refuse more runners than the test has VUs. The
# document's own keys are the ones indented by two spaces (scenarios have
# a maxVUs too).
maxvus=$(sed -n 's/^  "maxVUs": *\([0-9]*\).*/\1/p' "$dir/requirements.json")
if [ -z "$maxvus" ] || [ "$maxvus" -lt "$n" ]; then
	log "maxVUs ${maxvus:-?} is below the $n runners (k6-operator refuses such a TestRun)"
	exit 1
fi
log "execution requirements: totalDuration $(sed -n 's/^  "totalDuration": *"\([^"]*\)".*/\1/p' "$dir/requirements.json"), maxVUs $maxvus"

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

# The live aggregator (-g), before the runners: they post to it.
agg_url=
if [ -n "$aggregate" ]; then
	# The token every post carries: 128 random bits, unless one is given.
	if [ -z "${K6_AGGREGATOR_TOKEN:-}" ]; then
		K6_AGGREGATOR_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	fi
	export K6_AGGREGATOR_TOKEN
	# shellcheck disable=SC2086 # AGGREGATE_FLAGS are words
	k6 aggregate --listen 127.0.0.1:0 --runners "$n" --no-summary ${AGGREGATE_FLAGS:-} >"$dir/aggregate.log" 2>&1 &
	agg_pid=$!
	while alive $agg_pid && [ -z "$agg_url" ]; do
		sleep 0.1
		agg_url=$(sed -n 's|.*listening on \(http://[0-9.:]*\).*|\1|p' "$dir/aggregate.log" | head -n 1)
	done
	[ -n "$agg_url" ] || { log "k6 aggregate did not start:"; cat "$dir/aggregate.log" >&2; exit 1; }
	log "aggregator on $agg_url (log: $dir/aggregate.log)"
fi

# launch K [run args...]: starts runner K, paused, its REST API on the next
# free port (pid_K, addr_K).
launch() {
	k=$1
	shift
	while ! free "$port"; do port=$((port + 1)); done
	# shellcheck disable=SC2086 # empty without -g
	k6 run --quiet --execution-segment="$(segment "$k")" --execution-segment-sequence="$seq" \
		"$dir/archive.tar" "$@" --address="127.0.0.1:$port" --paused \
		--tag instance_id="$k" --tag testrun_name="$name" -o result="$dir/$k.res" \
		${agg_url:+-o} ${agg_url:+aggregator=$agg_url} >"$dir/$k.log" 2>&1 &
	eval "pid_$k=$! addr_$k=127.0.0.1:$port ready_$k="
	port=$((port + 1))
}

stop_all() {
	j=0
	while [ $j -lt "$n" ]; do
		eval "p=\${pid_$j:-}"
		[ -n "$p" ] && kill "$p" 2>/dev/null
		j=$((j + 1))
	done
	[ -n "${agg_pid:-}" ] && kill "$agg_pid" 2>/dev/null
}
trap 'stop_all; exit 130' INT TERM

# 2. The runners, all at once.
i=0
while [ $i -lt "$n" ]; do
	launch $i "$@"
	i=$((i + 1))
done

# 3. Readiness: every runner's GET /v1/status answers. A runner that could
# not listen (106: its port was taken meanwhile) starts again on the next.
pending=$n
while [ "$pending" -gt 0 ]; do
	pending=0
	i=0
	while [ $i -lt "$n" ]; do
		eval "ready=\$ready_$i pid=\$pid_$i addr=\$addr_$i"
		if [ -z "$ready" ]; then
			if curl -sf -o /dev/null --max-time 1 "http://$addr/v1/status" && alive "$pid"; then
				eval "ready_$i=1"
				log "runner $i ($(segment "$i")) paused, REST API on $addr"
			elif ! alive "$pid"; then
				wait "$pid"
				code=$?
				if [ $code -ne 106 ]; then
					log "runner $i exited $code before it was ready:"
					cat "$dir/$i.log" >&2
					stop_all
					exit $code
				fi
				launch $i "$@"
				pending=$((pending + 1))
			else
				pending=$((pending + 1))
			fi
		fi
		i=$((i + 1))
	done
	[ "$pending" -gt 0 ] && sleep 0.1
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
# The aggregator ends once every runner sent its final result; one that
# died without it would keep it waiting, so it gets 10 s, then SIGTERM (it
# prints its summary then).
if [ -n "$aggregate" ]; then
	t=0
	while alive "$agg_pid" && [ $t -lt 100 ]; do sleep 0.1; t=$((t + 1)); done
	kill "$agg_pid" 2>/dev/null
	wait "$agg_pid"
	log "aggregator exited $? (log: $dir/aggregate.log)"
fi
trap - INT TERM

# 6. One summary of the whole test.
# shellcheck disable=SC2086 # the file names are ours, without blanks
k6 merge --summary-export "$dir/summary.json" $files
code=$?
log "merged $n results: exit $code; summary export $dir/summary.json"
exit $code
