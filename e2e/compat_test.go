package e2e

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/internal/grpcdesc/grpctest"
	"github.com/usefullatency/usefullatency/internal/wsconn/wstest"
)

// compatDir holds the compatibility suite: k6-style scripts, one per
// documented API or behaviour, whose checks and thresholds hold the answers
// k6's documentation gives.
const compatDir = "../compat"

// compatHeader is a suite script's header: the first comment lines.
type compatHeader struct {
	// area is the module or topic ("k6/http"), what the behaviour tested.
	area, what string
	// exit is the exit code k6 gives the script; 0 unless "// exit: N".
	exit int
	// expect are texts stdout must hold ("// expect: text" lines).
	expect []string
}

// readCompatHeader reads the "// compat: area — what" and optional
// "// exit: N" and "// expect: text" lines at the top of a suite script.
func readCompatHeader(t *testing.T, path string) compatHeader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var h compatHeader
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "//") {
			break
		}
		if v, ok := strings.CutPrefix(line, "// compat: "); ok {
			area, what, found := strings.Cut(v, " — ")
			if !found {
				t.Fatalf("%s: the compat line must read `// compat: area — what`", path)
			}
			h.area, h.what = area, what
		}
		if v, ok := strings.CutPrefix(line, "// expect: "); ok {
			h.expect = append(h.expect, v)
		}
		if v, ok := strings.CutPrefix(line, "// exit: "); ok {
			if h.exit, err = strconv.Atoi(v); err != nil {
				t.Fatalf("%s: exit: %v", path, err)
			}
		}
	}
	if h.area == "" {
		t.Fatalf("%s has no `// compat: area — what` line at its top", path)
	}
	return h
}

// compatScripts returns the suite's scripts, sorted.
func compatScripts(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(compatDir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "lib" {
			return filepath.SkipDir // modules the scripts import
		}
		if ext := filepath.Ext(path); !d.IsDir() && (ext == ".js" || ext == ".ts") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatal("the compatibility suite is empty")
	}
	return out
}

// failedCheck finds the ✗ lines of a text summary.
var failedCheck = regexp.MustCompile(`(?m)^\s*✗ .*$`)

// onPurpose marks the checks a suite script fails to test check() itself.
const onPurpose = "(fails on purpose)"

// failedChecks returns the ✗ lines of a text summary but those of checks
// failing on purpose.
func failedChecks(summary string) []string {
	var out []string
	for _, line := range failedCheck.FindAllString(summary, -1) {
		if !strings.Contains(line, onPurpose) {
			out = append(out, line)
		}
	}
	return out
}

// TestCompatSuite runs every script of compat/ through the binary, with
// ECHO set to a loopback echo server and GRPC to a loopback gRPC server
// (GRPC_PROTO its .proto file), and wants k6's exit code and no failed
// check.
func TestCompatSuite(t *testing.T) {
	t.Parallel()
	echo := echoServer(t)
	chat := grpctest.Start(t)
	for _, path := range compatScripts(t) {
		name, _ := filepath.Rel(compatDir, path)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			t.Parallel()
			h := readCompatHeader(t, path)
			abs, err := filepath.Abs(path)
			if err != nil {
				t.Fatal(err)
			}
			r := invocation{args: []string{"run", "--summary-mode", "full", "--no-color", abs}, env: []string{"ECHO=" + echo.URL, "GRPC=" + chat.Addr, "GRPC_PROTO=" + chat.Proto, "SHOTS=" + t.TempDir()}}.run(t)
			if r.code != h.exit {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, h.exit, r.stdout, r.stderr)
			}
			if failed := failedChecks(r.stdout); len(failed) > 0 && h.exit == 0 {
				t.Errorf("failed checks or thresholds:\n%s\nstderr:\n%s", strings.Join(failed, "\n"), r.stderr)
			}
			for _, want := range h.expect {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %q:\n%s\nstderr:\n%s", want, r.stdout, r.stderr)
				}
			}
		})
	}
}

// updateCompat (UPDATE_COMPAT set) rewrites compat/README.md instead of
// comparing it.
var updateCompat = os.Getenv("UPDATE_COMPAT") != ""

// TestCompatTable checks that compat/README.md lists every script of the
// suite with its header; UPDATE_COMPAT=1 rewrites it.
func TestCompatTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("# The compatibility suite\n\n" +
		"Each script exercises one documented k6 API or behaviour; its checks and thresholds hold the\n" +
		"answers k6's documentation gives. `make test` runs every one through the binary\n" +
		"(`e2e/compat_test.go`, with `ECHO` set to a loopback echo server and `GRPC` to a loopback gRPC\n" +
		"server, `GRPC_PROTO` its `.proto` file) and wants k6's exit code and no failed check. This\n" +
		"table is generated from the scripts' `// compat:` lines\n" +
		"(`UPDATE_COMPAT=1 go test ./e2e -run TestCompatTable` rewrites it).\n\n" +
		"| script | area | behaviour | exit |\n| --- | --- | --- | --- |\n")
	for _, path := range compatScripts(t) {
		h := readCompatHeader(t, path)
		name, _ := filepath.Rel(compatDir, path)
		fmt.Fprintf(&b, "| [`%s`](%s) | %s | %s | %d |\n", filepath.ToSlash(name), filepath.ToSlash(name), h.area, h.what, h.exit)
	}
	table := filepath.Join(compatDir, "README.md")
	if updateCompat {
		if err := os.WriteFile(table, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(table)
	if err != nil || string(got) != b.String() {
		t.Errorf("compat/README.md is not the table of the suite (UPDATE_COMPAT=1 go test ./e2e -run TestCompatTable rewrites it)\nwant:\n%s", b.String())
	}
}

// echoServer is a small httpbin: /anything echoes the request as JSON
// (method, url, args, headers, body, cookies); /status/N answers N;
// /redirect/N redirects N times to /anything; /cookies/set?k=v sets the
// cookies and redirects to /cookies, which lists them; /gzip is a gzip
// JSON body; /bytes/N is N bytes; /ws/ is wstest's WebSocket echo server;
// /forms/post is an HTML order form posting to /anything; /links/N/I is an
// HTML page of links to /links/N/0…N-1 but I, as httpbin's pages the k6
// documentation uses; /site/ is the browser scripts' site (siteHandler).
func echoServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/anything/", echoRequest)
	mux.HandleFunc("/anything", echoRequest)
	mux.HandleFunc("/status/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, err := strconv.Atoi(r.PathValue("code"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(code)
	})
	mux.HandleFunc("/redirect/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n <= 1 {
			http.Redirect(w, r, "/anything", http.StatusFound)
			return
		}
		http.Redirect(w, r, "/redirect/"+strconv.Itoa(n-1), http.StatusFound)
	})
	mux.HandleFunc("/cookies/set", func(w http.ResponseWriter, r *http.Request) {
		for k, v := range r.URL.Query() {
			http.SetCookie(w, &http.Cookie{Name: k, Value: v[0], Path: "/"})
		}
		http.Redirect(w, r, "/cookies", http.StatusFound)
	})
	mux.HandleFunc("/cookies", func(w http.ResponseWriter, r *http.Request) {
		cookies := map[string]string{}
		for _, c := range r.Cookies() {
			cookies[c.Name] = c.Value
		}
		writeJSON(w, map[string]any{"cookies": cookies})
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "application/json")
		zw := gzip.NewWriter(w)
		_ = json.NewEncoder(zw).Encode(map[string]any{"gzipped": true})
		_ = zw.Close()
	})
	mux.Handle("/ws/", wstest.Handler(nil))
	mux.Handle("/site/", siteHandler())
	mux.HandleFunc("/bytes/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		_, _ = w.Write(make([]byte, n))
	})
	mux.HandleFunc("/forms/post", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, orderForm)
	})
	mux.HandleFunc("/links/{n}/{i}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		current, _ := strconv.Atoi(r.PathValue("i"))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><head><title>Links</title></head><body>")
		for i := range n {
			if i == current {
				fmt.Fprintf(w, "%d ", i)
				continue
			}
			fmt.Fprintf(w, "<a href='/links/%d/%d'>%d</a> ", n, i, i)
		}
		fmt.Fprint(w, "</body></html>")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// orderForm is the page of /forms/post: a pizza order form.
const orderForm = `<!DOCTYPE html>
<html><head><title>Order</title></head><body>
<form method="post" action="/anything">
  <p><label>Customer name: <input name="custname"></label></p>
  <p><label>Telephone: <input type="tel" name="custtel" value="555"></label></p>
  <fieldset><legend>Size</legend>
    <label><input type="radio" name="size" value="small"> Small</label>
    <label><input type="radio" name="size" value="medium" checked> Medium</label>
  </fieldset>
  <fieldset><legend>Toppings</legend>
    <label><input type="checkbox" name="topping" value="bacon"> Bacon</label>
    <label><input type="checkbox" name="topping" value="cheese" checked> Cheese</label>
  </fieldset>
  <p><label>Comments: <textarea name="comments">ring twice</textarea></label></p>
  <p><button type="submit" name="order" value="now">Submit order</button></p>
</form>
</body></html>`

// echoRequest answers the request as JSON, as httpbin's /anything does.
func echoRequest(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	headers := map[string]string{}
	for k, v := range r.Header {
		headers[k] = strings.Join(v, ", ")
	}
	args := map[string]string{}
	for k, v := range r.URL.Query() {
		args[k] = strings.Join(v, ",")
	}
	form := map[string]string{}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if vals, err := parseForm(string(body)); err == nil {
			form = vals
		}
	}
	writeJSON(w, map[string]any{
		"method": r.Method, "url": r.URL.String(), "args": args, "headers": headers,
		"data": string(body), "form": form,
	})
}

// parseForm parses a form-encoded body into its first values.
func parseForm(s string) (map[string]string, error) {
	req := &http.Request{Method: http.MethodPost, Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}},
		Body: io.NopCloser(strings.NewReader(s))}
	if err := req.ParseForm(); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for k, v := range req.PostForm {
		out[k] = v[0]
	}
	return out, nil
}

// writeJSON writes v as a JSON response.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
