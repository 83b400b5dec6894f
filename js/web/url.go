package web

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
)

// urlParts are a parsed URL's components, serialised as the WHATWG URL
// getters return them: Protocol ends in ":", Port is empty for the
// scheme's default, Query and Fragment exclude "?" and "#" and are nil
// when absent.
type urlParts struct {
	Protocol string
	Username string
	Password string
	Hostname string
	Port     string
	Pathname string
	Query    *string
	Fragment *string
	// Opaque is set for URLs like mailto:a@b that have no host or path
	// segments.
	Opaque bool
}

// values returns the parts as web.js reads them; an absent query or
// fragment is null.
func (p *urlParts) values() map[string]any {
	m := map[string]any{
		"protocol": p.Protocol, "username": p.Username, "password": p.Password,
		"hostname": p.Hostname, "port": p.Port, "pathname": p.Pathname,
		"query": nil, "fragment": nil, "opaque": p.Opaque,
	}
	if p.Query != nil {
		m["query"] = *p.Query
	}
	if p.Fragment != nil {
		m["fragment"] = *p.Fragment
	}
	return m
}

// defaultPorts are the special schemes and their default ports; "file" has
// none.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "file": ""}

var errNoScheme = errors.New("it is relative and no base URL was given")

// parseURL parses input, resolved against base when base is not empty, the
// way the URL constructor does.
func parseURL(input, base string) (*urlParts, error) {
	ref, err := parseAbsOrRel(input)
	if err != nil {
		return nil, err
	}
	if base != "" {
		b, err := parseAbsOrRel(base)
		if err != nil {
			return nil, err
		}
		if b.Scheme == "" {
			return nil, errors.New("the base URL is relative")
		}
		ref = resolve(b, ref)
	}
	if ref.Scheme == "" {
		return nil, errNoScheme
	}
	return partsOf(ref)
}

// parseAbsOrRel parses one URL string after trimming the leading and
// trailing spaces and controls and removing tabs and newlines.
func parseAbsOrRel(s string) (*url.URL, error) {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return nil, ue.Err
		}
		return nil, err
	}
	return u, nil
}

// resolve resolves ref against base (RFC 3986 section 5.2), keeping the
// raw escaping of the path so that it is normalised once, in partsOf.
func resolve(base, ref *url.URL) *url.URL {
	if ref.Scheme != "" {
		return ref
	}
	out := *ref
	out.Scheme = base.Scheme
	if ref.Host != "" || ref.User != nil {
		return &out
	}
	out.Host, out.User, out.Opaque = base.Host, base.User, base.Opaque
	refPath := rawPath(ref)
	switch {
	case refPath == "":
		setRawPath(&out, rawPath(base))
		if !ref.ForceQuery && ref.RawQuery == "" {
			out.RawQuery = base.RawQuery
		}
	case strings.HasPrefix(refPath, "/"):
		setRawPath(&out, refPath)
	default:
		dir := rawPath(base)
		dir = dir[:strings.LastIndex(dir, "/")+1]
		if dir == "" && base.Host != "" {
			dir = "/"
		}
		setRawPath(&out, dir+refPath)
	}
	return &out
}

// rawPath returns u's path as it was written.
func rawPath(u *url.URL) string {
	if u.RawPath != "" {
		return u.RawPath
	}
	return u.EscapedPath()
}

func setRawPath(u *url.URL, p string) {
	u.RawPath = p
	u.Path = p
}

// partsOf normalises an absolute URL into its WHATWG components.
func partsOf(u *url.URL) (*urlParts, error) {
	scheme := strings.ToLower(u.Scheme)
	_, special := defaultPorts[scheme]
	p := &urlParts{Protocol: scheme + ":"}
	if u.Opaque != "" {
		p.Opaque = true
		p.Pathname = encodeSet(u.Opaque, c0Set)
	} else {
		if err := p.setAuthority(u, scheme, special); err != nil {
			return nil, err
		}
		p.Pathname = encodeSet(removeDotSegments(rawPath(u)), pathSet)
		if special && p.Pathname == "" {
			p.Pathname = "/"
		}
	}
	if u.RawQuery != "" || u.ForceQuery {
		set := querySet
		if special {
			set = specialQuerySet
		}
		q := encodeSet(u.RawQuery, set)
		p.Query = &q
	}
	if u.Fragment != "" {
		f := encodeSet(rawFragment(u), fragmentSet)
		p.Fragment = &f
	}
	return p, nil
}

func rawFragment(u *url.URL) string {
	if u.RawFragment != "" {
		return u.RawFragment
	}
	return u.EscapedFragment()
}

// setAuthority sets the credentials, host name and port.
func (p *urlParts) setAuthority(u *url.URL, scheme string, special bool) error {
	if u.User != nil {
		user, pass, _ := strings.Cut(u.User.String(), ":")
		p.Username, p.Password = user, pass
	}
	p.Hostname = strings.ToLower(u.Hostname())
	if strings.Contains(p.Hostname, ":") {
		p.Hostname = "[" + p.Hostname + "]"
	}
	if p.Hostname == "" && special && scheme != "file" {
		return errors.New("it has no host")
	}
	if port := u.Port(); port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil {
			return errors.New("its port " + strconv.Quote(port) + " is not a number from 0 to 65535")
		}
		if p.Port = strconv.FormatUint(n, 10); p.Port == defaultPorts[scheme] {
			p.Port = ""
		}
	}
	return nil
}

// removeDotSegments removes "." and ".." segments from a path (RFC 3986
// section 5.2.4); a trailing "." or ".." leaves a trailing "/".
func removeDotSegments(p string) string {
	if !strings.Contains(p, ".") {
		return p
	}
	abs := strings.HasPrefix(p, "/")
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		last := i == len(segs)-1
		switch strings.ToLower(s) {
		case ".", "%2e":
			if last {
				out = append(out, "")
			}
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	joined := strings.Join(out, "/")
	if abs {
		return "/" + joined
	}
	return joined
}
