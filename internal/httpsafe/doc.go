// Package httpsafe holds the rules both HTTP clients of usefullatency (the
// streaming probe in sse and the k6/http module) apply against hostile or
// broken servers: the size limits of a response, the decompression ratio
// guard, and the redirect policy (how many hops, which headers survive a
// change of origin, no https→http downgrade, no request body sent twice).
// It has no dependency besides the standard library.
package httpsafe
