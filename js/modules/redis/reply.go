package k6redis

import (
	"errors"
	"fmt"

	"github.com/grafana/sobek"
	"github.com/redis/go-redis/v9"
)

// toJS turns a RESP2 reply (string, int64, nil or []any) into the value
// the promise resolves with, or the error it is rejected with: Redis's own
// error message (WRONGTYPE …), a network error, or "redis: nil" where a
// string is wanted and there is none.
func toJS(rt *sobek.Runtime, kind reply, res any, err error) (sobek.Value, error) {
	if errors.Is(err, redis.Nil) {
		if kind == replyAny {
			return sobek.Null(), nil
		}
		if kind != replyString {
			return rt.NewArray(), nil
		}
	}
	if err != nil {
		return nil, err
	}
	switch kind {
	case replyNumber:
		n, ok := res.(int64)
		if !ok {
			return nil, fmt.Errorf("redis: unexpected reply %T, want an integer", res)
		}
		return rt.ToValue(n), nil
	case replyBool:
		n, ok := res.(int64)
		if !ok {
			return nil, fmt.Errorf("redis: unexpected reply %T, want an integer", res)
		}
		return rt.ToValue(n != 0), nil
	case replyHash:
		a, _ := res.([]any)
		obj := rt.NewObject()
		for i := 0; i+1 < len(a); i += 2 {
			_ = obj.Set(fmt.Sprint(a[i]), plain(a[i+1]))
		}
		return obj, nil
	case replyString:
		if res == nil {
			return nil, redis.Nil
		}
	}
	return rt.ToValue(plain(res)), nil
}

// plain returns a reply with its arrays as []any of strings, int64 and
// nil, which the runtime turns into arrays, numbers and null.
func plain(res any) any {
	switch r := res.(type) {
	case []any:
		out := make([]any, len(r))
		for i, e := range r {
			out[i] = plain(e)
		}
		return out
	case redis.Error:
		return r.Error()
	}
	return res
}
