package api

import (
	"fmt"
	"net/http"

	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/runner"
)

// groupAttributes are the attributes of a groups resource; checks is null
// for a group without checks, as in k6.
type groupAttributes struct {
	Path   string  `json:"path"`
	Name   string  `json:"name"`
	Checks []check `json:"checks"`
}

// check is one check of a group with its counts so far.
type check struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Name   string `json:"name"`
	Passes int64  `json:"passes"`
	Fails  int64  `json:"fails"`
}

// relationships links a group to its child groups and its parent (null
// for the root).
type relationships struct {
	Groups struct {
		Data []reference `json:"data"`
	} `json:"groups"`
	Parent struct {
		Data *reference `json:"data"`
	} `json:"parent"`
}

// reference points at another resource.
type reference struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// groupResource describes g.
func groupResource(g *metrics.Group) resource[groupAttributes] {
	a := groupAttributes{Path: g.Path, Name: g.Name}
	for _, c := range g.Checks() {
		passes, fails := c.Counts()
		a.Checks = append(a.Checks, check{ID: c.ID, Path: c.Path, Name: c.Name, Passes: passes, Fails: fails})
	}
	rel := &relationships{}
	rel.Groups.Data = []reference{}
	for _, child := range g.Groups() {
		rel.Groups.Data = append(rel.Groups.Data, reference{Type: "groups", ID: child.ID})
	}
	if g.Parent != nil {
		rel.Parent.Data = &reference{Type: "groups", ID: g.Parent.ID}
	}
	return resource[groupAttributes]{Type: "groups", ID: g.ID, Attributes: a, Relationships: rel}
}

// flatten returns g and its descendants, depth first.
func flatten(g *metrics.Group) []*metrics.Group {
	out := []*metrics.Group{g}
	for _, child := range g.Groups() {
		out = append(out, flatten(child)...)
	}
	return out
}

// listGroups answers GET /v1/groups: the root group and every group under
// it, depth first.
func listGroups(w http.ResponseWriter, ctl *runner.Control) {
	doc := document[[]resource[groupAttributes]]{}
	for _, g := range flatten(ctl.RootGroup()) {
		doc.Data = append(doc.Data, groupResource(g))
	}
	writeJSON(w, doc)
}

// getGroup answers GET /v1/groups/{id}, id being the MD5 of the group's
// path in hex.
func getGroup(w http.ResponseWriter, ctl *runner.Control, id string) {
	for _, g := range flatten(ctl.RootGroup()) {
		if g.ID == id {
			writeJSON(w, document[resource[groupAttributes]]{groupResource(g)})
			return
		}
	}
	writeError(w, http.StatusNotFound, "Not Found", fmt.Sprintf("no group has the ID %q", id))
}
