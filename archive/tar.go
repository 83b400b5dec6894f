package archive

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"
	"time"
)

// maxEntry bounds one file read from an archive, in bytes.
const maxEntry = 1 << 30

// Write writes the archive as a tar: metadata.json, data, the main script
// as a hard link to data under its file/ path (as k6 writes it), then the
// other files sorted by entry name, so one test always makes the same
// entries.
func (a *Archive) Write(w io.Writer) error {
	tw := tar.NewWriter(w)
	now := time.Now().Truncate(time.Second)
	meta, err := encodeMetadata(a.Metadata)
	if err != nil {
		return err
	}
	if err := writeEntry(tw, "metadata.json", meta, now); err != nil {
		return err
	}
	if err := writeEntry(tw, "data", a.Data, now); err != nil {
		return err
	}
	if main, ok := entryName(a.MainPath()); ok && !isRemote(a.MainPath()) {
		if err := tw.WriteHeader(&tar.Header{Name: main, Typeflag: tar.TypeLink, Linkname: "data", ModTime: now}); err != nil {
			return err
		}
	}
	names := make(map[string]string, len(a.Files))
	for name := range a.Files {
		entry, ok := entryName(name)
		if !ok {
			return fmt.Errorf("archive: cannot store %s", name)
		}
		names[entry] = name
	}
	for _, entry := range slices.Sorted(maps.Keys(names)) {
		if err := writeEntry(tw, entry, a.Files[names[entry]], now); err != nil {
			return err
		}
	}
	return tw.Close()
}

func encodeMetadata(m Metadata) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(m)
	return buf.Bytes(), err
}

func writeEntry(tw *tar.Writer, name string, data []byte, mod time.Time) error {
	hdr := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: mod, Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err := tw.Write(data)
	return err
}

// entryName is the tar entry of a file: file/<path> for a local path,
// <scheme>/<host>/<path> for a URL.
func entryName(name string) (string, bool) {
	for _, scheme := range []string{"https", "http"} {
		if rest, ok := strings.CutPrefix(name, scheme+"://"); ok {
			return scheme + "/" + rest, rest != ""
		}
	}
	if !path.IsAbs(name) {
		return "", false
	}
	return "file" + name, true
}

// fileName is the inverse of entryName; older k6 archives' files/ and
// scripts/ entries hold local files under a leading "_" and remote
// modules otherwise.
func fileName(entry string) (string, error) {
	prefix, rest, ok := strings.Cut(entry, "/")
	if !ok {
		return "", fmt.Errorf("unknown entry %q", entry)
	}
	switch prefix {
	case "file":
		return path.Clean("/" + rest), nil
	case "https", "http":
		return prefix + "://" + rest, nil
	case "files", "scripts":
		if local, ok := strings.CutPrefix(rest, "_/"); ok {
			return path.Clean("/" + local), nil
		}
		return "https://" + rest, nil
	}
	return "", fmt.Errorf("unknown entry %q: want metadata.json, data, file/, https/ or http/", entry)
}

// IsArchive reports whether data starts with a tar header, as a test
// archive does and a script never can.
func IsArchive(data []byte) bool {
	_, err := tar.NewReader(bytes.NewReader(data)).Next()
	return err == nil
}

// Read reads an archive Write (or k6) wrote. Directory and link entries
// are skipped; metadata.json and data must be there.
func Read(r io.Reader) (*Archive, error) {
	tr := tar.NewReader(r)
	a := &Archive{Files: map[string][]byte{}}
	var haveMeta, haveData bool
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not a readable archive: %v", err)
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		data, err := readEntry(tr, hdr)
		if err != nil {
			return nil, err
		}
		switch name := strings.TrimPrefix(hdr.Name, "./"); name {
		case "metadata.json":
			if err := json.Unmarshal(data, &a.Metadata); err != nil {
				return nil, fmt.Errorf("metadata.json: %v", err)
			}
			haveMeta = true
		case "data":
			a.Data, haveData = data, true
		default:
			file, err := fileName(name)
			if err != nil {
				return nil, err
			}
			a.Files[file] = data
		}
	}
	return a, a.check(haveMeta, haveData)
}

func readEntry(tr *tar.Reader, hdr *tar.Header) ([]byte, error) {
	for key := range hdr.PAXRecords {
		if strings.HasPrefix(key, "GNU.sparse.") {
			return nil, fmt.Errorf("%s: a sparse file, which archives never hold", hdr.Name)
		}
	}
	if hdr.Size > maxEntry {
		return nil, fmt.Errorf("%s: larger than %d MB", hdr.Name, maxEntry>>20)
	}
	data, err := io.ReadAll(tr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", hdr.Name, err)
	}
	return data, nil
}

// check reports what a readable archive lacks.
func (a *Archive) check(haveMeta, haveData bool) error {
	switch {
	case !haveMeta:
		return errors.New("no metadata.json")
	case !haveData:
		return errors.New("no data entry (the main script)")
	case a.Type != TypeJS:
		return fmt.Errorf("metadata.json: unsupported test type %q (want %q)", a.Type, TypeJS)
	case a.Filename == "":
		return errors.New("metadata.json: no filename")
	}
	return nil
}
