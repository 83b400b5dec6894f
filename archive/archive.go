// Package archive reads and writes test archives in k6's layout: a tar
// holding metadata.json (the options, the main script's location, the
// environment), data (the main script) and every file the test loaded,
// local files under file/<absolute path> and remote modules under
// https/<host>/<path>. `usefullatency archive` writes one; run and inspect
// read the test from it instead of the disk and the network.
package archive

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// TypeJS is the only test type: a JavaScript test.
const TypeJS = "js"

// Metadata is metadata.json, with k6's field names.
type Metadata struct {
	// Type is the test type, "js".
	Type string `json:"type"`
	// Options are the consolidated options in the form a script exports.
	Options json.RawMessage `json:"options"`
	// Filename is the main script's URL, file:///path/script.js.
	Filename string `json:"filename"`
	// Pwd is the URL of the main script's directory, ending with a slash.
	Pwd string `json:"pwd"`
	// Env is __ENV as the archive was made (from --env, and the process
	// environment with --include-system-env-vars); nil when excluded.
	Env map[string]string `json:"env"`
	// CompatibilityMode is k6's JavaScript mode, "extended" or "base".
	CompatibilityMode string `json:"compatibilityMode"`
	// K6Version is the version of the program that wrote the archive.
	K6Version string `json:"k6version"`
	// Goos is the operating system it ran on.
	Goos string `json:"goos"`
}

// Archive is a test and every file it needs.
type Archive struct {
	Metadata
	// Data is the main script's source.
	Data []byte
	// Files holds the other files by name: an absolute slash-separated
	// path for a local file, a URL for a remote module.
	Files map[string][]byte
}

// New returns an archive of the main script at the absolute path main,
// with its source and options. Home directories in paths are anonymized
// as k6 does (/home/alice/t.js becomes /home/nobody/t.js), here and in
// every file added later.
func New(main string, data []byte, options json.RawMessage) *Archive {
	p := Anonymize(main)
	return &Archive{
		Metadata: Metadata{
			Type: TypeJS, Options: options, CompatibilityMode: "extended",
			Filename: fileURL(p), Pwd: fileURL(path.Dir(p) + "/"),
		},
		Data:  data,
		Files: map[string][]byte{},
	}
}

// Add stores a file the test read: an absolute local path or a remote
// module's URL. The main script is stored as data only.
func (a *Archive) Add(name string, data []byte) {
	if !isRemote(name) {
		name = Anonymize(name)
	}
	if name == a.MainPath() {
		return
	}
	a.Files[name] = data
}

// MainPath is the main script's path as the archive names it, the path a
// run of the archive loads.
func (a *Archive) MainPath() string {
	u, err := url.Parse(a.Filename)
	if err != nil || u.Scheme != "file" {
		return a.Filename
	}
	return u.Path
}

// ReadFile returns the content of an archived file: the main script, a
// local file by its absolute path or a remote module by its URL. Local
// paths are anonymized first, so a script reads what was stored under
// its own path. A missing file wraps fs.ErrNotExist.
func (a *Archive) ReadFile(name string) ([]byte, error) {
	key := name
	if !isRemote(name) {
		key = Anonymize(name)
		if key == a.MainPath() {
			return a.Data, nil
		}
	}
	if data, ok := a.Files[key]; ok {
		return data, nil
	}
	return nil, fmt.Errorf("%s is not in the archive: %w", name, fs.ErrNotExist)
}

// homeDirRE matches a home directory, whose user name an archive hides.
var homeDirRE = regexp.MustCompile(`^/(home|Users)/[^/]+`)

// Anonymize cleans an absolute path and replaces the user name of a home
// directory in it with "nobody", as k6 does in its archives.
func Anonymize(p string) string {
	return homeDirRE.ReplaceAllString(path.Clean(p), "/$1/nobody")
}

func fileURL(p string) string {
	return (&url.URL{Scheme: "file", Path: p}).String()
}

func isRemote(name string) bool {
	return strings.HasPrefix(name, "https://") || strings.HasPrefix(name, "http://")
}
