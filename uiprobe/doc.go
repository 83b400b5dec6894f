// Package uiprobe measures an assistant's answer on the page, as the user
// sees it: a recorder of our own (recorder.js) is installed in a Chromium
// page before the user's action; it stamps every change of the answer
// element with the page's clock (performance.now()) and a snapshot of its
// visible text and state, and reports the whole log once the answer ended.
// The moments are then computed in Go, from the log, in order:
//
//   - first_text: the first snapshot with non-whitespace visible text;
//   - useful: the first snapshot where the Spec's predicate holds (the sse
//     package's predicates, so a JavaScript predicate never runs inside the
//     page and never delays it);
//   - complete: the done marker's appearance, or the last change before the
//     quiet period that ended the answer.
//
// Each is in milliseconds from the user's action: the first trusted input
// event after Start (its own timeStamp), or the caller's Spec.ActionAt.
// Wall-clock times are the page's timeOrigin plus its clock, so samples
// carry the moment the user lived them. Go waits on one awaited promise;
// it never polls the page.
package uiprobe
