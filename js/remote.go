package js

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// maxRemoteModule is the largest remote module we read, in bytes.
const maxRemoteModule = 64 << 20

// remoteTimeout bounds one fetch of a remote module.
const remoteTimeout = 60 * time.Second

// isRemote reports whether a specifier or module path is an http(s) URL.
func isRemote(s string) bool {
	return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
}

// DefaultCacheDir is where remote modules are kept between runs:
// usefullatency/modules under the user's cache directory ($XDG_CACHE_HOME,
// else ~/.cache, on Linux). It is "" when there is no such directory.
func DefaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "usefullatency", "modules")
}

// fetchRemote returns the source of a remote module. The bundle asks once
// per URL and run; each answer is written to the disk cache, which serves
// the module, with a warning, when the fetch fails.
func (b *Bundle) fetchRemote(rawURL string) (string, error) {
	if b.cfg.Offline {
		if cached, ok := b.cacheRead(rawURL); ok {
			return cached, nil
		}
		where := "there is no module cache (--no-remote-cache)"
		if b.cfg.CacheDir != "" {
			where = "it is not in the module cache " + b.cfg.CacheDir
		}
		return "", fmt.Errorf("cannot load module %s: --offline, and %s", rawURL, where)
	}
	if strings.HasPrefix(rawURL, "http://") {
		b.warnf("module %s is fetched over plain http", rawURL)
	}
	src, err := b.download(rawURL)
	if err == nil {
		b.cacheWrite(rawURL, src)
		return src, nil
	}
	if cached, ok := b.cacheRead(rawURL); ok {
		b.warnf("module %s: %v; using the copy cached in %s", rawURL, err, b.cfg.CacheDir)
		return cached, nil
	}
	return "", fmt.Errorf("cannot load module %s: %v", rawURL, err)
}

func (b *Bundle) download(rawURL string) (string, error) {
	client := b.cfg.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: remoteTimeout}
	}
	resp, err := client.Get(rawURL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %s", resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxRemoteModule+1))
	if err != nil {
		return "", err
	}
	if len(data) > maxRemoteModule {
		return "", fmt.Errorf("larger than %d MB", maxRemoteModule>>20)
	}
	return string(data), nil
}

// cachePath is the cache file of a URL: the SHA-256 of the URL, so any
// URL is a safe file name.
func (b *Bundle) cachePath(rawURL string) string {
	sum := sha256.Sum256([]byte(rawURL))
	return filepath.Join(b.cfg.CacheDir, hex.EncodeToString(sum[:])+".js")
}

func (b *Bundle) cacheRead(rawURL string) (string, bool) {
	if b.cfg.CacheDir == "" {
		return "", false
	}
	data, err := os.ReadFile(b.cachePath(rawURL))
	return string(data), err == nil
}

// cacheWrite keeps src for later runs; a cache that cannot be written is a
// warning, not an error.
func (b *Bundle) cacheWrite(rawURL, src string) {
	if b.cfg.CacheDir == "" {
		return
	}
	if err := writeAtomic(b.cfg.CacheDir, b.cachePath(rawURL), src); err != nil {
		b.warnf("module cache %s: %v", b.cfg.CacheDir, err)
	}
}

// writeAtomic writes data to path through a temporary file in dir, so a
// concurrent run reads the old or the new file, never half of one.
func writeAtomic(dir, path, data string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "*.tmp")
	if err != nil {
		return err
	}
	_, err = f.WriteString(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}
