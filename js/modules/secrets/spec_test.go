package k6secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// writeFile writes content to a file in a new temporary directory and
// returns its path.
func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "secrets.txt")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpen(t *testing.T) {
	file := writeFile(t, "cool=some\r\nelse=source = with spaces\n\nquoted=\"q\"\nempty=\ncool=later wins\n")
	for _, c := range []struct {
		name  string
		specs []string
		// want maps "source/key" to the value, or to "!" plus an error's
		// text.
		want map[string]string
	}{
		{"mock", []string{"mock=token=abc123,b=x=y"}, map[string]string{
			"default/token": "abc123", "mock/token": "abc123", "mock/b": "x=y", "mock/c": "!no value"}},
		{"mock named, then default", []string{"mock=name=first,k=1", "mock=default,name=second,k=2"}, map[string]string{
			"default/k": "2", "first/k": "1", "second/k": "2"}},
		{"two without default", []string{"mock=name=a,k=1", "mock=name=b,k=2"}, map[string]string{
			"a/k": "1", "default/k": `!no secret source with name "default" is configured`}},
		{"one named is the default", []string{"mock=name=only,k=1"}, map[string]string{"default/k": "1", "only/k": "1"}},
		{"file", []string{"file=" + file}, map[string]string{
			"default/cool": "later wins", "file/else": "source = with spaces", "file/quoted": `"q"`, "file/empty": ""}},
		{"file named", []string{"file=name=f,filename=" + file, "mock=k=v,default"}, map[string]string{
			"f/cool": "later wins", "default/k": "v"}},
		{"none", nil, map[string]string{"default/k": "!no secret sources are configured"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Open(c.specs, nil)
			if err != nil {
				t.Fatal(err)
			}
			for sk, want := range c.want {
				source, key, _ := strings.Cut(sk, "/")
				got, err := m.Get(source, key)
				if err != nil {
					got = "!" + err.Error()
				}
				if got != want {
					t.Errorf("Get(%q, %q) = %q, want %q", source, key, got, want)
				}
			}
		})
	}
}

// TestOpenErrors checks each wrong value's error, and that no error
// quotes a value: "s3cr3t" stands for one in each spec.
func TestOpenErrors(t *testing.T) {
	bad := writeFile(t, "ok=s3cr3t\nno-equals-s3cr3t\n")
	for _, c := range []struct {
		specs []string
		want  string
	}{
		{[]string{""}, "empty value: want TYPE=CONFIG, TYPE one of file, mock, url"},
		{[]string{"  "}, "empty value"},
		{[]string{"vault=token=s3cr3t"}, `unknown source type "vault": want one of file, mock, url`},
		{[]string{"mock"}, "mock: no NAME=VALUE given"},
		{[]string{"mock=name=x"}, "mock: no NAME=VALUE given"},
		{[]string{"mock=token=s3cr3t,s3cr3t"}, `mock: item 2 has no "=": want NAME=VALUE`},
		{[]string{"mock=a=s3cr3t", "mock=b=s3cr3t"}, `two sources are named "mock": give them name=NAME`},
		{[]string{"mock=name=a,a=s3cr3t,default", "mock=name=b,b=s3cr3t,default"}, `two default sources, "a" and "b"`},
		{[]string{"mock=name=default,a=s3cr3t", "mock=name=b,b=s3cr3t,default"}, `two default sources, "default" and "b"`},
		{[]string{"file"}, "file: no file given: want file=PATH"},
		{[]string{"file=" + filepath.Join(t.TempDir(), "missing")}, "no such file or directory"},
		{[]string{"file=" + bad}, bad + ` line 2 has no "=": want NAME=VALUE`},
		{[]string{"file=path=x"}, `file: unknown key "path": want PATH or filename=PATH`},
		{[]string{"url"}, "url: urlTemplate is required"},
		{[]string{"url=urlTemplate=http://h/s"}, "url: urlTemplate must contain {key}"},
		{[]string{"url=urlTemplate=/s/{key}"}, "url: urlTemplate must be an absolute URL"},
		{[]string{"url=urlTemplate=http://h/{key},timeout=s3cr3t"}, "url: timeout: invalid value"},
		{[]string{"url=urlTemplate=http://h/{key},maxRetries=-1"}, "url: maxRetries must not be negative"},
		{[]string{"url=urlTemplate=http://h/{key},requestsBurst=0"}, "url: requestsBurst must be greater than 0"},
		{[]string{"url=urlTemplate=http://h/{key},token=s3cr3t"}, `url: unknown key "token"`},
	} {
		_, err := Open(c.specs, nil)
		if err == nil {
			t.Errorf("Open(%q) = nil error, want %q", c.specs, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open(%q) = %q, want it to contain %q", c.specs, err, c.want)
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("Open(%q) = %q: the error quotes a value", c.specs, err)
		}
	}
}

func TestReadKeyValuesLongLine(t *testing.T) {
	_, err := readKeyValues(strings.NewReader("a=1\nb=" + strings.Repeat("x", 70<<10) + "\nc=3\n"))
	if err == nil || err.Error() != "line 2 is longer than 64 KiB" {
		t.Errorf("err = %v, want line 2 is longer than 64 KiB", err)
	}
}

// FuzzParseSpec checks that any value parses into a known type and a
// name, or is refused, and that mock's configuration and a file's lines
// never panic their parsers.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"mock=a=b", "mock=name=x,default,a=b", "file=x", "url=urlTemplate=http://h/{key}", "", "mock", "=", ",,=", "mock=a=b\nc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = readKeyValues(strings.NewReader(s))
		sp, err := parseSpec(s)
		if err != nil {
			return
		}
		if _, ok := builders[sp.typ]; !ok || sp.name == "" {
			t.Fatalf("parseSpec(%q) = %+v: unknown type or no name", s, sp)
		}
		if strings.Contains(","+sp.config+",", ",default,") {
			t.Fatalf("parseSpec(%q) left default in the configuration %q", s, sp.config)
		}
		_, _ = newMockSource(sp.config, nil)
	})
}

func TestManagerLooksUpOnce(t *testing.T) {
	src := &countingSource{}
	m := NewManager(map[string]Source{"c": src}, "c")
	for range 3 {
		if v, err := m.Get("default", "k"); err != nil || v != "value of k" {
			t.Fatalf("Get = %q, %v", v, err)
		}
		if v, err := m.Get("c", "k"); err != nil || v != "value of k" {
			t.Fatalf("Get = %q, %v", v, err)
		}
	}
	if _, err := m.Get("c", "fail"); !errors.Is(err, ErrNoValue) {
		t.Fatalf("Get of a failing key = %v", err)
	}
	_, _ = m.Get("c", "fail")
	if src.calls["k"] != 1 || src.calls["fail"] != 2 {
		t.Errorf("calls = %v, want k once (kept, shared with default) and fail twice (not kept)", src.calls)
	}
	if got := m.values.Text("value of k"); got != "***SECRET_REDACTED***" {
		t.Errorf("the value handed out is not masked: %q", got)
	}
}

// TestManagerConcurrentLookups has VUs ask for one key together while the
// source is slow: the source is asked once and all get the value.
func TestManagerConcurrentLookups(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		var calls atomic.Int64
		m := NewManager(map[string]Source{"slow": sourceFunc(func(key string) (string, error) {
			calls.Add(1)
			<-gate
			return "v-" + key, nil
		})}, "slow")
		var wg sync.WaitGroup
		got := make([]string, 8)
		for i := range got {
			wg.Go(func() { got[i], _ = m.Get("default", "k") })
		}
		synctest.Wait() // every caller waits: one on the source, the others on its lookup
		close(gate)
		wg.Wait()
		for i, v := range got {
			if v != "v-k" {
				t.Errorf("caller %d got %q", i, v)
			}
		}
		if n := calls.Load(); n != 1 {
			t.Errorf("the source was asked %d times, want once", n)
		}
	})
}

type sourceFunc func(string) (string, error)

func (f sourceFunc) Get(key string) (string, error) { return f(key) }

// countingSource answers "value of KEY" for every key but "fail" and
// counts the lookups.
type countingSource struct{ calls map[string]int }

func (s *countingSource) Get(key string) (string, error) {
	if s.calls == nil {
		s.calls = map[string]int{}
	}
	s.calls[key]++
	if key == "fail" {
		return "", ErrNoValue
	}
	return "value of " + key, nil
}
