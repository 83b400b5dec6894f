package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"github.com/usefullatency/usefullatency/options"
)

// checkVULimit refuses, before any VU is initialised, VU counts above
// options.DefaultMaxVUs or more VUs than this machine's memory holds
// (options.CheckVULimit), unless --no-vu-limit.
func checkVULimit(f *runFlags, o options.Options) error {
	if f.noVULimit {
		return nil
	}
	return o.CheckVULimit(options.VULimit{MaxVUs: options.DefaultMaxVUs, Memory: machineMemory()})
}

// machineMemory returns the memory this process may use in bytes: the
// machine's (MemTotal of /proc/meminfo), or its cgroup's limit when that
// is lower (a container, a Kubernetes pod); 0 when neither can be read.
func machineMemory() uint64 {
	total := memTotal("/proc/meminfo")
	if limit := cgroupLimit("/proc/self/cgroup", "/sys/fs/cgroup"); limit > 0 && (total == 0 || limit < total) {
		return limit
	}
	return total
}

// memTotal reads MemTotal (in kB) from a meminfo file; 0 when it cannot.
func memTotal(path string) uint64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// cgroupLimit returns the memory limit of this process's cgroup, read
// under root (the cgroup file system): cgroup v2's memory.max of the
// group named in the "0::" line of the cgroup file, or v1's
// memory.limit_in_bytes of the memory controller's group; each also at
// the root, which a container sees as its own group. 0 when there is no
// limit ("max", or v1's "unlimited" number) or it cannot be read.
func cgroupLimit(cgroupFile, root string) uint64 {
	b, err := os.ReadFile(cgroupFile)
	if err != nil {
		return 0
	}
	var candidates []string
	for line := range strings.SplitSeq(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			candidates = append(candidates, root+parts[2]+"/memory.max", root+"/memory.max")
		case strings.Contains(","+parts[1]+",", ",memory,"):
			candidates = append(candidates, root+"/memory"+parts[2]+"/memory.limit_in_bytes", root+"/memory/memory.limit_in_bytes")
		}
	}
	for _, path := range candidates {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
		// v1 writes "no limit" as a number near the largest int64.
		if err == nil && n < 1<<62 {
			return n
		}
	}
	return 0
}
