package modules

// Static is an Instance whose exports are fixed when the module is
// instantiated: the exported functions close over the VU, and the module
// keeps no other per-VU state.
type Static Exports

// Exports returns the fixed exports.
func (s Static) Exports() Exports { return Exports(s) }
