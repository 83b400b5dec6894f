// Package web builds the web-platform globals k6 scripts use in a sobek
// runtime: TextEncoder, TextDecoder, URL, URLSearchParams and
// structuredClone (Build; package js defines each on a VU's global object
// when the script first uses it, Install defines them all at once). The
// classes are written in JavaScript (the embedded
// *.js files, compiled once per process) over a few Go functions: the
// WHATWG UTF-8 decoder, the URL parser (net/url plus WHATWG
// normalisation) and form-urlencoded encoding.
package web
