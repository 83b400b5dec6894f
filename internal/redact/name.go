package redact

import (
	"strings"
	"unicode"
)

// secretSuffixes are endings of a name, lower-cased and without '-', '_',
// '.' and spaces, that mark its value as a credential wherever they end the
// name: access_token, X-Amz-Signature, client_secret, JSESSIONID, apiKey… They
// are long or specific enough that no innocent name ends with them.
var secretSuffixes = []string{
	"token", "secret", "password", "passwd", "pwd", "passphrase", "signature", "sig", "credential", "credentials",
	"auth", "authorization", "jwt", "hmac", "sessionid", "sessid", "authcode", "authorizationcode",
	"apikey", "accesskey", "secretkey", "privatekey", "subscriptionkey", "signingkey", "sessionkey", "masterkey",
	"authkey", "passkey", "licensekey", "clientkey", "appkey", "devkey", "encryptionkey", "sharedkey", "hmackey",
}

// secretWords are short words that mark a credential only as the last word
// of a name (split at '-', '_', '.', spaces and lower-to-upper case changes):
// key, api_key, subscription-key, sortKey and db_pass are secret, monkey,
// hockey, keyword, bypass and compass are not.
var secretWords = []string{"key", "pass", "session", "otp"}

// secretNames are names that carry a credential only when they are the
// whole name: the OAuth authorization code (code), but not zip_code or
// country_code.
var secretNames = []string{"code"}

// wholeNameOnly reports whether name is secret only as a whole name
// (secretNames), not by a suffix or a last word.
func wholeNameOnly(name string) bool {
	n := normalize(name)
	for _, s := range secretNames {
		if n == s {
			return true
		}
	}
	return false
}

// SecretParam reports whether a query parameter (or a header, or a JSON
// field) of this name carries a credential, so that its value is masked:
//   - its name, lower-cased and without '-', '_', '.' and spaces, ends with
//     token, secret, password, passwd, pwd, passphrase, signature, sig,
//     credential(s), auth, authorization, jwt, hmac, sessionid, sessid,
//     authcode, or a compound key name (apikey, accesskey, secretkey,
//     privatekey, subscriptionkey, …);
//   - or its last word is key, pass, session or otp (api_key, apiKey,
//     X-Api-Key, db_pass, user-session; not monkey or bypass);
//   - or it is exactly code (OAuth's authorization code).
func SecretParam(name string) bool {
	n := normalize(name)
	if n == "" {
		return false
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	last := lastWord(name)
	for _, w := range secretWords {
		if last == w {
			return true
		}
	}
	for _, s := range secretNames {
		if n == s {
			return true
		}
	}
	return false
}

// normalize lower-cases name and drops '-', '_', '.' and spaces.
func normalize(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch r {
		case '-', '_', '.', ' ':
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// lastWord returns the last word of name, lower-cased: words are separated
// by '-', '_', '.', spaces, brackets and changes from a lower-case letter or
// a digit to an upper-case one ("apiKey" ends with "key", "APIKEY" is one
// word).
func lastWord(name string) string {
	runes := []rune(strings.TrimRight(name, "-_. []"))
	start := 0
	for i, r := range runes {
		switch {
		case strings.ContainsRune("-_. []", r):
			start = i + 1
		case i > 0 && unicode.IsUpper(r) && (unicode.IsLower(runes[i-1]) || unicode.IsDigit(runes[i-1])):
			start = i
		}
	}
	return strings.ToLower(string(runes[start:]))
}
