package k6secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// maxSecretSize is the largest answer a url source takes, in bytes (k6's
// limit).
const maxSecretSize = 24 << 10

// urlEnvPrefix starts the environment variables that configure a url
// source: K6_SECRET_SOURCE_URL_URL_TEMPLATE, …_HEADER_<NAME>.
const urlEnvPrefix = "K6_SECRET_SOURCE_URL_"

// errFetch marks an answer other than 200 OK.
var errFetch = errors.New("failed to get secret")

// urlConfig is the configuration of a url source, with k6's names and
// defaults.
type urlConfig struct {
	// template is the URL, where {key} stands for the secret's name.
	template string
	// method is the request's method; GET by default.
	method string
	// headers are sent with every request.
	headers map[string]string
	// responsePath is the gjson path of the value in a JSON answer; ""
	// takes the whole body.
	responsePath string
	// timeout bounds each request; 30 s by default.
	timeout time.Duration
	// maxRetries is how many times a request that failed with a network
	// error, a 5xx or a 429 is sent again; 3 by default.
	maxRetries int
	// retryBackoff is the wait before the first retry, doubled for each
	// next one; 1 s by default.
	retryBackoff time.Duration
	// perMinute and burst limit the requests: perMinute a minute after a
	// burst of burst; 300 and 10 by default.
	perMinute, burst int
}

func defaultURLConfig() urlConfig {
	return urlConfig{method: http.MethodGet, timeout: 30 * time.Second, maxRetries: 3,
		retryBackoff: time.Second, perMinute: 300, burst: 10}
}

// urlEnvKeys maps the environment variables' suffixes to the settings.
var urlEnvKeys = map[string]string{
	"URL_TEMPLATE": "urlTemplate", "METHOD": "method", "RESPONSE_PATH": "responsePath",
	"TIMEOUT": "timeout", "MAX_RETRIES": "maxRetries", "RETRY_BACKOFF": "retryBackoff",
	"REQUESTS_PER_MINUTE_LIMIT": "requestsPerMinuteLimit", "REQUESTS_BURST": "requestsBurst",
}

// set applies one setting as k6 names it: urlTemplate, method,
// responsePath, timeout, maxRetries, retryBackoff,
// requestsPerMinuteLimit, requestsBurst or headers.NAME.
func (c *urlConfig) set(key, value string) error {
	var err error
	switch key {
	case "urlTemplate":
		c.template = value
	case "method":
		c.method = value
	case "responsePath":
		c.responsePath = value
	case "timeout":
		c.timeout, err = time.ParseDuration(value)
	case "retryBackoff":
		c.retryBackoff, err = time.ParseDuration(value)
	case "maxRetries":
		c.maxRetries, err = strconv.Atoi(value)
	case "requestsPerMinuteLimit":
		c.perMinute, err = strconv.Atoi(value)
	case "requestsBurst":
		c.burst, err = strconv.Atoi(value)
	default:
		name, ok := strings.CutPrefix(key, "headers.")
		if !ok || name == "" {
			return fmt.Errorf("unknown key %q", key)
		}
		if c.headers == nil {
			c.headers = map[string]string{}
		}
		c.headers[name] = value
	}
	if err != nil {
		return fmt.Errorf("%s: invalid value", key)
	}
	return nil
}

// setEnv applies the K6_SECRET_SOURCE_URL_* variables of env; an empty
// one is ignored, but for a header.
func (c *urlConfig) setEnv(env map[string]string) error {
	names := make([]string, 0, len(env))
	for name := range env {
		if strings.HasPrefix(name, urlEnvPrefix) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		suffix := strings.TrimPrefix(name, urlEnvPrefix)
		key, ok := urlEnvKeys[suffix]
		if header, isHeader := strings.CutPrefix(suffix, "HEADER_"); isHeader && header != "" {
			key, ok = "headers."+header, true
		} else if env[name] == "" {
			continue
		}
		if !ok {
			continue // not one of k6's: ignored, as k6 ignores it
		}
		if err := c.set(key, env[name]); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// setFile applies the JSON object of the file at path: k6's names, with
// headers an object of strings, numbers for the counts and duration
// strings ("10s") or milliseconds for timeout and retryBackoff. Fields k6
// does not know are ignored, as k6 ignores them.
func (c *urlConfig) setFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		if err := c.setJSON(key, fields[key]); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// setJSON applies one field of a config file.
func (c *urlConfig) setJSON(key string, raw json.RawMessage) error {
	if key == "headers" {
		var headers map[string]string
		if err := json.Unmarshal(raw, &headers); err != nil {
			return errors.New("headers: want an object of strings")
		}
		for name, v := range headers {
			if err := c.set("headers."+name, v); err != nil {
				return err
			}
		}
		return nil
	}
	if !isURLSetting(key) {
		return nil
	}
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return fmt.Errorf("%s: want a string or a number", key)
		}
		text = n.String()
		if key == "timeout" || key == "retryBackoff" {
			text += "ms"
		}
	}
	return c.set(key, text)
}

// isURLSetting reports whether key names a setting other than headers.
func isURLSetting(key string) bool {
	for _, k := range urlEnvKeys {
		if k == key {
			return true
		}
	}
	return false
}

// validate checks the configuration as k6 does.
func (c *urlConfig) validate() error {
	switch {
	case c.template == "":
		return errors.New("urlTemplate is required")
	case !strings.Contains(c.template, "{key}"):
		return errors.New("urlTemplate must contain {key}")
	case c.timeout <= 0:
		return errors.New("timeout must be greater than 0")
	case c.retryBackoff <= 0:
		return errors.New("retryBackoff must be greater than 0")
	case c.maxRetries < 0:
		return errors.New("maxRetries must not be negative")
	case c.perMinute <= 0:
		return errors.New("requestsPerMinuteLimit must be greater than 0")
	case c.burst <= 0:
		return errors.New("requestsBurst must be greater than 0")
	}
	u, err := url.Parse(strings.ReplaceAll(c.template, "{key}", "key"))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return errors.New("urlTemplate must be an absolute URL, such as https://host/secrets/{key}")
	}
	return nil
}

// newURLSource reads url's configuration: defaults, then the
// K6_SECRET_SOURCE_URL_* variables of env, then the JSON file of
// config=PATH, then the NAME=VALUE items, each over the one before, as in
// k6.
func newURLSource(config string, env map[string]string) (Source, error) {
	c := defaultURLConfig()
	if err := c.setEnv(env); err != nil {
		return nil, err
	}
	var items [][2]string
	if config != "" {
		for i, item := range strings.Split(config, ",") {
			k, v, ok := strings.Cut(item, "=")
			if !ok {
				return nil, fmt.Errorf("item %d %w", i+1, errNoEquals)
			}
			if k == "config" {
				if err := c.setFile(v); err != nil {
					return nil, err
				}
				continue
			}
			items = append(items, [2]string{k, v})
		}
	}
	for _, kv := range items {
		if err := c.set(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &urlSource{cfg: c, client: &http.Client{Timeout: c.timeout},
		limit: &limiter{every: time.Minute / time.Duration(c.perMinute), burst: c.burst}}, nil
}

// urlSource fetches each secret with an HTTP request to its URL.
type urlSource struct {
	cfg    urlConfig
	client *http.Client
	limit  *limiter
}

// Get fetches the value of key, retrying a network error, a 5xx or a 429
// up to maxRetries times after retryWait.
func (s *urlSource) Get(key string) (string, error) {
	var err error
	for attempt := 0; attempt <= s.cfg.maxRetries; attempt++ {
		if attempt > 0 {
			time.Sleep(retryWait(s.cfg.retryBackoff, attempt, rand.Float64()))
		}
		s.limit.wait()
		var value string
		var retry bool
		value, retry, err = s.fetch(key)
		if err == nil {
			return value, nil
		}
		if !retry {
			break
		}
	}
	return "", err
}

// fetch sends one request for key; retry reports whether its error may
// pass on another try.
func (s *urlSource) fetch(key string) (value string, retry bool, err error) {
	req, err := http.NewRequest(s.cfg.method, strings.ReplaceAll(s.cfg.template, "{key}", key), nil)
	if err != nil {
		return "", false, err
	}
	for name, v := range s.cfg.headers {
		req.Header.Set(name, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return "", true, fmt.Errorf("%w: %v", errFetch, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxSecretSize))
		retry = resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
		return "", retry, fmt.Errorf("status code %d: %w", resp.StatusCode, errFetch)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSecretSize+1))
	if err != nil {
		return "", true, fmt.Errorf("%w: %v", errFetch, err)
	}
	value, err = extractValue(body, s.cfg.responsePath)
	return value, false, err
}

// extractValue returns the value in an answer's body: the whole body
// without a path, else the string at the gjson path.
func extractValue(body []byte, path string) (string, error) {
	if len(body) > maxSecretSize {
		return "", fmt.Errorf("the answer is larger than %d bytes", maxSecretSize)
	}
	if path == "" {
		return string(body), nil
	}
	r := gjson.GetBytes(body, path)
	switch {
	case !r.Exists():
		return "", fmt.Errorf("path %q not found in the answer", path)
	case r.Type != gjson.String:
		return "", fmt.Errorf("the value at path %q is not a string (%s)", path, r.Type)
	}
	return r.String(), nil
}

// retryWait is the wait before retry number attempt (from 1): base
// doubled for each retry after the first, plus up to half of that at
// random (jitter, from 0 to 1), so that VUs retrying together spread:
// wait = base·2^(attempt−1)·(1 + jitter/2).
func retryWait(base time.Duration, attempt int, jitter float64) time.Duration {
	d := base << min(attempt-1, 16)
	return d + time.Duration(float64(d)*jitter/2)
}

// limiter lets through one request per every after a burst of burst.
type limiter struct {
	every time.Duration
	burst int
	mu    sync.Mutex
	tat   time.Time
}

// wait blocks until a request may be sent.
func (l *limiter) wait() {
	l.mu.Lock()
	d, tat := reserve(l.tat, time.Now(), l.every, l.burst)
	l.tat = tat
	l.mu.Unlock()
	time.Sleep(d)
}

// reserve is the generic cell rate algorithm: tat is the theoretical
// arrival time of the next request, when it would come at exactly one per
// every. A request at now waits until tat − (burst−1)·every, and moves tat
// one interval on: burst requests pass at once, then one per every.
func reserve(tat, now time.Time, every time.Duration, burst int) (time.Duration, time.Time) {
	if tat.Before(now) {
		tat = now
	}
	wait := max(tat.Add(-time.Duration(burst-1)*every).Sub(now), 0)
	return wait, tat.Add(every)
}
