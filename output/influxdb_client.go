package output

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// influxClient speaks InfluxDB 1.x's HTTP API: POST /query for CREATE
// DATABASE and POST /write for line protocol, authenticated with HTTP
// basic auth (never with u and p query parameters, which servers log).
type influxClient struct {
	// base is the server's URL up to the database (with any path prefix of
	// a reverse proxy), without userinfo, query or trailing slash.
	base               string
	db                 string
	precision          string
	username, password string
	creds              secrets
	http               *http.Client
}

func newInfluxClient(cfg influxConfig) *influxClient {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.insecure {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // asked for by the user
	}
	if cfg.proxy != nil {
		tr.Proxy = http.ProxyURL(cfg.proxy)
	}
	tr.MaxIdleConnsPerHost = cfg.concurrentWrites + 1
	return &influxClient{
		base: cfg.base, db: cfg.db, precision: precisions[cfg.precision].param,
		username: cfg.username, password: cfg.password, creds: newSecrets(cfg.username, cfg.password, nil),
		http: &http.Client{Transport: tr},
	}
}

// createDatabase runs CREATE DATABASE, which does nothing when the
// database exists.
func (c *influxClient) createDatabase(ctx context.Context) error {
	form := url.Values{"q": {"CREATE DATABASE " + quoteIdent(c.db)}}
	resp, err := c.do(ctx, "/query", nil, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	// A statement's error comes with 200 OK in results[].error.
	var r struct {
		Results []struct {
			Error string `json:"error"`
		} `json:"results"`
	}
	if json.Unmarshal(resp, &r) == nil {
		for _, res := range r.Results {
			if res.Error != "" {
				return fmt.Errorf("CREATE DATABASE: %s", res.Error)
			}
		}
	}
	return nil
}

// write POSTs line protocol to the database.
func (c *influxClient) write(ctx context.Context, body []byte) error {
	q := url.Values{"db": {c.db}, "precision": {c.precision}}
	_, err := c.do(ctx, "/write", q, "text/plain; charset=utf-8", bytes.NewReader(body))
	return err
}

// do sends one request and returns the start of the answer's body.
// Anything but a 2xx answer is an error quoting InfluxDB's "error" message
// (or the start of the body), cut and redacted (secrets.answer).
func (c *influxClient) do(ctx context.Context, path string, q url.Values, contentType string, body io.Reader) ([]byte, error) {
	u := c.base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, u, body)
	if err != nil {
		return nil, err
	}
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("User-Agent", "usefullatency")
	if c.username != "" || c.password != "" {
		r.SetBasicAuth(c.username, c.password)
	}
	resp, err := c.http.Do(r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error string `json:"error"`
		}
		msg := b
		if json.Unmarshal(b, &e) == nil && e.Error != "" {
			msg = []byte(e.Error)
		}
		return nil, fmt.Errorf("%s: %s", resp.Status, c.creds.answer(msg))
	}
	return b, nil
}

// quoteIdent quotes an InfluxQL identifier: in double quotes, with '"' and
// '\' escaped by a backslash.
func quoteIdent(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
