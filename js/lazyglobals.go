package js

import (
	"fmt"

	"github.com/grafana/sobek"
	k6timers "github.com/usefullatency/usefullatency/js/modules/timers"
	"github.com/usefullatency/usefullatency/js/modules/webcrypto"
	"github.com/usefullatency/usefullatency/js/web"
)

// lazyGlobal is a global of every VU that is built the first time the
// script uses it: reads it, tests it with typeof, redefines it, lists the
// global object's keys. Until then the VU holds none of the functions,
// classes and prototypes behind it, which is most of an idle VU's memory
// when a script uses few of them.
type lazyGlobal struct {
	name string
	// attrs are the property's writable, configurable and enumerable
	// attributes, as the global had when every VU built it at once.
	attrs sobek.PropertyDescriptor
	build func(vu *VU) (sobek.Value, error)
	// inPlace globals are read without being defined: a read gives the
	// value and the global stays pending. The global object's first new
	// own property copies sobek's list of its ~60 names (1 KB per VU), so
	// __ENV, __VU, __ITER and console, which most scripts read, are
	// defined only when a trap needs them as own properties.
	inPlace bool
}

// plainAttrs are the attributes of a property that an assignment creates
// (and Runtime.Set did): writable, configurable and enumerable.
var plainAttrs = sobek.PropertyDescriptor{Writable: sobek.FLAG_TRUE, Configurable: sobek.FLAG_TRUE, Enumerable: sobek.FLAG_TRUE}

var (
	// lazyGlobals are the lazy globals, shared by every VU; a VU keeps
	// only a bit per global that says whether it is still to be built.
	lazyGlobals []lazyGlobal
	// lazyIndex maps the name of a lazy global to its index in lazyGlobals.
	lazyIndex map[string]int
	// iterGlobal is the index of __ITER, which is set before every
	// iteration once defined.
	iterGlobal int
)

// init fills the tables of lazy globals (in a function: the globals'
// builders refer to them).
func init() {
	lazyGlobals = newLazyGlobals()
	lazyIndex = make(map[string]int, len(lazyGlobals))
	for i, g := range lazyGlobals {
		lazyIndex[g.name] = i
	}
	iterGlobal = lazyIndex["__ITER"]
}

// newLazyGlobals lists the web globals of package web (the first of them
// used builds them all), open(), require(), crypto and the timers, in the
// order a listing of the global object's keys that builds them all gives
// them.
func newLazyGlobals() []lazyGlobal {
	value := func(f func(vu *VU) any) func(vu *VU) (sobek.Value, error) {
		return func(vu *VU) (sobek.Value, error) { return vu.rt.ToValue(f(vu)), nil }
	}
	gs := []lazyGlobal{
		{"__ENV", plainAttrs, value(func(vu *VU) any { return vu.global.envObject() }), true},
		{"__VU", plainAttrs, value(func(vu *VU) any { return vu.state.VUID }), true},
		{"__ITER", plainAttrs, value(func(vu *VU) any { return vu.global.iter }), true},
		{"console", plainAttrs, value(func(vu *VU) any { return vu.global.consoleObject() }), true},
	}
	for _, name := range web.Globals {
		gs = append(gs, lazyGlobal{name, web.Flags, func(vu *VU) (sobek.Value, error) { return vu.global.webGlobal(name) }, false})
	}
	gs = append(gs,
		lazyGlobal{"open", plainAttrs, value(func(vu *VU) any { return vu.open }), false},
		lazyGlobal{"require", plainAttrs, value(func(vu *VU) any { return vu.requireGlobal }), false},
		lazyGlobal{"crypto", plainAttrs, value(func(vu *VU) any { return webcrypto.Global(vu) }), false},
	)
	for _, name := range k6timers.Names {
		gs = append(gs, lazyGlobal{name, plainAttrs, value(func(vu *VU) any { return vu.timers.Function(name) }), false})
	}
	if len(gs) > 64 {
		panic("js: more lazy globals than bits in globalObject.pending")
	}
	return gs
}

// globalObject is a VU's global object. It is a proxy over sobek's own
// global object (the target) whose traps build a pending lazy global
// before any operation that would see its property: reading it finds it
// through the target's prototype, a hidden object (pendingGlobals) that
// holds the pending globals, builds one when it is read and defines it on
// the target; listing, describing, redefining and deleting properties go
// through the traps, which build the global first (Object.keys and
// getOwnPropertyNames build all); an assignment replaces a pending global
// without building it. So typeof, `in`, hasOwnProperty, property
// attributes and enumeration are those of globals built at once. Reads,
// calls and `in` need no trap: the proxy forwards them to the target,
// where a built global is an own property like any other. The traps are
// shared by every VU (globalTraps): each finds its VU's globalObject
// through the hidden prototype, which stays linked.
type globalObject struct {
	vu *VU
	// target is sobek's global object, behind the proxy.
	target *sobek.Object
	// proxy is the global object scripts see (globalThis).
	proxy *sobek.Object
	// lazy is target's prototype while globals are pending.
	lazy *sobek.Object
	// pending has bit i set while lazyGlobals[i] is not built.
	pending uint64
	// accessors are the names the script defined accessor properties
	// under on the global object, whose setters an assignment must call
	// with the proxy as this (nil until one).
	accessors map[string]bool
	// env and console are __ENV and console once read (nil before).
	env, console *sobek.Object
	// iter is __ITER: the VU's iteration, set before each one.
	iter int64
}

// newGlobalObject makes the VU's global object a proxy whose lazy
// globals are all pending.
func (vu *VU) newGlobalObject() *globalObject {
	rt := vu.rt
	g := &globalObject{vu: vu, target: rt.GlobalObject(), pending: 1<<len(lazyGlobals) - 1}
	g.lazy = rt.NewDynamicObject(pendingGlobals{g})
	_ = g.lazy.SetPrototype(g.target.Prototype())
	_ = g.target.SetPrototype(g.lazy)
	g.proxy = rt.ToValue(rt.NewProxy(g.target, globalTraps)).(*sobek.Object)
	rt.SetGlobalObject(g.proxy)
	return g
}

// pendingIndex returns the index in lazyGlobals of name if that global is
// still to be built.
func (g *globalObject) pendingIndex(name string) (int, bool) {
	i, ok := lazyIndex[name]
	return i, ok && g.pending&(1<<i) != 0
}

// build builds lazyGlobals[i] and defines it on the target with its
// attributes. A failure is thrown as a JavaScript exception.
func (g *globalObject) build(i int) sobek.Value {
	g.drop(i)
	v := g.value(i)
	if err := g.define(i, v); err != nil {
		g.fail(i, err)
	}
	return v
}

// value returns the value of lazyGlobals[i], made now.
func (g *globalObject) value(i int) sobek.Value {
	v, err := lazyGlobals[i].build(g.vu)
	if err != nil {
		g.fail(i, err)
	}
	return v
}

// fail throws err, about lazyGlobals[i], as a JavaScript exception.
func (g *globalObject) fail(i int, err error) {
	panic(g.vu.rt.NewGoError(fmt.Errorf("global %s: %w", lazyGlobals[i].name, err)))
}

// define defines lazyGlobals[i] on the target with the value v and the
// global's attributes.
func (g *globalObject) define(i int, v sobek.Value) error {
	lg := &lazyGlobals[i]
	if lg.attrs == plainAttrs {
		return g.target.Set(lg.name, v) // a plain property, as Runtime.Set made
	}
	return g.target.DefineDataProperty(lg.name, v, lg.attrs.Writable, lg.attrs.Configurable, lg.attrs.Enumerable)
}

// buildAll builds every pending global.
func (g *globalObject) buildAll() {
	for i := range lazyGlobals {
		if g.pending&(1<<i) != 0 {
			g.build(i)
		}
	}
}

// drop marks lazyGlobals[i] as no longer pending.
func (g *globalObject) drop(i int) { g.pending &^= 1 << i }

// webGlobal builds package web's globals, which one program makes
// together, defines every pending one and returns name's.
func (g *globalObject) webGlobal(name string) (sobek.Value, error) {
	obj, err := web.Build(g.vu.rt)
	if err != nil {
		return nil, err
	}
	for _, other := range web.Globals {
		if i, ok := g.pendingIndex(other); ok {
			g.drop(i)
			if err := g.define(i, obj.Get(other)); err != nil {
				return nil, err
			}
		}
	}
	return obj.Get(name), nil
}

// read returns the value of lazyGlobals[i] for a read of the global: an
// in-place global's value, which stays pending, or the global built.
func (g *globalObject) read(i int) sobek.Value {
	if !lazyGlobals[i].inPlace {
		return g.build(i)
	}
	return g.value(i)
}

// setIter sets __ITER before an iteration, as an assignment by the script
// would once the global is defined.
func (g *globalObject) setIter(n int64) {
	g.iter = n
	if g.pending&(1<<iterGlobal) == 0 {
		_ = g.target.Set("__ITER", n)
	}
}

// envObject returns __ENV, made on its first read.
func (g *globalObject) envObject() *sobek.Object {
	if g.env == nil {
		g.env = g.vu.rt.NewDynamicObject(&envObject{rt: g.vu.rt, base: g.vu.state.Run.Env})
	}
	return g.env
}

// consoleObject returns console, made on its first read.
func (g *globalObject) consoleObject() *sobek.Object {
	if g.console == nil {
		g.console = g.vu.console()
	}
	return g.console
}
