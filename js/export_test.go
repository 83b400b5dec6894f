package js

// PendingGlobals returns the names of the lazy globals vu has not built.
func (vu *VU) PendingGlobals() []string {
	var names []string
	for i, g := range lazyGlobals {
		if vu.global.pending&(1<<i) != 0 {
			names = append(names, g.name)
		}
	}
	return names
}
