package k6http

import (
	"crypto/tls"
	"strings"

	"github.com/grafana/sobek"
	"golang.org/x/crypto/ocsp"
)

// k6's OCSP status names (response.ocsp.status, http.OCSP_STATUS_*).
const (
	ocspGood         = "good"
	ocspRevoked      = "revoked"
	ocspServerFailed = "server_failed"
	ocspUnknown      = "unknown"
)

// ocspStatuses are k6's names of the certificate statuses of RFC 6960.
var ocspStatuses = map[int]string{
	ocsp.Good: ocspGood, ocsp.Revoked: ocspRevoked, ocsp.ServerFailed: ocspServerFailed, ocsp.Unknown: ocspUnknown,
}

// ocspReasons are k6's names of the revocation reasons of RFC 5280
// (response.ocsp.revocation_reason, http.OCSP_REASON_*).
var ocspReasons = map[int]string{
	ocsp.Unspecified: "unspecified", ocsp.KeyCompromise: "key_compromise", ocsp.CACompromise: "ca_compromise",
	ocsp.AffiliationChanged: "affiliation_changed", ocsp.Superseded: "superseded",
	ocsp.CessationOfOperation: "cessation_of_operation", ocsp.CertificateHold: "certificate_hold",
	ocsp.RemoveFromCRL: "remove_from_crl", ocsp.PrivilegeWithdrawn: "privilege_withdrawn", ocsp.AACompromise: "aa_compromise",
}

// ocspInfo is response.ocsp: the OCSP response the server stapled to its
// TLS handshake, as k6 shows it. Times are Unix seconds. Without TLS every
// field is zero or "" (status too); over TLS without a staple, or with one
// that does not parse, status is "unknown".
type ocspInfo struct {
	producedAt, thisUpdate, nextUpdate, revokedAt int64
	revocationReason, status                      string
}

// stapledOCSP reads the OCSP response stapled to a TLS connection, as k6
// does: parsed without checking it against the certificate's issuer, and
// every field set once it parses, so that a time the response does not
// carry (revoked_at of a good certificate) is Go's zero time,
// -62135596800, and the reason of a certificate that is not revoked
// "unspecified".
func stapledOCSP(state *tls.ConnectionState) ocspInfo {
	info := ocspInfo{status: ocspUnknown}
	r, err := ocsp.ParseResponse(state.OCSPResponse, nil)
	if err != nil {
		return info
	}
	info.status, info.revocationReason = ocspStatuses[r.Status], ocspReasons[r.RevocationReason]
	info.producedAt, info.thisUpdate = r.ProducedAt.Unix(), r.ThisUpdate.Unix()
	info.nextUpdate, info.revokedAt = r.NextUpdate.Unix(), r.RevokedAt.Unix()
	return info
}

// value is the object response.ocsp, with k6's field names in k6's order.
func (o ocspInfo) value(rt *sobek.Runtime) *sobek.Object {
	obj := rt.NewObject()
	_ = obj.Set("produced_at", o.producedAt)
	_ = obj.Set("this_update", o.thisUpdate)
	_ = obj.Set("next_update", o.nextUpdate)
	_ = obj.Set("revoked_at", o.revokedAt)
	_ = obj.Set("revocation_reason", o.revocationReason)
	_ = obj.Set("status", o.status)
	return obj
}

// ocspExports are k6/http's OCSP_STATUS_* and OCSP_REASON_* constants.
func ocspExports() map[string]any {
	out := map[string]any{
		"OCSP_STATUS_GOOD": ocspGood, "OCSP_STATUS_REVOKED": ocspRevoked,
		"OCSP_STATUS_SERVER_FAILED": ocspServerFailed, "OCSP_STATUS_UNKNOWN": ocspUnknown,
	}
	for _, reason := range ocspReasons {
		out["OCSP_REASON_"+strings.ToUpper(reason)] = reason
	}
	return out
}
