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
		return p.g.build(i)
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

// The traps of the global object's proxy. Each builds the pending global
// it is about, then does what the proxy would do without a trap.

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
func (g *globalObject) getPrototypeOf(target *sobek.Object) *sobek.Object {
	if p := target.Prototype(); p != g.lazy {
		return p
	}
	return g.lazy.Prototype()
}

// setPrototypeOf sets the prototype of the pending globals' object, which
// stays between the global object and its prototype. A prototype whose
// chain leads back to the global object is refused, as for any object.
func (g *globalObject) setPrototypeOf(target *sobek.Object, proto *sobek.Object) bool {
	for p := proto; p != nil; p = p.Prototype() {
		if p == g.proxy || p == target || p == g.lazy {
			return false
		}
	}
	if target.Prototype() != g.lazy {
		return target.SetPrototype(proto) == nil
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
