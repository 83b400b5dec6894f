// Requests a URL carrying a password and an API key (TARGET), then throws
// an error naming it: neither secret may reach a log line, the summary, an
// export or a report.
import http from 'k6/http';

export const options = { iterations: 1, thresholds: { http_reqs: ['count==1'] } };

export default function () {
  const url = `${__ENV.TARGET}/v1/models?api_key=k3y-s3cret&limit=2`;
  http.get(url);
  throw new Error(`request to ${url} was not useful`);
}
