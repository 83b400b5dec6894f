// handleSummary for `merge --script`: prints a few merged numbers as JSON.
export default function () {}

export function handleSummary(data) {
  return {
    stdout: JSON.stringify({
      done: data.metrics.done.values.count,
      med: data.metrics.iit.values.med,
      ok: data.metrics.done.thresholds ? data.metrics.done.thresholds['count==60'].ok : null,
    }),
  };
}
