// Package search finds the highest arrival rate at which every threshold
// of a script holds: the capacity behind `usefullatency search`.
//
// A search tries rates, each for a step: within one run, a staircase that
// raises the rate step by step, then bisects between the last passing and
// the first failing step and confirms the answer (Staircase); or across
// fresh runs, a bisection with repeats at each rate (Bisect). Each step is
// judged on a window of its samples (Window): every threshold's value
// there, whether it held, and the runner's own health — a step where the
// runner was saturated or could not start its iterations is reported as
// the runner's limit, never as the system's. The steps and the answer
// (Answer) print as a table and marshal as JSON for the HTML report.
package search
