package js

import (
	"github.com/grafana/sobek"
)

// pendingGlobals is the hidden prototype of a VU's global object while
// lazy globals are pending: it has the pending globals as properties and
// builds one when it is read (see globalObject).
type pendingGlobals struct{ g *globalObject }

var _ sobek.DynamicObject = pendingGlobals{}

func (p pendingGlobals) Get(key string) sobek.Value {
	if i, ok := p.g.pendingIndex(key); ok {
		return p.g.read(i)
	}
	return nil
}

func (p pendingGlobals) Has(key string) bool {
	_, ok := p.g.pendingIndex(key)
	return ok
}

// Set is never reached: an assignment defines the property on the global
// object itself (the receiver), through the proxy's traps.
func (pendingGlobals) Set(string, sobek.Value) bool { return false }
func (pendingGlobals) Delete(string) bool           { return true }
func (pendingGlobals) Keys() []string               { return nil }

// globalTraps are the traps of every VU's global object proxy. Each finds
// the VU's globalObject (globalOf), builds the pending global it is about,
// then does what the proxy would do without a trap.
var globalTraps = &sobek.ProxyTrapConfig{
	GetOwnPropertyDescriptor: func(t *sobek.Object, name string) sobek.PropertyDescriptor {
		return globalOf(t).getOwnPropertyDescriptor(t, name)
	},
	DefineProperty: func(t *sobek.Object, name string, d sobek.PropertyDescriptor) bool {
		return globalOf(t).defineProperty(t, name, d)
	},
	DeleteProperty: func(t *sobek.Object, name string) bool { return globalOf(t).deleteProperty(t, name) },
	Set: func(t *sobek.Object, name string, v, receiver sobek.Value) bool {
		return globalOf(t).set(t, name, v, receiver)
	},
	OwnKeys:           func(t *sobek.Object) *sobek.Object { return globalOf(t).ownKeys(t) },
	GetPrototypeOf:    func(t *sobek.Object) *sobek.Object { return globalOf(t).getPrototypeOf(t) },
	SetPrototypeOf:    func(t, proto *sobek.Object) bool { return globalOf(t).setPrototypeOf(t, proto) },
	PreventExtensions: func(t *sobek.Object) bool { return globalOf(t).preventExtensions(t) },
}

// globalOf returns the globalObject whose target is t: the hidden
// prototype, which the target keeps (setPrototypeOf sets the prototype
// behind it), points to it. A VU's global object is one proxy per
// runtime, so no table is needed.
func globalOf(t *sobek.Object) *globalObject { return t.Prototype().Export().(pendingGlobals).g }

func (g *globalObject) getOwnPropertyDescriptor(target *sobek.Object, name string) sobek.PropertyDescriptor {
	if i, ok := g.pendingIndex(name); ok {
		g.build(i)
	}
	v := g.reflect("getOwnPropertyDescriptor", g.vu.rt.ToValue(name))
	if sobek.IsUndefined(v) {
		return sobek.PropertyDescriptor{}
	}
	return toDescriptor(v.ToObject(g.vu.rt))
}

func (g *globalObject) defineProperty(target *sobek.Object, name string, d sobek.PropertyDescriptor) bool {
	if i, ok := g.pendingIndex(name); ok {
		g.build(i)
	}
	if d.Getter != nil || d.Setter != nil {
		if g.accessors == nil {
			g.accessors = make(map[string]bool)
		}
		g.accessors[name] = true
		return target.DefineAccessorProperty(name, d.Getter, d.Setter, d.Configurable, d.Enumerable) == nil
	}
	return target.DefineDataProperty(name, d.Value, d.Writable, d.Configurable, d.Enumerable) == nil
}

// set is an assignment to a property of the global object. Without the
// trap, an assignment asks the proxy for the property's descriptor, then
// defines it: two traps and a call of Reflect each time. The trap sets the
// property on the target directly, and gives a pending global the value
// without building it. An assignment through another receiver (an object
// whose prototype is the global object), to __proto__ or to a property the
// script made an accessor goes the long way, so that setters see the
// receiver as this (a setter inherited from Object.prototype sees the
// target).
func (g *globalObject) set(target *sobek.Object, name string, v, receiver sobek.Value) bool {
	if receiver != sobek.Value(g.proxy) || name == "__proto__" || g.accessors[name] {
		return g.reflect("set", g.vu.rt.ToValue(name), v, receiver).ToBoolean()
	}
	if i, ok := g.pendingIndex(name); ok {
		g.drop(i)
		return g.define(i, v) == nil
	}
	return target.Set(name, v) == nil
}

// deleteProperty deletes a pending global without building it; one that
// is not configurable stays, as it would.
func (g *globalObject) deleteProperty(target *sobek.Object, name string) bool {
	if i, ok := g.pendingIndex(name); ok {
		if lazyGlobals[i].attrs.Configurable != sobek.FLAG_TRUE {
			return false
		}
		g.drop(i)
		return true
	}
	return target.Delete(name) == nil
}

func (g *globalObject) ownKeys(*sobek.Object) *sobek.Object {
	g.buildAll()
	return g.reflect("ownKeys").ToObject(g.vu.rt)
}

// getPrototypeOf hides the pending globals' object: the global object's
// prototype is the one it had, Object.prototype unless the script set one.
func (g *globalObject) getPrototypeOf(*sobek.Object) *sobek.Object { return g.lazy.Prototype() }

// setPrototypeOf sets the prototype of the pending globals' object, which
// stays between the global object and its prototype. A prototype whose
// chain leads back to the global object is refused, as for any object,
// and so is another prototype once the global object is not extensible.
func (g *globalObject) setPrototypeOf(target *sobek.Object, proto *sobek.Object) bool {
	if current := g.lazy.Prototype(); proto == current {
		return true
	}
	if !g.reflect("isExtensible").ToBoolean() {
		return false
	}
	for p := proto; p != nil; p = p.Prototype() {
		if p == g.proxy || p == target || p == g.lazy {
			return false
		}
	}
	return g.lazy.SetPrototype(proto) == nil
}

// preventExtensions builds every pending global first: none can be added
// afterwards.
func (g *globalObject) preventExtensions(*sobek.Object) bool {
	g.buildAll()
	return g.reflect("preventExtensions").ToBoolean()
}

// reflect calls Reflect[name](target, args...) with the VU's Reflect, as
// the script left it (sobek has no Go call for these operations).
func (g *globalObject) reflect(name string, args ...sobek.Value) sobek.Value {
	rt := g.vu.rt
	fn, ok := sobek.AssertFunction(g.target.Get("Reflect").ToObject(rt).Get(name))
	if !ok {
		panic(rt.NewTypeError("Reflect.%s is not a function", name))
	}
	v, err := fn(sobek.Undefined(), append([]sobek.Value{g.target}, args...)...)
	if err != nil {
		if ex, ok := err.(*sobek.Exception); ok {
			panic(ex)
		}
		panic(rt.NewGoError(err))
	}
	return v
}

// toDescriptor converts a descriptor object, as Reflect returns it.
func toDescriptor(o *sobek.Object) sobek.PropertyDescriptor {
	d := sobek.PropertyDescriptor{Configurable: toFlag(o.Get("configurable")), Enumerable: toFlag(o.Get("enumerable"))}
	if w := o.Get("writable"); w != nil {
		d.Value, d.Writable = o.Get("value"), toFlag(w)
	} else {
		d.Getter, d.Setter = o.Get("get"), o.Get("set")
	}
	return d
}

func toFlag(v sobek.Value) sobek.Flag {
	if v != nil && v.ToBoolean() {
		return sobek.FLAG_TRUE
	}
	return sobek.FLAG_FALSE
}
