package webcrypto

import (
	"errors"
	"fmt"

	"github.com/grafana/sobek"
)

// The DOMException names crypto.subtle rejects with, as the Web Crypto API
// specifies them, and TypeError for arguments of the wrong shape (a
// missing dictionary member, a string where a BufferSource belongs).
const (
	errNotSupported = "NotSupportedError"
	errInvalidAcc   = "InvalidAccessError"
	errSyntax       = "SyntaxError"
	errData         = "DataError"
	errOperation    = "OperationError"
	errType         = "TypeError"
)

// Error is a failed Web Crypto operation. Name is the DOMException name
// (errNotSupported …) or "TypeError"; the promise is rejected with an
// Error object of that name and Message.
type Error struct {
	Name    string
	Message string
}

func (e *Error) Error() string { return e.Name + ": " + e.Message }

// fail returns an *Error named name with the formatted message.
func fail(name, format string, args ...any) *Error {
	return &Error{Name: name, Message: fmt.Sprintf(format, args...)}
}

// errorValue turns err into the value a promise of method is rejected
// with: a TypeError or a DOMException-like Error whose message starts with
// "crypto.subtle.<method>: ". Errors that are not *Error are
// OperationErrors.
func errorValue(rt *sobek.Runtime, method string, err error) sobek.Value {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Name: errOperation, Message: err.Error()}
	}
	if e.Name == errType {
		return rt.NewTypeError("crypto.subtle.%s: %s", method, e.Message)
	}
	return domError(rt, e.Name, "crypto.subtle.%s: %s", method, e.Message)
}
