package e2e

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// markdownFile is a markdown file of the repository, parsed.
type markdownFile struct {
	// rel is the file's slash-separated path from the repository root.
	rel string
	doc markdownDoc
}

// repoRoot returns the repository's root directory.
func repoRoot() string { return filepath.Dir(filepath.Dir(testdata)) }

// skippedDirs are the directories whose markdown is not the project's:
// installed packages, test inputs and git's own files.
var skippedDirs = map[string]bool{"node_modules": true, "testdata": true, ".git": true}

// allMarkdown reads and parses every *.md file under root but those in
// skippedDirs, in lexical order.
func allMarkdown(t *testing.T, root string) []markdownFile {
	t.Helper()
	var files []markdownFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && skippedDirs[d.Name()]:
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(d.Name(), ".md"):
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		f, err := readMarkdown(root, filepath.ToSlash(rel))
		files = append(files, f)
		return err
	})
	if err != nil {
		t.Fatalf("reading the markdown files: %v", err)
	}
	return files
}

// readMarkdown reads and parses the markdown file at rel under root.
func readMarkdown(root, rel string) (markdownFile, error) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	return markdownFile{rel: rel, doc: parseMarkdown(string(b))}, err
}

// isManual reports whether a markdown file is part of the user manual:
// README.md, BENCHMARKS.md and every page under docs/.
func isManual(rel string) bool {
	return rel == "README.md" || rel == "BENCHMARKS.md" || strings.HasPrefix(rel, "docs/")
}

// manualFiles returns the files of the manual among files.
func manualFiles(files []markdownFile) []markdownFile {
	var m []markdownFile
	for _, f := range files {
		if isManual(f.rel) {
			m = append(m, f)
		}
	}
	return m
}

// docProblem is something wrong at a line of a markdown file.
type docProblem struct {
	file string
	line int
	msg  string
}

// reportProblems fails the test with every problem, one per line, in the
// order of files and lines.
func reportProblems(t *testing.T, what string, problems []docProblem) {
	t.Helper()
	if len(problems) == 0 {
		return
	}
	slices.SortStableFunc(problems, func(a, b docProblem) int {
		return cmp.Or(strings.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	})
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = fmt.Sprintf("%s:%d: %s", p.file, p.line, p.msg)
	}
	t.Errorf("%d %s:\n%s", len(problems), what, strings.Join(lines, "\n"))
}

// TestDocsLinks checks that every relative link and image of the
// repository's markdown points to a file or directory that exists and,
// with an anchor, to a heading of the markdown file it names, by GitHub's
// slugs. Absolute URLs are not followed.
func TestDocsLinks(t *testing.T) {
	t.Parallel()
	root := repoRoot()
	files := allMarkdown(t, root)
	if len(files) < 2 {
		t.Fatalf("found %d markdown files under %s, want README.md and more", len(files), root)
	}
	idx := anchorIndex{root: root, byFile: map[string]map[string]bool{}}
	for _, f := range files {
		idx.byFile[f.rel] = headingAnchors(f.doc)
	}
	var problems []docProblem
	checked := 0
	for _, f := range files {
		for _, l := range linkTargets(f.doc) {
			checked++
			if problem := idx.check(f.rel, l.text); problem != "" {
				problems = append(problems, docProblem{f.rel, l.num, problem})
			}
		}
	}
	if checked == 0 {
		t.Errorf("no link found in %d markdown files: the extraction is broken", len(files))
	}
	reportProblems(t, "broken links", problems)
}

// anchorIndex holds the anchors of the repository's markdown files,
// reading a file that was not walked (one under testdata) when a link
// names it.
type anchorIndex struct {
	root   string
	byFile map[string]map[string]bool
}

// check returns what is wrong with the link target in the markdown file
// from, or "" if it resolves.
func (idx anchorIndex) check(from, target string) string {
	tgt := parseTarget(target)
	if tgt.external {
		return ""
	}
	file := from
	if tgt.path != "" {
		file = resolveLink(from, tgt.path)
		if file == ".." || strings.HasPrefix(file, "../") {
			return fmt.Sprintf("%s: points outside the repository", target)
		}
		info, err := os.Stat(filepath.Join(idx.root, filepath.FromSlash(file)))
		if err != nil {
			return fmt.Sprintf("%s: %s does not exist", target, file)
		}
		if info.IsDir() {
			file = path.Join(file, "README.md") // the page GitHub shows for a directory
		}
	}
	if tgt.fragment == "" || !strings.HasSuffix(file, ".md") {
		return "" // GitHub's line anchors (#L10) of other files are not checked
	}
	if !idx.anchorsOf(file)[tgt.fragment] {
		return fmt.Sprintf("%s: %s has no heading with the anchor #%s", target, file, tgt.fragment)
	}
	return ""
}

// anchorsOf returns the anchors of the markdown file at rel, none if it
// cannot be read.
func (idx anchorIndex) anchorsOf(rel string) map[string]bool {
	if a, ok := idx.byFile[rel]; ok {
		return a
	}
	f, err := readMarkdown(idx.root, rel)
	if err != nil {
		idx.byFile[rel] = nil
		return nil
	}
	idx.byFile[rel] = headingAnchors(f.doc)
	return idx.byFile[rel]
}

// resolveLink returns the repository-relative path a link path in the
// markdown file from points to: relative to from's directory, or to the
// repository root when it starts with "/", as on GitHub.
func resolveLink(from, linkPath string) string {
	if strings.HasPrefix(linkPath, "/") {
		return path.Clean(strings.TrimLeft(linkPath, "/"))
	}
	return path.Join(path.Dir(from), linkPath)
}

func TestMarkdownLinkCheck(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, content := range map[string]string{
		"README.md":          "# Top\n## Quick start\n## Quick start\n",
		"docs/cli.md":        "# CLI\n## Archives and `inspect --execution-requirements`\n```\n## In code\n```\n",
		"docs/sub/README.md": "# Sub\n",
		"examples/a.js":      "x\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeExampleFile(t, p, content)
	}
	idx := anchorIndex{root: root, byFile: map[string]map[string]bool{}}
	tests := []struct {
		from, target string
		ok           bool
	}{
		{"README.md", "#quick-start-1", true},
		{"README.md", "#quick-start-2", false},
		{"README.md", "docs/cli.md#archives-and-inspect---execution-requirements", true},
		{"README.md", "docs/cli.md#in-code", false},
		{"docs/cli.md", "../README.md#top", true},
		{"docs/cli.md", "../README.md#Top", false},
		{"docs/cli.md", "missing.md", false},
		{"docs/cli.md", "sub/", true},
		{"docs/cli.md", "sub#sub", true},
		{"docs/cli.md", "/examples/a.js", true},
		{"docs/cli.md", "../examples/a.js#L1", true},
		{"docs/cli.md", "../examples/b.js", false},
		{"docs/cli.md", "../../elsewhere.md", false},
		{"docs/cli.md", "#cli", true},
		{"docs/cli.md", "https://example.com/nowhere.md#x", true},
	}
	for _, tt := range tests {
		problem := idx.check(tt.from, tt.target)
		if (problem == "") != tt.ok {
			t.Errorf("check(%q, %q) = %q, want ok %v", tt.from, tt.target, problem, tt.ok)
		}
	}
}
