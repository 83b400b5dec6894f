package k6secrets

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// builders make a source of each type from its configuration (the spec
// without name= and default) and the process environment.
var builders = map[string]func(config string, env map[string]string) (Source, error){
	"mock": newMockSource,
	"file": newFileSource,
	"url":  newURLSource,
}

// Types returns the source types a spec may name, sorted.
func Types() []string { return slices.Sorted(maps.Keys(builders)) }

// spec is one --secret-source value, parsed.
type spec struct {
	typ, name string
	isDefault bool
	// config is the rest of the value, for the source's builder.
	config string
}

// parseSpec reads TYPE[=CONFIG]. Every CONFIG is a comma-separated list
// in which name=NAME names the source and a lone "default" makes it the
// default one; both are taken out of config, as k6 takes them. The name
// is the type when not given.
func parseSpec(s string) (spec, error) {
	if strings.TrimSpace(s) == "" {
		return spec{}, fmt.Errorf("empty value: want TYPE=CONFIG, TYPE one of %s", strings.Join(Types(), ", "))
	}
	typ, config, _ := strings.Cut(s, "=")
	if _, ok := builders[typ]; !ok {
		return spec{}, fmt.Errorf("unknown source type %q: want one of %s", typ, strings.Join(Types(), ", "))
	}
	sp := spec{typ: typ}
	var rest []string
	for item := range strings.SplitSeq(config, ",") {
		switch k, v, _ := strings.Cut(item, "="); {
		case item == "default":
			sp.isDefault = true
		case k == "name" && strings.Contains(item, "="):
			sp.name = v
		default:
			rest = append(rest, item)
		}
	}
	sp.config = strings.Join(rest, ",")
	if sp.name == "" {
		sp.name = typ
	}
	return sp, nil
}

// Open returns the Manager of the sources specs describe, one
// --secret-source value each: TYPE=CONFIG, TYPE being mock
// (NAME=VALUE,…), file (PATH or filename=PATH: a file of NAME=VALUE lines)
// or url (urlTemplate=URL,…; see newURLSource). In every CONFIG
// name=NAME names the source (its type when not given) and a lone
// "default" makes it the default source; a single source is the default
// one whatever its name, as in k6. env is the process environment, where
// a url source finds its K6_SECRET_SOURCE_URL_* variables. No spec is no
// source. Errors name the source's type and what is wrong, never a value.
func Open(specs []string, env map[string]string) (*Manager, error) {
	sources := make(map[string]Source, len(specs))
	defaultName := ""
	for _, s := range specs {
		sp, err := parseSpec(s)
		if err != nil {
			return nil, err
		}
		if _, taken := sources[sp.name]; taken {
			return nil, fmt.Errorf("two sources are named %q: give them name=NAME", sp.name)
		}
		if sp.isDefault {
			if defaultName != "" {
				return nil, fmt.Errorf("two default sources, %q and %q", defaultName, sp.name)
			}
			defaultName = sp.name
		}
		src, err := builders[sp.typ](sp.config, env)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sp.typ, err)
		}
		sources[sp.name] = src
	}
	if _, named := sources[DefaultSource]; named && defaultName != "" && defaultName != DefaultSource {
		return nil, fmt.Errorf("two default sources, %q and %q", DefaultSource, defaultName)
	}
	if len(sources) == 1 {
		for name := range sources {
			defaultName = name
		}
	}
	return NewManager(sources, defaultName), nil
}

// errNoEquals is the error of a NAME=VALUE item or line without '='; the
// item is not quoted, as it may be (part of) a value.
var errNoEquals = errors.New(`has no "=": want NAME=VALUE`)
