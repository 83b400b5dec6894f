// Package docs is the manual of usefullatency: the markdown pages of this
// directory, one per topic, embedded in the binary so that
// `usefullatency help <topic>` prints them without the repository.
package docs

import (
	"embed"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// pages holds every page of the manual, README.md (the index) included.
//
//go:embed *.md
var pages embed.FS

// IndexName is the topic name of the manual's index page, README.md.
const IndexName = "index"

// indexFile is the file of the index page.
const indexFile = "README.md"

// Topic is one page of the manual.
type Topic struct {
	// Name is the page's file name without ".md" ("cli" for cli.md); the
	// index page, README.md, is IndexName.
	Name string
	// File is the page's path in the repository, e.g. "docs/cli.md".
	File string
	// Title is the text of the page's "# " heading, without inline markup.
	Title string
	// Summary is the first sentence of the page's first paragraph after its
	// title, on one line, without inline markup and at most SummaryLen
	// runes long; empty when the page has no paragraph.
	Summary string
}

// Topics returns every page of the manual: the index first, then the
// pages in the order the index links them, then any page it does not link,
// by name. The slice is the caller's to modify.
func Topics() []Topic {
	return slices.Clone(manual())
}

// Lookup returns the topic of name: a topic name ("cli", "index") or the
// page's file as a reader of the repository would type it ("cli.md",
// "docs/cli.md", "README.md").
func Lookup(name string) (Topic, bool) {
	name = topicName(strings.TrimPrefix(name, "docs/"))
	for _, t := range manual() {
		if t.Name == name {
			return t, true
		}
	}
	return Topic{}, false
}

// Page returns the markdown of the page of name (as Lookup takes it), and
// false when no page has that name.
func Page(name string) (string, bool) {
	t, ok := Lookup(name)
	if !ok {
		return "", false
	}
	b, err := pages.ReadFile(fileName(t.Name))
	if err != nil {
		panic("docs: embedded page " + t.File + " is unreadable: " + err.Error())
	}
	return string(b), true
}

// manual is the topics of every embedded page in the order Topics returns
// them, read once.
var manual = sync.OnceValue(func() []Topic {
	entries, err := pages.ReadDir(".")
	if err != nil {
		panic("docs: the embedded pages are unreadable: " + err.Error())
	}
	topics := make([]Topic, 0, len(entries))
	for _, e := range entries {
		b, err := pages.ReadFile(e.Name())
		if err != nil {
			panic("docs: embedded page " + e.Name() + " is unreadable: " + err.Error())
		}
		topics = append(topics, newTopic(topicName(e.Name()), string(b)))
	}
	index, _ := pages.ReadFile(indexFile)
	sortTopics(topics, linkedNames(string(index)))
	return topics
})

// newTopic reads the title and summary of the page named name.
func newTopic(name, markdown string) Topic {
	title, body := splitTitle(markdown)
	return Topic{
		Name:    name,
		File:    path.Join("docs", fileName(name)),
		Title:   title,
		Summary: summarize(body),
	}
}

// topicName is the topic of the page file file: its name without ".md",
// IndexName for README.md.
func topicName(file string) string {
	if file == indexFile || file == strings.TrimSuffix(indexFile, ".md") {
		return IndexName
	}
	return strings.TrimSuffix(file, ".md")
}

// fileName is the page file of the topic name.
func fileName(name string) string {
	if name == IndexName {
		return indexFile
	}
	return name + ".md"
}

// pageLink matches a markdown link to a page of this directory, "(cli.md)"
// or "(./cli.md#flags)", capturing the page's name.
var pageLink = regexp.MustCompile(`\]\((?:\./)?([A-Za-z0-9_-]+)\.md(?:#[^)]*)?\)`)

// linkedNames returns the names of the pages the index links, in the order
// of their first link.
func linkedNames(index string) []string {
	var names []string
	for _, m := range pageLink.FindAllStringSubmatch(index, -1) {
		if name := topicName(m[1] + ".md"); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// sortTopics orders topics: the index, the pages in the order of linked,
// then the others by name.
func sortTopics(topics []Topic, linked []string) {
	rank := func(name string) int {
		if name == IndexName {
			return -1
		}
		if i := slices.Index(linked, name); i >= 0 {
			return i
		}
		return len(linked)
	}
	slices.SortStableFunc(topics, func(a, b Topic) int {
		if d := rank(a.Name) - rank(b.Name); d != 0 {
			return d
		}
		return strings.Compare(a.Name, b.Name)
	})
}
