package output

import (
	"strings"

	"github.com/usefullatency/usefullatency/internal/redact"
)

// shownAnswer is how much of an endpoint's answer a warning or error
// quotes, in bytes: enough for a status message, never a whole page, and
// never what an endpoint that echoes its request would show of it.
const shownAnswer = 512

// secrets are what an output sends to its endpoint that no message may
// show: the password, user:password (the content of the Basic credential,
// which redact.Secrets also masks in base64), and the value of every header
// it adds — with the credential after a scheme word ("Bearer T") on its own
// too.
type secrets []string

// newSecrets lists the secrets of an output's configuration.
func newSecrets(username, password string, headers map[string]string) secrets {
	var c secrets
	if password != "" {
		c = append(c, password, username+":"+password)
	}
	for _, v := range headers {
		c = append(c, v)
		if _, token, ok := strings.Cut(v, " "); ok {
			c = append(c, strings.TrimSpace(token))
		}
	}
	return c
}

// answer is the start of an endpoint's answer body for a message: cut to
// shownAnswer bytes, on one line, redacted (redact.Body) with c masked.
func (c secrets) answer(body []byte) string {
	return redact.Body(body, shownAnswer, c...)
}

// message is an error of an output for a warning: on one line, redacted,
// with c masked and what follows "body: " (the OpenTelemetry exporter
// quotes the collector's whole answer there) cut to shownAnswer bytes.
func (c secrets) message(err error) string {
	msg := err.Error()
	limit := len(msg)
	if i := strings.Index(msg, "body: "); i >= 0 {
		limit = i + len("body: ") + shownAnswer
	}
	return redact.Body([]byte(msg), limit, c...)
}
