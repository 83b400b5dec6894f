// Package spin keeps a test's CPUs busy, the way JavaScript VUs keep a
// runner's: the tests of kernel stamps check that a late program still
// gets true times.
package spin

import "runtime"

// Until starts two goroutines per scheduler slot that spin until stop
// closes.
func Until(stop <-chan struct{}) {
	for range 2 * runtime.GOMAXPROCS(0) {
		go func() {
			x := 0
			for {
				select {
				case <-stop:
					return
				default:
				}
				for i := range 100000 {
					x += i
				}
			}
		}()
	}
}
