package k6http

import (
	"errors"
	"fmt"

	"github.com/grafana/sobek"
	"github.com/tidwall/gjson"
)

// errNoBody is the error of json() on a response without a body.
var errNoBody = errors.New("k6/http: json(): the response has no body (responseType \"none\" or a failed request)")

// jsonValue parses body as JSON and returns it, or, given a selector in
// GJSON path syntax (as k6 documents json(selector)), the selected value;
// a selector that matches nothing gives undefined. A body that is not JSON
// is an exception.
func jsonValue(rt *sobek.Runtime, rtype responseType, body []byte, selector sobek.Value) (sobek.Value, error) {
	if rtype == asNone || body == nil {
		return nil, errNoBody
	}
	if !gjson.ValidBytes(body) {
		return nil, fmt.Errorf("k6/http: json(): the body is not valid JSON: %s", excerpt(body))
	}
	if isNullish(selector) {
		return parseJSON(rt, string(body))
	}
	res := gjson.GetBytes(body, selector.String())
	if !res.Exists() {
		return sobek.Undefined(), nil
	}
	return parseJSON(rt, res.Raw)
}

// parseJSON parses text with the runtime's JSON.parse, so that the script
// gets plain JavaScript objects and arrays, keys in document order.
func parseJSON(rt *sobek.Runtime, text string) (sobek.Value, error) {
	parse, ok := sobek.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	if !ok {
		return nil, errors.New("k6/http: json(): JSON.parse is not available")
	}
	return parse(sobek.Undefined(), rt.ToValue(text))
}

// excerpt returns the start of body for an error message.
func excerpt(body []byte) string {
	const max = 40
	if len(body) > max {
		return fmt.Sprintf("%q…", body[:max])
	}
	return fmt.Sprintf("%q", body)
}
