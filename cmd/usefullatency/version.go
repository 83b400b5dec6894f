package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = ""

// versionString returns "usefullatency <version> (<go>, <os>/<arch>)".
func versionString() string {
	v := version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" && len(s.Value) >= 12 {
					v = "dev-" + s.Value[:12]
				}
			}
		}
	}
	return fmt.Sprintf("usefullatency %s (%s, %s/%s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
