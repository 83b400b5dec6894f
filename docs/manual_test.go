package docs

import (
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestEveryPageHasTitleAndSummary holds on the real pages: each starts
// with a "# " title and a paragraph that says what the page is for, which
// `usefullatency help` lists.
func TestEveryPageHasTitleAndSummary(t *testing.T) {
	topics := Topics()
	if len(topics) < 2 {
		t.Fatalf("Topics() = %d pages, want the index and the pages of docs/", len(topics))
	}
	for _, tp := range topics {
		if tp.Title == "" {
			t.Errorf("%s: no \"# \" title", tp.File)
		}
		if tp.Summary == "" {
			t.Errorf("%s: no paragraph after the title to summarize", tp.File)
		}
		if strings.ContainsAny(tp.Summary, "\n\r`") || utf8.RuneCountInString(tp.Summary) > SummaryLen {
			t.Errorf("%s: summary %q is not one plain line of at most %d runes", tp.File, tp.Summary, SummaryLen)
		}
		page, _ := Page(tp.Name)
		if !strings.HasPrefix(strings.TrimSpace(page), "# ") {
			t.Errorf("%s: the page does not start with its \"# \" title", tp.File)
		}
	}
}

// TestTopicsAreTheFiles checks that every page of docs/ is one topic, by a
// unique name, with the index first and README.md as its file.
func TestTopicsAreTheFiles(t *testing.T) {
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range files {
		if strings.HasSuffix(f.Name(), ".md") {
			want = append(want, "docs/"+f.Name())
		}
	}
	var got []string
	seen := map[string]bool{}
	for _, tp := range Topics() {
		if seen[tp.Name] {
			t.Errorf("topic %q appears twice", tp.Name)
		}
		seen[tp.Name] = true
		got = append(got, tp.File)
	}
	if first := Topics()[0]; first.Name != IndexName || first.File != "docs/README.md" {
		t.Errorf("first topic = %s (%s), want %s (docs/README.md)", first.Name, first.File, IndexName)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("topic files = %v, want the pages of docs/ %v", got, want)
	}
}

// TestIndexLinksEveryPage checks that a reader of the index finds every
// page, and that Topics lists them in the index's order.
func TestIndexLinksEveryPage(t *testing.T) {
	index, ok := Page(IndexName)
	if !ok {
		t.Fatal("no index page (docs/README.md)")
	}
	linked := linkedNames(index)
	var order []string
	for _, tp := range Topics()[1:] {
		if !slices.Contains(linked, tp.Name) {
			t.Errorf("the index does not link %s", tp.File)
			continue
		}
		order = append(order, tp.Name)
	}
	if !slices.IsSortedFunc(order, func(a, b string) int { return slices.Index(linked, a) - slices.Index(linked, b) }) {
		t.Errorf("Topics() order %v is not the index's %v", order, linked)
	}
}

func TestLookupAndPage(t *testing.T) {
	page := Topics()[len(Topics())-1]
	for _, name := range []string{page.Name, page.Name + ".md", page.File} {
		got, ok := Lookup(name)
		if !ok || got != page {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", name, got, ok, page)
		}
	}
	for _, name := range []string{"README.md", "docs/README.md", IndexName} {
		if got, ok := Lookup(name); !ok || got.Name != IndexName {
			t.Errorf("Lookup(%q) = %+v, %v; want the index", name, got, ok)
		}
	}
	text, ok := Page(page.Name)
	if want, _ := os.ReadFile(strings.TrimPrefix(page.File, "docs/")); !ok || text != string(want) {
		t.Errorf("Page(%q) is not the file %s", page.Name, page.File)
	}
	for _, name := range []string{"no-such-topic", "", "docs", "manual.go", "../README"} {
		if text, ok := Page(name); ok || text != "" {
			t.Errorf("Page(%q) = %d bytes, true; want false", name, len(text))
		}
	}
}

// TestTopicsIsACopy checks that a caller changing the slice Topics returns
// changes no later answer.
func TestTopicsIsACopy(t *testing.T) {
	name := Topics()[0].Name
	Topics()[0].Name = "changed"
	if Topics()[0].Name != name {
		t.Errorf("Topics()[0].Name = %q after a caller changed its copy", Topics()[0].Name)
	}
}

func TestSortTopics(t *testing.T) {
	topics := []Topic{{Name: "zeta"}, {Name: "cli"}, {Name: IndexName}, {Name: "alpha"}, {Name: "probe"}}
	sortTopics(topics, linkedNames("[probe](probe.md), [CLI](./cli.md#flags), [k6](../compat/README.md), [probe](probe.md)"))
	var got []string
	for _, tp := range topics {
		got = append(got, tp.Name)
	}
	want := []string{IndexName, "probe", "cli", "alpha", "zeta"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted = %v, want %v", got, want)
	}
}
