package compare

import (
	"encoding/json"
	"io"
	"math"
)

// MarshalJSON writes the row with its numbers that are not finite — the
// relative values when the base is 0 — as null, which JSON can hold.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row // without this method
	return json.Marshal(struct {
		plain
		Base    *float64 `json:"base"`
		New     *float64 `json:"new"`
		Diff    *float64 `json:"diff"`
		Rel     *float64 `json:"rel"`
		Low     *float64 `json:"low"`
		High    *float64 `json:"high"`
		RelLow  *float64 `json:"rel_low"`
		RelHigh *float64 `json:"rel_high"`
		Score   *float64 `json:"score"`
	}{plain(r), finite(r.Base), finite(r.New), finite(r.Diff), finite(r.Rel), finite(r.Low), finite(r.High),
		finite(r.RelLow), finite(r.RelHigh), finite(r.Score)})
}

// finite returns &v, or nil when v is NaN or infinite.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// WriteJSON writes the report as indented JSON: the options, the notes and
// the rows (not the distributions).
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
