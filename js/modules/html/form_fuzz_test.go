package k6html

import (
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// FuzzFormFields parses any page, reads its forms' fields and checks that
// every field has a name and that serialize's encoding of them decodes
// back to the same names and values, in order.
func FuzzFormFields(f *testing.F) {
	for _, seed := range []string{
		`<form><input name="username"></form>`,
		`<form><input name="q" value="a b&c=d/é!~*'()%"><select name="s" multiple><option selected>1</option><option selected value="2">x</option></select><textarea name="t">a
b</textarea></form>`,
		`<form><input type="checkbox" name="c" checked><input type="radio" name="r" value="x"><input name="d" disabled value="1"></form>`,
		`<input name="loose" value="v"><form><fieldset><input name="n" value="+"></fieldset></form>`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, page string) {
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
		if err != nil {
			t.Skip()
		}
		fields := FormFields(doc.Find("form"))
		parts := make([]string, len(fields))
		for i, field := range fields {
			if field.Name == "" {
				t.Fatalf("a field without a name: %+v", fields)
			}
			parts[i] = formEscape(field.Name) + "=" + formEscape(field.Value)
		}
		for i, part := range parts {
			name, value, _ := strings.Cut(part, "=")
			gotName, err1 := url.QueryUnescape(name)
			gotValue, err2 := url.QueryUnescape(value)
			if err1 != nil || err2 != nil || gotName != fields[i].Name || gotValue != fields[i].Value {
				t.Fatalf("field %+v encodes as %q, which decodes to %q=%q (%v, %v)", fields[i], part, gotName, gotValue, err1, err2)
			}
		}
	})
}
