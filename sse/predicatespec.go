package sse

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// PredicateError is the error ParsePredicate returns; it wraps
// ErrInvalidPredicate.
type PredicateError struct {
	// Path locates the faulty part, e.g. "any[1].text".
	Path string
	// Msg says what is wrong.
	Msg string
}

// Error returns a one-line message naming the predicate.
func (e *PredicateError) Error() string {
	if e.Path == "" {
		return ErrInvalidPredicate.Error() + ": " + e.Msg
	}
	return ErrInvalidPredicate.Error() + " " + e.Path + ": " + e.Msg
}

// Unwrap returns ErrInvalidPredicate.
func (e *PredicateError) Unwrap() error { return ErrInvalidPredicate }

// predicateKeys lists the keys a predicate object may have, for messages.
const predicateKeys = "fields, field+equals, text, jsonFields, event, any or all"

// ParsePredicate builds a predicate from its declarative form, as a script
// gives it (sobek Export values: map[string]any, []any, string, float64,
// int64, bool). Forms: {fields: [path, ...]}, {field: path, equals: value},
// {text: regex}, {jsonFields: [path, ...]}, {event: kind-or-type},
// {any: [predicate, ...]}, {all: [predicate, ...]}. A Predicate value is
// returned as is. Every invalid form gives a *PredicateError.
func ParsePredicate(spec any) (Predicate, error) {
	return parsePredicate(spec, "")
}

// parsePredicate parses the predicate at path.
func parsePredicate(spec any, path string) (Predicate, error) {
	switch s := spec.(type) {
	case Predicate:
		return s, nil
	case func(*PredicateContext) (bool, error):
		return FuncPredicate(s), nil
	case map[string]any:
		return parseObjectPredicate(s, path)
	case nil:
		return nil, predErr(path, "predicate is null; want an object with one of "+predicateKeys)
	}
	return nil, predErr(path, fmt.Sprintf("predicate must be an object with one of %s, got %s", predicateKeys, typeName(spec)))
}

// parseObjectPredicate parses the object forms.
func parseObjectPredicate(m map[string]any, path string) (Predicate, error) {
	if err := checkKeys(m, path); err != nil {
		return nil, err
	}
	switch {
	case has(m, "fields"):
		return parseFields(m["fields"], join(path, "fields"))
	case has(m, "field"):
		return parseEquals(m, path)
	case has(m, "text"):
		return parseText(m["text"], join(path, "text"))
	case has(m, "jsonFields"):
		return parseJSONFields(m["jsonFields"], join(path, "jsonFields"))
	case has(m, "event"):
		return parseEvent(m["event"], join(path, "event"))
	case has(m, "any"):
		ps, err := parseList(m["any"], join(path, "any"))
		return &anyPredicate{ps}, err
	default:
		ps, err := parseList(m["all"], join(path, "all"))
		return &allPredicate{ps}, err
	}
}

// checkKeys rejects unknown keys, empty objects and mixed forms.
func checkKeys(m map[string]any, path string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var forms []string
	for _, k := range keys {
		switch k {
		case "fields", "field", "text", "jsonFields", "event", "any", "all":
			forms = append(forms, k)
		case "equals":
			if !has(m, "field") {
				return predErr(path, "equals needs field")
			}
		default:
			return predErr(path, fmt.Sprintf("unknown key %q; want one of %s", k, predicateKeys))
		}
	}
	switch len(forms) {
	case 0:
		return predErr(path, "empty predicate; want one of "+predicateKeys)
	case 1:
		return nil
	}
	return predErr(path, fmt.Sprintf("one form per object, got %s; combine forms with all: [...]", strings.Join(forms, " and ")))
}

// parseFields parses {fields: [...]}.
func parseFields(v any, path string) (Predicate, error) {
	names, err := stringList(v, path)
	if err != nil {
		return nil, err
	}
	p := &fieldsPredicate{}
	for _, n := range names {
		p.paths = append(p.paths, splitPath(n))
	}
	return p, nil
}

// parseEquals parses {field, equals}.
func parseEquals(m map[string]any, path string) (Predicate, error) {
	name, ok := m["field"].(string)
	if !ok || !validPath(name) {
		return nil, predErr(join(path, "field"), "want a dot path like 'refund.amount', got "+describe(m["field"]))
	}
	want, ok := m["equals"]
	if !ok {
		return nil, predErr(path, "field needs equals")
	}
	return &equalsPredicate{path: splitPath(name), want: want}, nil
}

// parseText parses {text: regex}.
func parseText(v any, path string) (Predicate, error) {
	s, ok := v.(string)
	if !ok {
		return nil, predErr(path, "want a regular expression string, got "+describe(v))
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, predErr(path, fmt.Sprintf("invalid regular expression %q: %v", s, err))
	}
	prog, err := compileProg(s)
	if err != nil {
		return nil, predErr(path, fmt.Sprintf("invalid regular expression %q: %v", s, err))
	}
	return &textPredicate{re: re, prog: prog}, nil
}

// parseJSONFields parses {jsonFields: [...]}.
func parseJSONFields(v any, path string) (Predicate, error) {
	names, err := stringList(v, path)
	if err != nil {
		return nil, err
	}
	return &jsonFieldsPredicate{paths: names}, nil
}

// parseEvent parses {event: kind-or-type}.
func parseEvent(v any, path string) (Predicate, error) {
	s, ok := v.(string)
	if !ok || s == "" {
		return nil, predErr(path, "want an event kind (heartbeat, empty, text, reasoning, tool, state, done, error, invalid) or SSE type, got "+describe(v))
	}
	k, isKind := ParseKind(s)
	return &eventPredicate{name: s, kind: k, isKind: isKind}, nil
}

// parseList parses the predicates of any/all.
func parseList(v any, path string) ([]Predicate, error) {
	items, ok := asList(v)
	if !ok || len(items) == 0 {
		return nil, predErr(path, "want a non-empty array of predicates, got "+describe(v))
	}
	ps := make([]Predicate, len(items))
	for i, it := range items {
		p, err := parsePredicate(it, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		ps[i] = p
	}
	return ps, nil
}

// stringList returns a non-empty list of valid dot paths.
func stringList(v any, path string) ([]string, error) {
	items, ok := asList(v)
	if !ok || len(items) == 0 {
		return nil, predErr(path, "want a non-empty array of dot paths, got "+describe(v))
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok || !validPath(s) {
			return nil, predErr(fmt.Sprintf("%s[%d]", path, i), "want a dot path like 'refund.amount', got "+describe(it))
		}
		out[i] = s
	}
	return out, nil
}

// asList accepts []any and []string.
func asList(v any) ([]any, bool) {
	switch l := v.(type) {
	case []any:
		return l, true
	case []string:
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

// validPath reports whether p is a dot path with no empty segment.
func validPath(p string) bool {
	if p == "" {
		return false
	}
	for _, seg := range strings.Split(p, ".") {
		if seg == "" {
			return false
		}
	}
	return true
}

// has reports whether m has key k.
func has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// join appends a key to a predicate path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// predErr builds a *PredicateError.
func predErr(path, msg string) error { return &PredicateError{Path: path, Msg: msg} }

// describe renders a spec value for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case nil:
		return "null"
	}
	return typeName(v)
}

// typeName names the JavaScript-ish type of a spec value.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64, int64, int, float32, int32:
		return "number"
	case bool:
		return "boolean"
	case []any, []string:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
