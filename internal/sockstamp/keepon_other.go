//go:build !linux

package sockstamp

// KeepOn does nothing where the kernel gives no receive stamps.
func KeepOn() {}
