package output

import "testing"

// TestWaterfallStagesAreTheMoments keeps the waterfall's stages in step with
// the moments: bar reads a bucket's values by position.
func TestWaterfallStagesAreTheMoments(t *testing.T) {
	if len(wfStages) != len(moments) {
		t.Fatalf("%d waterfall stages, %d moments", len(wfStages), len(moments))
	}
	for i, st := range wfStages {
		if st.column != moments[i].Label {
			t.Errorf("stage %d draws %q, the moment there is %q", i, st.column, moments[i].Label)
		}
	}
}
