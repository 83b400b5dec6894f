// Package web installs the web-platform globals k6 scripts use into a
// sobek runtime: TextEncoder, TextDecoder, URL, URLSearchParams and
// structuredClone. The classes are written in JavaScript (the embedded
// *.js files, compiled once per process) over a few Go functions: the
// WHATWG UTF-8 decoder, the URL parser (net/url plus WHATWG
// normalisation) and form-urlencoded encoding.
package web
