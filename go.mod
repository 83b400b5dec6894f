module github.com/usefullatency/usefullatency

go 1.26.8

require (
	github.com/golang/snappy v1.0.0
	github.com/grafana/sobek v0.0.0-20260429085637-a66d4790012b
	github.com/spf13/pflag v1.0.10
	github.com/tmaxmax/go-sse v0.12.0
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
)

require (
	github.com/dlclark/regexp2 v1.12.0 // indirect
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible // indirect
	github.com/google/pprof v0.0.0-20230207041349-798e818bf904 // indirect
	golang.org/x/text v0.3.8 // indirect
)
